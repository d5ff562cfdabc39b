#include "model/sizing/placement.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

namespace plimsoll {

namespace {

constexpr std::array<uint16_t, 256> makeCrcTable()
{
    std::array<uint16_t, 256> t{};
    for (int i = 0; i < 256; ++i) {
        uint16_t c = uint16_t(i << 8);
        for (int b = 0; b < 8; ++b)
            c = (c & 0x8000) ? uint16_t((c << 1) ^ 0x1021) : uint16_t(c << 1);
        t[size_t(i)] = c;
    }
    return t;
}
constexpr std::array<uint16_t, 256> kCrcTable = makeCrcTable();

void replaceAll(std::string &s, std::string_view what, std::string_view with)
{
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + with.size()))
        s.replace(at, what.size(), with);
}

// A topic's stream keys, partition by partition, built in one reused buffer: the pattern with
// `{topic}` replaced is cut at each `{partition}` once, so a key is its pieces and the number
// between them (what Placement::streamKey makes, without a string per partition).
class StreamKeys
{
public:
    StreamKeys(std::string_view pattern, std::string_view topic)
    {
        std::string withTopic(pattern);
        replaceAll(withTopic, "{topic}", topic);
        constexpr std::string_view kPartition = "{partition}";
        size_t from = 0;
        for (size_t at = withTopic.find(kPartition); at != std::string::npos;
             at = withTopic.find(kPartition, from)) {
            m_pieces.push_back(withTopic.substr(from, at - from));
            from = at + kPartition.size();
        }
        m_pieces.push_back(withTopic.substr(from));
    }

    std::string_view key(int partition)
    {
        char number[16];
        const auto [end, ec] = std::to_chars(number, number + sizeof number, partition);
        (void)ec; // an int always fits in 16 characters
        const std::string_view digits(number, size_t(end - number));
        m_key.assign(m_pieces.front());
        for (size_t i = 1; i < m_pieces.size(); ++i)
            m_key.append(digits).append(m_pieces[i]);
        return m_key;
    }

private:
    std::vector<std::string> m_pieces;
    std::string m_key;
};

std::string skewText(double skew)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", skew);
    return buf;
}

} // namespace

uint16_t Placement::crc16(std::string_view bytes)
{
    uint16_t crc = 0;
    for (unsigned char c : bytes)
        crc = uint16_t((crc << 8) ^ kCrcTable[((crc >> 8) ^ c) & 0xff]);
    return crc;
}

int Placement::hashSlot(std::string_view key)
{
    const size_t open = key.find('{');
    if (open != std::string_view::npos) {
        const size_t close = key.find('}', open + 1);
        if (close != std::string_view::npos && close > open + 1)
            return crc16(key.substr(open + 1, close - open - 1)) % kClusterSlots;
    }
    return crc16(key) % kClusterSlots;
}

std::string Placement::streamKey(std::string_view pattern, std::string_view topic, int partition)
{
    return std::string(StreamKeys(pattern, topic).key(partition));
}

std::vector<SlotRange> Placement::clusterCreateRanges(int shards)
{
    std::vector<SlotRange> map;
    if (shards <= 0)
        return map;
    // Single precision on purpose: the ranges must end where redis-cli's float arithmetic ends
    // them (in double, a few boundaries move by one slot).
    const float perMaster = float(kClusterSlots) / float(shards);
    float cursor = 0.0f;
    long first = 0;
    for (int i = 0; i < shards; ++i) {
        const float end = cursor + perMaster - 1.0f;
        long last = std::lround(end);
        if (last > kClusterSlots || i == shards - 1)
            last = kClusterSlots - 1;
        last = std::max(last, first);
        map.push_back({int(first), int(last), "shard-" + std::to_string(i + 1)});
        first = last + 1;
        cursor += perMaster;
    }
    return map;
}

Placement Placement::clusterCreate(int shards, std::string keyPattern)
{
    return Placement(clusterCreateRanges(shards), std::move(keyPattern));
}

