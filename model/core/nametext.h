#pragma once
// The text users and tools give runs to be known by (run keys, scenario names, run names and
// tags) is shown everywhere: terminals, CSV, reports, file names of exports. One check of it for
// every place that takes such text: an importer's run keys and scenario names, `plimsoll name`
// and `plimsoll tag`, the window's Rename… and Tags….

#include <cstddef>
#include <string>
#include <string_view>

namespace plimsoll {

// Refused: a control character (NUL, ESC, tab, C1), a bidirectional override, isolate or mark,
// bytes that are not UTF-8, or more than kMaxNameChars characters.
inline constexpr std::size_t kMaxNameChars = 200;
// What is wrong with `name` ("holds the control character U+001B at character 4 …"), or "".
std::string nameProblem(std::string_view name);
// The text as it can be shown in a message: control and format characters as <U+XXXX>, cut at
// 60 characters.
std::string shownName(std::string_view name);

} // namespace plimsoll
