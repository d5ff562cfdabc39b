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

} // namespace

void runProducerClient(ClientShared &shared, const ProducerPlan &plan, ClientCounters &counters)
{
    struct Finished
    {
        ClientCounters &c;
        ~Finished() { c.finished = true; }
    } finished{counters};

    ProducerCallbacks callbacks(shared, counters, plan.index);
    std::string errstr;
    auto config = shared.kafkaConfig;
    for (const auto &[key, value] : shared.producerConfig)
        config[key] = value;
    config.try_emplace("client.id", "plimsoll-bench-producer-" + std::to_string(plan.index));
    // Deliveries still pending when the flush gives up fail instead of lingering.
    config["message.timeout.ms"] = std::to_string(std::max<int64_t>(shared.flushTimeout.count(), 1000));
    if (plan.index == 0)
        config["statistics.interval.ms"] = std::to_string(shared.statisticsInterval.count());
    const std::unique_ptr<RdKafka::Conf> conf = clientConf(config, counters);
    if (!conf)
        return;
    conf->set("dr_cb", static_cast<RdKafka::DeliveryReportCb *>(&callbacks), errstr);
    conf->set("event_cb", static_cast<RdKafka::EventCb *>(&callbacks), errstr);
    std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), errstr));
    if (!producer) {
        counters.errors.fetch_add(1);
        counters.noteError(KafkaError::fromCode(RdKafka::ERR__FAIL, "creating a Kafka producer", errstr).toString());
        return;
    }

    // The schedule starts once every client of the phase is connected and sees the topic's
    // leaders; until then delivery reports and events are served.
    if (!awaitReadyAndGo(*producer, shared, counters, "producer " + std::to_string(plan.index),
                         [&] { producer->poll(1); }))
        return;
    EnvelopeWriter writer(shared.runId, static_cast<uint32_t>(plan.index), shared.recordSize);
    const Pacer pacer(plan.rate, shared.start, plan.offset);
    const auto stopRequested = [&] {
        return shared.cancelled() || shared.stopProducers.load(std::memory_order_relaxed);
    };

    for (int64_t sequence = 0; plan.records < 0 || sequence < plan.records; ++sequence) {
        if (stopRequested())
            break;
        Clock::time_point due = pacer.due(sequence);
        if (due >= shared.produceUntil)
            break;
        // Wait for the due time, serving delivery reports meanwhile; never sleep past it by
        // more than a millisecond, the poll granularity.
        while (pacer.limited() && Clock::now() < due && !stopRequested()) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(due - Clock::now()).count();
            if (left >= 2)
                producer->poll(static_cast<int>(std::min<int64_t>(left - 1, 100)));
            else
                std::this_thread::sleep_until(due);
        }
        if (!pacer.limited())
            due = Clock::now();
        if (shared.beforeSend)
            shared.beforeSend(plan.index, sequence);

        const std::string_view value = writer.write(static_cast<uint64_t>(sequence), steadyNs(due));
        // Unpaced, `due` was read just now: the first attempt is sent at it (one clock read
        // a record, not two).
        bool sendingAtDue = !pacer.limited() && !shared.beforeSend;
        for (;;) {
            const auto sentAt = sendingAtDue ? due : Clock::now();
            sendingAtDue = false;
            // RK_MSG_COPY: the writer's buffer is reused for the next record. The opaque
            // carries the actual send time, for service time beside the scheduled latency.
            const auto code = producer->produce(shared.topic, RdKafka::Topic::PARTITION_UA,
                                                RdKafka::Producer::RK_MSG_COPY, const_cast<char *>(value.data()),
                                                value.size(), nullptr, 0, 0,
                                                reinterpret_cast<void *>(static_cast<intptr_t>(steadyNs(sentAt))));
            if (code == RdKafka::ERR_NO_ERROR) {
                counters.sent.fetch_add(1, std::memory_order_relaxed);
                counters.queued.fetch_add(1, std::memory_order_relaxed);
                break;
            }
            if (code == RdKafka::ERR__QUEUE_FULL && !stopRequested()) {
                // Back-pressure: serve acknowledgements, then retry. The wait stays inside
                // the latency (measured from `due`) and is reported on its own too.
                producer->poll(10);
                counters.queueFullNs.fetch_add(
                    std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - sentAt).count(),
                    std::memory_order_relaxed);
                continue;
            }
            if (code != RdKafka::ERR__QUEUE_FULL) {
                counters.errors.fetch_add(1);
                counters.noteError(KafkaError::fromCode(code, "producing to " + shared.topic).toString());
            }
            break;
        }
        producer->poll(0);
    }

    // Flush with a bound: a broker that stopped answering must not hold the run.
    const auto flushUntil = Clock::now() + shared.flushTimeout;
    while (producer->outq_len() > 0 && Clock::now() < flushUntil)
        producer->flush(std::max(1, std::min(100, msUntil(flushUntil))));
    if (producer->outq_len() > 0) {
        const int64_t before = counters.failed.load();
        producer->purge(RdKafka::Producer::PURGE_QUEUE | RdKafka::Producer::PURGE_INFLIGHT);
        producer->poll(0);
        producer->flush(0);
        counters.undelivered.fetch_add(counters.failed.load() - before);
    }
}

} // namespace plimsoll
