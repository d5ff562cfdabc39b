#pragma once
// A live Redis Cluster's slot map and the stream keys it holds, for `plimsoll placement
// --cluster HOST:PORT [--measure]`: predicted placement (CRC16 of the keys a topic's partitions
// would use) beside what the cluster actually holds.
//   - The slot map: CLUSTER SHARDS (Redis 7), falling back to CLUSTER SLOTS on servers that do
//     not know it. A shard is named by its master's HOST:PORT.
//   - Measured keys: on each master, SCAN with MATCH (and TYPE stream) until the cursor returns
//     to 0, then MEMORY USAGE of every key found. A key lives on the master it was found on.
// Plain TCP and RESP2, no AUTH (loopback test clusters, a rig's shard endpoints); a server that
// wants a password answers -NOAUTH, reported as the error it is.
//
// Threading: blocking calls with a deadline; no shared state.

#include "model/sizing/placement.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct ClusterSlotMap
{
    bool ok = false;
    std::string error;
    std::string source;               // "CLUSTER SHARDS" or "CLUSTER SLOTS"
    std::vector<SlotRange> ranges;    // shard = the master's HOST:PORT; by first slot
    std::vector<std::string> masters; // HOST:PORT, by the first slot each owns
};

ClusterSlotMap readClusterSlotMap(const std::string &hostPort, std::chrono::milliseconds timeout);

struct MeasuredStreamKey
{
    std::string key;
    std::string master; // HOST:PORT it was found on
    std::optional<int64_t> bytes; // MEMORY USAGE; nullopt when the key vanished meanwhile
};

struct MeasuredStreamKeys
{
    bool ok = false;
    std::string error;
    std::string match; // the SCAN pattern
    std::vector<MeasuredStreamKey> keys;
};

// Every stream key matching `match` (a Redis glob) on the masters of `map`.
MeasuredStreamKeys measureStreamKeys(const ClusterSlotMap &map, const std::string &match,
                                     std::chrono::milliseconds timeout);

// The SCAN glob of a topic's stream keys: {topic} replaced, {partition} a '*', glob
// metacharacters of the rest escaped.
std::string streamKeyGlob(const std::string &pattern, const std::string &topic);

// The partition number of `key` under `pattern` for `topic` (the inverse of
// Placement::streamKey), or nullopt when the key is not one of the topic's.
std::optional<int> partitionOfKey(const std::string &pattern, const std::string &topic,
                                  const std::string &key);

} // namespace plimsoll
