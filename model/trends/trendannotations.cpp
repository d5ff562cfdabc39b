#include "model/trends/trendannotations.h"

#include "model/trends/downsample.h"
#include "model/store/sharedsettings.h"
#include "model/store/store.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

namespace plimsoll {

namespace {

// One series as TrendHistory::series() cuts it: a target under one contract.
struct SeriesCut
{
    std::vector<double> values;       // every point, as change detection sees them
    std::vector<std::ptrdiff_t> point; // the point each value is drawn as (-1: unreadable time)
    std::string target;
    int contract = 0; // index into AnnotatedSeries::contracts
};

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t y, int m, int d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

// Of a proleptic Gregorian month (QDate's answer, without a QDate per point).
int daysInMonth(int y, int m)
{
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : kDays[m - 1];
}

// Milliseconds since the epoch of a stored time, as parseStoredTimestamp() reads it. The form
// every importer stores (2026-08-11T03:00:00Z, or with milliseconds) is read here directly,
// without a QString and a QDateTime per point of a million-point series.
std::optional<double> storedTimeMs(const std::string &t)
{
    const auto number = [&t](std::size_t at, std::size_t digits, int &value) {
        value = 0;
        for (std::size_t i = at; i < at + digits; ++i) {
            if (t[i] < '0' || t[i] > '9')
                return false;
            value = value * 10 + (t[i] - '0');
        }
        return true;
    };
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0;
    const bool plain = t.size() == 20 || (t.size() == 24 && t[19] == '.' && number(20, 3, ms));
    if (plain && t[4] == '-' && t[7] == '-' && t[10] == 'T' && t[13] == ':' && t[16] == ':' &&
        t.back() == 'Z' && number(0, 4, y) && number(5, 2, mo) && number(8, 2, d) &&
        number(11, 2, h) && number(14, 2, mi) && number(17, 2, s) && y >= 1 && mo >= 1 &&
        mo <= 12 && d >= 1 && d <= daysInMonth(y, mo) && h < 24 && mi < 60 && s < 60)
        return double((daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s) * 1000 + ms);
    // Anything else the store holds: the ISO-8601 forms normalizeTimestamp() accepts.
    const std::optional<std::string> normalized = normalizeTimestamp(t);
    if (!normalized)
        return std::nullopt;
    const QDateTime time = QDateTime::fromString(QString::fromStdString(*normalized), Qt::ISODateWithMs);
    if (!time.isValid())
        return std::nullopt;
    return double(time.toMSecsSinceEpoch());
}

constexpr char kKeySeparator = '\x1f'; // unit separator: in no name or canonical text

// What the keys of every kept examination of one metric of one scenario begin with.
std::string keptStatePrefix(const std::string &scenario, const std::string &metric)
{
    return std::string("trend1") + kKeySeparator + scenario + kKeySeparator + metric + kKeySeparator;
}

// The store's key of one series' kept examination: everything that makes it that series.
std::string keptStateKey(const std::string &scenario, const std::string &metric,
                         const std::string &target, const std::string &contract,
                         const ChangePointOptions &options)
{
    return keptStatePrefix(scenario, metric) + target + kKeySeparator + contract + kKeySeparator +
           std::to_string(options.window) + kKeySeparator + std::to_string(options.pValue);
}

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
    TextBlocks &text = *out.text;
    // Most series are one cut (one target, one contract) whose change points have not been
    // searched for yet, or searched for over fewer values: on a first read, that search is most
    // of the time after the runs are read. So the metric's values alone are read and searched
    // meanwhile on a connection and thread of their own, and that search's result stands if the
    // series is one cut of exactly those values with nothing kept (else it is not used). With
    // an examination kept for the metric, that search is not made.
    struct Speculation
    {
        std::vector<double> values;
        ChangePointState state;
        SeriesAnalysis result;
        std::size_t from = 0;
    };
    SeriesAnalysisOptions analysisOptions;
    analysisOptions.changePoints = options;
    std::future<Speculation> speculation = std::async(std::launch::async, [&] {
        Speculation s;
        const Store own(storePath);
        if (own.keepsChangePointsUnder(keptStatePrefix(scenario, metric)))
            return s; // not the first read: the kept examination is carried on instead
        s.values = own.seriesValues(scenario, metric, stopped);
        s.result = analyzeSeries(s.values, analysisOptions, s.state, &s.from);
        return s;
    });
    Store store(storePath);
    const ContractPolicy policy = loadContractPolicies(store).forScenario(scenario);
    // At most this many points: reserved (untouched memory costs nothing), so a million are never
    // copied as their vectors grow.
    const std::size_t length = store.runCountBound();
    out.points.reserve(length);
    out.marks.reserve(length);

