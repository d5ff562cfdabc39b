#pragma once
// What happened in one series beyond its level changes, on top of detectChangePoints()
// (model/trends/changepoints.h), which it runs unchanged:
//
//  1. Outliers: a point far outside the noise of both its left and its right neighbours — a
//     night's spike, not a new level. Flagged with its size in noise units and left out of
//     everything below, so that it neither makes a change of its own nor distorts a segment.
//  2. Level changes: detectChangePoints() over the series without its outliers.
//  3. Short runs: within each segment, a run of a few points shifted against both the points
//     before and the points after it (a regression fixed a few runs later) — which the windows
//     miss, since a window holding the run also holds the return to normal. Tested against its
//     own neighbourhood, Bonferroni over every run examined.
//  4. Minimum segment: a change followed by fewer than `minSegment` points is provisional — the
//     last few runs of a series are not a segment of their own until more runs confirm them.
//  5. Variance changes: within the residuals of the level segments, the split that best
//     explains them as two noise levels (maximum likelihood), kept when an F-test with
//     Bonferroni over the splits examined passes; each side is examined again.
//  6. Drift: a chain of three or more level changes in one direction, at roughly even steps,
//     that a straight line explains as well (by BIC) as the steps: reported as one drift with
//     its slope per point, instead of a staircase.
//
// Indexes are the series' own (outliers included). Deterministic.
//
// Threading: pure functions over values.

#include "model/trends/changepoints.h"

#include <cstddef>
#include <vector>

namespace plimsoll {

struct SeriesAnalysisOptions
{
    ChangePointOptions changePoints;
    double outlierSigmas = 4.5; // how far outside both neighbourhoods, in noise units
    std::size_t minSegment = 5; // points a change needs after it to be more than provisional
};

struct Outlier
{
    std::size_t index = 0;
    double value = 0;
    double expected = 0; // median of its neighbours
    // (value − expected) / noise; ±infinity on a series without noise around it.
    double sigmas = 0;
    // (value / expected − 1) × 100; 0 when expected is 0.
    double percent() const { return expected == 0 ? 0 : (value / expected - 1) * 100; }
};

struct LevelChange
{
    ChangePoint change; // index into the series (outliers included)
    // Fewer than minSegment points follow: a change the next runs may confirm or undo.
    bool provisional = false;
    // Found within a segment of the windows' changes, against its own neighbourhood: a short
    // run's start or end, or a step the windows' merge let go.
    bool shortRun = false;
};

struct VarianceChange
{
    std::size_t index = 0; // first point of the new noise level
    double stddevBefore = 0;
    double stddevAfter = 0;
    double pValue = 1;
    // stddevAfter / stddevBefore (infinity from a noiseless stretch).
    double ratio() const;
};

struct Drift
{
    std::size_t from = 0; // first point of the drifting stretch
    std::size_t to = 0;   // one past its last point
    double slopePerPoint = 0;
    double valueFrom = 0; // the line's value at `from` and at `to` − 1
    double valueTo = 0;
};

struct SeriesAnalysis
{
    std::size_t minSegment = 0;
    std::vector<Outlier> outliers;
    std::vector<LevelChange> changes; // sorted; those inside a drift are not here
    std::vector<VarianceChange> varianceChanges;
    std::vector<Drift> drifts;
    // Every index a reader would mark: outliers, confident level changes, variance changes and
    // the start of each drift, sorted and distinct.
    std::vector<std::size_t> markedIndexes() const;
};

SeriesAnalysis analyzeSeries(const std::vector<double> &series, const SeriesAnalysisOptions &options = {});

// The same, the level-change search carried on from `state` (detectChangePoints' incremental
// form, over the series without its outliers): only what changed since is examined again.
// `reexaminedFrom`, when given, is set to the first point of `series` examined again.
SeriesAnalysis analyzeSeries(const std::vector<double> &series, const SeriesAnalysisOptions &options,
                             ChangePointState &state, std::size_t *reexaminedFrom = nullptr);

} // namespace plimsoll
