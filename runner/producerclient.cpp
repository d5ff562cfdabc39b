// One bench producer: paced sends, queue-full back-pressure, delivery reports into the
// latency histograms, and a bounded flush that reports what stayed undelivered.
#include "runner/benchclients.h"
#include "runner/kafkaerror.h"

#include <librdkafka/rdkafkacpp.h>

#include <memory>
#include <thread>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;

class ProducerCallbacks : public RdKafka::DeliveryReportCb, public RdKafka::EventCb
{
public:
    ProducerCallbacks(ClientShared &shared, ClientCounters &counters, int index)
        : m_shared(shared), m_counters(counters), m_index(index)
    {}

    // Runs on the producer's thread, inside poll()/flush().
    void dr_cb(RdKafka::Message &message) override
    {
        const auto now = Clock::now();
        Envelope envelope;
        const std::string_view value(static_cast<const char *>(message.payload()), message.len());
        const bool ours = readEnvelope(value, false, envelope) == Envelope::Check::Ok;
        m_counters.queued.fetch_sub(1, std::memory_order_relaxed);
        if (message.err() != RdKafka::ERR_NO_ERROR) {
            m_counters.failed.fetch_add(1, std::memory_order_relaxed);
            m_counters.noteError(KafkaError::fromCode(message.err(), "delivering a record to " + m_shared.topic,
                                                      message.errstr())
                                     .toString());
            return;
        }
        m_counters.acked.fetch_add(1, std::memory_order_relaxed);
        m_counters.totalRecords.fetch_add(1, std::memory_order_relaxed);
        if (!ours)
            return;
        if (m_shared.tracker)
            m_shared.tracker->acked(m_index, envelope.sequence);
        const int64_t nowNs = steadyNs(now);
        // Warm-up records count as sent but not as measured.
        if (envelope.scheduledNs < steadyNs(m_shared.measureStart))
            return;
        m_counters.measuredRecords.fetch_add(1, std::memory_order_relaxed);
        m_counters.measuredBytes.fetch_add(static_cast<int64_t>(message.len()), std::memory_order_relaxed);
        m_counters.histograms.recordNs(IntervalHistograms::Ack, nowNs - envelope.scheduledNs);
        const auto sentNs = reinterpret_cast<intptr_t>(message.msg_opaque());
        m_counters.histograms.recordNs(IntervalHistograms::Service, nowNs - static_cast<int64_t>(sentNs));
    }

    void event_cb(RdKafka::Event &event) override
    {
        if (event.type() == RdKafka::Event::EVENT_STATS) {
            if (m_shared.onStatistics)
                m_shared.onStatistics(event.str());
        } else if (event.type() == RdKafka::Event::EVENT_ERROR) {
            m_counters.errors.fetch_add(1, std::memory_order_relaxed);
            m_counters.noteError(KafkaError::fromCode(event.err(), "producer " + std::to_string(m_index), event.str())
                                     .toString());
        }
    }

private:
    ClientShared &m_shared;
    ClientCounters &m_counters;
    int m_index;
};

int msUntil(Clock::time_point deadline)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<int64_t>(left, 0, 1000));
}

std::unique_ptr<RdKafka::Producer> createProducer(const ClientShared &shared, const ProducerPlan &plan,
                                                  ClientCounters &counters, ProducerCallbacks &callbacks)
{
    auto config = benchClientConfig(shared, "producer", plan.index);
    for (const auto &[key, value] : shared.producerConfig)
        config[key] = value;
    // Deliveries still pending when the flush gives up fail instead of lingering.
    config["message.timeout.ms"] = std::to_string(std::max<int64_t>(shared.flushTimeout.count(), 1000));
    const std::unique_ptr<RdKafka::Conf> conf = clientConf(config, counters);
    if (!conf)
        return nullptr;
    std::string errstr;
    conf->set("dr_cb", static_cast<RdKafka::DeliveryReportCb *>(&callbacks), errstr);
    conf->set("event_cb", static_cast<RdKafka::EventCb *>(&callbacks), errstr);
    std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), errstr));
    if (!producer)
        counters.noteFailure(KafkaError::fromCode(RdKafka::ERR__FAIL, "creating a Kafka producer", errstr).toString());
    return producer;
}

// The producer's schedule once the phase's clients are ready: each record sent at its due
// time (or at once, unpaced), retried on a full queue, then the bounded flush.
class PacedSend
{
public:
    PacedSend(ClientShared &shared, const ProducerPlan &plan, ClientCounters &counters, RdKafka::Producer &producer)
        : m_shared(shared), m_plan(plan), m_counters(counters), m_producer(producer),
          m_writer(shared.runId, shared.producerIdBase + static_cast<uint32_t>(plan.index), shared.recordSize),
          m_pacer(plan.rate, shared.start, plan.offset)
    {}

