#pragma once
// librdkafka's in-process mock cluster (rdkafka_mock.h): the "embedded target" of
// `plimsoll bench --bootstrap-server embedded[:N]`, and the fault injector of tests that
// need errors a real broker does not give on demand. It is not a broker: numbers measured
// against it describe the client.
//
// Limits (librdkafka 2.0): at most 5 MiB or 100,000 message sets per partition, hard-coded.

#include "runner/kafkaerror.h"

#include <cstdint>
#include <memory>
#include <string>

typedef struct rd_kafka_mock_cluster_s rd_kafka_mock_cluster_t;

namespace RdKafka {
class Producer;
}

namespace plimsoll {

class MockCluster
{
public:
    static constexpr int64_t kPartitionBytesLimit = 5LL * 1024 * 1024;

    // Check ok() (and error()) before use.
    explicit MockCluster(int brokers);
    ~MockCluster();
    MockCluster(const MockCluster &) = delete;
    MockCluster &operator=(const MockCluster &) = delete;

    bool ok() const { return m_cluster != nullptr; }
    const KafkaError &error() const { return m_error; }
    std::string bootstrapServers() const;
    KafkaError createTopic(const std::string &topic, int partitions, int replicationFactor);
    // The next `count` Produce requests fail with `code` (e.g. NOT_LEADER_FOR_PARTITION).
    void pushProduceErrors(int count, RdKafka::ErrorCode code);
    void setBrokerDown(int32_t broker, bool down);
    rd_kafka_mock_cluster_t *handle() const { return m_cluster; }

    // Partitions needed so that `bytes` spread evenly stay within the per-partition limit,
    // with headroom for message-set overhead and random spread.
    static int partitionsFor(int64_t bytes);

private:
    std::unique_ptr<RdKafka::Producer> m_holder; // the handle the mock cluster lives on
    rd_kafka_mock_cluster_t *m_cluster = nullptr;
    KafkaError m_error;
};

} // namespace plimsoll
