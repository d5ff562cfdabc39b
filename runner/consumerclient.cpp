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

} // namespace

void runConsumerClient(ClientShared &shared, const ConsumerPlan &plan, ClientCounters &counters)
{
    struct Finished
    {
        ClientCounters &c;
        ~Finished() { c.finished = true; }
    } finished{counters};

    ConsumerEvents events(shared, counters, plan.index);
    std::string errstr;
    auto config = shared.kafkaConfig;
    config.try_emplace("client.id", "plimsoll-bench-consumer-" + std::to_string(plan.index));
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
    if (plan.index == 0)
        config["statistics.interval.ms"] = std::to_string(shared.statisticsInterval.count());
    const std::unique_ptr<RdKafka::Conf> conf = clientConf(config, counters);
    if (!conf)
        return;
    conf->set("event_cb", static_cast<RdKafka::EventCb *>(&events), errstr);
    std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), errstr));
    if (!consumer) {
        counters.errors.fetch_add(1);
        counters.noteError(KafkaError::fromCode(RdKafka::ERR__FAIL, "creating a Kafka consumer", errstr).toString());
        return;
    }

    const auto startConsuming = [&] {
        RdKafka::ErrorCode started = RdKafka::ERR_NO_ERROR;
        if (!plan.group.empty()) {
            started = consumer->subscribe({shared.topic});
        } else {
            std::vector<RdKafka::TopicPartition *> assignment;
            for (const auto &[partition, offset] : plan.partitions)
                assignment.push_back(RdKafka::TopicPartition::create(shared.topic, partition, offset));
            started = consumer->assign(assignment);
            RdKafka::TopicPartition::destroy(assignment);
        }
        if (started == RdKafka::ERR_NO_ERROR)
            return true;
        counters.errors.fetch_add(1);
        counters.noteError(KafkaError::fromCode(started, "starting to consume " + shared.topic).toString());
        return false;
    };
    // The readiness barrier; measureStart is read after it. A round trip's consumers start
    // fetching before it (nothing of the run exists yet), so they are fetching when the first
    // record goes out; consumers alone read records that exist already and start after it, or
    // they would prefetch before the measured window opens.
    const bool fetchBeforeGo = shared.measureEndToEnd;
    if (fetchBeforeGo && !startConsuming())
        return;
    if (!awaitReadyAndGo(*consumer, shared, counters, "consumer " + std::to_string(plan.index),
                         [] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); })
        || (!fetchBeforeGo && !startConsuming())) {
        consumer->close();
        return;
    }
    const int64_t measureStartNs = steadyNs(shared.measureStart);
    // Counted here and published to the shared atomics every kPublishEvery records and whenever
    // the partition is idle: one set of atomic adds per batch instead of four per record.
    constexpr int64_t kPublishEvery = 64;
    int64_t pendingTotal = 0, pendingMeasured = 0, pendingBytes = 0;
    const auto publish = [&] {
        if (pendingTotal == 0)
            return;
        counters.totalRecords.fetch_add(pendingTotal, std::memory_order_relaxed);
        shared.consumedTotal.fetch_add(pendingTotal, std::memory_order_relaxed);
        counters.measuredRecords.fetch_add(pendingMeasured, std::memory_order_relaxed);
        counters.measuredBytes.fetch_add(pendingBytes, std::memory_order_relaxed);
        pendingTotal = pendingMeasured = pendingBytes = 0;
    };
    const auto stopRequested = [&] {
        return shared.cancelled() || shared.stopConsumers.load(std::memory_order_relaxed)
            || (shared.consumeTarget > 0
                && shared.consumedTotal.load(std::memory_order_relaxed) + pendingTotal >= shared.consumeTarget);
    };
    const bool readEnvelopes = shared.validateChecksum || shared.tracker || shared.measureEndToEnd;
    // Warm-up ends once; after that no record needs the clock unless its latency is measured.
    bool measuring = false;
    // The C handle under the C++ one: rd_kafka_consumer_poll hands the message without the
    // wrapper object RdKafka::KafkaConsumer::consume allocates for each record.
    rd_kafka_t *handle = consumer->c_ptr();
    while (!stopRequested()) {
        rd_kafka_message_t *message = rd_kafka_consumer_poll(handle, 100);
        if (!message) {
            publish();
            continue;
        }
        const struct Destroy
        {
            rd_kafka_message_t *m;
            ~Destroy() { rd_kafka_message_destroy(m); }
        } destroy{message};
        const auto code = static_cast<RdKafka::ErrorCode>(message->err);
        if (code == RdKafka::ERR__PARTITION_EOF)
            continue;
        if (code != RdKafka::ERR_NO_ERROR) {
            counters.errors.fetch_add(1, std::memory_order_relaxed);
            counters.noteError(
                KafkaError::fromCode(code, "consuming " + shared.topic, rd_kafka_message_errstr(message)).toString());
            continue; // librdkafka retries transport errors itself; the engine's timeout bounds us
        }
        Clock::time_point now{};
        if (!measuring || shared.measureEndToEnd) {
            now = Clock::now();
            measuring = measuring || now >= shared.measureStart;
        }
        const std::string_view value(static_cast<const char *>(message->payload), message->len);
        ++pendingTotal;
        bool countIt = measuring;
        if (readEnvelopes) {
            Envelope envelope;
            if (readEnvelope(value, shared.validateChecksum, envelope) != Envelope::Check::Ok) {
                counters.invalid.fetch_add(1, std::memory_order_relaxed);
                if (shared.tracker)
                    shared.tracker->consumedInvalid();
            } else {
                const bool matched = !shared.tracker
                    || shared.tracker->consumed(envelope) != SequenceTracker::Outcome::Invalid;
                if (!matched)
                    counters.invalid.fetch_add(1, std::memory_order_relaxed);
                // End to end only for this run's records, measured from their schedule.
                if (matched && shared.measureEndToEnd) {
                    countIt = envelope.scheduledNs >= measureStartNs;
                    if (countIt)
                        counters.histograms.recordNs(IntervalHistograms::EndToEnd,
                                                     steadyNs(now) - envelope.scheduledNs);
                }
            }
        }
        if (countIt) {
            ++pendingMeasured;
            pendingBytes += static_cast<int64_t>(message->len);
        }
        if (pendingTotal >= kPublishEvery)
            publish();
    }
    publish();
    consumer->close();
}

} // namespace plimsoll