    void run()
    {
        sendAll();
        flush();
    }

private:
    bool stopRequested() const
    {
        return m_shared.cancelled() || m_shared.stopProducers.load(std::memory_order_relaxed);
    }

    void sendAll()
    {
        for (int64_t sequence = 0; m_plan.records < 0 || sequence < m_plan.records; ++sequence) {
            if (stopRequested())
                break;
            Clock::time_point due = m_pacer.due(sequence);
            if (due >= m_shared.produceUntil)
                break;
            waitUntil(due);
            if (!m_pacer.limited())
                due = Clock::now();
            if (m_shared.beforeSend)
                m_shared.beforeSend(m_plan.index, sequence);
            send(m_writer.write(static_cast<uint64_t>(sequence), steadyNs(due)), due, partitionOf(sequence));
            if (sequence == 0)
                m_counters.firstSendUnixNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                 std::chrono::system_clock::now().time_since_epoch())
                                                 .count();
            m_producer.poll(0);
        }
    }

    // Waits for the due time, serving delivery reports meanwhile; never sleeps past it by
    // more than a millisecond, the poll granularity.
    void waitUntil(Clock::time_point due)
    {
        while (m_pacer.limited() && Clock::now() < due && !stopRequested()) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(due - Clock::now()).count();
            if (left >= 2)
                m_producer.poll(static_cast<int>(std::min<int64_t>(left - 1, 100)));
            else
                std::this_thread::sleep_until(due);
        }
    }

    int32_t partitionOf(int64_t sequence) const
    {
        const auto &p = m_plan.partitions;
        return p.empty() ? RdKafka::Topic::PARTITION_UA : p[static_cast<std::size_t>(sequence) % p.size()];
    }

    void send(std::string_view value, Clock::time_point due, int32_t partition)
    {
        // Unpaced, `due` was read just now: the first attempt is sent at it (one clock read
        // a record, not two).
        bool sendingAtDue = !m_pacer.limited() && !m_shared.beforeSend;
        for (;;) {
            const auto sentAt = sendingAtDue ? due : Clock::now();
            sendingAtDue = false;
            // RK_MSG_COPY: the writer's buffer is reused for the next record. The opaque
            // carries the actual send time, for service time beside the scheduled latency.
            const auto code = m_producer.produce(m_shared.topic, partition,
                                                 RdKafka::Producer::RK_MSG_COPY, const_cast<char *>(value.data()),
                                                 value.size(), nullptr, 0, 0,
                                                 reinterpret_cast<void *>(static_cast<intptr_t>(steadyNs(sentAt))));
            if (code == RdKafka::ERR_NO_ERROR) {
                m_counters.sent.fetch_add(1, std::memory_order_relaxed);
                m_counters.queued.fetch_add(1, std::memory_order_relaxed);
                return;
            }
            if (code != RdKafka::ERR__QUEUE_FULL) {
                m_counters.noteFailure(KafkaError::fromCode(code, "producing to " + m_shared.topic).toString());
                return;
            }
            if (stopRequested())
                return;
            // Back-pressure: serve acknowledgements, then retry. The wait stays inside the
            // latency (measured from `due`) and is reported on its own too.
            m_producer.poll(10);
            m_counters.queueFullNs.fetch_add(
                std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - sentAt).count(),
                std::memory_order_relaxed);
        }
    }

    // Flush with a bound: a broker that stopped answering must not hold the run.
    void flush()
    {
        const auto flushUntil = Clock::now() + m_shared.flushTimeout;
        while (m_producer.outq_len() > 0 && Clock::now() < flushUntil)
            m_producer.flush(std::max(1, std::min(100, msUntil(flushUntil))));
        if (m_producer.outq_len() > 0) {
            const int64_t before = m_counters.failed.load();
            m_producer.purge(RdKafka::Producer::PURGE_QUEUE | RdKafka::Producer::PURGE_INFLIGHT);
            m_producer.poll(0);
            m_producer.flush(0);
            m_counters.undelivered.fetch_add(m_counters.failed.load() - before);
        }
    }

    ClientShared &m_shared;
    const ProducerPlan &m_plan;
    ClientCounters &m_counters;
    RdKafka::Producer &m_producer;
    EnvelopeWriter m_writer;
    const Pacer m_pacer;
};

} // namespace

void runProducerClient(ClientShared &shared, const ProducerPlan &plan, ClientCounters &counters)
{
    const FinishedOnReturn finished{counters};
    ProducerCallbacks callbacks(shared, counters, plan.index);
    const std::unique_ptr<RdKafka::Producer> producer = createProducer(shared, plan, counters, callbacks);
    if (!producer)
        return;
    // The schedule starts once every client of the phase is connected and sees the topic's
    // leaders; until then delivery reports and events are served.
    if (!awaitReadyAndGo(*producer, shared, counters, "producer " + std::to_string(plan.index),
                         [&] { producer->poll(1); }))
        return;
    PacedSend(shared, plan, counters, *producer).run();
}

} // namespace plimsoll
