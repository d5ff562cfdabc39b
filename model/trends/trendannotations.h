#pragma once
// What the Trends view draws for one metric of one scenario, computed in the background: the
// points (one per run that measured the metric, oldest first), the change points, outliers and
// noise changes of each series (one per target and tuning contract: analyzeSeries()), the runs where the contract changed, and which points
// the chart draws when there are more than it can show (LTTB keeping the extremes). Plain values.
//
// Sized for years of nightly history: the scenario's runs are read in one pass in time order
// (Store::forEachTrendRun) and no run is kept whole — a million points cost a few hundred bytes
// each, and the UI thread only ever touches the drawn selection and the marks. Change points are
// searched for only where runs landed since the last read (ChangePointState, kept in the store).

#include "model/store/textblocks.h"
#include "model/trends/trendchanges.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

struct ChartPoint
{
    // Views into the series' text (AnnotatedSeries::text): valid as long as the series is.
    std::string_view runKey;
    std::string_view timestamp; // as stored (ISO-8601 UTC)
    std::string_view commit;
    std::string_view imageDigest;
    std::shared_ptr<const nlohmann::json> tuning; // shared by consecutive runs tuned alike
    double value = 0;                             // SI, as stored
    double timeMs = 0;                            // the point's x: ms since the epoch
    int target = 0;                               // index into AnnotatedSeries::targets
};

struct PointMark
{
    int contract = -1; // index into AnnotatedSeries::contracts: the tuning contract of its series
    bool changePoint = false;
    bool provisional = false; // a change among its series' last SeriesAnalysis::minSegment points
    Verdict verdict = Verdict::Changed;
    double forwardChangePercent = 0;
    double pValue = 1;
    // Far outside the noise of the runs either side: left out of the change-point search.
    bool outlier = false;
    double outlierSigmas = 0; // ±infinity beside runs without noise
    double outlierPercent = 0;
    Verdict outlierVerdict = Verdict::Changed;
    // The series' noise changes from this point on.
    bool noiseChange = false;
    double noiseRatio = 1; // standard deviation after / before
    double noisePValue = 1;
    // The first run under a new contract (at its load, on its target): its differences from
    // the run before.
    bool newBaseline = false;
    // Dated by its file's modification time or the time of import: no change point is searched
    // for through it (TrendPoint::timeInferred), and the chart marks it.
    bool timeInferred = false;
    std::vector<ContractDifference> differences;
};

// A stretch of runs whose level moves steadily (SeriesAnalysis's Drift), in the series' points.
struct DriftSpan
{
    int from = 0, to = 0;            // its first and last point (inclusive)
    double valueFrom = 0, valueTo = 0; // the fitted line at those points, SI
    Verdict verdict = Verdict::Changed;
    // (valueTo − valueFrom) per day between the two points' times (0 when they share one).
    double perDay = 0;
    double changePercent() const { return valueFrom != 0 ? 100 * (valueTo - valueFrom) / valueFrom : 0; }
};

struct AnnotatedSeries
{
    std::string scenario;
    std::string metric;
    std::vector<ChartPoint> points;     // oldest first, every contract; only readable times
    // What the points' text fields view (shared by copies of the series).
    std::shared_ptr<TextBlocks> text = std::make_shared<TextBlocks>();
    std::vector<PointMark> marks;       // parallel to points
    std::vector<std::string> contracts; // canonical text of each contract met
    // The loads met (TuningContract::loadText(), "" for a scenario that states none), and the
    // load of each contract: points at two loads are two series (a sweep), never one history.
    std::vector<std::string> loads;
    std::vector<int> loadOfContract; // parallel to contracts: index into loads
    std::vector<int> pointsPerLoad;  // parallel to loads
    int timeInferredPoints = 0;      // points whose mark says timeInferred
    std::vector<std::string> targets;   // the targets of the points, in the order first met
    std::vector<std::size_t> drawn;     // ascending indices of the points the chart draws
    std::vector<int> changePoints;      // indices of points that are change points
    std::vector<int> newBaselines;      // indices of points that start a new contract at their load
    std::vector<int> outliers;          // indices of points that are outliers
    std::vector<int> noiseChanges;      // indices of points where a series' noise changes
    std::vector<DriftSpan> drifts;      // oldest first
    // The marks the chart draws: all of them when they fit, else per column of time the change
    // with the largest move and the first new contract (kMaxDrawnMarks columns).
    std::vector<int> drawnChangePoints;
    std::vector<int> drawnNewBaselines;
    double minValue = 0, maxValue = 0;  // over every point, SI
    double firstMs = 0, lastMs = 0;
    int samplesLeftOut = 0; // sample runs with the metric, left out beside runs of one's own
    // Values the change-point search examined in this read; the rest of each series was
    // examined by an earlier read and kept in the store (the runs before those that landed).
    std::size_t valuesExamined = 0;
};

// Past a few points per pixel column a chart only gets slower, not more exact: a longer series
// is drawn as this many LTTB-chosen points plus its global minimum and maximum.
inline constexpr std::size_t kMaxDrawnTrendPoints = 2000;
// A noisy metric over years can have change points by the hundred thousand; more marks than
// pixel columns only hide each other (and Qt Charts makes each one a graphics item).
inline constexpr std::size_t kMaxDrawnMarks = 250;

// Of the marked points `marked` (ascending indices into series.points), those with a time in
// [fromMs, toMs] (and that `keep` accepts, when given) that the chart draws: every one when they
// fit, else per column of that time span the change with the largest move (`byLargestMove`) or the
// first. Cheap: visits `marked` only.
std::vector<int> marksToDraw(const AnnotatedSeries &series, const std::vector<int> &marked,
                             double fromMs, double toMs, bool byLargestMove,
                             const std::function<bool(int)> &keep = {});

// Opens its own Store on `storePath`: call from a worker thread. The same change points and
// contract changes as `plimsoll changes` finds (TrendHistory, findChanges) for this
// scenario and metric; what it examined is kept in the store for the next read. When `stopped`
// turns true (a newer choice made this one stale) it gives up, throwing std::runtime_error.
AnnotatedSeries annotateSeries(const std::string &storePath, const std::string &scenario,
                               const std::string &metric, const ChangePointOptions &options = {},
                               std::size_t maxDrawn = kMaxDrawnTrendPoints,
                               const std::function<bool()> &stopped = {});

} // namespace plimsoll
