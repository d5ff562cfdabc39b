#include "model/trends/trendchanges.h"

#include "model/core/enumnames.h"

#include <algorithm>
#include <map>

namespace plimsoll {

constexpr EnumName<Verdict> kVerdictNames[] = {
    {Verdict::Improvement, "improvement"},   {Verdict::Regression, "regression"},
    {Verdict::Unchanged, "unchanged"},       {Verdict::Changed, "changed"},
    {Verdict::Incompatible, "incompatible"}, {Verdict::NotComparable, "not_comparable"},
    {Verdict::FollowsThroughput, "follows_throughput"}};

const char *toString(Verdict v)
{
    return nameOf(kVerdictNames, v);
}

Verdict verdictForDelta(Direction direction, double delta)
{
    if (delta == 0)
        return Verdict::Unchanged;
    switch (direction) {
    case Direction::HigherIsBetter:
        return delta > 0 ? Verdict::Improvement : Verdict::Regression;
    case Direction::LowerIsBetter:
        return delta < 0 ? Verdict::Improvement : Verdict::Regression;
    case Direction::Neutral:
        break;
    }
    return Verdict::Changed;
}

int ChangesReport::changeCount() const
{
    int n = 0;
    for (const SeriesChanges &s : series)
        n += static_cast<int>(s.changes.size());
    return n;
}

std::vector<DetectedChange> changesOf(const TrendSeries &series, const ChangePointOptions &options)
{
    std::vector<DetectedChange> out;
    const ChangePointResult result = detectChangePoints(series.values(), options);
    for (const ChangePoint &cp : result.strong) {
        const TrendPoint &at = series.points[cp.index];
        out.push_back({cp, at.runKey, at.timestamp, at.commit, at.imageDigest,
                       verdictForDelta(series.direction, cp.meanAfter - cp.meanBefore)});
    }
    return out;
}

std::vector<BaselineChange> baselineChanges(const TrendHistory &history, const std::string &scenario,
                                            const ContractPolicies &policies)
{
    const ContractPolicy policy = policies.forScenario(scenario);
    std::vector<BaselineChange> out;
    struct Last
    {
        const RunRecord *run;
        TuningContract contract;
    };
    std::map<std::string, Last> lastByTarget; // each target keeps its own baseline
    const auto scenarioOf = [&](const RunRecord &r) {
        return std::find_if(r.scenarios.begin(), r.scenarios.end(),
                            [&](const ScenarioRecord &sc) { return sc.name == scenario; });
    };
    // As in the series (TrendHistory::series): once a run of one's own has the scenario, the
    // sample runs are not part of its history, so none of them starts or ends a baseline.
    const bool ownRuns = std::any_of(history.runs().begin(), history.runs().end(), [&](const RunRecord &r) {
        return !r.sample && scenarioOf(r) != r.scenarios.end();
    });
    for (const RunRecord &r : history.runs()) {
        const auto s = scenarioOf(r);
        if (s == r.scenarios.end() || (ownRuns && r.sample))
            continue;
        TuningContract contract = TuningContract::of(r, *s, policy);
        auto it = lastByTarget.find(r.target);
        if (it != lastByTarget.end() && !(it->second.contract == contract)) {
            out.push_back({r.target, scenario, r.runKey, r.timestamp, r.commit, it->second.run->runKey,
                           it->second.contract.differences(contract)});
        }
        lastByTarget.insert_or_assign(r.target, Last{&r, std::move(contract)});
    }
    return out;
}

ChangesReport findChanges(const TrendHistory &history, const ChangesRequest &query,
                          const ContractPolicies &policies)
{
    ChangesReport report;
    report.query = query;
    for (const std::string &scenario : history.scenarioNames(query.scenarioContains)) {
        const std::vector<std::string> metrics =
            query.metrics.empty() ? history.metricNames(scenario) : query.metrics;
        for (const std::string &metric : metrics) {
            for (TrendSeries &series : history.series(scenario, metric, policies)) {
                SeriesChanges sc;
                // Detection always sees the whole series, so --since never moves a change.
                for (DetectedChange &c : changesOf(series, query.options))
                    if (query.since.empty() || c.timestamp >= query.since)
                        sc.changes.push_back(std::move(c));
                sc.series = std::move(series);
                report.series.push_back(std::move(sc));
            }
        }
        for (BaselineChange &b : baselineChanges(history, scenario, policies))
            if (query.since.empty() || b.timestamp >= query.since)
                report.baselineChanges.push_back(std::move(b));
    }
    return report;
}

} // namespace plimsoll
