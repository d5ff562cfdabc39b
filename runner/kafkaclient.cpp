#include "runner/kafkaclient.h"

#include "runner/kafkaconf.h"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;

// Remaining time to a deadline as the int milliseconds librdkafka takes, never negative.
int remainingMs(Clock::time_point deadline)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(left.count(), 0, INT32_MAX));
}

int toMs(std::chrono::milliseconds duration)
{
    return static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(duration.count(), 0, INT32_MAX));
}

using AdminEvent = std::unique_ptr<rd_kafka_event_t, decltype(&rd_kafka_event_destroy)>;

// One admin request on `rk`: its options with both the operation and the request timeout, a
// queue, `submit(options, queue)`, then its answer. librdkafka answers by itself when its
// request timeout passes; the extra second only guards against waiting forever should it not.
// Sets `event` and returns no error when an answer without a request-level error came.
KafkaError adminRequest(rd_kafka_t *rk, rd_kafka_admin_op_t op, std::chrono::milliseconds timeout, int pollMs,
                        const std::string &what,
                        const std::function<void(rd_kafka_AdminOptions_t *, rd_kafka_queue_t *)> &submit,
                        AdminEvent &event)
{
    char errstr[512] = {};
    std::unique_ptr<rd_kafka_AdminOptions_t, decltype(&rd_kafka_AdminOptions_destroy)> options(
        rd_kafka_AdminOptions_new(rk, op), &rd_kafka_AdminOptions_destroy);
    // The broker waits for the controller up to the operation timeout before answering.
    if (rd_kafka_AdminOptions_set_operation_timeout(options.get(), toMs(timeout), errstr, sizeof errstr)
            != RD_KAFKA_RESP_ERR_NO_ERROR
        || rd_kafka_AdminOptions_set_request_timeout(options.get(), toMs(timeout), errstr, sizeof errstr)
               != RD_KAFKA_RESP_ERR_NO_ERROR)
        return KafkaError::fromCode(RdKafka::ERR__INVALID_ARG, what, errstr);
    std::unique_ptr<rd_kafka_queue_t, decltype(&rd_kafka_queue_destroy)> queue(rd_kafka_queue_new(rk),
                                                                                &rd_kafka_queue_destroy);
    submit(options.get(), queue.get());
    event = AdminEvent(rd_kafka_queue_poll(queue.get(), pollMs + 1000), &rd_kafka_event_destroy);
    if (!event)
        return KafkaError::fromCode(RdKafka::ERR__TIMED_OUT, what, "no answer within the timeout");
    if (auto code = rd_kafka_event_error(event.get()); code != RD_KAFKA_RESP_ERR_NO_ERROR)
        return KafkaError::fromCode(code, what, rd_kafka_event_error_string(event.get()));
    return {};
}

// The one topic result of a single-topic admin request: ok, or its error (already-exists
// passed through as the code, for the caller to phrase).
KafkaError singleTopicResult(const rd_kafka_topic_result_t **results, std::size_t count, const std::string &what,
                             const char *request)
{
    if (count != 1)
        return KafkaError::fromCode(RdKafka::ERR__BAD_MSG, what, std::string("unexpected ") + request + " result");
    if (auto code = rd_kafka_topic_result_error(results[0]); code != RD_KAFKA_RESP_ERR_NO_ERROR) {
        const char *detail = rd_kafka_topic_result_error_string(results[0]);
        return KafkaError::fromCode(code, what, detail ? detail : "");
    }
    return {};
}

// A request about one topic (CreateTopics, DeleteTopics): adminRequest, then the topic's own
// result out of the answer by `topicsOf` (rd_kafka_CreateTopics_result_topics' kind).
using TopicResults = const rd_kafka_topic_result_t **(*)(rd_kafka_event_t *event, std::size_t *count);

KafkaError topicAdminRequest(rd_kafka_t *rk, rd_kafka_admin_op_t op, const char *request,
                             std::chrono::milliseconds timeout, int pollMs, const std::string &what,
                             const std::function<void(rd_kafka_AdminOptions_t *, rd_kafka_queue_t *)> &submit,
                             TopicResults topicsOf)
{
    AdminEvent event(nullptr, &rd_kafka_event_destroy);
    if (auto error = adminRequest(rk, op, timeout, pollMs, what, submit, event); !error.ok())
        return error;
    std::size_t count = 0;
    const rd_kafka_topic_result_t **results = topicsOf(event.get(), &count);
    return singleTopicResult(results, count, what, request);
}

