#pragma once
// The names every command shares: load factors and metrics, with their SI units.
// `plimsoll metrics` prints this catalog; docs/command-line.md documents it.

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

enum class Direction { HigherIsBetter, LowerIsBetter, Neutral };

// The values a metric can take, checked when a source is imported (importers/domaincheck.h).
// Below `min` (or not a number) is impossible, a negative latency or rate: the import fails.
// Above `plausibleMax` can be written down but no measurement gives it (a CPU fraction of a
// hundred cores, a latency of days: a unit read wrongly): imported, with a warning.
struct MetricDomain
{
    double min = 0;
    double plausibleMax = std::numeric_limits<double>::infinity();
    std::string_view text; // "0 or more", "0 to 64 (64 cores' worth)"
};

struct MetricInfo
{
    std::string_view name;
    std::string_view unit; // SI: "records/s", "bytes/s", "s", "bytes", "fraction", "count"
    Direction direction;
    std::string_view description;
    MetricDomain domain;
};

struct FactorInfo
{
    std::string_view name;
    std::string_view description;
};

const std::vector<MetricInfo> &metricCatalog();
const std::vector<FactorInfo> &factorCatalog();
const MetricInfo *findMetric(std::string_view name);
const FactorInfo *findFactor(std::string_view name);
std::string_view directionName(Direction d);

// 1234567.8 with `decimals` 1 -> "1,234,567.8".
std::string groupThousands(double v, int decimals);
// Seconds in the unit that reads best: "1.5 s", "24.7 ms", "310 µs".
std::string formatSeconds(double s);
// Formats a value of a catalog metric for display: "642,352 rec/s", "59.0 ms", "92 %".
std::string formatMetric(std::string_view name, double value);

} // namespace plimsoll
