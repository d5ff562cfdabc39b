#pragma once
// The sizing engine: a target ingest and its constraints in, a deployment out — brokers,
// Redis nodes, shards, partitions, memory — with the utilization of each component at the
// target, the predicted p99, the bottleneck, and one line of reasoning per number naming the
// runs it came from.
//
// Fitting happens once (fitSizingModels); Sizer::size() is arithmetic on those models plus
// one partition placement, well under a millisecond, so a window may call it on every
// keystroke. A Sizer caches partition recommendations: use one Sizer from one thread.

#include "model/core/domain.h"
#include "model/sizing/componentevidence.h"
#include "model/sizing/memorymodel.h"
#include "model/sizing/placement.h"
#include "model/sizing/sizingmodels.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace plimsoll {

// Where the consumer groups read: the stream's tail as it is produced, or a backlog behind it
// (a catch-up, a replay), which may run faster than the target rate.
enum class ConsumeFrom { Tail, Backlog };
const char *toString(ConsumeFrom from);
std::optional<ConsumeFrom> consumeFromFromString(const std::string &text);

struct SizingInputs
{
    double rate = 0;          // records/s; when 0, bytesPerS ÷ recordBytes
    double bytesPerS = 0;     // produced (uncompressed) bytes/s, used when rate is 0
    double recordBytes = 700; // bytes per record as produced
    double compressionRatio = 1; // produced bytes ÷ wire bytes (LZ4 JSON logs: ~9)
    double retentionS = 60;   // seconds kept in Redis
    int replication = 2;      // copies of each shard: primary + replica
    double p99Budget = 0.250; // seconds, produce p99 (the seed's saturation limit)
    double headroom = 0;      // fraction above the target to size for, 0.2 = 20%
    bool tolerateNodeLoss = false; // one broker and one Redis node more
    bool flex = false;             // Redis Flex (auto-tiering) database
    bool tiered = false;           // remote-tier offload on
    double localRetentionS = 60;   // seconds kept locally when tiered
    double trimTickS = 1.0;        // storage-worker trim interval (stated default)
    std::string topic = "logs";    // for partition placement
    std::string keyPattern = kKorvetStreamKeyPattern; // stream key of a partition (placement.h)
    int shardsPerNode = 0;         // 0: as measured (or 8)
    // Largest placement skew (max/mean partitions per shard) the partition count may have; 0:
    // the skew of the configuration the capacity ramp measured (placement.h planPartitions).
    double skewTarget = 0;
    double nodeRamBytes = 52.0 * 1024 * 1024 * 1024; // per Redis node (the seed's r6i.2xlarge pod)
    double nodeRamUsable = 0.75;   // database ÷ node RAM (the seed: 120 GB on 3 × 52 GB)
    // The consume side (consumesizing.h). Consumer groups each read the whole stream (fan-out);
    // 0 sizes the produce side alone, as the seed's guidance table does.
    int consumerGroups = 0;
    double consumeRate = 0;        // records/s each group reads; 0: the target rate
    ConsumeFrom consumeFrom = ConsumeFrom::Tail;
    bool tieredReads = false;      // the backlog is read from the remote tier (needs tiered)
    // CPU fraction of each broker and shard held back for consumer traffic where no consume
    // ramp measured its cost (the seed: "leave margin for consumer traffic").
    double consumeMargin = 0.30;
    double fetchP99Budget = 0;     // s, fetch delivery p99; 0: the seed's limit for the read path

    // The domain of each input above, named as the command line names it (without "--").
    static constexpr Domain kRate = Domain::above(0, "records/s");
    static constexpr Domain kBytesPerS = Domain::above(0, "B/s");
    static constexpr Domain kRecordBytes = Domain::aboveUpTo(0, 64.0 * 1024 * 1024, "B");
    static constexpr Domain kCompressionRatio =
        Domain::atLeast(1).withNote("produced ÷ wire bytes; 1 is uncompressed");
    static constexpr Domain kRetentionS = Domain::above(0, "s");
    static constexpr Domain kReplication = Domain::count(1, 16);
    static constexpr Domain kP99Budget = Domain::above(0, "s");
    static constexpr Domain kHeadroom =
        Domain::between(0, 1).withNote("a fraction of the target: 0.2 or 20% sizes for 20 % more");
    static constexpr Domain kLocalRetentionS = Domain::above(0, "s");
    static constexpr Domain kTrimTickS = Domain::above(0, "s");
    static constexpr Domain kSkewTarget =
        Domain::atLeast(0).withNote("max/mean partitions per shard, 1 or more; 0 takes the measured configuration's");
    static constexpr Domain kShardsPerNode = Domain::count(0, 1000).withNote("0 takes it from the runs");
    static constexpr Domain kNodeRamBytes = Domain::above(0, "B");
    static constexpr Domain kNodeRamUsable = Domain::aboveUpTo(0, 1);
    static constexpr Domain kConsumerGroups =
        Domain::count(0, 1000).withNote("consumer groups each reading the whole stream; 0 sizes no consumers");
    static constexpr Domain kConsumeRate =
        Domain::atLeast(0, "records/s").withNote("read by each group; 0 reads at the target rate");
    static constexpr Domain kConsumeMargin =
        Domain::between(0, 0.9).withNote("a fraction of each broker's and shard's CPU: 0.3 or 30% holds 30 % back");
    static constexpr Domain kFetchP99Budget =
        Domain::atLeast(0, "s").withNote("0 takes the seed's limit: 500 ms, 5 s with tiered reads");
    // The fetch delivery p99 limits of the seed's consume ramps (TIERED_FETCH_P99_MS_LIMIT).
    static constexpr double kLocalFetchP99 = 0.5;
    static constexpr double kTieredFetchP99 = 5.0;