const rd_kafka_topic_result_t **createdTopics(rd_kafka_event_t *event, std::size_t *count)
{
    const rd_kafka_CreateTopics_result_t *result = rd_kafka_event_CreateTopics_result(event);
    return result ? rd_kafka_CreateTopics_result_topics(result, count) : nullptr;
}

const rd_kafka_topic_result_t **deletedTopics(rd_kafka_event_t *event, std::size_t *count)
{
    const rd_kafka_DeleteTopics_result_t *result = rd_kafka_event_DeleteTopics_result(event);
    return result ? rd_kafka_DeleteTopics_result_topics(result, count) : nullptr;
}

std::string quoted(const std::string &topic) { return "'" + topic + "'"; }

// Counts acknowledgements; librdkafka calls it from poll()/flush() on our thread.
class DeliveryCounter : public RdKafka::DeliveryReportCb
{
public:
    void dr_cb(RdKafka::Message &message) override
    {
        if (message.err() == RdKafka::ERR_NO_ERROR) {
            ++m_report.acknowledged;
            return;
        }
        if (m_report.failed++ == 0)
            m_firstError = KafkaError::fromCode(message.err(), "delivering a record to " + message.topic_name(),
                                                message.errstr());
    }
    const KafkaClient::ProduceReport &report() const { return m_report; }
    const KafkaError &firstError() const { return m_firstError; }

private:
    KafkaClient::ProduceReport m_report;
    KafkaError m_firstError;
};

std::string randomSuffix()
{
    std::random_device device;
    std::uniform_int_distribution<unsigned> digit(0, 15);
    std::string suffix;
    for (int i = 0; i < 12; ++i)
        suffix += "0123456789abcdef"[digit(device)];
    return suffix;
}

} // namespace

// librdkafka reports why a broker is unreachable (an unknown host, a refused connection, a
// failed SASL or TLS handshake) only as error events and log lines, while the request that
// fails because of it gets a bare "Broker transport failure". The last such event is kept
// so that the failure can name its cause.
class AdminEvents : public RdKafka::EventCb
{
public:
    void event_cb(RdKafka::Event &event) override
    {
        if (event.type() == RdKafka::Event::EVENT_LOG) {
            // With an event callback librdkafka no longer prints its log: print it as it does.
            std::cerr << "%" << event.severity() << "|" << event.fac() << "|plimsoll#admin| "
                      << event.str() << std::endl;
        } else if (event.type() == RdKafka::Event::EVENT_ERROR &&
                   event.err() != RdKafka::ERR__ALL_BROKERS_DOWN) {
            // "1/1 brokers are down" follows the event that says why: keep the why.
            const std::lock_guard lock(m_mutex);
            m_lastError = event.str();
        }
    }

    std::string lastError() const
    {
        const std::lock_guard lock(m_mutex);
        return m_lastError;
    }

private:
    mutable std::mutex m_mutex;
    std::string m_lastError;
};

KafkaClient::KafkaClient(Config config)
    : m_config(std::move(config))
{}

KafkaClient::~KafkaClient() = default;

KafkaError KafkaClient::makeConf(const Config &overrides, std::unique_ptr<RdKafka::Conf> &conf) const
{
    if (!m_config.count("bootstrap.servers"))
        return KafkaError::fromCode(RdKafka::ERR__INVALID_ARG, "configuring the Kafka client",
                                    "bootstrap.servers is not set");
    Config merged = m_config;
    merged.try_emplace("client.id", "plimsoll");
    for (const auto &[key, value] : overrides)
        merged[key] = value;
    return makeKafkaConf(merged, conf);
}

KafkaError KafkaClient::adminHandle(RdKafka::Producer *&handle)
{
    if (!m_admin) {
        std::unique_ptr<RdKafka::Conf> conf;
        if (auto error = makeConf({}, conf); !error.ok())
            return error;
        std::string errstr;
        m_adminEvents = std::make_unique<AdminEvents>();
        if (conf->set("event_cb", static_cast<RdKafka::EventCb *>(m_adminEvents.get()), errstr) !=
            RdKafka::Conf::CONF_OK)
            return KafkaError::fromCode(RdKafka::ERR__FAIL, "creating the Kafka client", errstr);
        m_admin.reset(RdKafka::Producer::create(conf.get(), errstr));
        if (!m_admin)
            return KafkaError::fromCode(RdKafka::ERR__FAIL, "creating the Kafka client", errstr);
    }
    handle = m_admin.get();
    return {};
}

