#pragma once
// A fit across runs, as one request: the runs chosen (an evidence selection), the sweep over
// them (factor, metric, scenarios, contract keys left out), the USL and knee options and the
// loads to predict at. `plimsoll fit` fills it from argv, the Scaling view's Across runs panel
// from its widgets; runSweepFit() is the one implementation both call, so the window and the
// command line fit the same points to the same numbers.
//
// runSweepFit() reads the store (call it on the store's thread); the rest is pure.

#include "model/scaling/evidence.h"
#include "model/scaling/kneedetect.h"
#include "model/scaling/sweep.h"
#include "model/scaling/usl.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

class Store;

struct SweepFitRequest
{
    EvidenceSelection evidence;
    // spec.scenarioContains, when empty, takes the selection's scenario text: a run chosen for
    // having a scenario named so contributes only those scenarios.
    SweepSpec spec;
    UslOptions usl;
    KneeOptions knee;
    std::vector<double> predict; // load factor values (> 0)

    // The field at fault and what is wrong with it, phrased to follow the field's name
    // ("must be more than 1 ..."); nullopt when the request can run.
    struct Problem
    {
        enum Field { Factor, KneeLatencyFactor, Predict } field;
        std::string message;
    };
    std::optional<Problem> validate() const;
};

// The median p99 of the points at one x.
struct P99AtLoad
{
    double x = 0;
    double p99 = 0; // seconds
    int points = 0; // points at this x that state a p99
};

struct SweepFitResult
{
    // True when the sweep assembled and its points answer something (fit.answer: a capacity
    // fit, the knee of an offered-rate sweep, or latency against load). Otherwise `error` says
    // why, with `sweep.conflicts` naming the keys that differ when contracts clash and
    // `sweep.workloads` the workloads when the selection holds several.
    bool ok = false;
    std::string error;

    std::string selection;     // EvidenceSelection::describe()
    std::string evidenceNote;  // Evidence::note: the sample runs left out or sized from
    int runsSelected = 0;      // runs the selection read, sample runs left out as chosen
    Sweep sweep;
    SweepFit fit;
    std::vector<P99AtLoad> p99AgainstLoad; // by x
    std::vector<UslPrediction> predictions; // one per request.predict, in order
};

// Reads the selected runs, assembles the sweep and fits it. Throws StoreError when the store
// cannot be read or holds no run picked by hand; a refused sweep or a failed fit is a result.
SweepFitResult runSweepFit(const Store &store, const SweepFitRequest &request);

// The same over runs already read (what a caller holding the runs fits).
SweepFitResult fitSweepOf(const Evidence &evidence, const SweepFitRequest &request);

// p99 against load: the median p99 of the points at each x (points without one are skipped).
std::vector<P99AtLoad> p99AgainstLoad(const Sweep &sweep);

// Why a fit's parameters have no interval ("bootstrap turned off", "2 points for 2 free
// parameters: no residual degrees of freedom", ...); empty when they have one.
std::string noIntervalReason(const UslFit &fit, const UslOptions &options);

} // namespace plimsoll
