#pragma once
// Numbers as the sizing's reasoning lines print them, shared by the sizing engine's files.

#include <cstdio>
#include <string>

namespace plimsoll::sizingtext {

// One number through a printf format: fmt("%.0f%%", 45.2) is "45%".
inline std::string fmt(const char *format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// Records/s for reading: 1.2M, 642.4k, 650.
inline std::string rateText(double v)
{
    return v >= 1e6 ? fmt("%.3gM", v / 1e6) : v >= 1e3 ? fmt("%.4gk", v / 1e3) : fmt("%.3g", v);
}

// Bytes as GiB to two decimals, the one way every memory figure of a sizing is printed (so a
// quantity reads the same in its line, its reasoning and the report): 126.56 GiB.
inline std::string gibText(double bytes)
{
    return fmt("%.2f GiB", bytes / (1024.0 * 1024 * 1024));
}

} // namespace plimsoll::sizingtext
