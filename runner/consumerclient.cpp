// One bench consumer: assigned partitions (or a group), envelope checks, end-to-end latency
// from the envelope's scheduled send time (same process, same monotonic clock).
#include "runner/benchclients.h"
#include "runner/kafkaerror.h"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>

#include <nlohmann/json.hpp>

#include <algorithm>
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
            if (m_shared.backlogRead)
                foldFetchLatency(event.str());
        } else if (event.type() == RdKafka::Event::EVENT_ERROR) {
            m_counters.errors.fetch_add(1, std::memory_order_relaxed);
            m_counters.noteError(
                KafkaError::fromCode(event.err(), "consumer " + std::to_string(m_index), event.str()).toString());
        }
    }

private:
    // A statistics interval of the measured window into the fetch latency: the broker round
    // trips of this consumer's connections (its fetches, as it reads). Only while records were
    // still to be fetched when the interval ended: a consumer that has fetched all its
    // partitions hold long-polls for fetch.wait.max.ms, a wait, not a latency.
    void foldFetchLatency(const std::string &json)
    {
        if (Clock::now() < m_shared.measureStart)
            return;
        const auto stats = nlohmann::json::parse(json, nullptr, false);
        if (!stats.is_object() || unfetched(stats) <= 0 || !stats.contains("brokers"))
            return;
        double p50 = 0, p99 = 0;
        for (const auto &broker : stats["brokers"]) {
            if (broker.value("nodeid", -1) < 0 || broker.value("source", "") == "logical")
                continue;
            if (broker.value("/rtt/cnt"_json_pointer, 0) <= 0)
                continue;
            p50 = std::max(p50, broker.value("/rtt/p50"_json_pointer, 0.0));
            p99 = std::max(p99, broker.value("/rtt/p99"_json_pointer, 0.0));
        }
        if (p99 <= 0)
            return;
        const auto p99Us = static_cast<int64_t>(p99);
        for (int64_t seen = m_counters.fetchP99MaxUs.load(); p99Us > seen;)
            if (m_counters.fetchP99MaxUs.compare_exchange_weak(seen, p99Us))
                break;
        m_counters.fetchP50SumUs.fetch_add(static_cast<int64_t>(p50));
        m_counters.fetchIntervals.fetch_add(1);
    }

    // Records of the consumer's active partitions still on the broker, not yet fetched.
    int64_t unfetched(const nlohmann::json &stats) const
    {
        const auto topics = stats.find("topics");
        if (topics == stats.end() || !topics->contains(m_shared.topic))
            return 0;
        int64_t left = 0;
        const nlohmann::json partitions = (*topics)[m_shared.topic].value("partitions", nlohmann::json::object());
        for (const auto &[id, partition] : partitions.items())
            if (id != "-1" && partition.value("fetch_state", "") == "active")
                left += std::max<int64_t>(0, partition.value("hi_offset", int64_t{0})
                                                 - partition.value("next_offset", int64_t{0}));
        return left;
    }

    ClientShared &m_shared;
    ClientCounters &m_counters;
    int m_index;
};

// A consume ramp's member: takes what the group assigns (eagerly or, when the client config
// chose a cooperative assignor, incrementally) and notes when; the auto commit then commits
// the revoked partitions' offsets, so their next owner starts where this one stopped.
class BacklogRebalance : public RdKafka::RebalanceCb
{
public:
    explicit BacklogRebalance(ClientCounters &counters)
        : m_counters(counters)
    {}
    void rebalance_cb(RdKafka::KafkaConsumer *consumer, RdKafka::ErrorCode code,
                      std::vector<RdKafka::TopicPartition *> &partitions) override
    {
        const bool cooperative = consumer->rebalance_protocol() == "COOPERATIVE";
        std::unique_ptr<RdKafka::Error> error;
        if (code == RdKafka::ERR__ASSIGN_PARTITIONS) {
            if (cooperative)
                error.reset(consumer->incremental_assign(partitions));
            else
                consumer->assign(partitions);
            m_counters.lastAssignedNs.store(steadyNs(Clock::now()));
        } else if (cooperative) {
            error.reset(consumer->incremental_unassign(partitions));
        } else {
            consumer->unassign();
        }
        if (error)
            m_counters.noteFailure("consumer rebalance: " + error->str());
    }

private:
    ClientCounters &m_counters;
};

