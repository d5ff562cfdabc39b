#pragma once
// Writing a file whole or not at all: what every export, report and saved table goes through,
// from the command line and from the window alike. A file that could not be written completely
// is not left behind: a job that reads it later never takes half a file for the whole.

#include <string>
#include <string_view>

namespace plimsoll {

// Writes `bytes` to `path`. A regular file (new or existing) is written to a temporary file in
// the same directory, each write and the close checked, then renamed into place: on failure
// the temporary file is removed and an earlier file of that name is left as it was. A file
// that is not a regular one (a device such as /dev/stdout, a named pipe) cannot be replaced,
// so it is written in place, each write checked.
// Returns "" on success, else the message: "cannot write PATH: REASON", the reason being the
// system's ("No space left on device", "File too large"), and what was left.
std::string writeFileWhole(const std::string &path, std::string_view bytes);

// Writes `bytes` to standard output (after what std::cout holds), each write checked.
// Returns "" on success, else "cannot write to standard output: REASON".
std::string writeStandardOutput(std::string_view bytes);

} // namespace plimsoll
