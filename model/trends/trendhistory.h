#pragma once
// The history the trend analyses read: every run (with its scenarios and metrics) of a store,
// oldest first, and the series cut from it. A series is one (target, scenario, metric, tuning
// contract): runs under another contract are another series, never more points of this one —
// the contract holds the load a scenario ran at (its offered rate and load factors), so a sweep's
// steps are as many series, never one history.
//
// Threading: load() reads through the Store it is given (use it on that Store's thread);
// a loaded TrendHistory is an immutable value that any thread may read.

#include "model/core/catalog.h"
#include "model/store/store.h"
#include "model/core/tuningcontract.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct TrendPoint
{
    std::size_t run = 0; // index into TrendHistory::runs()
    std::string runKey;
    std::string timestamp;
    std::string commit;
    std::string imageDigest;
    nlohmann::json tuning;
    double value = 0;
    // Dated by its file's modification time or the time of import (RunRecord::timeSource): its
    // place in the series is not known, so no change point is searched for through it.
    bool timeInferred = false;
};

struct TrendSeries
{
    std::string target;
    std::string scenario;
    std::string metric;
    Direction direction = Direction::Neutral;
    TuningContract contract;
    std::vector<TrendPoint> points; // oldest first

    std::vector<double> values() const;
};

// Higher or lower is better: the catalog's word for its metrics; a tool-specific (dotted or
// unknown) name is lower-is-better when it names a latency, otherwise neutral.
Direction trendDirection(const std::string &metric);

class TrendHistory
{
public:
    // Runs having a scenario whose name contains `scenarioContains` (all runs when empty).
    static TrendHistory load(const Store &store, const std::string &scenarioContains = {});
    static TrendHistory fromRuns(std::vector<RunRecord> runs); // sorted here by time, key

    const std::vector<RunRecord> &runs() const { return m_runs; }
    const RunRecord *findRun(const std::string &idOrKey) const;
    std::vector<std::string> scenarioNames(const std::string &contains = {}) const;
    std::vector<std::string> metricNames(const std::string &scenario) const;

    // Every series of one metric of one scenario, ordered by their first point. Sample runs
    // take part only while no run of one's own measured the metric.
    std::vector<TrendSeries> series(const std::string &scenario, const std::string &metric,
                                    const ContractPolicies &policies) const;
    // The series the given run belongs to for this scenario and metric, restricted to points
    // before that run (the run itself excluded) — the recent history a delta is judged by.
    std::optional<TrendSeries> historyBefore(const RunRecord &run, const std::string &scenario,
                                             const std::string &metric,
                                             const ContractPolicies &policies) const;

private:
    std::vector<RunRecord> m_runs;
    std::vector<int64_t> m_ids; // store ids, parallel to m_runs (0 when built from records)
};

} // namespace plimsoll
