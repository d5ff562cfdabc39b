#pragma once
// OpenMessaging Benchmark results of the old schema carry no topic, partition, producer or
// message-size fields; the free-text `workload` name often says them:
//   "100-partitions-1000K-rate-4-producer", "1-topic-16-partitions-1kb-4p-4c",
//   "1 topic / 100 partitions / 2 producer / 2 consumer / 1Kb / 200K Rate".
// A name can lie (a file named "1000-partition" whose workload says 1 partition): fields in
// the JSON always win, and whatever comes from the name is marked inferred.

#include <cstdint>
#include <optional>
#include <string>

namespace plimsoll {

struct OmbWorkloadName
{
    std::optional<int64_t> topics;
    std::optional<int64_t> partitionsPerTopic;
    std::optional<int64_t> producersPerTopic;
    std::optional<int64_t> consumersPerTopic;
    std::optional<int64_t> messageSizeBytes; // "1kb" = 1024 B, as the seed page counts
    std::optional<double> producerRate;      // "200K rate" = 200,000 msg/s
};

OmbWorkloadName parseOmbWorkloadName(const std::string &workload);

} // namespace plimsoll
