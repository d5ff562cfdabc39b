#pragma once
// Parsing of user-typed quantities, as the seed CLI accepts them.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace plimsoll {

// Unitless bytes or B/KB/MB/GB, case-insensitive; 1 KB = 1024 B. "1mb" -> 1048576.
std::optional<int64_t> parseByteSize(std::string_view text, std::string *error = nullptr);

// Unitless milliseconds, ns/us/ms/s/m/h/d suffixes (case-insensitive), or ISO-8601 (PT30S).
std::optional<std::chrono::nanoseconds> parseDuration(std::string_view text,
                                                      std::string *error = nullptr);

} // namespace plimsoll
