#pragma once
// The part of a store's history a comparison of two runs reads: the two runs whole, and for each
// scenario the current run measured, the recent runs of that scenario on the current run's
// target up to the current run (that scenario only) — the series a delta's noise comes from.
// Every other scenario and every later run stay unread, so comparing costs the same on a store
// of a thousand runs or a million.
//
// compareRuns() over this history gives what it gives over the whole store while no chosen
// scenario has more than `perScenario` runs on that target before the current run (a nightly
// series of more than five years at the default); beyond it, the noise band and its change
// points come from the newest `perScenario` runs of the series.
//
// Threading: reads through the Store it is given (use it on that Store's thread).

#include "model/trends/runcomparison.h"
#include "model/trends/runscomparison.h"
#include "model/store/store.h"
#include "model/trends/trendhistory.h"

#include <cstdint>
#include <optional>
#include <string>

namespace plimsoll {

inline constexpr int64_t kComparisonHistoryRuns = 2000;

// Throws std::invalid_argument naming a run that is not in the store.
TrendHistory comparisonHistory(const Store &store, const std::string &baselineRun,
                               const std::string &currentRun, int64_t perScenario = kComparisonHistoryRuns);

// `plimsoll compare` and the Compare view as one request: the runs, which of them is the
// baseline, and the options (the defaults live in ComparisonOptions). Both front ends compare
// through compareStoredRuns(), each run against the baseline over the history above (never
// fewer runs per scenario than options.historyRuns asks for), so the window and the command
// line give the same table and the same verdicts.
struct CompareRequest
{
    std::vector<std::string> runs; // ids or run keys, in the order shown
    std::size_t baseline = 0;      // runs[baseline] is the baseline
    ComparisonOptions options;
};

// Why the request cannot be compared, in words for the user ("compare needs two or more runs",
// "'omb:1aa7' is named twice (as 3 and omb:1aa7)", "no run 'x'"), or empty.
std::string compareRequestProblem(const Store &store, const CompareRequest &request);

// The baseline a nightly job compares its run against: the newest run before `currentRun` (by
// time; at the same time, the one stored first) that measured one of its scenarios on its
// target, sample runs left out. nullopt when there is none (the first night of a series).
// Throws std::invalid_argument naming a run that is not in the store.
std::optional<std::string> previousRunOf(const Store &store, const std::string &currentRun);

// Throws std::invalid_argument with compareRequestProblem()'s words.
RunsComparison compareStoredRuns(const Store &store, const CompareRequest &request,
                                 const ContractPolicies &policies);

} // namespace plimsoll