KafkaError KafkaClient::createTopic(const std::string &topic, int partitions, int replicationFactor,
                                   std::chrono::milliseconds timeout)
{
    const std::string what = "creating topic " + quoted(topic);
    const auto deadline = Clock::now() + timeout;
    RdKafka::Producer *handle = nullptr;
    if (auto error = adminHandle(handle); !error.ok())
        return error;
    // The C++ API has no admin client: the C API works on the same handle.
    rd_kafka_t *rk = handle->c_ptr();
    char errstr[512] = {};

    std::unique_ptr<rd_kafka_NewTopic_t, decltype(&rd_kafka_NewTopic_destroy)> newTopic(
        rd_kafka_NewTopic_new(topic.c_str(), partitions, replicationFactor, errstr, sizeof errstr),
        &rd_kafka_NewTopic_destroy);
    if (!newTopic)
        return KafkaError::fromCode(RdKafka::ERR__INVALID_ARG, what, errstr);

    const auto submit = [&](rd_kafka_AdminOptions_t *options, rd_kafka_queue_t *queue) {
        rd_kafka_NewTopic_t *topics[] = {newTopic.get()};
        rd_kafka_CreateTopics(rk, topics, 1, options, queue);
    };
    if (auto error = topicAdminRequest(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS, "CreateTopics", timeout,
                                       remainingMs(deadline), what, submit, &createdTopics);
        !error.ok()) {
        if (error.code == RdKafka::ERR_TOPIC_ALREADY_EXISTS)
            return {RdKafka::ERR_TOPIC_ALREADY_EXISTS,
                    "topic " + quoted(topic) + " already exists on " + m_config.at("bootstrap.servers")
                        + "; Plimsoll leaves topics it did not create untouched"};
        return error;
    }

    // Created on the controller; wait until the broker's metadata serves every leader.
    for (;;) {
        ClusterDescription description;
        auto error = describeCluster(description, std::chrono::milliseconds(std::max(remainingMs(deadline), 1)));
        if (error.ok()) {
            const auto *created = description.topic(topic);
            if (created && created->partitionCount == partitions && created->partitionsWithoutLeader == 0)
                return {};
        }
        if (remainingMs(deadline) == 0) {
            return KafkaError::fromCode(RdKafka::ERR__TIMED_OUT, what,
                                        "created, but its partitions had no leaders within the timeout");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(100, remainingMs(deadline))));
    }
}

KafkaError KafkaClient::deleteTopic(const std::string &topic, std::chrono::milliseconds timeout)
{
    const std::string what = "deleting topic " + quoted(topic);
    RdKafka::Producer *handle = nullptr;
    if (auto error = adminHandle(handle); !error.ok())
        return error;
    rd_kafka_t *rk = handle->c_ptr();
    std::unique_ptr<rd_kafka_DeleteTopic_t, decltype(&rd_kafka_DeleteTopic_destroy)> deleteTopic(
        rd_kafka_DeleteTopic_new(topic.c_str()), &rd_kafka_DeleteTopic_destroy);
    const auto submit = [&](rd_kafka_AdminOptions_t *options, rd_kafka_queue_t *queue) {
        rd_kafka_DeleteTopic_t *topics[] = {deleteTopic.get()};
        rd_kafka_DeleteTopics(rk, topics, 1, options, queue);
    };
    return topicAdminRequest(rk, RD_KAFKA_ADMIN_OP_DELETETOPICS, "DeleteTopics", timeout, toMs(timeout), what, submit,
                             &deletedTopics);
}

KafkaError KafkaClient::endOffsets(const std::string &topic, std::vector<int64_t> &offsets,
                                   std::chrono::milliseconds timeout)
{
    const auto deadline = Clock::now() + timeout;
    int partitions = 0;
    if (auto error = partitionCount(topic, partitions, timeout); !error.ok())
        return error;
    RdKafka::Producer *handle = nullptr;
    if (auto error = adminHandle(handle); !error.ok())
        return error;
    offsets.assign(static_cast<std::size_t>(partitions), 0);
    for (int partition = 0; partition < partitions; ++partition) {
        int64_t low = 0;
        const auto code = handle->query_watermark_offsets(topic, partition, &low, &offsets[static_cast<std::size_t>(partition)],
                                                          std::max(remainingMs(deadline), 1));
        if (code != RdKafka::ERR_NO_ERROR)
            return KafkaError::fromCode(code, "reading the offsets of " + topic + "[" + std::to_string(partition) + "]");
    }
    return {};
}

