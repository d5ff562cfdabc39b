#include "model/trends/trendhistory.h"

#include <algorithm>
#include <set>

namespace plimsoll {

namespace {

const ScenarioRecord *findScenario(const RunRecord &run, const std::string &name)
{
    for (const ScenarioRecord &s : run.scenarios)
        if (s.name == name)
            return &s;
    return nullptr;
}

} // namespace

std::vector<double> TrendSeries::values() const
{
    std::vector<double> out;
    out.reserve(points.size());
    for (const TrendPoint &p : points)
        out.push_back(p.value);
    return out;
}

Direction trendDirection(const std::string &metric)
{
    if (const MetricInfo *info = findMetric(metric))
        return info->direction;
    std::string lower = metric;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char *word : {"latency", "_p99", "_p95", "_p50", "_p999", "p99_", "lag"})
        if (lower.find(word) != std::string::npos)
            return Direction::LowerIsBetter;
    return Direction::Neutral;
}

TrendHistory TrendHistory::load(const Store &store, const std::string &scenarioContains)
{
    RunRecordFilter filter;
    filter.scenarioContains = scenarioContains;
    TrendHistory h;
    // Already ordered by timestamp, id; without per-window series (no part in the trends).
    store.forEachRun(filter, [&h](int64_t id, RunRecord &&run) {
        h.m_runs.push_back(std::move(run));
        h.m_ids.push_back(id);
    });
    return h;
}

TrendHistory TrendHistory::fromRuns(std::vector<RunRecord> runs)
{
    std::stable_sort(runs.begin(), runs.end(), [](const RunRecord &a, const RunRecord &b) {
        return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.runKey < b.runKey;
    });
    TrendHistory h;
    h.m_runs = std::move(runs);
    h.m_ids.assign(h.m_runs.size(), 0);
    return h;
}

const RunRecord *TrendHistory::findRun(const std::string &idOrKey) const
{
    for (const RunRecord &r : m_runs)
        if (r.runKey == idOrKey)
            return &r;
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (m_ids[i] != 0 && std::to_string(m_ids[i]) == idOrKey)
            return &m_runs[i];
    return nullptr;
}

std::vector<std::string> TrendHistory::scenarioNames(const std::string &contains) const
{
    std::set<std::string> names;
    for (const RunRecord &r : m_runs)
        for (const ScenarioRecord &s : r.scenarios)
            if (contains.empty() || s.name.find(contains) != std::string::npos)
                names.insert(s.name);
    return {names.begin(), names.end()};
}

std::vector<std::string> TrendHistory::metricNames(const std::string &scenario) const
{
    std::set<std::string> names;
    for (const RunRecord &r : m_runs)
        if (const ScenarioRecord *s = findScenario(r, scenario))
            for (const MetricValue &m : s->metrics)
                names.insert(m.name);
    return {names.begin(), names.end()};
}

std::vector<TrendSeries> TrendHistory::series(const std::string &scenario, const std::string &metric,
                                              const ContractPolicies &policies) const
{
    const ContractPolicy policy = policies.forScenario(scenario);
    // The sample runs are transcribed figures, not a night of one's own: once a run of one's own
    // measured this metric they stay out of its series (a sample among nightlies is a step
    // that never happened).
    const auto measures = [&](const RunRecord &r) {
        const ScenarioRecord *s = findScenario(r, scenario);
        return s && s->metric(metric).has_value();
    };
    const bool ownRuns = std::any_of(m_runs.begin(), m_runs.end(),
                                     [&](const RunRecord &r) { return !r.sample && measures(r); });
    std::vector<TrendSeries> out;
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        const RunRecord &r = m_runs[i];
        if (ownRuns && r.sample)
            continue;
        const ScenarioRecord *s = findScenario(r, scenario);
        if (!s)
            continue;
        const auto value = s->metric(metric);
        if (!value)
            continue;
        TuningContract contract = TuningContract::of(r, *s, policy);
        auto it = std::find_if(out.begin(), out.end(), [&](const TrendSeries &ts) {
            return ts.target == r.target && ts.contract == contract;
        });
        if (it == out.end()) {
            out.push_back({r.target, scenario, metric, trendDirection(metric), std::move(contract), {}});
            it = out.end() - 1;
        }
        it->points.push_back({i, r.runKey, r.timestamp, r.commit, r.imageDigest, r.tuning, *value,
                              r.timeSource != TimeSource::Stated});
    }
    return out;
}

std::optional<TrendSeries> TrendHistory::historyBefore(const RunRecord &run, const std::string &scenario,
                                                       const std::string &metric,
                                                       const ContractPolicies &policies) const
{
    const ScenarioRecord *s = findScenario(run, scenario);
    if (!s)
        return std::nullopt;
    const TuningContract contract = TuningContract::of(run, *s, policies.forScenario(scenario));
    for (TrendSeries &ts : series(scenario, metric, policies)) {
        if (ts.target != run.target || !(ts.contract == contract))
            continue;
        std::erase_if(ts.points, [&](const TrendPoint &p) {
            return p.runKey == run.runKey || p.timestamp > run.timestamp;
        });
        return ts;
    }
    TrendSeries empty{run.target, scenario, metric, trendDirection(metric), contract, {}};
    return empty;
}

} // namespace plimsoll
