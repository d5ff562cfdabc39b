#pragma once
// What a metric stands for when two runs are compared, beyond its direction: the load that was
// offered (a setting of the run, not a measurement), the throughput achieved, or a resource
// (CPU, memory) whose use follows the work done.
//
// The offered rate of a scenario is what the load generator was asked for, as the store holds
// it: a ramp step's `ramp.offered_records_per_s` (or any metric named `…offered…_per_s`), else
// the run's tuning `rate` (plimsoll bench and korvet bench --rate; "unlimited"), `producerRate`
// (OpenMessaging Benchmark; 0 finds the maximum) or `throughput` (kafka-producer-perf-test
// --throughput; negative is unlimited). Records/s.
//
// Pure functions.

#include "model/core/records.h"

#include <array>
#include <optional>
#include <string>

namespace plimsoll {

struct OfferedRate
{
    std::optional<double> recordsPerS; // none: unlimited (as fast as the system takes it)
    std::string source;                // where it was read: "ramp.offered_records_per_s", "tuning.rate"
    bool operator==(const OfferedRate &o) const { return recordsPerS == o.recordsPerS; }
};

// Nullopt when the store holds no offered rate for the scenario.
std::optional<OfferedRate> offeredRate(const RunRecord &run, const ScenarioRecord &scenario);
// "10,000 rec/s" or "unlimited".
std::string offeredText(const OfferedRate &rate);
// Whether two offered rates differ by more than pacing can explain (0.5 %), or one is
// unlimited and the other not.
bool offeredRatesDiffer(const OfferedRate &a, const OfferedRate &b);

bool isOfferedRateMetric(const std::string &metric);
// The throughput a scenario is read by, most preferred first: what Compare's verdicts and
// ramp fits and the Trends view's first metric take when the scenario measured it.
inline constexpr std::array<const char *, 2> kHeadlineThroughputMetrics{"records_per_s", "bytes_per_s"};
// records_per_s, bytes_per_s and tool-specific names ending in them (not the offered rate).
bool isThroughputMetric(const std::string &metric);
// CPU and memory: broker_cpu_avg, shard_cpu_max, memory_bytes, names holding "cpu" or "memory".
bool isResourceMetric(const std::string &metric);

} // namespace plimsoll
