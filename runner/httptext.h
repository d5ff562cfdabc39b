#pragma once
// Small pieces shared by the runner's HTTP collectors (Prometheus scrapes, Redis Enterprise
// REST): a bounded response body and URLs as messages may show them.

#include <cstddef>
#include <string>

namespace plimsoll {

// libcurl write callback appending to the std::string passed as userdata. Stops (returns 0,
// failing the transfer) past 64 MiB: collector responses are kilobytes, so a larger body is a
// runaway endpoint, not data.
std::size_t appendCappedBody(char *data, std::size_t size, std::size_t count, void *out);

// The URL without its user-info part ("https://***@host/..."): credentials never reach a
// message or a log.
std::string urlWithoutUserInfo(const std::string &url);

} // namespace plimsoll