    // The first input outside its domain, as "<prefix><name> must be …", or "" when all are in.
    std::string validate(const std::string &prefix = "") const;
    BrokerModel brokerModel = BrokerModel::Auto; // which broker answer to take

    bool operator==(const SizingInputs &) const = default;
};

struct SizingLine
{
    std::string key;    // "brokers", "shards", "memory_total_bytes", ...
    std::string label;  // for people
    double value = 0;
    std::string display;   // formatted with its unit
    std::string reasoning; // one line
    std::vector<std::string> runKeys;
    // Whose runs the number rests on (the user's own, the samples, both; none for an input),
    // said beside it wherever it is printed.
    EvidenceSource evidence = EvidenceSource::None;
    // What qualifies this number, said at it ("" when nothing does): every partition on one
    // shard, shards without a partition, a shard past a node's memory. Also among the warnings.
    std::string caveat;
};

struct ComponentLoad
{
    std::string component;  // "broker CPU", "Redis shard CPU", "Redis node memory", ...
    double utilization = 0; // fraction of the resource (CPU fraction, memory fraction, ...)
    double limit = 1;       // the fraction at which it saturates (CPU limit, 1 for memory)
    double headroomLeft() const { return limit - utilization; }
};

struct SizingResult
{
    bool ok = false;
    std::string error;
    double rate = 0; // records/s sized for (before headroom)
    int brokers = 0;
    int redisNodes = 0;
    int shards = 0;
    int partitions = 0;
    double partitionSkew = 1;
    double memoryUsageBytes = 0;     // what Redis will hold, replicas included
    double memoryTotalBytes = 0;     // to provision (skew and headroom added)
    double memoryPerShardBytes = 0;  // in the hottest shard, its replica the same
    MemoryEstimate memory;           // the one estimate every memory figure above is read from
    PartitionPlan partitionPlan;     // the partition count, its skew and placement on `shards`
    double hottestShardFactor = 1;   // the hottest shard's CPU over the measured skew's (≥ 1)
    double flexRamBytes = 0;         // when flex
    int flexDatabases = 0;           // when flex
    int offloadStreams = 0;          // when tiered and reachable
    std::optional<double> p99;       // seconds, when the ramp brackets the load
    // The consume side, when the inputs have consumer groups.
    double consumeRate = 0;          // records/s every group reads at the target
    bool consumeMeasured = false;    // a consume ramp measured both brokers and shards
    double consumeMargin = 0;        // CPU fraction held for reads where unmeasured (0 when measured)
    std::optional<double> fetchP99;  // seconds, when the consume ramp brackets the load
    std::vector<ComponentLoad> loads;
    std::string bottleneck;
    std::vector<SizingLine> lines;
    std::vector<std::string> warnings;
    // The broker and shard counts by every model, side by side, and the one taken.
    UnitsChoice brokerChoice;
    UnitsChoice shardChoice;

    const SizingLine *line(const std::string &key) const;
};

class Sizer
{
public:
    explicit Sizer(SizingModels models) : m_models(std::move(models)) {}
    const SizingModels &models() const { return m_models; }
    SizingResult size(const SizingInputs &inputs) const;

    // p99 at a load, by linear interpolation of the ramp's p99 against its load fraction
    // (the larger of per-shard and per-broker rate ÷ capacity). nullopt past the ramp's top.
    std::optional<double> predictP99(double perShardRate, double perBrokerRate) const;

private:
    // The partition plan (placement.h planPartitions) for these shards and brokers, on the
    // measured configuration's own keys for its skew.
    const PartitionPlan &partitionsFor(int shards, int brokers, const SizingInputs &in) const;

    SizingModels m_models;
    mutable std::map<std::tuple<int, int, std::string, std::string, double>, PartitionPlan> m_partitionCache;
};

} // namespace plimsoll
