#pragma once
// The Placement chart: partitions per shard as bars, the hottest shards in red. Shared by the
// Placement view and the reports.
//
// Threading: a QChart is a graphics item; build and fill it on the GUI thread.

#include "model/placement.h"

#include <QChart>

class QBarCategoryAxis;
class QBarSeries;
class QValueAxis;

namespace plimsoll {

class PlacementChart : public QChart
{
public:
    PlacementChart();
    // Bars for a successful placement; the title is the caller's. An unsuccessful one clears.
    void showPlacement(const PlacementResult &placement);

private:
    QBarSeries *m_series = nullptr;
    QBarCategoryAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
};

} // namespace plimsoll
