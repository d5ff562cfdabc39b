#pragma once
// The runs a sizing, a fit or a report rests on, as the user chose them: every run, the runs a
// filter selects (scenario, tool, target, time), or runs picked by hand — with the sample runs
// answering for what the user's own runs do not measure (SampleRuns::Auto). The CLI's --run, --scenario, --tool,
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

// Whether the sample runs (`plimsoll samples install`) take part. Auto, for a sizing: per model —
// the user's own runs answer for what they measure and the samples for the rest, each number
// labelled (readSizingEvidence; fitSizingModelsPerComponent, model/sizing/sizingmodels.h); for a
// fit, the samples step aside once the selection holds a run of one's own with sizing evidence.
// Include pools them with the user's runs everywhere; Exclude leaves them out.
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
    std::vector<RunRecord> runs; // the selected runs, sample runs left out when asked (Exclude)
    RunSourceNames sources;      // source URI by run key (what a sweep infers a factor from)
    int samplesLeftOut = 0;      // sample runs the selection held that were left out
    int realRuns = 0;            // runs of the selection that are not samples
    // One line on the sample runs when any were selected: "1 run of your own with sizing
    // evidence replaces the 6 sample runs for what it measures", "6 sample runs left out as
    // asked"; the sizing's fit adds which runs answer for which model (fitSelectedModels).
    std::string note;
};

// The runs a filter selects (RunSelection without picked keys), as summaries: what the window
// counts while the user types, and what readEvidence() reads in full.
std::vector<RunSummary> filteredRuns(const Store &store, const RunSelection &filter);

// The runs `selection` chooses. With `sizingOnly`, a filter reads only the runs that carry what
// the sizing models learn from (readSizingRuns), which on a store of nightly history is far
// fewer; picked runs are always read. Throws StoreError naming a picked run the store does not
// hold.
// For a fit: on Auto the samples are left out once the selection holds a run of one's own with
// sizing evidence.
Evidence readEvidence(const Store &store, const EvidenceSelection &selection, bool sizingOnly);
// For a sizing (and its report): on Auto the samples stay, to answer per model for what the
// user's runs do not measure (fitSelectedModels).
Evidence readSizingEvidence(const Store &store, const EvidenceSelection &selection, bool sizingOnly);

} // namespace plimsoll
