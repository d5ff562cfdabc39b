#include "ui/views/trendannotations.h"

#include <map>

namespace plimsoll {

AnnotatedSeries annotateSeries(const std::string &storePath, const std::string &scenario,
                               const std::string &metric, const ChangePointOptions &options)
{
    AnnotatedSeries out{scenario, metric, {}, {}};
    const TrendHistory history = TrendHistory::load(Store(storePath), scenario);
    const ContractPolicies policies = ContractPolicies::load(storePath);
    std::map<std::string, PointMark> marks; // by run key
    for (const TrendSeries &series : history.series(scenario, metric, policies)) {
        const std::string contract = series.contract.canonical();
        for (const TrendPoint &p : series.points)
            marks[p.runKey].contract = contract;
        for (const DetectedChange &c : changesOf(series, options)) {
            PointMark &m = marks[c.runKey];
            m.changePoint = true;
            m.verdict = c.verdict;
            m.forwardChangePercent = c.change.forwardChangePercent();
            m.pValue = c.change.pValue;
        }
    }
    for (const BaselineChange &b : baselineChanges(history, scenario, policies)) {
        PointMark &m = marks[b.runKey];
        m.newBaseline = true;
        m.differences = b.differences;
    }
    // Points in time order across every contract, as the chart draws them.
    for (std::size_t i = 0; i < history.runs().size(); ++i) {
        const RunRecord &r = history.runs()[i];
        for (const ScenarioRecord &s : r.scenarios) {
            if (s.name != scenario)
                continue;
            if (const auto v = s.metric(metric)) {
                out.points.push_back({0, r.runKey, r.timestamp, r.commit, r.imageDigest, r.tuning, *v});
                PointMark m = marks[r.runKey];
                m.runKey = r.runKey;
                out.marks.push_back(std::move(m));
            }
            break;
        }
    }
    return out;
}

} // namespace plimsoll