    // Contracts met so far. A nightly series is tuned alike for long stretches, so the contract
    // of the run before is reused while its inputs (tuning, tool, topology) are the same.
    std::vector<TuningContract> contracts;
    std::map<std::string, int> contractIndex; // by canonical text
    struct Inputs
    {
        std::string tuningText, tool, toolVersion;
        Topology topology;
        std::optional<double> offeredRate;
    };
    std::optional<Inputs> lastInputs;
    int lastContract = -1;
    RunRecord contractRun; // what TuningContract::of reads of a run and its scenario
    ScenarioRecord contractScenario;
    const auto contractOf = [&](const TrendRunRow &row, const nlohmann::json &tuning) {
        if (lastInputs && lastInputs->tuningText == row.tuningText && lastInputs->tool == row.tool &&
            lastInputs->toolVersion == row.toolVersion && lastInputs->topology == row.topology &&
            lastInputs->offeredRate == row.offeredRate)
            return lastContract;
        contractRun.tuning = tuning;
        contractRun.tool = row.tool;
        contractRun.toolVersion = row.toolVersion;
        contractScenario.topology = row.topology;
        contractScenario.metrics.clear();
        if (row.offeredRate)
            contractScenario.metrics.push_back({"offered_records_per_s", *row.offeredRate});
        TuningContract contract = TuningContract::of(contractRun, contractScenario, policy);
        const auto [it, added] = contractIndex.emplace(contract.canonical(), int(contracts.size()));
        if (added) {
            const std::string load = contract.loadText();
            const auto known = std::find(out.loads.begin(), out.loads.end(), load);
            out.loadOfContract.push_back(int(known - out.loads.begin()));
            if (known == out.loads.end()) {
                out.loads.push_back(load);
                out.pointsPerLoad.push_back(0);
            }
            contracts.push_back(std::move(contract));
            out.contracts.push_back(it->first);
        }
        lastInputs = Inputs{row.tuningText, row.tool, row.toolVersion, row.topology, row.offeredRate};
        lastContract = it->second;
        return lastContract;
    };

    std::vector<SeriesCut> cuts;
    std::map<std::pair<std::string, int>, std::size_t> cutIndex; // (target, contract) -> cut
    // Each target keeps its own baseline at each load (as baselineChanges() in trendchanges.cpp).
    std::map<std::pair<std::string, int>, int> lastContractOfTarget;
    // Parsed once per distinct text, and shared by the consecutive runs tuned alike.
    std::shared_ptr<const nlohmann::json> tuning;
    std::string tuningText;
    std::map<std::string, int> targetIndex;
    // The last row's target and cut: the next row's, nearly always.
    int lastTarget = -1;
    std::size_t lastCut = 0;
    bool haveLastCut = false;
    auto lastTargetContract = lastContractOfTarget.end();

