#include "importers/pathfactors.h"

#include "model/core/factorwords.h"

#include <cmath>

namespace plimsoll {

namespace {

bool positive(const nlohmann::json &tuning, const char *key)
{
    if (!tuning.is_object())
        return false;
    const auto it = tuning.find(key);
    if (it == tuning.end())
        return false;
    if (it->is_number())
        return it->get<double>() > 0;
    if (it->is_string()) {
        try {
            return std::stod(it->get<std::string>()) > 0;
        } catch (const std::exception &) {
        }
    }
    return false;
}

// The run states what it offered: a rate in its tuning (kafka-producer-perf-test --throughput,
// OMB's producerRate, plimsoll bench --rate).
bool statesRate(const RunRecord &run)
{
    return positive(run.tuning, "producerRate") || positive(run.tuning, "throughput") ||
           positive(run.tuning, "rate");
}

} // namespace

PathFactorSink::PathFactorSink(RunSink &inner, const std::string &uri) : m_inner(inner)
{
    for (const FactorInName &f : factorsInName(uri)) {
        if (f.factor == kRateWord)
            m_rate = f.value;
        else if (f.factor == kThroughputWord)
            m_throughputMB = f.value;
        else
            m_factors.push_back({f.factor, f.value});
    }
}

void PathFactorSink::fill(ScenarioRecord &s, bool runStatesRate) const
{
    Topology &t = s.topology;
    for (const Stated &f : m_factors)
        if (!t.factor(f.factor) && t.setFactor(f.factor, int64_t(f.value)))
            t.inferred.push_back(f.factor);
    if (runStatesRate || s.metric("ramp.offered_records_per_s") || s.metric(kOfferedRateMetric))
        return;
    std::optional<double> rate = m_rate;
    if (!rate && m_throughputMB) {
        // The harness's MB/s of 10^6 B over the record size, stated or as delivered.
        std::optional<double> recordBytes;
        if (t.recordSizeBytes && *t.recordSizeBytes > 0)
            recordBytes = double(*t.recordSizeBytes);
        else if (const auto bytes = s.metric("bytes_per_s"), records = s.metric("records_per_s");
                 bytes && records && *records > 0 && *bytes > 0)
            recordBytes = std::round(*bytes / *records);
        if (recordBytes)
            rate = *m_throughputMB * 1e6 / *recordBytes;
    }
    if (!rate)
        return;
    s.metrics.push_back({kOfferedRateMetric, *rate});
    t.inferred.push_back(kOfferedRateInferred);
}

void PathFactorSink::put(RunRecord run)
{
    const bool rate = statesRate(run);
    if (!m_factors.empty() || m_rate || m_throughputMB) {
        m_runStatesRate[run.runKey] = rate;
        for (ScenarioRecord &s : run.scenarios)
            fill(s, rate);
    }
    m_inner.put(std::move(run));
}

void PathFactorSink::append(const std::string &runKey, std::vector<ScenarioRecord> scenarios)
{
    const auto it = m_runStatesRate.find(runKey);
    if (it != m_runStatesRate.end())
        for (ScenarioRecord &s : scenarios)
            fill(s, it->second);
    m_inner.append(runKey, std::move(scenarios));
}

std::optional<RunRecord> PathFactorSink::earlierRun(const std::string &runKey)
{
    return m_inner.earlierRun(runKey);
}

std::optional<int64_t> PathFactorSink::earlierScenarioLine(const std::string &runKey,
                                                           const std::string &scenario)
{
    return m_inner.earlierScenarioLine(runKey, scenario);
}

} // namespace plimsoll