std::unique_ptr<RdKafka::KafkaConsumer> createConsumer(const ClientShared &shared, const ConsumerPlan &plan,
                                                      ClientCounters &counters, ConsumerEvents &events,
                                                      BacklogRebalance &rebalance)
{
    auto config = benchClientConfig(shared, "consumer", plan.index);
    // Nothing is committed: a bench run must not move a real group's offsets unless the
    // user named the group, and even then only reads.
    config["enable.auto.commit"] = "false";
    config["enable.auto.offset.store"] = "false";
    config["enable.partition.eof"] = "false";
    config["auto.offset.reset"] = plan.autoOffsetReset;
    for (const auto &[key, value] : shared.consumerConfig)
        config[key] = value;
    config["fetch.max.bytes"] = std::to_string(plan.fetchMaxBytes);
    if (plan.fetchMaxBytes < 1048576)
        config["max.partition.fetch.bytes"] = std::to_string(plan.fetchMaxBytes);
    config["group.id"] = plan.group.empty() ? "plimsoll-bench-" + makeUuid() : plan.group;
    if (shared.backlogRead) {
        // A consume ramp's group: each record's offset stored as it is handed over, committed
        // on a rebalance and on close, so no record is read twice or skipped as members join.
        config["enable.auto.commit"] = "true";
        config["enable.auto.offset.store"] = "true";
    }
    const std::unique_ptr<RdKafka::Conf> conf = clientConf(config, counters);
    if (!conf)
        return nullptr;
    std::string errstr;
    conf->set("event_cb", static_cast<RdKafka::EventCb *>(&events), errstr);
    if (shared.backlogRead)
        conf->set("rebalance_cb", static_cast<RdKafka::RebalanceCb *>(&rebalance), errstr);
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
        // One record is held while the next is polled: its envelope is checked only once the
        // next one's bytes were asked for, so that the check reads bytes already on their way
        // from memory (a record's value was received long before it is handed over, and
        // reading a kilobyte straight from memory cost more than the rest of the record's
        // handling). Its time and count are taken as it arrives.
        Arrived held;
        while (!stopRequested()) {
            // With a record held, no waiting: an empty queue checks it at once.
            rd_kafka_message_t *message = rd_kafka_consumer_poll(handle, held.message ? 0 : 100);
            if (!message) {
                settle(held);
                publish();
                continue;
            }
            Arrived next = arrive(message);
            if (next.message && m_readEnvelopes)
                prefetch(*next.message);
            settle(held);
            held = next;
            if (m_pendingTotal >= kPublishEvery)
                publish();
        }
        settle(held);
        publish();
        for (std::size_t p = 0; p < m_runs.size(); ++p)
            for (const auto &[first, last] : m_runs[p])
                m_counters.offsetRuns.push_back({static_cast<int64_t>(p), first, last});
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

    // A record polled and counted, its envelope not yet checked (message null: nothing held).
    struct Arrived
    {
        rd_kafka_message_t *message = nullptr;
        Clock::time_point at{};
        bool countIt = false;
    };

    // The record as it arrives: an error or an end of partition is handled (and destroyed)
    // here; a record is counted, its offset noted and its arrival timed.
    Arrived arrive(rd_kafka_message_t *message)
    {
        const auto code = static_cast<RdKafka::ErrorCode>(message->err);
        if (code != RdKafka::ERR_NO_ERROR) {
            // librdkafka retries transport errors itself; the engine's timeout bounds us
            if (code != RdKafka::ERR__PARTITION_EOF)
                m_counters.noteFailure(
                    KafkaError::fromCode(code, "consuming " + m_shared.topic, rd_kafka_message_errstr(message))
                        .toString());
            rd_kafka_message_destroy(message);
            return {};
        }
        Arrived out{message};
        if (!m_measuring || m_shared.measureEndToEnd) {
            out.at = Clock::now();
            m_measuring = m_measuring || out.at >= m_shared.measureStart;
        }
        ++m_pendingTotal;
        if (m_shared.backlogRead)
            noteOffset(message->partition, message->offset);
        out.countIt = m_measuring;
        return out;
    }

    // Asks for the first bytes of a record's value (whole, for the usual sizes) to be brought
    // into the cache while the record before is checked.
    static void prefetch(const rd_kafka_message_t &message)
    {
        constexpr std::size_t kLine = 64, kAhead = 4096;
        const char *bytes = static_cast<const char *>(message.payload);
        for (std::size_t at = 0, end = std::min(message.len, kAhead); at < end; at += kLine)
            __builtin_prefetch(bytes + at);
    }

    // The held record's envelope checked, its measured counts added, and the record released.
    void settle(Arrived &held)
    {
        if (!held.message)
            return;
        const rd_kafka_message_t &message = *held.message;
        bool countIt = held.countIt;
        if (m_readEnvelopes)
            check(std::string_view(static_cast<const char *>(message.payload), message.len), held.at, countIt);
        if (countIt) {
            ++m_pendingMeasured;
            m_pendingBytes += static_cast<int64_t>(message.len);
        }
        rd_kafka_message_destroy(held.message);
        held = {};
    }

    // Offsets of a partition come in order from one consumer; a run breaks where a rebalance
    // moved the partition away and back, and where records were read twice or skipped.
    void noteOffset(int32_t partition, int64_t offset)
    {
        if (partition < 0)
            return;
        if (static_cast<std::size_t>(partition) >= m_runs.size())
            m_runs.resize(static_cast<std::size_t>(partition) + 1);
        auto &runs = m_runs[static_cast<std::size_t>(partition)];
        if (!runs.empty() && runs.back().second + 1 == offset)
            runs.back().second = offset;
        else
            runs.emplace_back(offset, offset);
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
    std::vector<std::vector<std::pair<int64_t, int64_t>>> m_runs; // by partition: first, last offset
};

} // namespace

void runConsumerClient(ClientShared &shared, const ConsumerPlan &plan, ClientCounters &counters)
{
    const FinishedOnReturn finished{counters};
    ConsumerEvents events(shared, counters, plan.index);
    BacklogRebalance rebalance(counters);
    const std::unique_ptr<RdKafka::KafkaConsumer> consumer = createConsumer(shared, plan, counters, events, rebalance);
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
