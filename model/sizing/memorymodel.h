#pragma once
// Redis memory for a retention window, by the seed page's rule: peak rate × retention × stored
// bytes per record × replication, plus trim-tick overshoot (the storage worker trims in ticks,
// so the working set carries up to one tick of extra data), plus shard skew and headroom.
//
// Stored bytes per record are fitted from runs that report memory together with the records
// they hold (memory_bytes ÷ run.records, as a ratio to the record size, so one measurement
// transfers to other record sizes); without such a run, a stated default. Records are stored
// as produced, not as compressed on the wire: the seed's 582k msg/s × 60 s ≈ 51 GB is ~10×
// what its LZ4 wire bytes would take.
//
// Pure computation; results are plain values.

#include <string>
#include <vector>

namespace plimsoll {

struct MemorySample
{
    double memoryBytes = 0; // bytes used, as the run reports it
    double records = 0;     // records held when it was measured
    double recordBytes = 0; // bytes per record as produced
    std::string runKey;
    std::string scenario;
};

struct StoredBytesModel
{
    // stored bytes ÷ record bytes. 1.2 by default: Redis stream entries carry ~15–20% over
    // their payload at 1 KB (the seed's single-shard figure).
    double ratio = 1.2;
    bool fitted = false;
    std::vector<std::string> runKeys;
    std::string reason;

    static StoredBytesModel fit(const std::vector<MemorySample> &samples);
    double storedBytes(double recordBytes) const { return recordBytes * ratio; }
};

struct MemoryInputs
{
    double rate = 0;          // records/s at peak
    double recordBytes = 0;   // bytes per record as produced (uncompressed)
    double retentionS = 0;    // seconds of data kept in Redis
    int replication = 2;      // copies of each shard (primary + replica = 2)
    double trimTickS = 1.0;   // storage-worker trim interval, seconds
    double skew = 1.0;        // hottest shard ÷ mean (placement), ≥ 1
    double headroom = 0.0;    // fraction added on top, 0.2 = 20%
    int shards = 1;           // primary shards the data spreads over
};

struct MemoryEstimate
{
    double storedBytesPerRecord = 0;
    double retainedBytes = 0;   // rate × retention × stored, one copy
    double overshootBytes = 0;  // rate × tick × stored, one copy
    double usageBytes = 0;      // (retained + overshoot) × replication: what Redis will hold
    double provisionBytes = 0;  // usage × skew × (1 + headroom): the database size to set
    // provision ÷ (shards × replication): what the hottest shard holds, its replicas the same
    // (Redis Enterprise counts a database's replicas in its memory limit).
    double perShardBytes = 0;
    std::vector<std::string> lines; // the arithmetic, one step per line
};

MemoryEstimate estimateMemory(const StoredBytesModel &model, const MemoryInputs &in);

} // namespace plimsoll
