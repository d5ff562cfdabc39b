#pragma once
// The names every command shares: load factors and metrics, with their SI units.
// `plimsoll metrics` prints this catalog; the README documents it.

#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

enum class Direction { HigherIsBetter, LowerIsBetter, Neutral };

struct MetricInfo
{
    std::string_view name;
    std::string_view unit; // SI: "records/s", "bytes/s", "s", "bytes", "fraction", "count"
    Direction direction;
    std::string_view description;
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

// Formats a value of a catalog metric for display: "642,352 rec/s", "59.0 ms", "92 %".
std::string formatMetric(std::string_view name, double value);

} // namespace plimsoll
