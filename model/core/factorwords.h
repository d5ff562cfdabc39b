#pragma once
// Load factors written into names: "100-partitions", "brokers-3", "c-50", "4p-4c", "200K-rate",
// "1-replicas/55-throughput/0-trial". Harnesses name their files, directories and workloads
// this way, and the names are often the only place a factor is stated.
//
// Two uses, one reading of the words:
//   - factorsInName(): the factors a source's path states, read on import where the format
//     itself is silent (marked inferred), as OMB's workload names are;
//   - workloadOf(): a scenario's workload — its name with the values of the given factors
//     (and a ramp's step number) replaced by '*' — so that points of one sweep share one
//     workload ("redis-benchmark/SET/c-*/P-16") and a SET sweep never pools HSET or MSET.
//
// Pure functions over text.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

// The pseudo-factor of an offered rate in a name: "200K-rate" (records/s) or "15-throughput"
// (a kafka-producer-perf-test harness's MB/s of 10^6 B).
inline constexpr const char *kRateWord = "rate";
inline constexpr const char *kThroughputWord = "throughput";

struct FactorInName
{
    std::string factor;  // a factor of factorCatalog() ("partitions", "replication", ...), or
                         // kRateWord / kThroughputWord
    double value = 0;    // as written, k/M multipliers applied ("200K" is 200000)
    std::string text;    // the words it was read from: "3-replicas"
};

// Every factor stated by a whole word in `name` (a path, a file or workload name), in order;
// where a factor is stated twice, the later statement wins (a file's name over its directory).
// Only unambiguous words count here ("partitions", "replicas", "clients"), never the one-letter
// forms a scenario name may use ("c-50", "4p").
std::vector<FactorInName> factorsInName(std::string_view name);

// `scenario` with the values of `factors` replaced by '*', in the forms importers and harnesses
// write them (whole words and the one-letter forms: c-50 for clients or connections, P-16 for
// pipeline, 4p/4c for OMB's producers/consumers, t-4 for threads, 1kb for record sizes,
// 200K-rate for an offered rate), and a ramp's "step-N" always.
std::string workloadOf(std::string_view scenario, const std::vector<std::string> &factors);

} // namespace plimsoll