    const auto visit = [&](TrendRunRow &row) {
        if (!tuning || row.tuningText != tuningText) {
            auto parsed = nlohmann::json::parse(row.tuningText, nullptr, false);
            if (row.tuningText.empty() || parsed.is_discarded())
                parsed = nlohmann::json::object();
            tuning = std::make_shared<const nlohmann::json>(std::move(parsed));
            tuningText = row.tuningText;
        }
        const int contract = contractOf(row, *tuning);
        PointMark mark;
        mark.contract = contract;
        mark.timeInferred = row.timeInferred;
        const int load = out.loadOfContract[std::size_t(contract)];
        // A run of inferred time has no known place between two others: it starts no baseline.
        if (!row.timeInferred) {
            if (lastTargetContract == lastContractOfTarget.end() || lastTargetContract->first.first != row.target ||
                lastTargetContract->first.second != load)
                lastTargetContract = lastContractOfTarget.find(std::pair{row.target, load});
            const auto last = lastTargetContract;
            if (last == lastContractOfTarget.end()) {
                lastTargetContract = lastContractOfTarget.emplace(std::pair{row.target, load}, contract).first;
            } else if (last->second != contract) {
                mark.newBaseline = true;
                mark.differences = contracts[std::size_t(last->second)].differences(
                    contracts[std::size_t(contract)]);
                last->second = contract;
            }
        }
        if (!row.value)
            return;
        if (!haveLastCut || cuts[lastCut].contract != contract || cuts[lastCut].target != row.target) {
            auto cut = cutIndex.find(std::pair{row.target, contract});
            if (cut == cutIndex.end()) {
                cut = cutIndex.emplace(std::pair{row.target, contract}, cuts.size()).first;
                cuts.push_back({{}, {}, row.target, contract});
                if (cuts.size() == 1) { // most series are one cut: the first holds nearly every point
                    cuts.back().values.reserve(length);
                    cuts.back().point.reserve(length);
                }
            }
            lastCut = cut->second;
            haveLastCut = true;
        }
        SeriesCut &series = cuts[lastCut];
        // Only a point with a readable time can be placed on the time axis; only one whose time
        // was stated is in a known order for the change-point search (changesOf()).
        const std::optional<double> timeMs = storedTimeMs(row.timestamp);
        if (!row.timeInferred) {
            series.values.push_back(*row.value);
            series.point.push_back(timeMs ? std::ptrdiff_t(out.points.size()) : -1);
        }
        if (!timeMs)
            return;
        ++out.pointsPerLoad[std::size_t(load)];
        out.timeInferredPoints += row.timeInferred;
        if (lastTarget < 0 || out.targets[std::size_t(lastTarget)] != row.target) {
            auto target = targetIndex.find(row.target);
            if (target == targetIndex.end()) {
                target = targetIndex.emplace(row.target, int(out.targets.size())).first;
                out.targets.push_back(row.target);
            }
            lastTarget = target->second;
        }
        // A nightly history's runs share their commit or image for stretches: kept once then.
        const ChartPoint *before = out.points.empty() ? nullptr : &out.points.back();
        const auto keepText = [&text](const std::string &field, std::string_view previous) {
            return field == previous ? previous : text.keep(field);
        };
        out.points.push_back({text.keep(row.runKey), text.keep(row.timestamp),
                              keepText(row.commit, before ? before->commit : std::string_view()),
                              keepText(row.imageDigest, before ? before->imageDigest : std::string_view()),
                              tuning, *row.value, *timeMs, lastTarget});
        out.marks.push_back(std::move(mark));
    };
    std::size_t visited = 0;
    // Sample runs wait aside: they are drawn only when no run of one's own measured the metric
    // (as TrendHistory::series() cuts it).
    std::vector<TrendRunRow> samples;
    bool ownPoint = false;
    store.forEachTrendRun(scenario, metric, [&](TrendRunRow &row) {
        if (++visited % 4096 == 0)
            giveUpWhenStopped();
        if (row.sample) {
            if (row.value)
                samples.push_back(row);
            return;
        }
        ownPoint = ownPoint || row.value.has_value();
        visit(row);
    }, stopped);
    if (ownPoint)
        out.samplesLeftOut = int(samples.size());
    else
        for (TrendRunRow &row : samples)
            visit(row);

