#include "ui/views/trendannotations.h"

#include "model/downsample.h"
#include "model/store.h"
#include "ui/formatting.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

namespace plimsoll {

namespace {

// One series as TrendHistory::series() cuts it: a target under one contract.
struct SeriesCut
{
    std::vector<double> values;       // every point, as change detection sees them
    std::vector<std::ptrdiff_t> point; // the point each value is drawn as (-1: unreadable time)
};

} // namespace

std::vector<int> marksToDraw(const AnnotatedSeries &series, const std::vector<int> &marked,
                             double fromMs, double toMs, bool byLargestMove,
                             const std::function<bool(int)> &keep)
{
    std::vector<int> inRange;
    for (const int i : marked) {
        const double ms = series.points[std::size_t(i)].timeMs;
        if (ms >= fromMs && ms <= toMs && (!keep || keep(i)))
            inRange.push_back(i);
    }
    if (inRange.size() <= kMaxDrawnMarks)
        return inRange;
    const auto move = [&series](int i) {
        return std::abs(series.marks[std::size_t(i)].forwardChangePercent);
    };
    const double span = std::max(toMs - fromMs, 1.0);
    std::vector<int> best(kMaxDrawnMarks, -1);
    for (const int i : inRange) {
        const double at = (series.points[std::size_t(i)].timeMs - fromMs) / span;
        const auto column = std::min(kMaxDrawnMarks - 1, std::size_t(at * double(kMaxDrawnMarks)));
        if (best[column] < 0 || (byLargestMove && move(i) > move(best[column])))
            best[column] = i;
    }
    std::erase(best, -1);
    return best;
}

AnnotatedSeries annotateSeries(const std::string &storePath, const std::string &scenario,
                               const std::string &metric, const ChangePointOptions &options,
                               std::size_t maxDrawn, const std::function<bool()> &stopped)
{
    const auto giveUpWhenStopped = [&stopped] {
        if (stopped && stopped())
            throw std::runtime_error("the series was no longer wanted");
    };
    AnnotatedSeries out;
    out.scenario = scenario;
    out.metric = metric;
    const ContractPolicy policy = ContractPolicies::load(storePath).forScenario(scenario);

    // Contracts met so far. A nightly series is tuned alike for long stretches, so the contract
    // of the run before is reused while its inputs (tuning, tool, topology) are the same.
    std::vector<TuningContract> contracts;
    std::map<std::string, int> contractIndex; // by canonical text
    struct Inputs
    {
        nlohmann::json tuning;
        std::string tool, toolVersion;
        Topology topology;
    };
    std::optional<Inputs> lastInputs;
    int lastContract = -1;
    const auto contractOf = [&](const RunRecord &run, const ScenarioRecord &s) {
        if (lastInputs && lastInputs->tuning == run.tuning && lastInputs->tool == run.tool &&
            lastInputs->toolVersion == run.toolVersion && lastInputs->topology == s.topology)
            return lastContract;
        TuningContract contract = TuningContract::of(run, s, policy);
        const auto [it, added] = contractIndex.emplace(contract.canonical(), int(contracts.size()));
        if (added) {
            contracts.push_back(std::move(contract));
            out.contracts.push_back(it->first);
        }
        lastInputs = Inputs{run.tuning, run.tool, run.toolVersion, s.topology};
        lastContract = it->second;
        return lastContract;
    };

    std::vector<SeriesCut> cuts;
    std::map<std::pair<std::string, int>, std::size_t> cutIndex; // (target, contract) -> cut
    std::map<std::string, int> lastContractOfTarget; // each target keeps its own baseline
    std::shared_ptr<const nlohmann::json> tuning = std::make_shared<const nlohmann::json>();
    std::map<std::string, int> targetIndex;

    RunRecordFilter filter;
    filter.onlyScenario = scenario;
    std::size_t visited = 0;
    // Sample runs wait aside: they are drawn only when no run of one's own measured the metric
    // (as TrendHistory::series() cuts it).
    std::vector<RunRecord> samples;
    bool ownPoint = false;
    const auto visit = [&](RunRecord &&run) {
        const ScenarioRecord &s = run.scenarios.front(); // the first of that name, as TrendHistory
        const int contract = contractOf(run, s);
        PointMark mark;
        mark.contract = contract;
        const auto last = lastContractOfTarget.find(run.target);
        if (last != lastContractOfTarget.end() && last->second != contract) {
            mark.newBaseline = true;
            mark.differences = contracts[std::size_t(last->second)].differences(
                contracts[std::size_t(contract)]);
        }
        lastContractOfTarget.insert_or_assign(run.target, contract);
        const auto value = s.metric(metric);
        if (!value)
            return;
        const auto [cut, added] = cutIndex.emplace(std::pair{run.target, contract}, cuts.size());
        if (added)
            cuts.emplace_back();
        SeriesCut &series = cuts[cut->second];
        series.values.push_back(*value);
        // Only a point with a readable time can be placed on the time axis.
        const QDateTime time = parseStoredTimestamp(run.timestamp);
        if (!time.isValid()) {
            series.point.push_back(-1);
            return;
        }
        series.point.push_back(std::ptrdiff_t(out.points.size()));
        if (*tuning != run.tuning)
            tuning = std::make_shared<const nlohmann::json>(std::move(run.tuning));
        const auto [target, newTarget] = targetIndex.emplace(run.target, int(out.targets.size()));
        if (newTarget)
            out.targets.push_back(run.target);
        out.points.push_back({std::move(run.runKey), std::move(run.timestamp), std::move(run.commit),
                              std::move(run.imageDigest), tuning, *value,
                              double(time.toMSecsSinceEpoch()), target->second});
        out.marks.push_back(std::move(mark));
    };
    Store(storePath).forEachRun(filter, [&](int64_t, RunRecord &&run) {
        if (++visited % 4096 == 0)
            giveUpWhenStopped();
        if (run.sample) {
            if (run.scenarios.front().metric(metric))
                samples.push_back(std::move(run));
            return;
        }
        ownPoint = ownPoint || run.scenarios.front().metric(metric).has_value();
        visit(std::move(run));
    });
    if (ownPoint)
        out.samplesLeftOut = int(samples.size());
    else
        for (RunRecord &run : samples)
            visit(std::move(run));

    giveUpWhenStopped();
    const Direction direction = trendDirection(metric);
    for (const SeriesCut &series : cuts) {
        // What changesOf() reports for the same series.
        for (const ChangePoint &cp : detectChangePoints(series.values, options).strong) {
            const std::ptrdiff_t at = series.point[cp.index];
            if (at < 0)
                continue;
            PointMark &m = out.marks[std::size_t(at)];
            m.changePoint = true;
            m.verdict = verdictForDelta(direction, cp.meanAfter - cp.meanBefore);
            m.forwardChangePercent = cp.forwardChangePercent();
            m.pValue = cp.pValue;
        }
    }
    for (std::size_t i = 0; i < out.marks.size(); ++i) {
        if (out.marks[i].changePoint)
            out.changePoints.push_back(int(i));
        if (out.marks[i].newBaseline)
            out.newBaselines.push_back(int(i));
    }

    if (out.points.empty())
        return out;
    std::vector<double> x, y;
    x.reserve(out.points.size());
    y.reserve(out.points.size());
    out.minValue = std::numeric_limits<double>::max();
    out.maxValue = std::numeric_limits<double>::lowest();
    for (const ChartPoint &p : out.points) {
        x.push_back(p.timeMs);
        y.push_back(p.value);
        out.minValue = std::min(out.minValue, p.value);
        out.maxValue = std::max(out.maxValue, p.value);
    }
    const auto [first, last] = std::minmax_element(x.begin(), x.end());
    out.firstMs = *first;
    out.lastMs = *last;
    out.drawn = lttbIndices(x, y, maxDrawn);
    out.drawnChangePoints = marksToDraw(out, out.changePoints, out.firstMs, out.lastMs, true);
    out.drawnNewBaselines = marksToDraw(out, out.newBaselines, out.firstMs, out.lastMs, false);
    return out;
}

} // namespace plimsoll
