#pragma once
// A stored ramp with per-partition produce rates, as a ramp against Korvet records them from
// korvet_broker_max_offset: eight partitions of topic "orders", step 0 even at 125 records/s a
// partition, step 1 with partition 2 hot (9,000 records/s, the rest 1,000).
#include <nlohmann/json.hpp>

#include <string>
#include <tuple>

namespace plimsoll::test {

constexpr int kHotPartition = 2;
constexpr double kHotRate = 9000, kColdRate = 1000;

// The ramp as plimsoll-trend/1 lines under run key `runKey`.
inline std::string hotPartitionRampJsonl(const std::string &runKey = "ramp-hot")
{
    std::string lines;
    for (const auto &[step, hot, rest] :
         {std::tuple{"ramp/step-0", 125.0, 125.0}, std::tuple{"ramp/step-1", kHotRate, kColdRate}}) {
        nlohmann::json metrics;
        for (int p = 0; p < 8; ++p)
            metrics["partitions." + std::to_string(p) + ".records_per_s"] = p == kHotPartition ? hot : rest;
        lines += nlohmann::json{{"format", "plimsoll-trend/1"}, {"run_key", runKey},
                                {"timestamp", "2026-12-01T02:00:00Z"}, {"tool", "plimsoll-bench"},
                                {"environment", {{"topic", "orders"}}}, {"scenario", step}, {"metrics", metrics}}
                     .dump() +
                 "\n";
    }
    return lines;
}

} // namespace plimsoll::test
