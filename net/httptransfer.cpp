#include "net/httptransfer.h"

#include <curl/curl.h>

#include <mutex>

namespace plimsoll {

namespace {

// curl_global_init is not thread-safe, and curl_easy_init calls it when nobody has: once,
// before the first handle, whichever thread makes it.
void initCurlOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Sink
{
    const HttpBodySink *body = nullptr;
    std::optional<int64_t> maxBytes;
    int64_t received = 0;
    bool tooLarge = false;
};

std::size_t writeBody(char *data, std::size_t size, std::size_t count, void *user)
{
    auto *sink = static_cast<Sink *>(user);
    const std::size_t n = size * count;
    // Stop as soon as the bound is passed: returning less than n makes libcurl abort, so an
    // endless or lying server never fills the memory.
    if (sink->maxBytes && sink->received + int64_t(n) > *sink->maxBytes) {
        sink->tooLarge = true;
        return 0;
    }
    sink->received += int64_t(n);
    (*sink->body)(data, n);
    return n;
}

void setLimits(CURL *curl, const HttpTransferOptions &options)
{
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // called off the main thread
    if (options.followRedirects) {
        curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(curl, CURLOPT_MAXREDIRS, options.maxRedirects);
    }
    if (options.connectTimeout.count() > 0)
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(options.connectTimeout.count()));
    if (options.timeout.count() > 0)
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(options.timeout.count()));
    if (options.maxBytes && options.refuseAnnouncedOversize)
        curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(*options.maxBytes));
    if (options.failOnHttpError)
        curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, options.verifyTls ? 1L : 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, options.verifyTls ? 2L : 0L);
    if (options.decodeContent)
        curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, ""); // every encoding libcurl decodes
    if (!options.userAgent.empty())
        curl_easy_setopt(curl, CURLOPT_USERAGENT, options.userAgent.c_str());
}

// libcurl copies every string option, so the credentials live in the handle only.
void setCredentials(CURL *curl, const HttpTransferOptions &options)
{
    if (!options.user.empty() || !options.password.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_easy_setopt(curl, CURLOPT_USERNAME, options.user.c_str());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, options.password.c_str());
    }
    if (options.netrc) {
        curl_easy_setopt(curl, CURLOPT_NETRC, long(CURL_NETRC_OPTIONAL));
        if (!options.netrcFile.empty())
            curl_easy_setopt(curl, CURLOPT_NETRC_FILE, options.netrcFile.c_str());
    }
    if (!options.bearerToken.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, long(CURLAUTH_BEARER));
        curl_easy_setopt(curl, CURLOPT_XOAUTH2_BEARER, options.bearerToken.c_str());
    }
}

HttpFailure failureOf(CURLcode code, bool tooLarge)
{
    if (tooLarge || code == CURLE_FILESIZE_EXCEEDED)
        return HttpFailure::TooLarge;
    switch (code) {
    case CURLE_OK:
        return HttpFailure::None;
    case CURLE_TOO_MANY_REDIRECTS:
        return HttpFailure::TooManyRedirects;
    case CURLE_OPERATION_TIMEDOUT:
        return HttpFailure::TimedOut;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CONNECT_ERROR:
        return HttpFailure::Tls;
    case CURLE_HTTP_RETURNED_ERROR:
        return HttpFailure::Http;
    default:
        return HttpFailure::Other;
    }
}

} // namespace

HttpTransferResult httpTransfer(const std::string &url, const HttpTransferOptions &options,
                                const HttpBodySink &body)
{
    initCurlOnce();
    HttpTransferResult out;
    CURL *curl = curl_easy_init();
    if (!curl) {
        out.failure = HttpFailure::Start;
        out.error = "libcurl could not start";
        return out;
    }
    Sink sink{&body, options.maxBytes, 0, false};
    char errorBuffer[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, writeBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
    setLimits(curl, options);
    setCredentials(curl, options);
    struct curl_slist *headers = nullptr;
    for (const std::string &h : options.headers)
        headers = curl_slist_append(headers, h.c_str());
    if (headers)
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

    const CURLcode code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
    char *effective = nullptr;
    if (curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK && effective)
        out.effectiveUrl = effective;
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    out.failure = failureOf(code, sink.tooLarge);
    if (code != CURLE_OK) {
        out.error = curl_easy_strerror(code);
        out.detail = errorBuffer;
    }
    return out;
}

} // namespace plimsoll
