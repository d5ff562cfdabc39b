#pragma once
// What a sizing report says, gathered once from a store and the sizing inputs: the deployment,
// the fits behind it, placement, memory, the latency budget, caveats and the provenance of
// every run used. Renderers (Markdown, HTML, PDF) only format this; they compute nothing, so
// the three formats and the window's preview always agree.
//
// collectReport() reads the store (call it on the store's thread) and fits; the rest is plain
// values. Deterministic: the same store and inputs give an equal ReportData (fits use a fixed
// bootstrap seed, lists are sorted).

#include "model/core/spectrum.h"
#include "model/scaling/evidence.h"
#include "model/sizing/latencybudget.h"
#include "model/sizing/memorymodel.h"
#include "model/sizing/placement.h"
#include "model/scaling/ramppoints.h"
#include "model/scaling/saturation.h"
#include "model/sizing/sizing.h"
#include "model/scaling/usl.h"

#include <string>
#include <vector>

namespace plimsoll {

class Store;

struct ReportRequest
{
    SizingInputs inputs;
    SizingModelOptions options;
    EvidenceSelection evidence; // the runs the report rests on (default: every run, samples auto)
    int bootstrapResamples = 400;  // the Scaling view's band
};

// One ramp's USL fit, as the Scaling view draws it.
struct ReportFit
{
    std::string runKey;
    std::string prefix; // scenario prefix with its trailing '/'
    std::string factor;
    std::string metric;
    std::vector<RampPoint> points;
    UslFit fit;
    SaturationResult saturation;
    // The target's per-unit load lies beyond the largest measured N of this ramp.
    bool extrapolated = false;
    // The latency percentile spectrum of the ramp's steps: the first family (latency first) of
    // which they state two percentiles or more; empty when they state fewer.
    std::string spectrumFamily;
    std::vector<SpectrumLine> spectrum;
};

struct ReportRun
{
    std::string runKey;
    std::string name; // the user's (`plimsoll name`): the report names the run by it, with its key
    std::string timestamp;
    std::string tool;
    std::string toolVersion;
    std::string target;
    std::string commit;
    std::string imageDigest;
    bool sample = false;
    std::string sourceUri;
    std::string sourceFormat;
    std::string sourceSha256;
    std::string importer;
    std::string importerVersion;
    bool usedBySizing = false; // named in a line of the sizing's reasoning or a fit
};

struct ReportData
{
    bool ok = false;
    std::string error;
    SizingInputs inputs;
    SizingModelOptions options;
    SizingResult sizing;
    std::vector<std::string> modelNotes; // what was missing and which default stands in
    std::string evidence;                // the selection, for people
    std::string evidenceNote;            // on the sample runs and which runs answer for what (Evidence::note)
    std::vector<ComponentEvidence> components; // whose runs answer for each model
    std::vector<ReportFit> fits;
    // The sizing's own placement, partition model and memory estimate (SizingResult): the report
    // prints what the sizing computed, once, never an estimate of its own.
    PlacementResult placement;
    PartitionPlan placementRecommendation;
    MemoryEstimate memory;
    LatencyBudget budget;
    BudgetResult budgetResult;
    std::vector<LatencyPointOrigin> budgetOrigins; // one per budgetResult.points entry
    EvidenceSource budgetEvidence = EvidenceSource::None; // whose runs the budget's points are
    std::vector<std::string> caveats;
    std::vector<ReportRun> runs; // sorted by run key
    std::string plimsollVersion;
};

// Throws StoreError for a named run that is not in the store. A sizing that cannot be made
// (no ramp in the store) gives ok = false with the reason in error.
ReportData collectReport(const Store &store, const ReportRequest &request,
                         const std::string &plimsollVersion);

} // namespace plimsoll
