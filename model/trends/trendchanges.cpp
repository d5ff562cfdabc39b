#include "model/trends/trendchanges.h"

#include "model/core/enumnames.h"

#include <QDateTime>
#include <QString>

#include <algorithm>
#include <map>
#include <set>

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

int ChangesReport::outlierCount() const
{
    int n = 0;
    for (const SeriesChanges &s : series)
        n += static_cast<int>(s.outliers.size());
    return n;
}

int ChangesReport::varianceChangeCount() const
{
    int n = 0;
    for (const SeriesChanges &s : series)
        n += static_cast<int>(s.varianceChanges.size());
    return n;
}

int ChangesReport::driftCount() const
{
    int n = 0;
    for (const SeriesChanges &s : series)
        n += static_cast<int>(s.drifts.size());
    return n;
}

int ChangesReport::timeInferredPoints() const
{
    int n = 0;
    for (const SeriesChanges &s : series)
        n += s.timeInferredPoints;
    return n;
}

namespace {

std::optional<double> daysBetween(const std::string &from, const std::string &to)
{
    const auto parse = [](const std::string &t) {
        const std::optional<std::string> normalized = normalizeTimestamp(t);
        return normalized ? QDateTime::fromString(QString::fromStdString(*normalized), Qt::ISODateWithMs)
                          : QDateTime();
    };
    const QDateTime a = parse(from), b = parse(to);
    if (!a.isValid() || !b.isValid() || a == b)
        return std::nullopt;
    return double(a.msecsTo(b)) / 86400000.0;
}

} // namespace

SeriesChanges findingsOf(const TrendSeries &series, const ChangePointOptions &options)
{
    // Only points whose time the source stated are in a known order: the others take no part.
    std::vector<double> values;
    std::vector<std::size_t> pointOf;
    values.reserve(series.points.size());
    pointOf.reserve(series.points.size());
    for (std::size_t i = 0; i < series.points.size(); ++i)
        if (!series.points[i].timeInferred) {
            values.push_back(series.points[i].value);
            pointOf.push_back(i);
        }
    SeriesChanges out;
    SeriesAnalysisOptions analysisOptions;
    analysisOptions.changePoints = options;
    const SeriesAnalysis analysis = analyzeSeries(values, analysisOptions);
    for (const LevelChange &lc : analysis.changes) {
        ChangePoint cp = lc.change;
        cp.index = pointOf[cp.index];
        const TrendPoint &at = series.points[cp.index];
        out.changes.push_back({cp, at.runKey, at.timestamp, at.commit, at.imageDigest,
                               verdictForDelta(series.direction, cp.meanAfter - cp.meanBefore), lc.provisional,
                               lc.shortRun});
    }
    for (Outlier o : analysis.outliers) {
        o.index = pointOf[o.index];
        const TrendPoint &at = series.points[o.index];
        out.outliers.push_back({o, at.runKey, at.timestamp, at.commit,
                                verdictForDelta(series.direction, o.value - o.expected)});
    }
    for (VarianceChange v : analysis.varianceChanges) {
        v.index = pointOf[v.index];
        const TrendPoint &at = series.points[v.index];
        out.varianceChanges.push_back({v, at.runKey, at.timestamp, at.commit,
                                       v.stddevAfter > v.stddevBefore ? Verdict::Regression : Verdict::Changed});
    }
    for (Drift d : analysis.drifts) {
        d.from = pointOf[d.from];
        d.to = pointOf[d.to - 1] + 1;
        const TrendPoint &first = series.points[d.from];
        const TrendPoint &last = series.points[d.to - 1];
        DetectedDrift dd{d, first.runKey, first.timestamp, last.runKey, last.timestamp, std::nullopt,
                         verdictForDelta(series.direction, d.valueTo - d.valueFrom)};
        if (const auto days = daysBetween(first.timestamp, last.timestamp))
            dd.perDay = (d.valueTo - d.valueFrom) / *days;
        out.drifts.push_back(std::move(dd));
    }
    return out;
}

std::vector<DetectedChange> changesOf(const TrendSeries &series, const ChangePointOptions &options)
{
    return findingsOf(series, options).changes;
}

namespace {

const ScenarioRecord *scenarioOf(const RunRecord &r, const std::string &scenario)
{
    for (const ScenarioRecord &s : r.scenarios)
        if (s.name == scenario)
            return &s;
    return nullptr;
}

// As in the series (TrendHistory::series): once a run of one's own has the scenario, the sample
// runs are not part of its history.
bool ownRunsOf(const TrendHistory &history, const std::string &scenario)
{
    return std::any_of(history.runs().begin(), history.runs().end(),
                       [&](const RunRecord &r) { return !r.sample && scenarioOf(r, scenario); });
}

} // namespace

