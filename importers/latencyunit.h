#pragma once
// The unit of latency values in formats that do not state it (HdrHistogram logs and
// percentile tables): the user's --hlog-unit, or the format's usual unit with a warning.

#include "importers/importer.h"
#include "model/hdrhistogram.h"

#include <optional>
#include <string>

namespace plimsoll {

struct LatencyUnit
{
    std::string name;     // "ns", "us", "ms" or "s"
    double toSeconds = 1; // multiply a value by this to get seconds
    bool assumed = false; // not given by the user
};

// `requested` empty: `usual` with assumed = true. nullopt for an unknown unit name.
std::optional<LatencyUnit> latencyUnitOf(const std::string &requested, const std::string &usual);

// Adds the "unit-assumed" warning when the unit was not given.
void warnIfAssumed(const LatencyUnit &unit, const std::string &why,
                   std::vector<ImportWarning> &warnings);

// latency_p50/p95/p99/p999/max/avg_s of a histogram holding values in `unit`, plus
// hdr.latency_p9999_s, hdr.latency_min_s and hdr.total_count.
std::vector<MetricValue> latencyMetrics(const HdrHistogram &h, const LatencyUnit &unit);

} // namespace plimsoll
