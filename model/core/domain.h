#pragma once
// The values a numeric input may take, stated once beside its default (SizingInputs,
// PlacementRequest, …) and checked in one place, so the command line and the window refuse the
// same values with the same words: "replication must be 1 or more (got 0)".
//
// A Domain is an interval, closed or open at either end, optionally of whole numbers, with
// the unit its values are in (SI, as stored). It never replaces a value: out of the domain is
// a message for the user, and the caller stops.

#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace plimsoll {

struct Domain
{
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity();
    bool loOpen = false; // lo itself is outside
    bool hiOpen = false; // hi itself is outside
    bool whole = false;  // whole numbers only
    const char *unit = ""; // after numbers in messages: "s", "B", "records/s"; "" for none
    const char *note = ""; // what the number means, said after the domain when refused

    // v ≥ lo
    static constexpr Domain atLeast(double lo, const char *unit = "") { return {lo, kInf, false, false, false, unit}; }
    // v > lo
    static constexpr Domain above(double lo, const char *unit = "") { return {lo, kInf, true, false, false, unit}; }
    // lo ≤ v ≤ hi
    static constexpr Domain between(double lo, double hi, const char *unit = "") { return {lo, hi, false, false, false, unit}; }
    // lo < v ≤ hi
    static constexpr Domain aboveUpTo(double lo, double hi, const char *unit = "") { return {lo, hi, true, false, false, unit}; }
    // whole numbers lo ≤ n ≤ hi
    static constexpr Domain count(double lo, double hi = kInf) { return {lo, hi, false, false, true, ""}; }

    constexpr Domain withNote(const char *text) const
    {
        Domain d = *this;
        d.note = text;
        return d;
    }

    bool contains(double v) const;
    // "1 or more", "between 0 and 1", "greater than 0 s", "a whole number from 1 to 16384"
    std::string describe() const;
    // nullopt when v is in the domain, else "<name> must be <describe()> (got <v>)[: <note>]".
    std::optional<std::string> check(std::string_view name, double v) const;
    // The same for a number still to be read from text (a CLI argument, a field): a text that is
    // not a number is refused as such.
    std::optional<std::string> checkText(std::string_view name, std::string_view text) const;

    static constexpr double kInf = std::numeric_limits<double>::infinity();
};

// A number for a message: integral values without a fraction, others to 6 significant digits,
// never hundreds of digits.
std::string domainNumber(double v);

} // namespace plimsoll