KafkaError KafkaClient::describeCluster(ClusterDescription &description, std::chrono::milliseconds timeout)
{
    RdKafka::Producer *handle = nullptr;
    if (auto error = adminHandle(handle); !error.ok())
        return error;
    RdKafka::Metadata *raw = nullptr;
    const auto code = handle->metadata(true, nullptr, &raw, toMs(timeout));
    std::unique_ptr<RdKafka::Metadata> metadata(raw);
    if (code != RdKafka::ERR_NO_ERROR) {
        handle->poll(0); // error events wait on the handle's queue until polled
        return KafkaError::fromCode(code, "reading cluster metadata from " + m_config.at("bootstrap.servers"),
                                    m_adminEvents ? m_adminEvents->lastError() : std::string());
    }

    description = {};
    description.answeredBy = metadata->orig_broker_id();
    for (const auto *broker : *metadata->brokers())
        description.brokers.push_back({broker->id(), broker->host(), broker->port()});
    for (const auto *topic : *metadata->topics()) {
        if (topic->err() != RdKafka::ERR_NO_ERROR)
            continue; // e.g. a topic being deleted: not usable, so not listed
        ClusterDescription::Topic entry;
        entry.name = topic->topic();
        for (const auto *partition : *topic->partitions()) {
            ++entry.partitionCount;
            if (partition->leader() < 0)
                ++entry.partitionsWithoutLeader;
        }
        description.topics.emplace(entry.name, std::move(entry));
    }
    return {};
}

KafkaError KafkaClient::partitionCount(const std::string &topic, int &count, std::chrono::milliseconds timeout)
{
    ClusterDescription description;
    if (auto error = describeCluster(description, timeout); !error.ok())
        return error;
    const auto *found = description.topic(topic);
    if (!found)
        return {RdKafka::ERR_UNKNOWN_TOPIC_OR_PART,
                "topic " + quoted(topic) + " does not exist on " + m_config.at("bootstrap.servers")};
    count = found->partitionCount;
    return {};
}

KafkaError KafkaClient::produce(const std::string &topic, const std::vector<std::string> &values,
                                std::chrono::milliseconds timeout, ProduceReport *report)
{
    const std::string what = "producing to " + quoted(topic);
    const auto deadline = Clock::now() + timeout;
    DeliveryCounter counter;
    std::unique_ptr<RdKafka::Conf> conf;
    // Records not acknowledged within the call's timeout fail in librdkafka too, so the
    // delivery reports are all in when we stop waiting.
    if (auto error = makeConf({{"message.timeout.ms", std::to_string(std::max(toMs(timeout), 1))}}, conf);
        !error.ok())
        return error;
    std::string errstr;
    if (conf->set("dr_cb", &counter, errstr) != RdKafka::Conf::CONF_OK)
        return KafkaError::fromCode(RdKafka::ERR__INVALID_ARG, what, errstr);
    std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), errstr));
    if (!producer)
        return KafkaError::fromCode(RdKafka::ERR__FAIL, "creating a Kafka producer", errstr);

    KafkaError failure;
    for (const auto &value : values) {
        for (;;) {
            // RK_MSG_COPY: librdkafka copies the payload and never writes through the pointer.
            const auto code = producer->produce(topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY,
                                                const_cast<char *>(value.data()), value.size(), nullptr, 0, 0,
                                                nullptr);
            if (code == RdKafka::ERR_NO_ERROR)
                break;
            // A full local queue is back-pressure, not failure: serve acks and retry.
            if (code == RdKafka::ERR__QUEUE_FULL && remainingMs(deadline) > 0) {
                producer->poll(std::min(50, remainingMs(deadline)));
                continue;
            }
            failure = KafkaError::fromCode(code, what);
            break;
        }
        if (!failure.ok())
            break;
        producer->poll(0);
    }
    while (producer->outq_len() > 0 && remainingMs(deadline) > 0)
        producer->flush(std::min(100, remainingMs(deadline)));
    if (producer->outq_len() > 0) {
        // Bounded exit: whatever is still queued fails now instead of in the destructor.
        producer->purge(RdKafka::Producer::PURGE_QUEUE | RdKafka::Producer::PURGE_INFLIGHT);
        producer->poll(0);
    }

    if (report)
        *report = counter.report();
    if (!failure.ok())
        return failure;
    if (!counter.firstError().ok()) {
        auto error = counter.firstError();
        error.message += "; " + std::to_string(counter.report().failed) + " of " + std::to_string(values.size())
                       + " records failed";
        return error;
    }
    if (counter.report().acknowledged < values.size()) {
        return KafkaError::fromCode(RdKafka::ERR__TIMED_OUT, what,
                                    std::to_string(counter.report().acknowledged) + " of "
                                        + std::to_string(values.size()) + " records acknowledged within "
                                        + std::to_string(timeout.count()) + " ms");
    }
    return {};
}

