#pragma once
// Where a topic's partitions land in a Redis Cluster (OSS Cluster API or Redis Enterprise).
// Korvet keeps one stream per partition; a stream key lives in hash slot
// CRC16-XMODEM(key or its {hash tag}) mod 16384, and each shard owns ranges of slots. Hashing
// rather than round-robin is why equal partition and shard counts leave some shards doubly
// loaded and others empty.
//
// Pure computation; a Placement is immutable after construction.

#include "model/core/domain.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

inline constexpr int kClusterSlots = 16384;

// Domains of a placement's inputs: a shard owns at least one slot; a partition count and a
// broker count as any deployment could have; max/mean skew is 1 at best.
inline constexpr Domain kPlacementShards = Domain::count(1, kClusterSlots);
inline constexpr Domain kPlacementPartitions = Domain::count(1, 1000000);
inline constexpr Domain kPlacementBrokers = Domain::count(1, kClusterSlots);
inline constexpr Domain kPlacementSkewTarget = Domain::atLeast(1).withNote("max/mean skew is 1 when even");
// Placeholders {topic} and {partition} are substituted literally; any other brace in a pattern
// is part of the key (and so may form a Redis hash tag).
inline constexpr const char *kKorvetStreamKeyPattern = "korvet:stream:{topic}:{partition}";
// How a predicted placement splits the slots, said beside it (Placement::clusterCreate).
inline constexpr const char *kSlotSplitText = "slots split as `redis-cli --cluster create` assigns them";

// The hash tag every partition's key shares when `pattern` puts a constant {tag} before any
// brace holding the partition number (so every partition hashes to one slot), else nullopt.
std::optional<std::string> sharedHashTag(std::string_view pattern, std::string_view topic);

struct SlotRange
{
    int start = 0; // first slot, 0..16383
    int end = 0;   // last slot, inclusive (as CLUSTER SHARDS and CLUSTER SLOTS report them)
    std::string shard;
};

struct ShardLoad
{
    std::string shard;
    int slotCount = 0; // slots the shard owns (not "slots": Qt defines that as a macro in ui/)
    std::vector<int> partitions;   // partition numbers that land on it, ascending
};

struct PlacementResult
{
    bool ok = false;
    std::string error;
    int partitions = 0;
    std::vector<ShardLoad> shards;  // in slot-map order (first appearance)
    std::vector<int> partitionSlot; // slot of each partition's key
    std::vector<int> partitionShard; // index into `shards` for each partition
    double mean = 0;   // partitions per shard
    int maxPerShard = 0;
    int minPerShard = 0;
    double maxSkew = 0; // maxPerShard / mean: 1 is perfectly even, 2 is a doubly loaded shard
    std::vector<std::string> emptyShards;

    // Every partition on one shard of several (a key pattern whose hash tag leaves the partition
    // out): the whole topic's load and memory on one shard, more shards no help.
    bool oneShardHoldsAll() const { return ok && partitions > 1 && shards.size() > 1 && maxPerShard == partitions; }
};

// What a user must hear about `p` beside its numbers, or "" when nothing: every partition on one
// shard (naming the shard, the shared hash tag of `keyPattern` when it has one, and the fix).
std::string concentrationWarning(const PlacementResult &p, std::string_view keyPattern, std::string_view topic);

struct PartitionRecommendation
{
    bool found = false;     // false: nothing up to the search limit met the target
    int partitions = 0;     // the recommendation (or, when !found, the least skewed candidate)
    double skew = 0;        // its max/mean skew
    PlacementResult placement;
    std::string reason;
};

class Placement
{
public:
    // 16384 slots split over `shards` masters as `redis-cli --cluster create` assigns them (the
    // split clusters are made with): 16384/N slots per master as a single-precision float,
    // master i's contiguous range ending at round(i·16384/N + 16384/N − 1) with the running sum
    // kept in float, the last master ending at 16383. 24 shards alternate 683 and 682 slots; at
    // 48 the larger ranges are spread through the map, not packed at its start. Shards are named
    // "shard-1" .. "shard-N". A live cluster's map (CLUSTER SHARDS) is the other constructor.
    static Placement clusterCreate(int shards, std::string keyPattern = kKorvetStreamKeyPattern);
    // The ranges clusterCreate() gives each of `shards` masters, in order.
    static std::vector<SlotRange> clusterCreateRanges(int shards);
    // An explicit slot map (e.g. from CLUSTER SHARDS or a Redis Enterprise shard list). A shard
    // may own several ranges. Problems (overlap, out of range, uncovered slots) make every
    // place() answer an error that names them.
    explicit Placement(std::vector<SlotRange> slotMap,
                       std::string keyPattern = kKorvetStreamKeyPattern);

