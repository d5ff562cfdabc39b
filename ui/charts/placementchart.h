#pragma once
// The Placement chart: partitions per shard as bars, the hottest shards in red. Shared by the
// Placement view and the reports.
//
// Threading: a QChart is a graphics item; build and fill it on the GUI thread.

#include "model/sizing/placement.h"
#include "model/sizing/placementrequest.h"

#include <QChart>

class QBarCategoryAxis;
class QBarSeries;
class QValueAxis;

namespace plimsoll {

// An axis from 0 to `top` with `count` ticks, a whole 1, 2 or 5 × 10^k apart, reaching at least
// `atLeast` in at most `maxSteps` steps.
struct IntegerTicks
{
    int top = 1;
    int count = 2;
};
IntegerTicks integerTicks(int atLeast, int maxSteps = 10);

class PlacementChart : public QChart
{
public:
    PlacementChart();
    // Bars for a successful placement; the title is the caller's. An unsuccessful one clears.
    // With `measured`, each shard's measured records/s beside its count, in partitions' worth
    // (records/s over the mean partition's), so an even load stands exactly as tall as its count.
    void showPlacement(const PlacementResult &placement, const PlacementLoadComparison *measured = nullptr);

private:
    QBarSeries *m_series = nullptr;
    QBarCategoryAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
};

} // namespace plimsoll