KafkaError KafkaClient::consume(const std::string &topic, std::size_t count, std::chrono::milliseconds timeout,
                                std::vector<Record> &records)
{
    const std::string what = "consuming from " + quoted(topic);
    const auto deadline = Clock::now() + timeout;
    records.clear();
    int partitions = 0;
    if (auto error = partitionCount(topic, partitions, timeout); !error.ok())
        return error;

    std::unique_ptr<RdKafka::Conf> conf;
    // librdkafka's consumer needs a group id even when it only assigns partitions; a
    // fresh one never disturbs a real group, and nothing is committed under it.
    Config overrides = {{"enable.auto.commit", "false"},
                        {"enable.auto.offset.store", "false"},
                        {"enable.partition.eof", "false"}};
    if (!m_config.count("group.id"))
        overrides["group.id"] = "plimsoll-" + randomSuffix();
    if (auto error = makeConf(overrides, conf); !error.ok())
        return error;
    std::string errstr;
    std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), errstr));
    if (!consumer)
        return KafkaError::fromCode(RdKafka::ERR__FAIL, "creating a Kafka consumer", errstr);

    std::vector<RdKafka::TopicPartition *> assignment;
    for (int partition = 0; partition < partitions; ++partition)
        assignment.push_back(RdKafka::TopicPartition::create(topic, partition, RdKafka::Topic::OFFSET_BEGINNING));
    const auto assigned = consumer->assign(assignment);
    RdKafka::TopicPartition::destroy(assignment);
    if (assigned != RdKafka::ERR_NO_ERROR)
        return KafkaError::fromCode(assigned, what);

    KafkaError failure;
    while (records.size() < count && remainingMs(deadline) > 0) {
        std::unique_ptr<RdKafka::Message> message(consumer->consume(std::min(200, remainingMs(deadline))));
        switch (message->err()) {
        case RdKafka::ERR_NO_ERROR: {
            Record record;
            record.partition = message->partition();
            record.offset = message->offset();
            if (message->key())
                record.key = *message->key();
            record.value.assign(static_cast<const char *>(message->payload()), message->len());
            records.push_back(std::move(record));
            break;
        }
        case RdKafka::ERR__TIMED_OUT:
        case RdKafka::ERR__PARTITION_EOF:
            break;
        default:
            failure = KafkaError::fromCode(message->err(), what, message->errstr());
            break;
        }
        if (!failure.ok())
            break;
    }
    consumer->close();
    if (!failure.ok())
        return failure;
    if (records.size() < count) {
        return KafkaError::fromCode(RdKafka::ERR__TIMED_OUT, what,
                                    std::to_string(records.size()) + " of " + std::to_string(count)
                                        + " records arrived within " + std::to_string(timeout.count()) + " ms");
    }
    return {};
}

KafkaError KafkaClient::countRecords(const std::string &topic, int64_t &count, std::chrono::milliseconds timeout)
{
    const auto deadline = Clock::now() + timeout;
    int partitions = 0;
    if (auto error = partitionCount(topic, partitions, timeout); !error.ok())
        return error;
    RdKafka::Producer *handle = nullptr;
    if (auto error = adminHandle(handle); !error.ok())
        return error;
    count = 0;
    for (int partition = 0; partition < partitions; ++partition) {
        int64_t low = 0;
        int64_t high = 0;
        const auto code = handle->query_watermark_offsets(topic, partition, &low, &high, remainingMs(deadline));
        if (code != RdKafka::ERR_NO_ERROR)
            return KafkaError::fromCode(code, "reading the offsets of " + topic + "[" + std::to_string(partition) + "]");
        count += high - low;
    }
    return {};
}

} // namespace plimsoll
