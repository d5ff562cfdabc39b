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

// A count in grouped digits, rounded to a whole number: 19,100 (never 1.91e+04).
inline std::string grouped(double v)
{
    const std::string digits = fmt("%.0f", v < 0 ? -v : v);
    std::string out;
    if (v < 0)
        out += '-';
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

// Records/s for reading: 1.2M, 642.4k, 650 (past 999M in grouped millions: 1,000,000M).
inline std::string rateText(double v)
{
    return v >= 999.5e6 ? grouped(v / 1e6) + "M"
           : v >= 1e6   ? fmt("%.3gM", v / 1e6)
           : v >= 1e3   ? fmt("%.4gk", v / 1e3)
                        : fmt("%.3g", v);
}

// Bytes as GiB to two decimals, the one way every memory figure of a sizing is printed (so a
// quantity reads the same in its line, its reasoning and the report): 126.56 GiB.
inline std::string gibText(double bytes)
{
    return fmt("%.2f GiB", bytes / (1024.0 * 1024 * 1024));
}

} // namespace plimsoll::sizingtext