std::vector<LoadSteps> loadStepsOf(const TrendHistory &history, const std::string &scenario,
                                   const ContractPolicies &policies)
{
    const ContractPolicy policy = policies.forScenario(scenario);
    const bool ownRuns = ownRunsOf(history, scenario);
    struct Seen
    {
        LoadSteps steps;
        std::vector<std::map<std::string, std::string>> settings; // parallel to steps.loads
    };
    std::map<std::string, Seen> byTarget;
    for (const RunRecord &r : history.runs()) {
        const ScenarioRecord *s = scenarioOf(r, scenario);
        if (!s || (ownRuns && r.sample))
            continue;
        const TuningContract contract = TuningContract::of(r, *s, policy);
        Seen &seen = byTarget[r.target];
        seen.steps.target = r.target;
        seen.steps.scenario = scenario;
        ++seen.steps.runs;
        std::string load = contract.loadText();
        if (std::find(seen.steps.loads.begin(), seen.steps.loads.end(), load) == seen.steps.loads.end()) {
            seen.steps.loads.push_back(std::move(load));
            seen.settings.push_back(contract.loadSettings());
        }
    }
    std::vector<LoadSteps> out;
    for (auto &[target, seen] : byTarget) {
        if (seen.steps.loads.size() < 2)
            continue;
        std::set<std::string> keys;
        for (const auto &a : seen.settings)
            for (const auto &b : seen.settings)
                for (const ContractDifference &d : TuningContract::fromSettings(a, {}).differences(
                         TuningContract::fromSettings(b, {})))
                    keys.insert(d.key);
        seen.steps.keys.assign(keys.begin(), keys.end());
        out.push_back(std::move(seen.steps));
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
    // Each target keeps its own baseline at each load: a contract change in load keys alone is
    // another load (LoadSteps), not a new baseline.
    std::map<std::pair<std::string, std::string>, Last> lastByTargetAndLoad;
    const bool ownRuns = ownRunsOf(history, scenario);
    for (const RunRecord &r : history.runs()) {
        const ScenarioRecord *s = scenarioOf(r, scenario);
        // A run of inferred time has no known place between two others.
        if (!s || (ownRuns && r.sample) || r.timeSource != TimeSource::Stated)
            continue;
        TuningContract contract = TuningContract::of(r, *s, policy);
        const auto key = std::pair{r.target, contract.loadText()};
        auto it = lastByTargetAndLoad.find(key);
        if (it != lastByTargetAndLoad.end() && !(it->second.contract == contract)) {
            out.push_back({r.target, scenario, r.runKey, r.timestamp, r.commit, it->second.run->runKey,
                           it->second.contract.differences(contract)});
        }
        lastByTargetAndLoad.insert_or_assign(key, Last{&r, std::move(contract)});
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
                sc.timeInferredPoints = int(std::count_if(series.points.begin(), series.points.end(),
                                                          [](const TrendPoint &p) { return p.timeInferred; }));
                // Detection always sees the whole series, so --since never moves a finding.
                SeriesChanges found = findingsOf(series, query.options);
                const auto keep = [&](auto &from, auto &to, auto timeOf) {
                    for (auto &f : from)
                        if (query.since.empty() || timeOf(f) >= query.since)
                            to.push_back(std::move(f));
                };
                keep(found.changes, sc.changes, [](const DetectedChange &c) { return c.timestamp; });
                keep(found.outliers, sc.outliers, [](const DetectedOutlier &o) { return o.timestamp; });
                keep(found.varianceChanges, sc.varianceChanges,
                     [](const DetectedVarianceChange &v) { return v.timestamp; });
                // A drift still going on at or after --since is reported.
                keep(found.drifts, sc.drifts, [](const DetectedDrift &d) { return d.toTimestamp; });
                sc.series = std::move(series);
                report.series.push_back(std::move(sc));
            }
        }
        for (BaselineChange &b : baselineChanges(history, scenario, policies))
            if (query.since.empty() || b.timestamp >= query.since)
                report.baselineChanges.push_back(std::move(b));
        for (LoadSteps &l : loadStepsOf(history, scenario, policies))
            report.loadSteps.push_back(std::move(l));
    }
    return report;
}

} // namespace plimsoll
