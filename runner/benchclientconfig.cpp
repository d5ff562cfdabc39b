// The configuration of a bench client (benchclients.h): what the producer and the consumer
// clients share, and the one way it becomes a librdkafka configuration.
#include "runner/benchclients.h"
#include "runner/kafkaconf.h"

#include <librdkafka/rdkafkacpp.h>

namespace plimsoll {

std::map<std::string, std::string> benchClientConfig(const ClientShared &shared, const std::string &role, int index)
{
    auto config = shared.kafkaConfig;
    config.try_emplace("client.id", "plimsoll-bench-" + role + "-" + std::to_string(index));
    // One client's statistics describe the brokers' round trip well enough, and cost the
    // others nothing.
    // A consume ramp's fetch latency comes from every consumer's statistics.
    if (index == 0 || shared.backlogRead)
        config["statistics.interval.ms"] = std::to_string(shared.statisticsInterval.count());
    return config;
}

std::unique_ptr<RdKafka::Conf> clientConf(const std::map<std::string, std::string> &config, ClientCounters &counters)
{
    std::unique_ptr<RdKafka::Conf> conf;
    if (auto error = makeKafkaConf(config, conf); !error.ok()) {
        counters.noteFailure(error.toString());
        return nullptr;
    }
    return conf;
}

} // namespace plimsoll
