#pragma once
// Tiered offload capacity: how fast sealed segments archive to the remote tier, against the
// number of streams (partitions) archived in parallel. A Universal Scalability Law fit over
// the archival runs gives the rate at N streams, and the streams needed for a target rate.
// Rates are records/s at the archived runs' record size.
//
// Pure computation; an OffloadModel is immutable once fitted.

#include "model/scaling/usl.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct OffloadSample
{
    double streams = 0; // streams archived in parallel
    double rate = 0;    // records/s archived
    double recordBytes = 0;
    std::string runKey;
    std::string scenario;
};

struct OffloadPlan
{
    bool reachable = false;
    int streams = 0;    // smallest stream count whose fitted rate ≥ the target
    double rateAtStreams = 0;
    double ceiling = 0; // the most the fit allows at any stream count, records/s
    std::string line;
};

struct OffloadModel
{
    bool fitted = false;
    UslFit fit;
    double recordBytes = 0; // of the archived runs
    std::vector<std::string> runKeys;
    std::string reason;

    static OffloadModel fitSamples(const std::vector<OffloadSample> &samples);
    OffloadPlan plan(double targetRate, int maxStreams = 4096) const;
};

} // namespace plimsoll
