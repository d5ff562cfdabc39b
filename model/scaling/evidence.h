#pragma once
// The runs a sizing, a fit or a report rests on, as the user chose them: every run, the runs a
// filter selects (scenario, tool, target, time), or runs picked by hand — with the sample runs
// left out by default once the selection holds real ones. The CLI's --run, --scenario, --tool,
// --target, --since, --until and --samples and the window's evidence chooser fill the same
// EvidenceSelection and read it through readEvidence(), so a sizing in the window and one on
// the command line rest on the same runs and give the same numbers.
//
// readEvidence() reads the store (call it on the store's thread); the rest is pure.

#include "model/core/records.h"
#include "model/store/store.h"
#include "model/scaling/sweep.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

// Whether the sample runs (`plimsoll samples install`) take part. Auto: only while the
// selection holds no real run, so a store that has its own measurements sizes from them.
enum class SampleRuns { Auto, Include, Exclude };
const char *toString(SampleRuns samples);
std::optional<SampleRuns> sampleRunsFromString(const std::string &text);

struct EvidenceSelection
{
    RunSelection runs; // picked keys and/or a filter; nothing set: every run
    SampleRuns samples = SampleRuns::Auto;

    // For people: "every run", "3 runs picked by hand", "runs of tool 'korvet-bench' since
    // 2026-01-01"; with ", sample runs included" / "excluded" when not Auto.
    std::string describe() const;
    bool operator==(const EvidenceSelection &) const = default;
};

// since/until as normalized ISO-8601 times (a bare date is its midnight, UTC); nullopt with the
// reason when one is not a date or time.
std::optional<RunSelection> normalizedSelection(RunSelection selection, std::string *error);

struct Evidence
{
    std::vector<RunRecord> runs; // the selected runs, sample runs left out as chosen
    RunSourceNames sources;      // source URI by run key (what a sweep infers a factor from)
    int samplesLeftOut = 0;      // sample runs the selection held that were left out
    int realRuns = 0;            // runs of the selection that are not samples
    // One line on the sample runs when any were selected: "6 sample runs left out: the
    // selection holds 3 real runs" or "sizing from the 6 sample runs: no real run has …".
    std::string note;
};

// The runs a filter selects (RunSelection without picked keys), as summaries: what the window
// counts while the user types, and what readEvidence() reads in full.
std::vector<RunSummary> filteredRuns(const Store &store, const RunSelection &filter);

// The runs `selection` chooses. With `sizingOnly`, a filter reads only the runs that carry what
// the sizing models learn from (readSizingRuns), which on a store of nightly history is far
// fewer; picked runs are always read. Throws StoreError naming a picked run the store does not
// hold.
Evidence readEvidence(const Store &store, const EvidenceSelection &selection, bool sizingOnly);

} // namespace plimsoll