Placement::Placement(std::vector<SlotRange> slotMap, std::string keyPattern)
    : m_slotOwner(kClusterSlots, -1), m_keyPattern(std::move(keyPattern))
{
    if (slotMap.empty()) {
        m_error = "the slot map is empty: at least one shard is needed";
        return;
    }
    std::map<std::string, int> index;
    for (const SlotRange &r : slotMap) {
        if (r.start < 0 || r.end >= kClusterSlots || r.start > r.end) {
            m_error = "slot range " + std::to_string(r.start) + "-" + std::to_string(r.end) +
                      " of " + r.shard + " is outside 0-16383 or reversed";
            return;
        }
        auto [it, inserted] = index.emplace(r.shard, int(m_shardNames.size()));
        if (inserted) {
            m_shardNames.push_back(r.shard);
            m_shardSlots.push_back(0);
        }
        const auto first = m_slotOwner.begin() + r.start;
        const auto last = m_slotOwner.begin() + r.end + 1;
        const auto taken = std::find_if(first, last, [](int owner) { return owner >= 0; });
        if (taken != last) {
            m_error = "slot " + std::to_string(taken - m_slotOwner.begin()) + " is owned by both " +
                      m_shardNames[size_t(*taken)] + " and " + r.shard;
            return;
        }
        std::fill(first, last, it->second);
        m_shardSlots[size_t(it->second)] += r.end - r.start + 1;
    }
    // An unowned slot would leave some keys with nowhere to live: the cluster itself reports
    // such a state as failed (cluster_state:fail), so the map is not worth placing on.
    const auto hole = std::find(m_slotOwner.begin(), m_slotOwner.end(), -1);
    if (hole != m_slotOwner.end())
        m_error = "slot " + std::to_string(hole - m_slotOwner.begin()) +
                  " is not owned by any shard in the slot map";
}

PlacementResult Placement::place(std::string_view topic, int partitions) const
{
    PlacementResult out;
    if (!m_error.empty()) {
        out.error = m_error;
        return out;
    }
    if (partitions <= 0) {
        out.error = "the partition count must be > 0";
        return out;
    }
    out.ok = true;
    out.partitions = partitions;
    out.shards.resize(m_shardNames.size());
    for (size_t i = 0; i < m_shardNames.size(); ++i) {
        out.shards[i].shard = m_shardNames[i];
        out.shards[i].slotCount = m_shardSlots[i];
    }
    StreamKeys keys(m_keyPattern, topic);
    out.partitionSlot.reserve(size_t(partitions));
    out.partitionShard.reserve(size_t(partitions));
    for (int p = 0; p < partitions; ++p) {
        const int slot = hashSlot(keys.key(p));
        const int shard = m_slotOwner[size_t(slot)];
        out.partitionSlot.push_back(slot);
        out.partitionShard.push_back(shard);
        out.shards[size_t(shard)].partitions.push_back(p);
    }
    out.mean = double(partitions) / double(out.shards.size());
    out.minPerShard = partitions;
    for (const ShardLoad &s : out.shards) {
        const int n = int(s.partitions.size());
        out.maxPerShard = std::max(out.maxPerShard, n);
        out.minPerShard = std::min(out.minPerShard, n);
        if (n == 0)
            out.emptyShards.push_back(s.shard);
    }
    out.maxSkew = out.maxPerShard / out.mean;
    return out;
}

PartitionRecommendation Placement::recommendPartitions(int brokers, std::string_view topic,
                                                       double skewTarget, int minFactor,
                                                       int maxFactor) const
{
    PartitionRecommendation out;
    if (!m_error.empty()) {
        out.reason = m_error;
        return out;
    }
    if (brokers <= 0 || minFactor <= 0 || maxFactor < minFactor) {
        out.reason = "brokers and the partition factors must be positive (min ≤ max)";
        return out;
    }
    const int shards = shardCount();
    const int lowest = minFactor * shards;
    const int first = (lowest + brokers - 1) / brokers * brokers;
    const int limit = std::max(maxFactor * shards, first);

    // Partition p's key does not depend on the count, so counts grow as a prefix: one pass,
    // checking the skew at every candidate count.
    std::vector<int> perShard(size_t(shards), 0);
    double bestSkew = 0;
    int bestCount = 0;
    int maxLoad = 0; // loads only grow along the pass: the running maximum is the maximum
    int empty = shards; // shards holding no partition yet: a count that leaves one empty buys it for nothing
    StreamKeys keys(m_keyPattern, topic);
    for (int p = 0; p < limit; ++p) {
        const int load = ++perShard[size_t(m_slotOwner[size_t(hashSlot(keys.key(p)))])];
        maxLoad = std::max(maxLoad, load);
        empty -= load == 1 ? 1 : 0;
        const int count = p + 1;
        if (count < first || count % brokers != 0)
            continue;
        const double skew = maxLoad / (double(count) / shards);
        if (bestCount == 0 || skew < bestSkew) {
            bestSkew = skew;
            bestCount = count;
        }
        if (skew <= skewTarget && empty == 0) {
            out.found = true;
            out.partitions = count;
            out.skew = skew;
            out.placement = place(topic, count);
            out.reason = std::to_string(count) + " partitions: the smallest count ≥ " +
                         std::to_string(minFactor) + "× " + std::to_string(shards) +
                         " shards" + (brokers == 1 ? std::string()
                                                   : " that is a multiple of " + std::to_string(brokers) + " brokers") +
                         " (" + std::to_string(count / brokers) + (count / brokers == 1 ? " leader" : " leaders") +
                         (brokers == 1 ? " on the one broker)" : " each)") + " with max/mean skew " + skewText(skew) + " ≤ " +
                         skewText(skewTarget) + " and a partition on every shard";
            return out;
        }
    }
    out.partitions = bestCount;
    out.skew = bestSkew;
    out.placement = place(topic, bestCount);
    out.reason = "no count from " + std::to_string(first) + " to " + std::to_string(limit) +
                 " (multiples of " + std::to_string(brokers) + " brokers) reaches skew " +
                 skewText(skewTarget) + " with a partition on every shard; the least skewed is " +
                 std::to_string(bestCount) +
                 " partitions at " + skewText(bestSkew) +
                 ": hashing spreads keys like random draws, so evenness needs many partitions "
                 "per shard";
    return out;
}

