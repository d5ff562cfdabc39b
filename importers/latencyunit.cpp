#include "importers/latencyunit.h"

namespace plimsoll {

std::optional<LatencyUnit> latencyUnitOf(const std::string &requested, const std::string &usual)
{
    const std::string name = requested.empty() ? usual : requested;
    LatencyUnit unit;
    unit.name = name;
    unit.assumed = requested.empty();
    if (name == "ns")
        unit.toSeconds = 1e-9;
    else if (name == "us" || name == "µs")
        unit.toSeconds = 1e-6;
    else if (name == "ms")
        unit.toSeconds = 1e-3;
    else if (name == "s")
        unit.toSeconds = 1;
    else
        return std::nullopt;
    return unit;
}

void warnIfAssumed(const LatencyUnit &unit, const std::string &why,
                   std::vector<ImportWarning> &warnings)
{
    if (!unit.assumed)
        return;
    warnings.push_back({"unit-assumed", 0,
                        "values read as " + unit.name + ": the file does not state its unit (" +
                            why + "); --hlog-unit ns|us|ms|s says otherwise"});
}

std::vector<MetricValue> latencyMetrics(const HdrHistogram &h, const LatencyUnit &unit)
{
    auto at = [&](double p) { return static_cast<double>(h.valueAtPercentile(p)) * unit.toSeconds; };
    return {{"latency_p50_s", at(50)},
            {"latency_p95_s", at(95)},
            {"latency_p99_s", at(99)},
            {"latency_p999_s", at(99.9)},
            {"hdr.latency_p9999_s", at(99.99)},
            {"latency_max_s", static_cast<double>(h.max()) * unit.toSeconds},
            {"latency_avg_s", h.mean() * unit.toSeconds},
            {"hdr.latency_min_s", static_cast<double>(h.min()) * unit.toSeconds},
            {"hdr.total_count", static_cast<double>(h.totalCount())}};
}

} // namespace plimsoll
