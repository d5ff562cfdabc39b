#include "model/core/domain.h"
#include "model/core/units.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace plimsoll {

std::string domainNumber(double v)
{
    if (std::isnan(v))
        return "not a number";
    if (std::isinf(v))
        return v > 0 ? "infinity" : "-infinity";
    char buf[64];
    if (v == std::floor(v) && std::abs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

bool Domain::contains(double v) const
{
    if (!std::isfinite(v))
        return false;
    if (whole && v != std::floor(v))
        return false;
    if (loOpen ? !(v > lo) : !(v >= lo))
        return false;
    if (hiOpen ? !(v < hi) : !(v <= hi))
        return false;
    return true;
}

std::string Domain::describe() const
{
    const std::string u = *unit ? std::string(" ") + unit : std::string();
    const auto num = [&](double v) { return domainNumber(v) + u; };
    const bool hasLo = std::isfinite(lo), hasHi = std::isfinite(hi);
    std::string text;
    if (whole) {
        if (hasLo && hasHi)
            text = "a whole number from " + num(lo) + " to " + num(hi);
        else if (hasLo)
            text = "a whole number, " + num(lo) + " or more";
        else if (hasHi)
            text = "a whole number, " + num(hi) + " or less";
        else
            text = "a whole number";
        return text;
    }
    if (hasLo && hasHi) {
        if (!loOpen && !hiOpen)
            return "between " + num(lo) + " and " + num(hi);
        return std::string(loOpen ? "greater than " : "at least ") + num(lo) + " and " +
               (hiOpen ? "less than " : "at most ") + num(hi);
    }
    if (hasLo)
        return loOpen ? "greater than " + num(lo) : num(lo) + " or more";
    if (hasHi)
        return hiOpen ? "less than " + num(hi) : num(hi) + " or less";
    return "a finite number";
}

std::optional<std::string> Domain::check(std::string_view name, double v) const
{
    if (contains(v))
        return std::nullopt;
    std::string message = std::string(name) + " must be " + describe() + " (got " + domainNumber(v) +
                          (*unit && std::isfinite(v) ? std::string(" ") + unit : std::string()) + ")";
    if (*note)
        message += ": " + std::string(note);
    return message;
}

std::optional<std::string> Domain::checkText(std::string_view name, std::string_view text) const
{
    const std::string s(text);
    const auto v = parseDecimal(s);
    if (!v)
        return std::string(name) + " must be " + describe() + " ('" + s + "' is not a number)";
    return check(name, *v);
}

} // namespace plimsoll
