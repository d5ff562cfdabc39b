#include "runner/mockcluster.h"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <librdkafka/rdkafkacpp.h>

#include <algorithm>

namespace plimsoll {

namespace {
// Kafka protocol ApiKey of Produce; librdkafka keeps its RD_KAFKAP_* names private.
constexpr int16_t kProduceApiKey = 0;
} // namespace

MockCluster::MockCluster(int brokers)
{
    std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
    std::string errstr;
    // The holder never connects anywhere; librdkafka's "no bootstrap.servers" notice about
    // it is expected. Silence its logs below warnings.
    conf->set("log_level", "3", errstr);
    m_holder.reset(RdKafka::Producer::create(conf.get(), errstr));
    if (!m_holder) {
        m_error = KafkaError::fromCode(RdKafka::ERR__FAIL, "starting the embedded mock cluster", errstr);
        return;
    }
    m_cluster = rd_kafka_mock_cluster_new(m_holder->c_ptr(), brokers);
    if (!m_cluster)
        m_error = KafkaError::fromCode(RdKafka::ERR__FAIL, "starting the embedded mock cluster");
}

MockCluster::~MockCluster()
{
    if (m_cluster)
        rd_kafka_mock_cluster_destroy(m_cluster);
}

std::string MockCluster::bootstrapServers() const
{
    return m_cluster ? rd_kafka_mock_cluster_bootstraps(m_cluster) : std::string();
}

KafkaError MockCluster::createTopic(const std::string &topic, int partitions, int replicationFactor)
{
    const auto code = rd_kafka_mock_topic_create(m_cluster, topic.c_str(), partitions, replicationFactor);
    return KafkaError::fromCode(static_cast<int>(code), "creating topic '" + topic + "' on the embedded mock cluster");
}

void MockCluster::pushProduceErrors(int count, RdKafka::ErrorCode code)
{
    for (int i = 0; i < count; ++i)
        rd_kafka_mock_push_request_errors(m_cluster, kProduceApiKey, 1, static_cast<rd_kafka_resp_err_t>(code));
}

void MockCluster::setBrokerDown(int32_t broker, bool down)
{
    if (down)
        rd_kafka_mock_broker_set_down(m_cluster, broker);
    else
        rd_kafka_mock_broker_set_up(m_cluster, broker);
}

int MockCluster::partitionsFor(int64_t bytes)
{
    const int64_t usable = kPartitionBytesLimit * 3 / 5;
    return static_cast<int>(std::max<int64_t>(1, (bytes + usable - 1) / usable));
}

} // namespace plimsoll
