// One bench consumer: assigned partitions (or a group), envelope checks, end-to-end latency
// from the envelope's scheduled send time (same process, same monotonic clock).
#include "runner/benchclients.h"
#include "runner/kafkaerror.h"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>

#include <memory>
#include <thread>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;

class ConsumerEvents : public RdKafka::EventCb
{
public:
    ConsumerEvents(ClientShared &shared, ClientCounters &counters, int index)
        : m_shared(shared), m_counters(counters), m_index(index)
    {}
    void event_cb(RdKafka::Event &event) override
    {
        if (event.type() == RdKafka::Event::EVENT_STATS) {
            if (m_shared.onStatistics && m_index == 0)
                m_shared.onStatistics(event.str());
        } else if (event.type() == RdKafka::Event::EVENT_ERROR) {
            m_counters.errors.fetch_add(1, std::memory_order_relaxed);
            m_counters.noteError(
                KafkaError::fromCode(event.err(), "consumer " + std::to_string(m_index), event.str()).toString());
        }
    }

private:
    ClientShared &m_shared;
    ClientCounters &m_counters;
    int m_index;
};

std::unique_ptr<RdKafka::KafkaConsumer> createConsumer(const ClientShared &shared, const ConsumerPlan &plan,
                                                      ClientCounters &counters, ConsumerEvents &events)
{
    auto config = benchClientConfig(shared, "consumer", plan.index);
    // Nothing is committed: a bench run must not move a real group's offsets unless the
    // user named the group, and even then only reads.
    config["enable.auto.commit"] = "false";
    config["enable.auto.offset.store"] = "false";
    config["enable.partition.eof"] = "false";
    config["auto.offset.reset"] = plan.autoOffsetReset;
    config["fetch.max.bytes"] = std::to_string(plan.fetchMaxBytes);
    if (plan.fetchMaxBytes < 1048576)
        config["max.partition.fetch.bytes"] = std::to_string(plan.fetchMaxBytes);
    config["group.id"] = plan.group.empty() ? "plimsoll-bench-" + makeUuid() : plan.group;
    const std::unique_ptr<RdKafka::Conf> conf = clientConf(config, counters);
    if (!conf)
        return nullptr;
    std::string errstr;
    conf->set("event_cb", static_cast<RdKafka::EventCb *>(&events), errstr);
    std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), errstr));
    if (!consumer)
        counters.noteFailure(KafkaError::fromCode(RdKafka::ERR__FAIL, "creating a Kafka consumer", errstr).toString());
    return consumer;
}

// The consumer's reading once it is started: envelope checks, the round trip's matching,
// end-to-end latency, and the counts published in batches.
class Consumption
{
public:
    Consumption(ClientShared &shared, ClientCounters &counters, RdKafka::KafkaConsumer &consumer)
        : m_shared(shared), m_counters(counters), m_consumer(consumer)
    {}

    // Subscribes to the group, or assigns the plan's partitions at their start offsets.
    bool start(const ConsumerPlan &plan)
    {
        RdKafka::ErrorCode started = RdKafka::ERR_NO_ERROR;
        if (!plan.group.empty()) {
            started = m_consumer.subscribe({m_shared.topic});
        } else {
            std::vector<RdKafka::TopicPartition *> assignment;
            for (const auto &[partition, offset] : plan.partitions)
                assignment.push_back(RdKafka::TopicPartition::create(m_shared.topic, partition, offset));
            started = m_consumer.assign(assignment);
            RdKafka::TopicPartition::destroy(assignment);
        }
        if (started == RdKafka::ERR_NO_ERROR)
            return true;
        m_counters.noteFailure(KafkaError::fromCode(started, "starting to consume " + m_shared.topic).toString());
        return false;
    }

    // Until stopped or the phase's target is reached. Only after the readiness barrier:
    // measureStart is read here.
    void consumeAll()
    {
        m_measureStartNs = steadyNs(m_shared.measureStart);
        m_readEnvelopes = m_shared.validateChecksum || m_shared.tracker || m_shared.measureEndToEnd;
        // The C handle under the C++ one: rd_kafka_consumer_poll hands the message without the
        // wrapper object RdKafka::KafkaConsumer::consume allocates for each record.
        rd_kafka_t *handle = m_consumer.c_ptr();
        while (!stopRequested()) {
            rd_kafka_message_t *message = rd_kafka_consumer_poll(handle, 100);
            if (!message) {
                publish();
                continue;
            }
            take(*message);
            rd_kafka_message_destroy(message);
            if (m_pendingTotal >= kPublishEvery)
                publish();
        }
        publish();
    }

private:
    // Counted here and published to the shared atomics every kPublishEvery records and whenever
    // the partition is idle: one set of atomic adds per batch instead of four per record.
    static constexpr int64_t kPublishEvery = 64;

