#pragma once
// Redis Flex (Auto-Tiering): RAM is a fraction of the dataset and flash holds the rest, so
// write capacity is how fast RAM drains to flash. The seed's OOM table gives the two numbers
// that matter: a sustained rate that never fills RAM, and a burst rate that does, after some
// records. Rates are kept in bytes/s so a measurement at 1 KB transfers to other record sizes
// (flash eviction moves bytes).
//
// Pure computation; results are plain values.

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct FlexSample
{
    double rate = 0;        // records/s held (or attempted)
    double recordBytes = 0; // bytes per record
    std::optional<double> records; // records written; unset for an unbounded (sustained) run
    bool oom = false;              // the run hit OOM
    std::optional<double> recordsBeforeOom;
    std::optional<double> ramRatio; // RAM ÷ dataset of the database, 0.1 = 10%
    std::string runKey;
    std::string scenario;
};

struct FlexEstimate
{
    int databases = 1;        // Flex databases so each stays at or under the sustained rate
    double ramBytes = 0;      // RAM to provision: memory × RAM ratio
    double perDatabaseBytesPerS = 0;
    double utilization = 0;   // per-database bytes/s ÷ sustained bytes/s
    double secondsToOom = std::numeric_limits<double>::infinity(); // at the target, one database
    std::vector<std::string> lines;
};

struct FlexModel
{
    bool fitted = false;
    double sustainedBytesPerS = 0; // per database; never OOMed
    double oomBytesPerS = 0;       // a rate that did OOM (0 when none did)
    double bufferBytes = 0;        // excess over sustained absorbed before that OOM
    double ramRatio = 0.10;        // measured database's, else the seed's 10%
    std::vector<std::string> runKeys;
    std::string reason;

    static FlexModel fit(const std::vector<FlexSample> &samples);
    // `bytesPerS` the ingest, `memoryBytes` the dataset Redis holds (usage incl. replication).
    FlexEstimate estimate(double bytesPerS, double memoryBytes) const;
};

} // namespace plimsoll
