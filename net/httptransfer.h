#pragma once
// One HTTP(S) GET through libcurl, for every part of Plimsoll that fetches over the network
// (the runner's collectors, `plimsoll import https://…`): the handle is set up here once, and
// what differs between callers (timeouts, TLS verification, redirects, size bound,
// credentials) is an option. Only http and https, also after a redirect.
//
// Blocking, and with no signals (CURLOPT_NOSIGNAL): safe on any thread but the UI's.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct HttpTransferOptions
{
    std::chrono::milliseconds timeout{0};        // the whole transfer; 0: no limit
    std::chrono::milliseconds connectTimeout{0}; // establishing the connection; 0: libcurl's
    bool verifyTls = true;                       // the peer's certificate and its host name
    // Follow redirects, at most maxRedirects of them (HttpFailure::TooManyRedirects past it);
    // not following, a 3xx response is the answer.
    bool followRedirects = false;
    long maxRedirects = 0;
    // The body's bound: the transfer stops as soon as more arrives (HttpFailure::TooLarge).
    std::optional<int64_t> maxBytes;
    // Also refuse before any body arrives when the server announces a larger Content-Length.
    bool refuseAnnouncedOversize = false;
    bool failOnHttpError = false; // an HTTP status of 400 or more fails the transfer
    std::string user, password;   // HTTP basic auth when either is set
    std::string bearerToken;      // "Authorization: Bearer …" when set
    // Basic auth from a netrc file when it names the host (the URL's own user-info wins):
    // netrcFile, or ~/.netrc when that is empty.
    bool netrc = false;
    std::string netrcFile;
    std::vector<std::string> headers; // "Accept: application/json"
    std::string userAgent;            // empty: none sent
    bool decodeContent = false;       // accept every content encoding libcurl decodes
};

enum class HttpFailure
{
    None,
    Start,            // libcurl could not make a handle
    TooLarge,         // past maxBytes
    TooManyRedirects, // past maxRedirects
    TimedOut,
    Tls,              // the peer's certificate failed verification, or the handshake did
    Http,             // failOnHttpError and a status of 400 or more
    Other,
};

struct HttpTransferResult
{
    HttpFailure failure = HttpFailure::None;
    std::string error;  // libcurl's short message for the failure, empty on success
    std::string detail; // libcurl's longer message (hosts, system errors) when it gave one
    long status = 0;    // the HTTP status, 0 when none arrived
    // The URL last requested, after redirects, as libcurl states it: it may hold credentials,
    // so a caller shows it only redacted.
    std::string effectiveUrl;
    bool ok() const { return failure == HttpFailure::None; }
};

// Receives the body in pieces as they arrive, within maxBytes in all.
using HttpBodySink = std::function<void(const char *data, std::size_t size)>;

HttpTransferResult httpTransfer(const std::string &url, const HttpTransferOptions &options,
                                const HttpBodySink &body);

} // namespace plimsoll
