#pragma once
// Line-length bound for the importers that read tools' text output.
//
// The patterns run on RE2 (model/core/textpattern.h), in time linear in the line and a bounded
// stack, so a line's length costs nothing but its bytes. The bound stays so that a file that is
// not a tool's output (a binary, a minified JSON document handed to a text format) is refused
// with its line named rather than read as one huge line: no tool output Plimsoll reads has
// lines anywhere near 1 MiB, while a long label or tool string of a few KiB is legal.

#include "importers/importer.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace plimsoll {

inline constexpr size_t kMaxToolLineBytes = 1024 * 1024;

// False, with result.error naming the line, when a line of `text` is longer than
// kMaxToolLineBytes. `what` names the format: "redis-benchmark output".
bool refuseLongLines(std::string_view text, const std::string &what, ImportResult &result);

} // namespace plimsoll
