#pragma once
// The unit of latency values in HdrHistogram logs and percentile tables. Most writers do not
// state it; Plimsoll's do, in a header comment ("#[Values in us (microseconds); …]"). A unit
// the file states is the unit used; the user's --hlog-unit names it for files that do not
// state one (and must agree with one that does); otherwise the format's usual unit, with a
// warning saying it was assumed.

#include "importers/importer.h"
#include "importers/textsource.h"
#include "model/core/hdrhistogram.h"

#include <optional>
#include <string>

namespace plimsoll {

struct LatencyUnit
{
    std::string name;     // "ns", "us", "ms" or "s"
    double toSeconds = 1; // multiply a value by this to get seconds
    bool assumed = false; // neither given by the user nor stated by the file
    int64_t statedAt = 0; // the line stating it, 0 when the file does not
};

// `requested` empty: `usual` with assumed = true. nullopt for an unknown unit name.
std::optional<LatencyUnit> latencyUnitOf(const std::string &requested, const std::string &usual);

// The unit a header comment line ('#' first) states for the values, or nullopt:
// "#[Values in us (microseconds); Interval_Max in ms]" (what Plimsoll writes), "values in µs",
// "values are nanoseconds", and the export header of Plimsoll 0.x ("#Plimsoll export. …
// (microseconds, …"). The name is normalized to ns, us, ms or s.
std::optional<LatencyUnit> statedLatencyUnit(const std::vector<TextLine> &lines);

// The unit to read the values in: the stated one (an --hlog-unit that contradicts it is an
// error naming both), else the requested one, else `usual` (assumed). nullopt with
// result.error set on an unknown or contradicting unit.
std::optional<LatencyUnit> resolveLatencyUnit(const std::string &requested,
                                              const std::vector<TextLine> &lines,
                                              const std::string &usual, ImportResult &result);

// Adds the "unit-assumed" warning when the unit was not given.
void warnIfAssumed(const LatencyUnit &unit, const std::string &why,
                   std::vector<ImportWarning> &warnings);

// latency_p50/p95/p99/p999/max/avg_s of a histogram holding values in `unit`, plus
// hdr.latency_p9999_s, hdr.latency_min_s and hdr.total_count.
std::vector<MetricValue> latencyMetrics(const HdrHistogram &h, const LatencyUnit &unit);

} // namespace plimsoll
