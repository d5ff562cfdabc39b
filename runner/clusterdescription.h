#pragma once
// What a metadata request says about a cluster: its brokers and its topics.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace plimsoll {

struct ClusterDescription
{
    struct Broker
    {
        int32_t id = -1;
        std::string host;
        int port = 0;
    };
    struct Topic
    {
        std::string name;
        int partitionCount = 0;
        int partitionsWithoutLeader = 0; // > 0 right after creation, or when a broker is down
    };

    int32_t answeredBy = -1; // the broker that answered the metadata request
    std::vector<Broker> brokers;
    std::map<std::string, Topic> topics; // internal topics (__consumer_offsets, ...) included

    const Topic *topic(const std::string &name) const
    {
        auto it = topics.find(name);
        return it == topics.end() ? nullptr : &it->second;
    }
};

} // namespace plimsoll
