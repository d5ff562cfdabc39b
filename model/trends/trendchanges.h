#pragma once
// Change points across the history: every series of the chosen scenarios and metrics through
// analyzeSeries() (detectChangePoints() and what it misses: outliers, short runs, variance
// changes, drifts), each finding with the run it happened at and a verdict from the metric's
// direction; and the baseline changes — the runs where a scenario's tuning contract changed,
// which start a new series instead of counting as a change.
//
// Threading: pure functions over an immutable TrendHistory.

#include "model/trends/changepoints.h"
#include "model/trends/seriesanalysis.h"
#include "model/trends/trendhistory.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

// NotComparable: a throughput of runs at different offered rates (neither better nor worse).
// FollowsThroughput: a resource (CPU, memory) that moved with the throughput, its use per record
// within the noise.
enum class Verdict { Improvement, Regression, Unchanged, Changed, Incompatible, NotComparable, FollowsThroughput };
const char *toString(Verdict v);
// A move of `delta` (after − before) in a metric of this direction: improvement or regression;
// Changed for a neutral metric, Unchanged for no move.
Verdict verdictForDelta(Direction direction, double delta);

struct DetectedChange
{
    ChangePoint change; // index into the series' points
    std::string runKey;
    std::string timestamp;
    std::string commit;
    std::string imageDigest;
    Verdict verdict = Verdict::Changed;
    // Fewer than SeriesAnalysis::minSegment runs follow it: the next runs may confirm or undo it.
    bool provisional = false;
    // Found against its own neighbourhood (a short run, a step the windows let go).
    bool shortRun = false;
};

// One run far outside the noise of the runs either side (a noisy neighbour, a failed node): not
// a change, and left out of the change-point search.
struct DetectedOutlier
{
    Outlier outlier; // index into the series' points
    std::string runKey;
    std::string timestamp;
    std::string commit;
    Verdict verdict = Verdict::Changed; // of its departure from its neighbours
};

// The series' noise grew or shrank from this run on.
struct DetectedVarianceChange
{
    VarianceChange change; // index into the series' points
    std::string runKey;
    std::string timestamp;
    std::string commit;
    // Noisier is worse whatever the metric's direction; Changed for quieter.
    Verdict verdict = Verdict::Changed;
};

// A steady slope over a stretch of runs, instead of a staircase of small changes.
struct DetectedDrift
{
    Drift drift; // indexes into the series' points
    std::string fromRunKey, fromTimestamp;
    std::string toRunKey, toTimestamp; // the stretch's last run
    // The slope per day between the stretch's first and last runs' times; nullopt when their
    // times are equal or unreadable.
    std::optional<double> perDay;
    Verdict verdict = Verdict::Changed;
};

struct SeriesChanges
{
    TrendSeries series;
    std::vector<DetectedChange> changes;
    std::vector<DetectedOutlier> outliers;
    std::vector<DetectedVarianceChange> varianceChanges;
    std::vector<DetectedDrift> drifts;
    // Points dated by file modification or import time (TrendPoint::timeInferred): left out of
    // the change-point search, which sees the stated times alone.
    int timeInferredPoints = 0;
};

// A scenario's runs on a target at more than one load (its offered rate or load factors differ:
// TuningContract::loadText()): each load is a series of its own, and what moves between them
// is the load, not a change over time. A sweep imported as files is one of these.
struct LoadSteps
{
    std::string target;
    std::string scenario;
    std::vector<std::string> keys;  // the load keys whose values differ, sorted
    std::vector<std::string> loads; // each load's text, in the order first met
    int runs = 0;
};

// Within one load of a scenario on a target (a contract change in load keys alone is another
// load: LoadSteps), the first run under a new contract. Runs whose time is inferred take no part.
struct BaselineChange
{
    std::string target;
    std::string scenario;
    std::string runKey; // the first run under the new contract
    std::string timestamp;
    std::string commit;
    std::string previousRunKey;
    std::vector<ContractDifference> differences;
};

// `plimsoll changes` as one request. The Trends view asks the same of one series
// (annotateSeries in model/trends/trendannotations.h, with the same ChangePointOptions);
// TrendAnnotations.ChangePointsAreThoseTheChangesCommandFinds checks that they agree.
struct ChangesRequest
{
    std::string scenarioContains;     // empty: every scenario
    std::vector<std::string> metrics; // empty: every metric
    std::string since;                // report only changes at or after (normalized ISO-8601)
    ChangePointOptions options;
};

struct ChangesReport
{
    ChangesRequest query;
    std::vector<SeriesChanges> series; // every series examined, with or without changes
    std::vector<BaselineChange> baselineChanges;
    std::vector<LoadSteps> loadSteps;
    int changeCount() const; // level changes, provisional ones included
    int outlierCount() const;
    int varianceChangeCount() const;
    int driftCount() const;
    int timeInferredPoints() const; // over every series
};

ChangesReport findChanges(const TrendHistory &history, const ChangesRequest &query,
                          const ContractPolicies &policies);
// What analyzeSeries() finds in one series (what the Trends view draws), among its points of
// stated time: `changes`, `outliers`, `varianceChanges` and `drifts` of the result filled, each
// index its point's in the series.
SeriesChanges findingsOf(const TrendSeries &series, const ChangePointOptions &options);
// The level changes of findingsOf().
std::vector<DetectedChange> changesOf(const TrendSeries &series, const ChangePointOptions &options);
std::vector<BaselineChange> baselineChanges(const TrendHistory &history, const std::string &scenario,
                                            const ContractPolicies &policies);
// The scenario's targets whose runs met more than one load.
std::vector<LoadSteps> loadStepsOf(const TrendHistory &history, const std::string &scenario,
                                   const ContractPolicies &policies);

} // namespace plimsoll
