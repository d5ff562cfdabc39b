#include "model/core/units.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <cstdio>
#include <string>

namespace plimsoll {

namespace {
std::string lower(std::string_view s)
{
    std::string out(s);
    for (auto &c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

bool fail(std::string *error, std::string message)
{
    if (error)
        *error = std::move(message);
    return false;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The length of the decimal number at the start of `s` (parseDecimal's grammar), 0 for none.
size_t decimalLength(std::string_view s)
{
    size_t i = 0;
    if (i < s.size() && s[i] == '-')
        ++i;
    size_t digits = 0;
    while (i < s.size() && isDigit(s[i]))
        ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && isDigit(s[i]))
            ++i, ++digits;
    }
    if (digits == 0)
        return 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-'))
            ++j;
        const size_t start = j;
        while (j < s.size() && isDigit(s[j]))
            ++j;
        if (j > start)
            i = j;
    }
    return i;
}

// Splits "12.5ms" into 12.5 and "ms". Only non-negative decimal numbers.
bool splitNumber(std::string_view s, double &number, std::string &suffix)
{
    if (!s.empty() && s[0] == '-')
        return false;
    const size_t i = decimalLength(s);
    if (i == 0)
        return false;
    const auto v = parseDecimal(s.substr(0, i));
    if (!v)
        return false;
    number = *v;
    suffix = lower(trim(s.substr(i)));
    return true;
}

// ISO-8601 duration: PnDTnHnMnS (weeks, months and years are not fixed lengths: refused).
std::optional<double> parseIsoDurationSeconds(const std::string &s)
{
    if (s.size() < 3 || s[0] != 'p')
        return std::nullopt;
    double total = 0;
    bool inTime = false;
    bool any = false;
    size_t i = 1;
    while (i < s.size()) {
        if (s[i] == 't') {
            if (inTime)
                return std::nullopt;
            inTime = true;
            ++i;
            continue;
        }
        size_t j = i;
        while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.'))
            ++j;
        if (j == i || j >= s.size())
            return std::nullopt;
        double v = 0;
        const auto [ptr, ec] = std::from_chars(s.data() + i, s.data() + j, v);
        if (ec != std::errc() || ptr != s.data() + j)
            return std::nullopt;
        const char unit = s[j];
        if (!inTime && unit == 'd')
            total += v * 86400;
        else if (inTime && unit == 'h')
            total += v * 3600;
        else if (inTime && unit == 'm')
            total += v * 60;
        else if (inTime && unit == 's')
            total += v;
        else
            return std::nullopt;
        any = true;
        i = j + 1;
    }
    if (!any)
        return std::nullopt;
    return total;
}
} // namespace

std::optional<double> parseDecimal(std::string_view text)
{
    if (text.empty() || decimalLength(text) != text.size())
        return std::nullopt;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<int64_t> parseByteSize(std::string_view text, std::string *error)
{
    const std::string_view t = trim(text);
    double number = 0;
    std::string suffix;
    if (!splitNumber(t, number, suffix)) {
        fail(error, "'" + std::string(text) + "' is not a byte size (e.g. 1024, 16KB, 1mb)");
        return std::nullopt;
    }
    double factor = 0;
    if (suffix.empty() || suffix == "b")
        factor = 1;
    else if (suffix == "kb")
        factor = 1024.0;
    else if (suffix == "mb")
        factor = 1024.0 * 1024.0;
    else if (suffix == "gb")
        factor = 1024.0 * 1024.0 * 1024.0;
    else {
        fail(error, "'" + std::string(text) + "': unknown size unit '" + suffix +
                        "' (use B, KB, MB or GB)");
        return std::nullopt;
    }
    const double bytes = number * factor;
    if (bytes > 9.0e18 || bytes != std::floor(bytes)) {
        fail(error, "'" + std::string(text) + "' is not a whole number of bytes");
        return std::nullopt;
    }
    return static_cast<int64_t>(bytes);
}

std::optional<std::chrono::nanoseconds> parseDuration(std::string_view text, std::string *error)
{
    const std::string t = lower(trim(text));
    double seconds = 0;
    if (!t.empty() && t[0] == 'p') {
        const auto iso = parseIsoDurationSeconds(t);
        if (!iso) {
            fail(error, "'" + std::string(text) + "' is not an ISO-8601 duration (e.g. PT30S)");
            return std::nullopt;
        }
        seconds = *iso;
    } else {
        double number = 0;
        std::string suffix;
        if (!splitNumber(t, number, suffix)) {
            fail(error, "'" + std::string(text) + "' is not a duration (e.g. 500, 30s, PT30S)");
            return std::nullopt;
        }
        if (suffix.empty() || suffix == "ms")
            seconds = number / 1e3;
        else if (suffix == "ns")
            seconds = number / 1e9;
        else if (suffix == "us")
            seconds = number / 1e6;
        else if (suffix == "s")
            seconds = number;
        else if (suffix == "m")
            seconds = number * 60;
        else if (suffix == "h")
            seconds = number * 3600;
        else if (suffix == "d")
            seconds = number * 86400;
        else {
            fail(error, "'" + std::string(text) + "': unknown duration unit '" + suffix +
                            "' (use ns, us, ms, s, m, h or d)");
            return std::nullopt;
        }
    }
    if (seconds > 9.0e9) {
        fail(error, "'" + std::string(text) + "' is too long a duration");
        return std::nullopt;
    }
    return std::chrono::nanoseconds(static_cast<int64_t>(std::llround(seconds * 1e9)));
}

std::optional<double> parseRate(std::string_view text, double *bytesPerS, std::string *error)
{
    if (text.size() > 2 && text.substr(text.size() - 2) == "/s") {
        const auto bytes = parseByteSize(text.substr(0, text.size() - 2), error);
        if (!bytes)
            return std::nullopt;
        if (bytesPerS)
            *bytesPerS = double(*bytes);
        return 0.0;
    }
    std::string digits(text);
    double scale = 1;
    if (!digits.empty() && (digits.back() == 'k' || digits.back() == 'K')) {
        scale = 1e3;
        digits.pop_back();
    } else if (!digits.empty() && (digits.back() == 'M' || digits.back() == 'm')) {
        scale = 1e6;
        digits.pop_back();
    }
    if (const auto v = parseDecimal(digits))
        return *v * scale; // the domain (SizingInputs::kRate) is checked with the others
    fail(error, "'" + std::string(text) + "' is not a rate (e.g. 600k, 1.2M, 600000 records/s or 40MB/s)");
    return std::nullopt;
}

std::string rateInputText(double recordsPerS, double bytesPerS)
{
    const bool records = recordsPerS > 0;
    const double v = records ? recordsPerS : bytesPerS;
    static const std::pair<double, const char *> kRecordUnits[] = {{1e6, "M"}, {1e3, "k"}, {1, ""}};
    static const std::pair<double, const char *> kByteUnits[] = {
        {1024.0 * 1024 * 1024, "GB/s"}, {1024.0 * 1024, "MB/s"}, {1024, "KB/s"}, {1, "B/s"}};
    std::string best;
    auto consider = [&](double scale, const char *suffix) {
        char buf[64];
        const auto end = std::to_chars(buf, buf + sizeof buf, v / scale).ptr;
        const std::string text = std::string(buf, end) + suffix;
        double bytes = 0;
        const auto back = parseRate(text, &bytes);
        const bool same = back && (records ? *back == v : (*back == 0 && bytes == v));
        if (same && (best.empty() || text.size() < best.size()))
            best = text;
    };
    if (records)
        for (const auto &[scale, suffix] : kRecordUnits)
            consider(scale, suffix);
    else
        for (const auto &[scale, suffix] : kByteUnits)
            consider(scale, suffix);
    if (best.empty()) { // no decimal text reads back exactly: the nearest plain number
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g%s", v, records ? "" : "B/s");
        best = buf;
    }
    return best;
}

} // namespace plimsoll
