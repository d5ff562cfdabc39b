#pragma once
// Small pieces shared by the runner's HTTP collectors (Prometheus scrapes, Redis Enterprise
// REST): one bounded GET, a bounded response body and URLs as messages may show them.

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace plimsoll {

// The URL without its user-info part ("https://***@host/..."): credentials never reach a
// message or a log.
std::string urlWithoutUserInfo(const std::string &url);

// Collector responses are kilobytes: a body past 64 MiB is a runaway endpoint, not data, and
// fails the transfer.
inline constexpr std::size_t kMaxCollectorBodyBytes = std::size_t(64) << 20;

struct HttpGetOptions
{
    std::chrono::milliseconds timeout{5000};
    bool verifyTls = true;
    std::string user, password;        // HTTP basic auth when either is set; never in a message
    std::vector<std::string> headers;  // "Accept: application/json"
};

struct HttpGetResult
{
    std::string body;  // at most kMaxCollectorBodyBytes
    long status = 0;   // HTTP status, 0 when none arrived
    std::string error; // libcurl's message when the transfer failed (an HTTP error ≥ 400 too)
};

// A GET over http or https (net/httptransfer.h), with no signals (safe off the main thread).
HttpGetResult httpGet(const std::string &url, const HttpGetOptions &options);

} // namespace plimsoll