    giveUpWhenStopped();
    const Direction direction = trendDirection(metric);
    // Each series' examination is kept in the store: the next read examines only the runs that
    // landed since (or changed), with the same result as examining the whole series.
    std::vector<std::pair<std::string, std::string>> keep;
    for (const SeriesCut &series : cuts) {
        const std::string key = keptStateKey(scenario, metric, series.target,
                                             out.contracts[std::size_t(series.contract)], options);
        ChangePointState state;
        if (const auto bytes = store.keptChangePoints(key))
            state = ChangePointState::parse(*bytes).value_or(ChangePointState{});
        const ChangePointState before = state;
        std::size_t from = 0;
        // What changesOf() reports for the same series: the search made meanwhile when it was of
        // these values from nothing kept, as this one would be.
        SeriesAnalysis result;
        std::optional<Speculation> searched;
        if (cuts.size() == 1 && state == ChangePointState{}) {
            try {
                searched = speculation.get();
            } catch (const std::exception &) {
                // Not read (a busy team store, a stop): searched here instead.
            }
        }
        if (searched && searched->values == series.values) {
            result = std::move(searched->result);
            state = std::move(searched->state);
            from = searched->from;
        } else {
            result = analyzeSeries(series.values, analysisOptions, state, &from);
        }
        out.valuesExamined += series.values.size() - from;
        if (!(state == before))
            keep.emplace_back(key, state.serialize());
        for (const LevelChange &lc : result.changes) {
            const ChangePoint &cp = lc.change;
            const std::ptrdiff_t at = series.point[cp.index];
            if (at < 0)
                continue;
            PointMark &m = out.marks[std::size_t(at)];
            m.changePoint = true;
            m.provisional = lc.provisional;
            m.verdict = verdictForDelta(direction, cp.meanAfter - cp.meanBefore);
            m.forwardChangePercent = cp.forwardChangePercent();
            m.pValue = cp.pValue;
        }
        for (const Outlier &o : result.outliers) {
            const std::ptrdiff_t at = series.point[o.index];
            if (at < 0)
                continue;
            PointMark &m = out.marks[std::size_t(at)];
            m.outlier = true;
            m.outlierSigmas = o.sigmas;
            m.outlierPercent = o.percent();
            m.outlierVerdict = verdictForDelta(direction, o.value - o.expected);
        }
        for (const Drift &d : result.drifts) {
            const std::ptrdiff_t first = series.point[d.from], last = series.point[d.to - 1];
            if (first < 0 || last < 0 || last <= first)
                continue;
            DriftSpan span{int(first), int(last), d.valueFrom, d.valueTo,
                           verdictForDelta(direction, d.valueTo - d.valueFrom), 0};
            const double days = (out.points[std::size_t(last)].timeMs - out.points[std::size_t(first)].timeMs) / 86'400'000.0;
            if (days > 0)
                span.perDay = (d.valueTo - d.valueFrom) / days;
            out.drifts.push_back(span);
        }
        for (const VarianceChange &v : result.varianceChanges) {
            const std::ptrdiff_t at = series.point[v.index];
            if (at < 0)
                continue;
            PointMark &m = out.marks[std::size_t(at)];
            m.noiseChange = true;
            m.noiseRatio = v.ratio();
            m.noisePValue = v.pValue;
        }
    }
    store.keepChangePoints(keep);
    std::sort(out.drifts.begin(), out.drifts.end(),
              [](const DriftSpan &a, const DriftSpan &b) { return a.from < b.from; });
    for (std::size_t i = 0; i < out.marks.size(); ++i) {
        if (out.marks[i].changePoint)
            out.changePoints.push_back(int(i));
        if (out.marks[i].newBaseline)
            out.newBaselines.push_back(int(i));
        if (out.marks[i].outlier)
            out.outliers.push_back(int(i));
        if (out.marks[i].noiseChange)
            out.noiseChanges.push_back(int(i));
    }

    // Reserved for every run of the store: given back when the series is a small part of them.
    if (out.points.size() < out.points.capacity() / 2) {
        out.points.shrink_to_fit();
        out.marks.shrink_to_fit();
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
