#pragma once
// Synthetic broker-scaling evidence for tests of sweeps across runs: one run per broker count,
// as a team measures broker scaling (the same tuning, one scenario each), with throughput on a
// known Universal Scalability Law curve (λ 200k records/s, σ 0.08, κ 0: the shape of the Korvet
// page's single-broker contention ceiling).
#include "model/core/records.h"

#include <string>

namespace plimsoll::test {

inline RunRecord brokerRun(int brokers, double rate, const std::string &day, int lingerMs = 5)
{
    RunRecord run;
    run.runKey = "brokers-" + std::to_string(brokers) + "-" + day;
    run.timestamp = day + "T02:00:00Z";
    run.tool = "korvet-bench";
    run.toolVersion = "1.4.0";
    run.target = "korvet";
    run.tuning = {{"acks", "1"}, {"linger.ms", lingerMs}, {"batch.size", 16384}};
    ScenarioRecord s;
    s.name = "produce/brokers-" + std::to_string(brokers);
    s.kind = "benchmark";
    s.topology.brokers = brokers;
    s.topology.shards = 24;
    s.topology.partitions = 96;
    s.topology.recordSizeBytes = 700;
    s.metrics = {{"records_per_s", rate}, {"latency_p99_s", 0.004 * brokers}};
    run.scenarios.push_back(s);
    return run;
}

inline constexpr double kSweepLambda = 200000, kSweepSigma = 0.08;
inline double sweepUsl(double n) { return kSweepLambda * n / (1 + kSweepSigma * (n - 1)); }

} // namespace plimsoll::test
