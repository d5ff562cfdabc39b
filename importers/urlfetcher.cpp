#include "importers/urlfetcher.h"

#include <QUrl>
#include <QUrlQuery>

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>

namespace plimsoll {

namespace {

struct Sink
{
    QByteArray *body = nullptr;
    int64_t maxBytes = 0;
    bool tooLarge = false;
};

size_t writeBody(char *data, size_t size, size_t count, void *user)
{
    auto *sink = static_cast<Sink *>(user);
    const size_t n = size * count;
    // Stop as soon as the limit is passed: returning less than n makes libcurl abort, so an
    // endless or lying server never fills the memory.
    if (int64_t(sink->body->size()) + int64_t(n) > sink->maxBytes) {
        sink->tooLarge = true;
        return 0;
    }
    sink->body->append(data, qsizetype(n));
    return n;
}

bool looksLikeCredential(const QString &key)
{
    const QString k = key.toLower();
    for (const char *word : {"token", "key", "password", "passwd", "pwd", "secret", "signature",
                             "sig", "auth", "credential", "session"})
        if (k.contains(QLatin1String(word)))
            return true;
    return false;
}

void initCurlOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
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

FetchResult UrlFetcher::fetch(const std::string &url, const FetchOptions &options)
{
    initCurlOnce();
    FetchResult result;
    const std::string shown = redactUrl(url);
    result.effectiveUrl = shown;
    CURL *curl = curl_easy_init();
    if (!curl) {
        result.error = "GET " + shown + ": cannot start libcurl";
        return result;
    }
    Sink sink{&result.body, options.maxBytes, false};
    char errorBuffer[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, options.maxRedirects);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, long(options.connectTimeoutS));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, long(options.timeoutS));
    curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxBytes));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, ""); // every encoding libcurl decodes
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "Plimsoll");
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, writeBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, options.insecure ? 0L : 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, options.insecure ? 0L : 2L);
    // Basic auth from a netrc when it has the host; the URL's own user:password wins.
    curl_easy_setopt(curl, CURLOPT_NETRC, long(CURL_NETRC_OPTIONAL));
    if (const char *netrc = std::getenv("NETRC"); netrc && *netrc)
        curl_easy_setopt(curl, CURLOPT_NETRC_FILE, netrc);
    std::string bearer = options.bearerToken;
    if (bearer.empty())
        if (const char *env = std::getenv("PLIMSOLL_HTTP_BEARER"))
            bearer = env;
    if (!bearer.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, long(CURLAUTH_BEARER));
        curl_easy_setopt(curl, CURLOPT_XOAUTH2_BEARER, bearer.c_str());
    }

    const CURLcode code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.httpStatus);
    char *effective = nullptr;
    if (curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK && effective)
        result.effectiveUrl = redactUrl(effective);
    curl_easy_cleanup(curl);
    // The token and netrc password live only in libcurl's handle, freed above; wipe our copy.
    std::fill(bearer.begin(), bearer.end(), '\0');

    const std::string what = "GET " + shown + ": ";
    if (sink.tooLarge || code == CURLE_FILESIZE_EXCEEDED) {
        result.body.clear();
        result.error = what + "the response is larger than the " + mib(options.maxBytes) +
                       " limit; refused, nothing imported";
    } else if (code == CURLE_TOO_MANY_REDIRECTS) {
        result.error = what + "more than " + std::to_string(options.maxRedirects) +
                       " redirects (a redirect loop?), last at " + result.effectiveUrl;
    } else if (code == CURLE_OPERATION_TIMEDOUT) {
        result.error = what + "timed out (connect " + std::to_string(options.connectTimeoutS) +
                       " s, whole transfer " + std::to_string(options.timeoutS) + " s; --timeout)";
    } else if (code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE ||
               code == CURLE_SSL_CONNECT_ERROR) {
        result.error = what + "TLS verification failed (" + curl_easy_strerror(code) +
                       "); --insecure skips it";
    } else if (code != CURLE_OK) {
        // libcurl's own message names hosts and system errors, never the credentials.
        result.error = what + (errorBuffer[0] ? std::string(errorBuffer) : curl_easy_strerror(code));
    } else if (result.httpStatus >= 400) {
        result.error = what + "HTTP " + std::to_string(result.httpStatus) +
                       (result.effectiveUrl != shown ? " from " + result.effectiveUrl : "");
        result.body.clear();
    } else {
        result.ok = true;
    }
    return result;
}

} // namespace plimsoll
