#pragma once
// Fetches a benchmark result from an http:// or https:// URL into memory (libcurl), so that
// ImportService runs it through the same detect/parse/commit path as a file.
//
// Credentials: a bearer token from the environment (PLIMSOLL_HTTP_BEARER) or basic auth from
// ~/.netrc (or $NETRC), read at fetch time and never stored, printed or kept in any message;
// libcurl does not resend them to another host after a redirect. redactUrl() is the only form
// of a URL that leaves this file.
//
// Blocking: call it off the UI thread.

#include <QByteArray>

#include <cstdint>
#include <string>

namespace plimsoll {

struct FetchOptions
{
    bool insecure = false;                  // skip TLS peer and host verification (--insecure)
    int64_t connectTimeoutS = 10;           // seconds to establish the connection
    int64_t timeoutS = 120;                 // seconds for the whole transfer (--timeout)
    int64_t maxBytes = 256LL * 1024 * 1024; // refuse bodies larger than this
    long maxRedirects = 5;
    std::string bearerToken; // empty: PLIMSOLL_HTTP_BEARER when set
};

struct FetchResult
{
    bool ok = false;
    QByteArray body;
    std::string error; // "GET https://host/x.json: HTTP 404" — redacted URL, no credentials
    long httpStatus = 0;
    std::string effectiveUrl; // after redirects, redacted
};

class UrlFetcher
{
public:
    static bool isUrl(const std::string &path);
    // The URL with user:password@ removed and the values of query parameters that look like
    // credentials (token, key, password, secret, signature, auth, credential…) replaced by
    // "REDACTED".
    static std::string redactUrl(const std::string &url);
    static FetchResult fetch(const std::string &url, const FetchOptions &options);
};

} // namespace plimsoll
