#pragma once
// Writes a file so that readers see the old content or the new, never a torn one: a
// temporary file beside it, fsync, rename over the target, fsync of the directory.

#include <string>

namespace plimsoll {

// Returns an empty string on success, else what failed (with the path).
std::string writeFileAtomically(const std::string &path, const std::string &bytes);

} // namespace plimsoll
