#include "app/placementcluster.h"

#include "app/command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

namespace plimsoll {

namespace {

struct ShardMeasure
{
    int keys = 0;
    int64_t bytes = 0;
    std::vector<int> partitions;
};

struct Measures
{
    std::map<std::string, ShardMeasure> byShard;
    int keys = 0;
    int64_t bytes = 0;
    int misplaced = 0; // found on another master than the one owning its slot
    int unmatched = 0; // matched the glob but is no partition key of the topic
};

std::string ownerOf(const ClusterSlotMap &map, int slot)
{
    for (const SlotRange &r : map.ranges)
        if (slot >= r.start && slot <= r.end)
            return r.shard;
    return {};
}

Measures measure(const ClusterPlacement &c, const std::string &pattern, const std::string &topic)
{
    Measures m;
    for (const MeasuredStreamKey &k : c.measured->keys) {
        const auto partition = partitionOfKey(pattern, topic, k.key);
        if (!partition) {
            ++m.unmatched;
            continue;
        }
        ShardMeasure &s = m.byShard[k.master];
        ++s.keys;
        s.bytes += k.bytes.value_or(0);
        s.partitions.push_back(*partition);
        ++m.keys;
        m.bytes += k.bytes.value_or(0);
        if (ownerOf(c.map, Placement::hashSlot(k.key)) != k.master)
            ++m.misplaced;
    }
    for (auto &[shard, s] : m.byShard)
        std::sort(s.partitions.begin(), s.partitions.end());
    return m;
}

} // namespace

std::optional<ClusterPlacement> readClusterPlacement(const std::string &seed, bool measure,
                                                     const std::string &pattern,
                                                     const std::string &topic, int timeoutMs)
{
    ClusterPlacement c;
    c.seed = seed;
    const std::chrono::milliseconds timeout(timeoutMs);
    c.map = readClusterSlotMap(seed, timeout);
    if (!c.map.ok) {
        printError("--cluster: " + c.map.error);
        return std::nullopt;
    }
    if (measure) {
        c.measured = measureStreamKeys(c.map, streamKeyGlob(pattern, topic), timeout);
        if (!c.measured->ok) {
            printError("--measure: " + c.measured->error);
            return std::nullopt;
        }
    }
    return c;
}

void addClusterJson(nlohmann::json &out, const PlacementResult &p, const ClusterPlacement &c,
                    const std::string &pattern, const std::string &topic)
{
    out["cluster"] = {{"seed", c.seed}, {"source", c.map.source}, {"masters", c.map.masters}};
    if (!c.measured)
        return;
    const Measures m = measure(c, pattern, topic);
    out["measured"] = {{"match", c.measured->match}, {"keys", m.keys},      {"bytes", m.bytes},
                       {"misplaced", m.misplaced},   {"unmatched", m.unmatched}};
    for (size_t i = 0; i < p.shards.size(); ++i) {
        const auto it = m.byShard.find(p.shards[i].shard);
        const ShardMeasure s = it == m.byShard.end() ? ShardMeasure{} : it->second;
        out["shards"][i]["measured"] = {{"keys", s.keys}, {"bytes", s.bytes}, {"partitions", s.partitions}};
    }
}

void printClusterPlacement(const PlacementResult &p, const ClusterPlacement &c,
                           const std::string &pattern, const std::string &topic)
{
    std::printf("slot map of %s (%s): %zu masters\n", c.seed.c_str(), c.map.source.c_str(),
                c.map.masters.size());
    if (!c.measured)
        return;
    const Measures m = measure(c, pattern, topic);
    std::printf("%-22s %10s %10s %12s\n", "shard", "predicted", "measured", "bytes");
    for (const ShardLoad &s : p.shards) {
        const auto it = m.byShard.find(s.shard);
        const ShardMeasure ms = it == m.byShard.end() ? ShardMeasure{} : it->second;
        std::printf("%-22s %10zu %10d %12lld\n", s.shard.c_str(), s.partitions.size(), ms.keys,
                    static_cast<long long>(ms.bytes));
    }
    std::printf("measured: %d stream keys of '%s' (%s), %lld bytes; %d on a master that does not "
                "own their slot, %d matching keys that are no partition of the topic\n",
                m.keys, topic.c_str(), c.measured->match.c_str(), static_cast<long long>(m.bytes),
                m.misplaced, m.unmatched);
}

} // namespace plimsoll
