#pragma once
// The fitted models the sizing engine reads, gathered once from the runs in a store:
//   - per-shard and per-broker capacity from the ramp steps (kind "ramp-step") that report
//     shard_cpu_max / broker_cpu_avg with the topology's shard and broker counts;
//   - p99 against load from the same steps (the latency curve);
//   - stored bytes per record from scenarios with memory_bytes and run.records;
//   - the Redis Flex write limit from OOM checks (flex.oom);
//   - offload rate against parallel streams from archival runs (kind "offload");
//   - per-broker and per-shard read capacity and fetch p99 against load from consume ramps
//     (consumemodel.h), kept apart from the produce capacities: a step that only reads says
//     nothing about what a record written costs;
//   - saturation and bottleneck of each ramp;
//   - USL fits of throughput against the broker and the shard count across runs (sweeps).
// Fitting is done once (milliseconds); sizing is then arithmetic on these values.
//
// Pure computation over records already read; no store access here.

#include "model/scaling/componentcapacity.h"
#include "model/sizing/componentevidence.h"
#include "model/scaling/evidence.h"
#include "model/core/domain.h"
#include "model/scaling/componentsweep.h"
#include "model/sizing/consumemodel.h"
#include "model/sizing/flexmodel.h"
#include "model/sizing/memorymodel.h"
#include "model/sizing/offloadmodel.h"
#include "model/sizing/placement.h"
#include "model/core/records.h"
#include "model/scaling/saturation.h"

#include <string>
#include <vector>

namespace plimsoll {

struct LatencyCurvePoint
{
    double perShardRate = 0;  // records/s per shard at this step
    double perBrokerRate = 0; // records/s per broker (0 when brokers unknown)
    double p99 = 0;           // seconds
    std::string runKey;
    std::string scenario;
};

struct RampSaturation
{
    std::string runKey;
    std::string prefix; // scenario names up to the last '/', e.g. "pipeline/produce"
    std::string factor; // the load factor the ramp varies
    SaturationResult result;
};

struct SizingModelOptions
{
    double cpuLimit = 0.90;
    SaturationOptions saturation;

    // CPU fraction at which a component saturates (of one core for a shard, of the allocation
    // for a broker).
    static constexpr Domain kCpuLimit = Domain::aboveUpTo(0, 1);
};

struct SizingModels
{
    ComponentCapacity shard;
    ComponentCapacity broker;
    // Fits across runs that vary the broker or shard count (!ok when no run does).
    ComponentSweepModel brokerSweep;
    ComponentSweepModel shardSweep;
    StoredBytesModel storedBytes;
    FlexModel flex;
    OffloadModel offload;
    ConsumeModel consume;       // reads from Redis (pipeline/consume/)
    ConsumeModel tieredConsume; // reads from the remote tier (pipeline/consume-tiered/)
    std::vector<LatencyCurvePoint> latency; // the ramp steps that measured p99
    std::vector<RampSaturation> ramps;
    double rampRecordBytes = 0;      // record size of the capacity ramp (0 when unknown)
    double rampShardsPerNode = 0;    // measured shards ÷ Redis nodes (0 when unknown)
    // Shards and partitions of the step that set the shard capacity (0 when unknown): its
    // placement skew is baked into the per-shard capacity.
    int rampShards = 0;
    int rampPartitions = 0;
    // The stream keys of that step's run: as its tuning states them ("key_pattern", "topic"),
    // else Korvet's pattern and the default topic (placement.h). Its skew is computed on these.
    std::string rampKeyPattern = kKorvetStreamKeyPattern;
    std::string rampTopic = kMeasuredTopicDefault;
    double wireCompression = 0;      // produced bytes ÷ wire bytes seen on the ramp (0: unknown)
    std::vector<std::string> notes;  // what was missing and which default stands in
    // The sample runs among those fitted (sorted): what tells a number's own runs from the samples.
    std::vector<std::string> sampleRunKeys;
    // Whose runs answer for each model, in the sizing's reading order (componentevidence.h).
    std::vector<ComponentEvidence> components;
};

// Runs with their scenarios (Store::run(...).record). Samples count like any other run.
SizingModels fitSizingModels(const std::vector<RunRecord> &runs,
                             const SizingModelOptions &options = {});

// The same models, each answered by the user's own runs when they measure it and by the sample
// runs otherwise (what SampleRuns::Auto means): a ramp with shard CPU of one's own replaces the
// samples' shard capacity (with the configuration it measured), a broker sweep the broker
// scaling, memory measurements the stored bytes, a consume ramp the consume side, and so on; the
// samples answer for the rest. Without runs of both kinds it is fitSizingModels().
SizingModels fitSizingModelsPerComponent(const std::vector<RunRecord> &runs,
                                         const SizingModelOptions &options = {});

// The models for the runs an evidence selection chose: per component on SampleRuns::Auto with
// no run picked by hand, else pooled (fitSizingModels); `evidence.note` then says which runs
// answer for which model.
SizingModels fitSelectedModels(Evidence &evidence, const EvidenceSelection &selection,
                               const SizingModelOptions &options = {});

// The models a sizing rests on, fitted once from the runs a selection chooses, with what was
// chosen: the one path from a run selection to a Sizer that `size`, `placement`, `report`,
// `sizings compare` and the Sizing and Placement views share. Reads the store (call it on the
// store's thread); throws StoreError for a picked run that is not there.
struct FittedEvidence
{
    Evidence evidence;
    SizingModels models;
};
FittedEvidence fitEvidence(const Store &store, const EvidenceSelection &selection,
                           const SizingModelOptions &options = {});

} // namespace plimsoll
