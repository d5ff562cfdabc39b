#pragma once
// Load factors a harness states only in the path of its result files — "3-replicas/
// 55-throughput/0-trial/producer.txt", "…_100-partitions_…" — read on import where the format
// itself states none, as OMB's workload names are: each is marked inferred in the scenario's
// topology, so it joins the tuning contract (a 1-replica and a 3-replica run never pool) and a
// sweep over it. An offered rate stated so ("200K-rate", or "15-throughput": MB/s of 10^6 B)
// becomes the scenario's `offered_records_per_s` where the run states no rate of its own.

#include "model/core/runsink.h"

#include <string>
#include <unordered_map>

namespace plimsoll {

// The metric an offered rate read from a path is kept as (a setting, not a measurement:
// model/core/metricroles.h reads it as the offered rate and compares no delta of it).
inline constexpr const char *kOfferedRateMetric = "offered_records_per_s";
// The name the offered rate is listed under in a topology's `inferred`.
inline constexpr const char *kOfferedRateInferred = "offered_rate";

// Passes every run on to `inner`, with the factors of `uri`'s path filled in.
class PathFactorSink final : public RunSink
{
public:
    PathFactorSink(RunSink &inner, const std::string &uri);

    void put(RunRecord run) override;
    void append(const std::string &runKey, std::vector<ScenarioRecord> scenarios) override;
    std::optional<RunRecord> earlierRun(const std::string &runKey) override;
    std::optional<int64_t> earlierScenarioLine(const std::string &runKey,
                                               const std::string &scenario) override;

private:
    void fill(ScenarioRecord &scenario, bool runStatesRate) const;

    RunSink &m_inner;
    struct Stated
    {
        std::string factor;
        double value = 0;
    };
    std::vector<Stated> m_factors;        // topology factors the path states
    std::optional<double> m_rate;         // records/s ("200K-rate")
    std::optional<double> m_throughputMB; // MB/s of 10^6 B ("15-throughput")
    std::unordered_map<std::string, bool> m_runStatesRate;
};

} // namespace plimsoll
