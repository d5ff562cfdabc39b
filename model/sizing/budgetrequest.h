#pragma once
// `plimsoll budget` and the Latency budget view as one request: the budget (p99, p99.9 and
// Little's law tolerance, their defaults and domains in LatencyBudget) and the runs whose
// points it chooses among. The command line fills it from argv, the view from its widgets;
// both read the points with readBudgetPoints() and choose with LatencyBudgetSelector, so the
// window and the CLI name the same best points.
//
// readBudgetPoints() and runBudget() read the store (call them on the store's thread).

#include "model/sizing/latencybudget.h"
#include "model/scaling/ramppoints.h"

#include <string>
#include <vector>

namespace plimsoll {

class Store;

struct BudgetRequest
{
    LatencyBudget budget;
    std::vector<std::string> runs; // run keys; empty: every run in the store
};

struct BudgetPoints
{
    std::vector<LatencyPoint> points;
    // One per point: the run and scenario it came from (none when not asked for).
    std::vector<LatencyPointOrigin> origins;
    // The points that measured nothing (degenerateReason()), by index, named even when the
    // others are not: every reader lists them.
    LeftOutOrigins leftOut;
};

// Whether a read names each point's run and scenario (BudgetPoints::origins): the command line
// prints them; the view, which plots a million points and names none, leaves them out.
enum class PointOrigins { Named, Left };

// The points of `runs` (every run when empty), in store order. Throws StoreError naming a run
// key the store does not hold.
BudgetPoints readBudgetPoints(const Store &store, const std::vector<std::string> &runs = {},
                              PointOrigins origins = PointOrigins::Named);

struct BudgetAnswer
{
    BudgetPoints read;
    BudgetResult result;
    // Where a selected point came from (a point of `result`, or a selection's best).
    const LatencyPointOrigin &originOf(const BudgetedPoint &point) const { return read.origins[point.index]; }
};

BudgetAnswer runBudget(const Store &store, const BudgetRequest &request);

} // namespace plimsoll