    // CRC16, polynomial 0x1021, initial value 0, no reflection (XMODEM): Redis Cluster's hash.
    static uint16_t crc16(std::string_view bytes);
    // Redis's keyHashSlot(): hash only the part between the first '{' and the first '}' after
    // it, when that part is non-empty; otherwise the whole key.
    static int hashSlot(std::string_view key);
    static std::string streamKey(std::string_view pattern, std::string_view topic, int partition);

    int shardCount() const { return int(m_shardNames.size()); }
    const std::string &error() const { return m_error; }

    PlacementResult place(std::string_view topic, int partitions) const;

    // The smallest partition count that is ≥ minFactor × shards, a multiple of `brokers` (so
    // leadership spreads evenly), whose max/mean skew ≤ skewTarget, and that leaves no shard
    // without a partition (a shard bought for nothing). Searches up to
    // maxFactor × shards partitions; past that it reports the least skewed candidate instead.
    PartitionRecommendation recommendPartitions(int brokers, std::string_view topic,
                                                double skewTarget = 1.25, int minFactor = 4,
                                                int maxFactor = 64) const;

private:
    std::vector<std::string> m_shardNames;
    std::vector<int> m_shardSlots;  // slots owned, per shard
    std::vector<int> m_slotOwner;   // shard index per slot, −1 when unowned
    std::string m_keyPattern;
    std::string m_error;
};

// The one partition model: the count the sizing picks and the one the Placement view and
// `plimsoll placement` recommend both come from planPartitions(), and memory's skew factor is
// the skew of that count.
inline constexpr double kDefaultSkewTarget = 1.25;
// The topic a measured run is taken to have used when it states none (tuning "topic").
inline constexpr const char *kMeasuredTopicDefault = "logs";

// The max/mean skew of a measured configuration on its own keys (0 when nothing was measured),
// and where those keys came from, for people.
struct MeasuredSkew
{
    double skew = 0;
    std::string basis; // "the skew of the measured 96 partitions on 24 shards (keys 'korvet:stream:logs:N')"
};
MeasuredSkew measuredSkew(int shards, int partitions, const std::string &keyPattern, const std::string &topic);

struct PartitionPlanInputs
{
    int shards = 0;
    int brokers = 1;
    std::string topic = "logs";
    std::string keyPattern = kKorvetStreamKeyPattern;
    // The measured configuration (shards, partitions) whose placement skew the per-shard
    // capacity carries; 0 when none was measured. A count no more skewed keeps that capacity
    // valid, so its skew is the target. Its skew comes from its own keys: the pattern and topic
    // its runs state, else Korvet's pattern and the default topic — never this plan's, which a
    // hash tag would make pass its own target.
    int measuredShards = 0;
    int measuredPartitions = 0;
    std::string measuredKeyPattern = kKorvetStreamKeyPattern;
    std::string measuredTopic = kMeasuredTopicDefault;
    std::optional<double> skewTarget; // stated by the user: overrides the measured skew
};

struct PartitionPlan
{
    bool ok = false; // false: the inputs are out of their domain (reason says which)
    bool found = false; // false: no count up to 64× the shards meets the target
    int partitions = 0;
    double skew = 1;   // max/mean of `partitions`, what memory multiplies by
    double target = kDefaultSkewTarget;
    double measuredSkew = 0; // of the measured configuration on its own keys (0: none measured)
    std::string basis; // where the target came from
    std::string reason;
    PlacementResult placement;
    std::string warning; // concentrationWarning() of the placement, "" when none
};

PartitionPlan planPartitions(const PartitionPlanInputs &in);

} // namespace plimsoll
