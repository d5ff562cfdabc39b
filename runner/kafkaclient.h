#pragma once
// A Kafka cluster seen through librdkafka: topic creation, cluster metadata, and bounded
// produce/consume of a known set of records. This is the smoke-test slice of the runner;
// the bench workloads (pacing, histograms, envelopes) build on the same configuration
// and error handling.
//
// Every call is synchronous and bounded by its timeout; none throws. Not thread-safe:
// one KafkaClient per thread.

#include "runner/clusterdescription.h"
#include "runner/kafkaerror.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace RdKafka {
class Conf;
class Producer;
} // namespace RdKafka

namespace plimsoll {

class AdminEvents; // kafkaclient.cpp: remembers why the admin handle's brokers are down

class KafkaClient
{
public:
    // librdkafka property names (ClientProperties::toLibrdkafka translates Java ones);
    // bootstrap.servers is required.
    using Config = std::map<std::string, std::string>;

    struct Record
    {
        int32_t partition = -1;
        int64_t offset = -1;
        std::string key;
        std::string value;
    };

    struct ProduceReport
    {
        std::size_t acknowledged = 0;
        std::size_t failed = 0;
    };

    explicit KafkaClient(Config config);
    ~KafkaClient();
    KafkaClient(const KafkaClient &) = delete;
    KafkaClient &operator=(const KafkaClient &) = delete;

    const Config &config() const { return m_config; }

    // Creates the topic and returns once its metadata shows every partition with a
    // leader, so that a produce right after it does not race the creation.
    // An existing topic gives TOPIC_ALREADY_EXISTS, saying so in the message.
    KafkaError createTopic(const std::string &topic, int partitions, int replicationFactor,
                           std::chrono::milliseconds timeout);

    // Deletes the topic. Callers delete only topics their own run created.
    KafkaError deleteTopic(const std::string &topic, std::chrono::milliseconds timeout);

    // High watermark of every partition of the topic, by partition.
    KafkaError endOffsets(const std::string &topic, std::vector<int64_t> &offsets, std::chrono::milliseconds timeout);

    // Brokers and all topics. Asks for every topic on purpose: a request naming one topic
    // can make a broker auto-create it.
    KafkaError describeCluster(ClusterDescription &description, std::chrono::milliseconds timeout);

    // Sends the values (no keys) and waits for every acknowledgement. Fails on the first
    // delivery error, or when not all were acknowledged within the timeout.
    KafkaError produce(const std::string &topic, const std::vector<std::string> &values,
                       std::chrono::milliseconds timeout, ProduceReport *report = nullptr);

    // Reads `count` records from the beginning of every partition of the topic, without
    // joining a consumer group or committing. Fails when fewer arrive within the timeout
    // (the records that did arrive are still returned).
    KafkaError consume(const std::string &topic, std::size_t count, std::chrono::milliseconds timeout,
                       std::vector<Record> &records);

    // Sum over the topic's partitions of (high watermark - low watermark).
    KafkaError countRecords(const std::string &topic, int64_t &count, std::chrono::milliseconds timeout);

private:
    // A librdkafka configuration from m_config plus per-role overrides.
    KafkaError makeConf(const Config &overrides, std::unique_ptr<RdKafka::Conf> &conf) const;
    // The handle used for admin requests and metadata, created on first use.
    KafkaError adminHandle(RdKafka::Producer *&handle);
    KafkaError partitionCount(const std::string &topic, int &count, std::chrono::milliseconds timeout);

    Config m_config;
    // Before m_admin: the handle may still report events while it is destroyed.
    std::unique_ptr<AdminEvents> m_adminEvents;
    std::unique_ptr<RdKafka::Producer> m_admin;
};

} // namespace plimsoll
