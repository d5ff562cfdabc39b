// KafkaClient against the real Apache Kafka broker started by tests/services.
#include "runner/clientproperties.h"
#include "runner/kafkaclient.h"
#include "servicesenv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

using namespace std::chrono_literals;

namespace plimsoll {
namespace {

// Unique per test and per run: the broker lives for the whole ctest run.
std::string uniqueTopic(const std::string &purpose)
{
    std::random_device device;
    return "plimsoll-test-" + purpose + "-" + std::to_string(device());
}

class KafkaBroker : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(test::ServicesEnv::load(m_env));
        m_bootstrap = m_env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP");
        ASSERT_FALSE(m_bootstrap.empty()) << "PLIMSOLL_TEST_KAFKA_BOOTSTRAP missing in " << m_env.file();
        m_client = std::make_unique<KafkaClient>(KafkaClient::Config{{"bootstrap.servers", m_bootstrap}});
    }

    test::ServicesEnv m_env;
    std::string m_bootstrap;
    std::unique_ptr<KafkaClient> m_client;
};

TEST_F(KafkaBroker, DescribesSingleNodeCluster)
{
    ClusterDescription cluster;
    const auto error = m_client->describeCluster(cluster, 15s);
    ASSERT_TRUE(error.ok()) << error.toString();
    ASSERT_EQ(cluster.brokers.size(), 1u);
    EXPECT_EQ(cluster.brokers[0].host + ":" + std::to_string(cluster.brokers[0].port), m_bootstrap);
    EXPECT_EQ(cluster.answeredBy, cluster.brokers[0].id);
}

TEST_F(KafkaBroker, RoundTripsThousandRecordsThroughThreePartitions)
{
    const std::string topic = uniqueTopic("roundtrip");
    auto error = m_client->createTopic(topic, 3, 1, 30s);
    ASSERT_TRUE(error.ok()) << error.toString();

    ClusterDescription cluster;
    error = m_client->describeCluster(cluster, 15s);
    ASSERT_TRUE(error.ok()) << error.toString();
    const auto *created = cluster.topic(topic);
    ASSERT_NE(created, nullptr) << "metadata does not list " << topic;
    EXPECT_EQ(created->partitionCount, 3);
    EXPECT_EQ(created->partitionsWithoutLeader, 0);

    // Distinct payloads of varying length, so a lost, duplicated or corrupted record
    // cannot hide behind an equal neighbour.
    std::vector<std::string> values;
    for (int i = 0; i < 1000; ++i)
        values.push_back("plimsoll-record-" + std::to_string(i) + "-" + std::string(static_cast<std::size_t>(i % 97), 'x'));

    KafkaClient::ProduceReport report;
    error = m_client->produce(topic, values, 60s, &report);
    ASSERT_TRUE(error.ok()) << error.toString();
    EXPECT_EQ(report.acknowledged, 1000u);
    EXPECT_EQ(report.failed, 0u);

    std::vector<KafkaClient::Record> records;
    error = m_client->consume(topic, values.size(), 60s, records);
    ASSERT_TRUE(error.ok()) << error.toString();
    ASSERT_EQ(records.size(), values.size());

    std::vector<std::string> consumed;
    std::set<int32_t> partitionsSeen;
    for (const auto &record : records) {
        consumed.push_back(record.value);
        partitionsSeen.insert(record.partition);
        EXPECT_GE(record.partition, 0);
        EXPECT_LT(record.partition, 3);
        EXPECT_GE(record.offset, 0);
    }
    std::sort(consumed.begin(), consumed.end());
    std::sort(values.begin(), values.end());
    EXPECT_EQ(consumed, values) << "the records read back differ from those sent";

    // Exactly these records are in the topic: nothing extra is waiting behind them.
    int64_t stored = 0;
    error = m_client->countRecords(topic, stored, 15s);
    ASSERT_TRUE(error.ok()) << error.toString();
    EXPECT_EQ(stored, 1000);
    EXPECT_GE(partitionsSeen.size(), 1u);
}

TEST_F(KafkaBroker, SecondCreateOfTopicSaysItAlreadyExists)
{
    const std::string topic = uniqueTopic("twice");
    auto error = m_client->createTopic(topic, 3, 1, 30s);
    ASSERT_TRUE(error.ok()) << error.toString();

    error = m_client->createTopic(topic, 3, 1, 30s);
    EXPECT_TRUE(error.is(RdKafka::ERR_TOPIC_ALREADY_EXISTS)) << error.toString();
    EXPECT_NE(error.message.find("already exists"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find(topic), std::string::npos) << error.message;
    EXPECT_EQ(error.name(), "TOPIC_ALREADY_EXISTS");
}

TEST_F(KafkaBroker, ConsumeOfMissingRecordsEndsAtItsTimeoutWithTheCount)
{
    const std::string topic = uniqueTopic("empty");
    auto error = m_client->createTopic(topic, 1, 1, 30s);
    ASSERT_TRUE(error.ok()) << error.toString();

    std::vector<KafkaClient::Record> records;
    const auto started = std::chrono::steady_clock::now();
    error = m_client->consume(topic, 10, 1500ms, records);
    const auto took = std::chrono::steady_clock::now() - started;
    EXPECT_TRUE(error.is(RdKafka::ERR__TIMED_OUT)) << error.toString();
    EXPECT_NE(error.message.find("0 of 10 records"), std::string::npos) << error.message;
    EXPECT_LT(took, 10s);
}

TEST_F(KafkaBroker, ConsumeOfUnknownTopicNamesIt)
{
    std::vector<KafkaClient::Record> records;
    const auto error = m_client->consume("plimsoll-test-no-such-topic", 1, 5s, records);
    EXPECT_TRUE(error.is(RdKafka::ERR_UNKNOWN_TOPIC_OR_PART)) << error.toString();
    EXPECT_NE(error.message.find("plimsoll-test-no-such-topic"), std::string::npos);
}

// A Java client properties file, as users pass with --command-config, drives a real client.
TEST_F(KafkaBroker, ClientFromJavaPropertiesFileConnects)
{
    const auto properties = ClientProperties::parse("# as for kafka-producer-perf-test\n"
                                                    "bootstrap.servers=" + m_bootstrap + "\n"
                                                    "security.protocol=PLAINTEXT\n"
                                                    "client.id=plimsoll-properties-test\n"
                                                    "key.serializer=org.apache.kafka.common.serialization.ByteArraySerializer\n"
                                                    "max.request.size=2097152\n"
                                                    "ssl.endpoint.identification.algorithm=\n",
                                                    "client.properties");
    const auto translation = properties.toLibrdkafka();
    ASSERT_TRUE(translation.ok()) << translation.errorText();
    KafkaClient client(translation.config);
    ClusterDescription cluster;
    const auto error = client.describeCluster(cluster, 15s);
    ASSERT_TRUE(error.ok()) << error.toString();
    EXPECT_EQ(cluster.brokers.size(), 1u);
}

} // namespace
} // namespace plimsoll