std::optional<std::string> sharedHashTag(std::string_view pattern, std::string_view topic)
{
    // Redis hashes only what lies between the first '{' and the next '}' when that is not empty:
    // a tag that reads the same for two partitions reads the same for all.
    auto tagOf = [](std::string_view key) -> std::optional<std::string> {
        const size_t open = key.find('{');
        if (open == std::string_view::npos)
            return std::nullopt;
        const size_t close = key.find('}', open + 1);
        if (close == std::string_view::npos || close == open + 1)
            return std::nullopt;
        return std::string(key.substr(open + 1, close - open - 1));
    };
    StreamKeys keys(pattern, topic);
    const auto first = tagOf(keys.key(0));
    if (!first)
        return std::nullopt;
    const auto second = tagOf(keys.key(1));
    return second && *second == *first ? first : std::nullopt;
}

std::string concentrationWarning(const PlacementResult &p, std::string_view keyPattern, std::string_view topic)
{
    if (!p.oneShardHoldsAll())
        return {};
    const ShardLoad *holder = nullptr;
    for (const ShardLoad &s : p.shards)
        if (!s.partitions.empty())
            holder = &s;
    std::string out = "every one of the " + std::to_string(p.partitions) + " partitions lands on " +
                      (holder ? holder->shard : std::string("one shard")) + " (slot " +
                      std::to_string(p.partitionSlot.empty() ? 0 : p.partitionSlot.front()) + ")";
    if (const auto tag = sharedHashTag(keyPattern, topic))
        out += ": the keys of '" + std::string(keyPattern) + "' share the hash tag {" + *tag +
               "}, and Redis hashes only the tag";
    out += "; the other " + std::to_string(p.shards.size() - 1) +
           " shards hold none of the topic, so one shard carries its whole load and memory and more shards do "
           "not help (a pattern whose keys differ by partition outside a tag, like " +
           kKorvetStreamKeyPattern + ", spreads them)";
    return out;
}

MeasuredSkew measuredSkew(int shards, int partitions, const std::string &keyPattern, const std::string &topic)
{
    MeasuredSkew out;
    if (shards <= 0 || partitions <= 0)
        return out;
    const PlacementResult measured = Placement::clusterCreate(shards, keyPattern).place(topic, partitions);
    if (!measured.ok)
        return out;
    out.skew = measured.maxSkew;
    out.basis = "the skew of the measured " + std::to_string(partitions) + " partitions on " + std::to_string(shards) +
                " shards, on their own keys ('" + Placement::streamKey(keyPattern, topic, 0) + "' …)";
    return out;
}

PartitionPlan planPartitions(const PartitionPlanInputs &in)
{
    PartitionPlan plan;
    if (in.shards <= 0 || in.brokers <= 0) {
        plan.reason = "shards and brokers must be 1 or more";
        return plan;
    }
    if (in.skewTarget) {
        plan.target = *in.skewTarget;
        plan.basis = "the skew target asked for";
    }
    const MeasuredSkew measured =
        measuredSkew(in.measuredShards, in.measuredPartitions, in.measuredKeyPattern, in.measuredTopic);
    plan.measuredSkew = measured.skew;
    if (!in.skewTarget) {
        if (measured.skew > 0) {
            plan.target = measured.skew;
            plan.basis = measured.basis;
        } else {
            plan.basis = "the placement default (no measured configuration)";
        }
    }
    const PartitionRecommendation r = Placement::clusterCreate(in.shards, in.keyPattern)
                                          .recommendPartitions(in.brokers, in.topic, plan.target + 1e-9);
    plan.ok = r.partitions > 0;
    plan.found = r.found;
    plan.partitions = r.partitions;
    plan.skew = r.skew;
    plan.placement = r.placement;
    plan.reason = r.found ? r.reason + ", " + plan.basis
                          : "no partition count up to 64× the shards meets skew " + skewText(plan.target) +
                                " (" + plan.basis + "); least skewed: " + std::to_string(r.partitions) +
                                " (skew " + skewText(r.skew) + ")";
    plan.reason += "; keys '" + in.keyPattern + "' of topic '" + in.topic + "', " + kSlotSplitText;
    plan.warning = concentrationWarning(plan.placement, in.keyPattern, in.topic);
    return plan;
}

} // namespace plimsoll
