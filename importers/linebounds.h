#pragma once
// Line-length bounds for the importers that read tools' text output with std::regex.
//
// libstdc++'s regex matcher recurses once per character it consumes: a line of 20,000
// digits overflows an 8 MiB stack inside regex_match (found by fuzz/, see
// tests/data/fuzz-regressions/). No tool output Plimsoll reads has lines anywhere near
// 4 KiB, so longer lines are cut before sniffing and refused before parsing.

#include "importers/importer.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace plimsoll {

inline constexpr size_t kMaxToolLineBytes = 4096;

// `head` with every line longer than kMaxToolLineBytes cut to that length: what the
// registry hands to the sniffers (a long line tells them nothing its start does not).
std::string boundedHead(std::string_view head);

// False, with result.error naming the line, when a line of `text` is longer than
// kMaxToolLineBytes. `what` names the format: "redis-benchmark output".
bool refuseLongLines(std::string_view text, const std::string &what, ImportResult &result);

} // namespace plimsoll
