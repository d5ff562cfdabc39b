#pragma once
// What the Trends view draws beside the points of one metric of one scenario: the change
// points of each series (one per tuning contract) and the runs where the contract changed.
// Computed in the background (it reads the store and runs the detector); plain values.

#include "model/trendchanges.h"

#include <string>
#include <vector>

namespace plimsoll {

struct PointMark
{
    std::string runKey;
    std::string contract; // canonical contract of the point's series
    bool changePoint = false;
    Verdict verdict = Verdict::Changed;
    double forwardChangePercent = 0;
    double pValue = 1;
    // The first run under a new contract: its differences from the run before.
    bool newBaseline = false;
    std::vector<ContractDifference> differences;
};

struct AnnotatedSeries
{
    std::string scenario;
    std::string metric;
    std::vector<SeriesPoint> points; // oldest first, every contract
    std::vector<PointMark> marks;    // parallel to points
};

// Opens its own Store on `storePath`: call from a worker thread.
AnnotatedSeries annotateSeries(const std::string &storePath, const std::string &scenario,
                               const std::string &metric, const ChangePointOptions &options = {});

} // namespace plimsoll
