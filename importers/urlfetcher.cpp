#include "importers/urlfetcher.h"

#include "net/httptransfer.h"

#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>

namespace plimsoll {

namespace {

bool looksLikeCredential(const QString &key)
{
    const QString k = key.toLower();
    for (const char *word : {"token", "key", "password", "passwd", "pwd", "secret", "signature",
                             "sig", "auth", "credential", "session"})
        if (k.contains(QLatin1String(word)))
            return true;
    return false;
}

std::string mib(int64_t bytes)
{
    if (bytes % (1024 * 1024) == 0)
        return std::to_string(bytes / (1024 * 1024)) + " MiB";
    return std::to_string(bytes) + " bytes";
}

} // namespace

bool UrlFetcher::isUrl(const std::string &path)
{
    auto lower = path.substr(0, 8);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return lower.starts_with("http://") || lower.starts_with("https://");
}

std::string UrlFetcher::redactUrl(const std::string &url)
{
    QUrl u(QString::fromStdString(url));
    if (!u.isValid())
        return "(an unreadable URL)";
    u.setUserInfo({});
    if (u.hasQuery()) {
        QUrlQuery query(u);
        QList<QPair<QString, QString>> items = query.queryItems(QUrl::FullyEncoded);
        for (auto &[key, value] : items)
            if (looksLikeCredential(key))
                value = QStringLiteral("REDACTED");
        query.setQueryItems(items);
        u.setQuery(query);
    }
    if (u.fragment().contains(QLatin1Char('=')))
        u.setFragment(QStringLiteral("REDACTED"));
    return u.toString(QUrl::FullyEncoded).toStdString();
}

namespace {

HttpTransferOptions transferOptions(const FetchOptions &options)
{
    HttpTransferOptions t;
    t.followRedirects = true;
    t.maxRedirects = options.maxRedirects;
    t.connectTimeout = std::chrono::seconds(options.connectTimeoutS);
    t.timeout = std::chrono::seconds(options.timeoutS);
    t.maxBytes = options.maxBytes;
    t.refuseAnnouncedOversize = true;
    t.decodeContent = true;
    t.userAgent = "Plimsoll";
    t.verifyTls = !options.insecure;
    // Basic auth from a netrc when it has the host; the URL's own user:password wins.
    t.netrc = true;
    if (const char *netrc = std::getenv("NETRC"); netrc && *netrc)
        t.netrcFile = netrc;
    t.bearerToken = options.bearerToken;
    if (t.bearerToken.empty())
        if (const char *env = std::getenv("PLIMSOLL_HTTP_BEARER"))
            t.bearerToken = env;
    return t;
}

// The message a failed transfer gives, "GET <shown>: …" with the URL redacted; empty when the
// transfer and its HTTP status succeeded.
std::string failureMessage(const HttpTransferResult &r, const FetchOptions &options,
                           const std::string &shown, const std::string &effectiveShown)
{
    const std::string what = "GET " + shown + ": ";
    switch (r.failure) {
    case HttpFailure::None:
        break;
    case HttpFailure::Start:
        return what + "cannot start libcurl";
    case HttpFailure::TooLarge:
        return what + "the response is larger than the " + mib(options.maxBytes) +
               " limit; refused, nothing imported";
    case HttpFailure::TooManyRedirects:
        return what + "more than " + std::to_string(options.maxRedirects) +
               " redirects (a redirect loop?), last at " + effectiveShown;
    case HttpFailure::TimedOut:
        return what + "timed out (connect " + std::to_string(options.connectTimeoutS) +
               " s, whole transfer " + std::to_string(options.timeoutS) + " s; --timeout)";
    case HttpFailure::Tls:
        return what + "TLS verification failed (" + r.error + "); --insecure skips it";
    case HttpFailure::Http:
    case HttpFailure::Other:
        // libcurl's own message names hosts and system errors, never the credentials.
        return what + (r.detail.empty() ? r.error : r.detail);
    }
    if (r.status >= 400)
        return what + "HTTP " + std::to_string(r.status) +
               (effectiveShown != shown ? " from " + effectiveShown : "");
    return {};
}

} // namespace

FetchResult UrlFetcher::fetch(const std::string &url, const FetchOptions &options)
{
    FetchResult result;
    const std::string shown = redactUrl(url);
    result.effectiveUrl = shown;
    HttpTransferOptions transfer = transferOptions(options);
    const HttpTransferResult r =
        httpTransfer(url, transfer, [&](const char *data, std::size_t size) {
            result.body.append(data, qsizetype(size));
        });
    // The token and netrc password lived only in libcurl's handle, freed; wipe our copy.
    std::fill(transfer.bearerToken.begin(), transfer.bearerToken.end(), '\0');
    result.httpStatus = r.status;
    if (!r.effectiveUrl.empty())
        result.effectiveUrl = redactUrl(r.effectiveUrl);
    result.error = failureMessage(r, options, shown, result.effectiveUrl);
    result.ok = result.error.empty();
    if (r.failure == HttpFailure::TooLarge || (r.ok() && !result.ok))
        result.body.clear();
    return result;
}

} // namespace plimsoll
