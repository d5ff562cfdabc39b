#pragma once
// `plimsoll placement --cluster HOST:PORT [--measure]`: the slot map of a live Redis Cluster in
// place of even slot ranges, and the stream keys it holds beside the predicted placement.

#include "model/sizing/placement.h"
#include "runner/redisclusterclient.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace plimsoll {

struct ClusterPlacement
{
    std::string seed;
    ClusterSlotMap map;
    std::optional<MeasuredStreamKeys> measured;
};

// Reads the slot map (and with `measure` the keys of `topic` under `pattern`); prints why and
// returns nullopt when the cluster cannot be read.
std::optional<ClusterPlacement> readClusterPlacement(const std::string &seed, bool measure,
                                                     const std::string &pattern,
                                                     const std::string &topic, int timeoutMs);

// Adds "cluster" and, when measured, "measured" (totals) and each shard's "measured" to the
// placement JSON whose "shards" follow `p.shards`.
void addClusterJson(nlohmann::json &out, const PlacementResult &p, const ClusterPlacement &c,
                    const std::string &pattern, const std::string &topic);

// Predicted and measured partitions per shard, side by side.
void printClusterPlacement(const PlacementResult &p, const ClusterPlacement &c,
                           const std::string &pattern, const std::string &topic);

} // namespace plimsoll
