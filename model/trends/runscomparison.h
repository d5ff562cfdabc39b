#pragma once
// Any number of runs side by side against one baseline: each run's scenarios aligned with the
// baseline's (model/trends/scenarioalignment.h), each run compared with the baseline as two runs
// are (model/trends/runcomparison.h: the delta judged against its series' noise, Holm over each
// pair), and the table a reader reads — per scenario of the baseline and metric, each run's value,
// its delta against the baseline and that pair's verdict — with a sentence saying how scenarios
// were aligned ("aligned by partitions: 100 ↔ 5,000").
//
// Threading: pure functions.

#include "model/trends/runcomparison.h"
#include "model/trends/scenarioalignment.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct RunCell
{
    std::string scenario;                // the run's scenario on this row; empty: it has none aligned
    std::optional<double> value;         // none: the run did not measure the metric
    std::optional<double> deltaPercent;  // against the baseline; none for the baseline itself
    std::optional<Verdict> verdict;      // the pair's verdict; none for the baseline
    std::string note;                    // why the verdict is what it is, when not plain
};

struct ComparedRow
{
    std::string scenario; // the baseline's
    std::string metric;
    Direction direction = Direction::Neutral;
    std::vector<RunCell> cells; // one per run, in the order of RunsComparison::runs
};

struct RunsComparison
{
    std::vector<RunIdentity> runs; // in the order asked, the baseline among them
    std::size_t baseline = 0;
    ComparisonOptions options;
    std::vector<ScenarioAlignment> alignments; // per run against the baseline (the baseline's: by name)
    std::vector<RunComparison> pairs;          // per run against the baseline (the baseline's: empty)
    std::vector<ComparedRow> rows;

    bool empty() const { return runs.empty(); }
    // The pair of a two-run comparison (the nightly gate reads it whole).
    const RunComparison &onlyPair() const { return pairs[baseline == 0 ? 1 : 0]; }
    bool hasRegression() const;
    int count(Verdict v) const; // over every pair
    // "aligned by name", "aligned by partitions: 100 ↔ 5,000", "aligned by position (one scenario
    // each)", or per run when they differ ("run-b by name; run-c by clients: 50 ↔ 10").
    std::string alignmentText() const;
    // Scenarios of a run that align with no scenario of the baseline, and the baseline's with none in it.
    std::vector<std::string> unalignedOf(std::size_t run) const;
};

// `records` are the runs in the order asked, whole; `pairs` each run's comparison with
// records[baseline] (compareRuns with the alignment's pairing), the baseline's own left empty.
RunsComparison tabulateComparison(const std::vector<const RunRecord *> &records, std::size_t baseline,
                                  std::vector<ScenarioAlignment> alignments, std::vector<RunComparison> pairs,
                                  const ComparisonOptions &options);

} // namespace plimsoll