    bool stopRequested() const
    {
        return m_shared.cancelled() || m_shared.stopConsumers.load(std::memory_order_relaxed)
            || (m_shared.consumeTarget > 0
                && m_shared.consumedTotal.load(std::memory_order_relaxed) + m_pendingTotal >= m_shared.consumeTarget);
    }

    void take(const rd_kafka_message_t &message)
    {
        const auto code = static_cast<RdKafka::ErrorCode>(message.err);
        if (code == RdKafka::ERR__PARTITION_EOF)
            return;
        if (code != RdKafka::ERR_NO_ERROR) {
            m_counters.noteFailure(
                KafkaError::fromCode(code, "consuming " + m_shared.topic, rd_kafka_message_errstr(&message))
                    .toString());
            return; // librdkafka retries transport errors itself; the engine's timeout bounds us
        }
        Clock::time_point now{};
        if (!m_measuring || m_shared.measureEndToEnd) {
            now = Clock::now();
            m_measuring = m_measuring || now >= m_shared.measureStart;
        }
        ++m_pendingTotal;
        bool countIt = m_measuring;
        if (m_readEnvelopes)
            check(std::string_view(static_cast<const char *>(message.payload), message.len), now, countIt);
        if (countIt) {
            ++m_pendingMeasured;
            m_pendingBytes += static_cast<int64_t>(message.len);
        }
    }

    // The envelope: valid, this run's (round trip), and its end-to-end latency, measured from
    // its schedule; a warm-up record is then left out of the measured counts.
    void check(std::string_view value, Clock::time_point now, bool &countIt)
    {
        Envelope envelope;
        if (readEnvelope(value, m_shared.validateChecksum, envelope) != Envelope::Check::Ok) {
            m_counters.invalid.fetch_add(1, std::memory_order_relaxed);
            if (m_shared.tracker)
                m_shared.tracker->consumedInvalid();
            return;
        }
        const bool matched =
            !m_shared.tracker || m_shared.tracker->consumed(envelope) != SequenceTracker::Outcome::Invalid;
        if (!matched)
            m_counters.invalid.fetch_add(1, std::memory_order_relaxed);
        if (matched && m_shared.measureEndToEnd) {
            countIt = envelope.scheduledNs >= m_measureStartNs;
            if (countIt)
                m_counters.histograms.recordNs(IntervalHistograms::EndToEnd, steadyNs(now) - envelope.scheduledNs);
        }
    }

    void publish()
    {
        if (m_pendingTotal == 0)
            return;
        m_counters.totalRecords.fetch_add(m_pendingTotal, std::memory_order_relaxed);
        m_shared.consumedTotal.fetch_add(m_pendingTotal, std::memory_order_relaxed);
        m_counters.measuredRecords.fetch_add(m_pendingMeasured, std::memory_order_relaxed);
        m_counters.measuredBytes.fetch_add(m_pendingBytes, std::memory_order_relaxed);
        m_pendingTotal = m_pendingMeasured = m_pendingBytes = 0;
    }

    ClientShared &m_shared;
    ClientCounters &m_counters;
    RdKafka::KafkaConsumer &m_consumer;
    int64_t m_measureStartNs = 0;
    bool m_readEnvelopes = false;
    // Warm-up ends once; after that no record needs the clock unless its latency is measured.
    bool m_measuring = false;
    int64_t m_pendingTotal = 0, m_pendingMeasured = 0, m_pendingBytes = 0;
};

} // namespace

void runConsumerClient(ClientShared &shared, const ConsumerPlan &plan, ClientCounters &counters)
{
    const FinishedOnReturn finished{counters};
    ConsumerEvents events(shared, counters, plan.index);
    const std::unique_ptr<RdKafka::KafkaConsumer> consumer = createConsumer(shared, plan, counters, events);
    if (!consumer)
        return;
    Consumption consumption(shared, counters, *consumer);
    // The readiness barrier; measureStart is read after it. A round trip's consumers start
    // fetching before it (nothing of the run exists yet), so they are fetching when the first
    // record goes out; consumers alone read records that exist already and start after it, or
    // they would prefetch before the measured window opens.
    const bool fetchBeforeGo = shared.measureEndToEnd;
    if (fetchBeforeGo && !consumption.start(plan))
        return;
    if (!awaitReadyAndGo(*consumer, shared, counters, "consumer " + std::to_string(plan.index),
                         [] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); })
        || (!fetchBeforeGo && !consumption.start(plan))) {
        consumer->close();
        return;
    }
    consumption.consumeAll();
    consumer->close();
}

} // namespace plimsoll
