#include "runner/benchphase.h"

#include "runner/histogramlog.h"
#include "runner/phasegroup.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <thread>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kTick = std::chrono::milliseconds(20);

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Starts the clients' threads; they connect and wait at the readiness barrier until
// beginSchedule() gives them their timeline.
void startGroup(PhaseGroup &g, const PhaseEnvironment &env, Clock::time_point readyBy)
{
    const PhaseSpec &spec = g.spec;
    ClientShared &s = g.shared;
    s.kafkaConfig = env.kafkaConfig;
    s.producerConfig = env.producerConfig;
    s.consumerConfig = env.consumerConfig;
    s.topic = spec.topic;
    s.runId = env.runId;
    s.producerIdBase = spec.producerIdBase;
    s.recordSize = env.recordSize;
    s.readyBy = readyBy;
    s.flushTimeout = env.timeout;
    s.statisticsInterval = std::max(std::chrono::milliseconds(100),
                                    std::chrono::duration_cast<std::chrono::milliseconds>(env.interval));
    s.cancel = env.cancel;
    if (spec.roundtrip) {
        g.tracker = std::make_unique<SequenceTracker>(env.runId, spec.producers, spec.producerIdBase);
        s.tracker = g.tracker.get();
    }
    s.validateChecksum = spec.validateChecksum;
    s.measureEndToEnd = spec.roundtrip;
    s.consumeTarget = spec.producers == 0 ? spec.records : 0;
    s.backlogRead = spec.backlogRead;
    s.beforeSend = env.beforeSend;
    s.onStatistics = [&g](const std::string &json) {
        // librdkafka's statistics: the average broker round trip (µs), averaged over brokers.
        const auto stats = nlohmann::json::parse(json, nullptr, false);
        if (!stats.is_object() || !stats.contains("brokers"))
            return;
        double sum = 0;
        int n = 0;
        for (const auto &broker : stats["brokers"]) {
            const auto avg = broker.value("/rtt/avg"_json_pointer, 0.0);
            if (avg > 0) {
                sum += avg;
                ++n;
            }
        }
        if (n > 0)
            g.rttAvgS = sum / n * 1e-6;
    };
    for (int i = 0; i < spec.consumers; ++i) {
        ConsumerPlan plan;
        plan.index = i;
        plan.group = spec.group;
        plan.autoOffsetReset = spec.autoOffsetReset;
        plan.fetchMaxBytes = spec.fetchMaxBytes;
        // Partitions dealt round-robin over the consumers: the phase's own, or every one.
        std::size_t k = 0;
        for (std::size_t p = 0; p < spec.startOffsets.size(); ++p) {
            const bool owned = spec.partitions.empty()
                            || std::find(spec.partitions.begin(), spec.partitions.end(), int32_t(p))
                                   != spec.partitions.end();
            if (owned && static_cast<int>(k++ % static_cast<std::size_t>(spec.consumers)) == i)
                plan.partitions.emplace_back(static_cast<int32_t>(p), spec.startOffsets[p]);
        }
        g.consumers.push_back(std::make_unique<ClientCounters>());
        g.consumerThreads.emplace_back(runConsumerClient, std::ref(s), plan, std::ref(*g.consumers.back()));
    }
    for (int i = 0; i < spec.producers; ++i) {
        ProducerPlan plan;
        plan.index = i;
        plan.partitions = spec.partitions;
        if (spec.records > 0)
            plan.records = spec.records / spec.producers + (i < spec.records % spec.producers ? 1 : 0);
        plan.rate = spec.rate > 0 ? spec.rate / spec.producers : 0;
        // Interleave the clients' timelines so the aggregate schedule stays even.
        if (spec.rate > 0)
            plan.offset = std::chrono::nanoseconds(static_cast<int64_t>(1e9 * i / spec.rate));
        g.producers.push_back(std::make_unique<ClientCounters>());
        g.producerThreads.emplace_back(runProducerClient, std::ref(s), plan, std::ref(*g.producers.back()));
    }
}

// The timeline, from `start` on; published to the waiting clients by `go`.
void beginSchedule(PhaseGroup &g, Clock::time_point start)
{
    ClientShared &s = g.shared;
    s.start = start;
    s.measureStart = start + g.spec.warmup;
    if (g.spec.records <= 0 || g.spec.producers == 0)
        s.produceUntil = start + g.spec.warmup + g.spec.duration;
    g.lastConsumedAt = start;
    g.lastAckProgressAt = start;
    s.go.store(true, std::memory_order_release);
}

// Waits until every client of the groups is ready (or ended: a client that could not get
// ready says why in its counters). Empty when all are ready; else what kept them.
std::vector<std::string> awaitReady(const std::vector<PhaseGroup *> &groups, const PhaseEnvironment &env,
                                    Clock::time_point readyBy)
{
    const auto cancelled = [&] { return env.cancel && env.cancel->load(); };
    for (;;) {
        std::vector<std::string> problems;
        bool waiting = false;
        for (const PhaseGroup *g : groups)
            for (auto *clients : {&g->producers, &g->consumers})
                for (const auto &c : *clients) {
                    if (c->ready)
                        continue;
                    if (c->finished) {
                        // Clients failing alike say it once.
                        auto problem = c->firstError().empty() ? "a client ended before it was ready" : c->firstError();
                        if (std::find(problems.begin(), problems.end(), problem) == problems.end())
                            problems.push_back(std::move(problem));
                    } else
                        waiting = true;
                }
        if (!waiting || cancelled())
            return problems;
        // The clients give up at readyBy themselves; this is only a backstop.
        if (Clock::now() > readyBy + std::chrono::seconds(5)) {
            problems.push_back("the clients were not ready within " + std::to_string(env.timeout.count()) + " ms");
            return problems;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

int64_t unixNsNow()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A fleet's agent, ready, waits for the fleet's start instant (or the user's stop).
void awaitStartInstant(const PhaseEnvironment &env, PhaseOutcome &outcome)
{
    const int64_t startAtNs = env.startAtUnixMs * 1000000;
    for (int64_t now = unixNsNow(); env.startAtUnixMs > 0 && now < startAtNs; now = unixNsNow()) {
        if (env.cancel && env.cancel->load())
            return;
        const int64_t left = startAtNs - now;
        std::this_thread::sleep_for(std::chrono::nanoseconds(left > 2000000 ? std::min<int64_t>(left - 1000000, 20000000)
                                                                            : 50000));
    }
    outcome.goUnixNs = unixNsNow();
    if (env.startAtUnixMs > 0)
        outcome.startLateS = std::max<double>(0, static_cast<double>(outcome.goUnixNs - startAtNs) * 1e-9);
}

void joinAll(std::vector<std::thread> &threads)
{
    for (auto &t : threads)
        if (t.joinable())
            t.join();
}

// Takes the clients' interval histograms into `interval` and the group's totals.
void collect(PhaseGroup &g, HdrHistogram (&interval)[IntervalHistograms::KindCount])
{
    for (auto *clients : {&g.producers, &g.consumers})
        for (auto &c : *clients)
            c->histograms.drainInto(interval);
    for (int k = 0; k < IntervalHistograms::KindCount; ++k)
        g.total[k].add(interval[k]);
}

BenchSnapshot snapshot(PhaseGroup &g, const PhaseEnvironment &env, Clock::time_point now, double intervalS,
                       HdrHistogram (&interval)[IntervalHistograms::KindCount], const std::string &phase)
{
    BenchSnapshot s;
    s.scenario = g.spec.scenario;
    s.phase = phase;
    s.elapsedS = seconds(now - env.runStart);
    s.intervalS = intervalS;
    const int64_t produced = g.sum(g.producers, &ClientCounters::measuredRecords);
    const int64_t consumed = g.sum(g.consumers, &ClientCounters::measuredRecords);
    const int64_t bytes = g.producers.empty() ? g.sum(g.consumers, &ClientCounters::measuredBytes)
                                              : g.sum(g.producers, &ClientCounters::measuredBytes);
    const int64_t producedAll = g.sum(g.producers, &ClientCounters::totalRecords);
    const int64_t consumedAll = g.sum(g.consumers, &ClientCounters::totalRecords);
    if (intervalS > 0 && phase == "warmup") {
        // A warm-up interval shows what flowed (records are not measured yet, so the measured
        // counts would read 0/s); the result's rates and histograms leave it out.
        s.producedPerS = static_cast<double>(producedAll - g.lastProducedAll) / intervalS;
        s.consumedPerS = static_cast<double>(consumedAll - g.lastConsumedAll) / intervalS;
        s.bytesPerS = (g.producers.empty() ? s.consumedPerS : s.producedPerS) * static_cast<double>(env.recordSize);
    } else if (intervalS > 0) {
        s.producedPerS = static_cast<double>(produced - g.lastProduced) / intervalS;
        s.consumedPerS = static_cast<double>(consumed - g.lastConsumed) / intervalS;
        s.bytesPerS = static_cast<double>(bytes - g.lastBytes) / intervalS;
    }
    g.lastProduced = produced;
    g.lastConsumed = consumed;
    g.lastBytes = bytes;
    g.lastProducedAll = producedAll;
    g.lastConsumedAll = consumedAll;
    s.ackP50S = percentileSeconds(interval[IntervalHistograms::Ack], 50);
    s.ackP99S = percentileSeconds(interval[IntervalHistograms::Ack], 99);
    s.e2eP50S = percentileSeconds(interval[IntervalHistograms::EndToEnd], 50);
    s.e2eP99S = percentileSeconds(interval[IntervalHistograms::EndToEnd], 99);
    s.sent = g.sum(g.producers, &ClientCounters::sent);
    s.acked = g.sum(g.producers, &ClientCounters::acked);
    s.consumed = g.sum(g.consumers, &ClientCounters::totalRecords);
    s.errors = g.sum(g.producers, &ClientCounters::failed) + g.sum(g.producers, &ClientCounters::errors)
             + g.sum(g.consumers, &ClientCounters::errors) + g.sum(g.consumers, &ClientCounters::invalid);
    s.queued = g.sum(g.producers, &ClientCounters::queued);
    s.brokerRttAvgS = g.rttAvgS;
    const PhaseSpec &spec = g.spec;
    if (spec.records > 0)
        s.progress = std::min(1.0, static_cast<double>(spec.producers > 0 ? s.acked : s.consumed)
                                       / static_cast<double>(spec.records));
    else if (spec.duration.count() > 0)
        s.progress = std::min(1.0, seconds(now - g.shared.start) / seconds(spec.warmup + spec.duration));
    return s;
}

// One interval's snapshot of the main group (with the probe's latencies, when there is one),
// handed to the environment and the histogram log.
void emitSnapshot(PhaseGroup &g, PhaseGroup *probe, const PhaseEnvironment &env, Clock::time_point now,
                  Clock::time_point lastSnapshot, const std::string &phase)
{
    HdrHistogram interval[IntervalHistograms::KindCount] = {makeLatencyHistogram(), makeLatencyHistogram(),
                                                            makeLatencyHistogram()};
    collect(g, interval);
    const double intervalS = seconds(now - lastSnapshot);
    auto snap = snapshot(g, env, now, intervalS, interval, phase);
    if (probe) {
        HdrHistogram probeInterval[IntervalHistograms::KindCount] = {makeLatencyHistogram(), makeLatencyHistogram(),
                                                                     makeLatencyHistogram()};
        collect(*probe, probeInterval);
        // With a probe, the client-observed latency headline is the probe's: medians
        // and tails both, so the two describe the same records.
        snap.ackP50S = percentileSeconds(probeInterval[IntervalHistograms::Ack], 50);
        snap.ackP99S = percentileSeconds(probeInterval[IntervalHistograms::Ack], 99);
        snap.e2eP50S = percentileSeconds(probeInterval[IntervalHistograms::EndToEnd], 50);
        snap.e2eP99S = percentileSeconds(probeInterval[IntervalHistograms::EndToEnd], 99);
    }
    if (env.histogramLog)
        env.histogramLog->writeInterval(seconds(lastSnapshot - env.runStart), intervalS, interval);
    if (env.onSnapshot)
        env.onSnapshot(snap);
}

// Coordinates the main group until it is done, tick by tick: the warm-up's end, progress
// watchdogs, the producers' end and the drain, snapshots. The phase a snapshot names moves
// warmup → measure → drain (or interrupted: a stopped run is given no drain).
class Coordinator
{
public:
    Coordinator(PhaseGroup &g, PhaseGroup *probe, const PhaseEnvironment &env, PhaseOutcome &outcome)
        : m_g(g), m_probe(probe), m_env(env), m_outcome(outcome),
          m_nextSnapshot(g.shared.start + env.interval), m_lastSnapshot(g.shared.start),
          m_phase(g.spec.warmup.count() > 0 ? "warmup" : "measure")
    {}

    void run()
    {
        for (bool done = false; !done;) {
            const auto now = tick();
            noteProgress(now);
            watchProducers(now);
            done = isDone(now);
            if (now >= m_nextSnapshot || done) {
                snapshot(now);
                while (m_nextSnapshot <= now)
                    m_nextSnapshot += m_env.interval;
            }
        }
    }

private:
    bool cancelled() const { return m_env.cancel && m_env.cancel->load(); }

    // Sleeps a tick; during the warm-up wakes at its end too, whose window closes there exactly.
    Clock::time_point tick()
    {
        auto wake = Clock::now() + kTick;
        if (m_phase == "warmup")
            wake = std::min(wake, m_g.shared.measureStart);
        std::this_thread::sleep_until(wake);
        const auto now = Clock::now();
        if (m_phase == "warmup" && now >= m_g.shared.measureStart) {
            // No interval mixes warm-up and measured records: the warm-up's last interval ends
            // here, the measured ones are counted from here.
            snapshot(now);
            m_nextSnapshot = now + m_env.interval;
            m_phase = "measure";
        }
        return now;
    }

    void snapshot(Clock::time_point now)
    {
        emitSnapshot(m_g, m_probe, m_env, now, m_lastSnapshot, m_phase);
        m_lastSnapshot = now;
    }

    // When records last arrived and when an acknowledgement (or a refusal) last came.
    void noteProgress(Clock::time_point now)
    {
        PhaseGroup &g = m_g;
        const int64_t consumedNow = g.sum(g.consumers, &ClientCounters::totalRecords);
        if (consumedNow != g.lastConsumedTotal) {
            g.lastConsumedTotal = consumedNow;
            g.lastConsumedAt = now;
        }
        const int64_t ackedNow = g.sum(g.producers, &ClientCounters::acked) + g.sum(g.producers, &ClientCounters::failed);
        if (ackedNow != g.lastAckCount || g.sum(g.producers, &ClientCounters::queued) == 0) {
            g.lastAckCount = ackedNow;
            g.lastAckProgressAt = now;
        }
    }

    void watchProducers(Clock::time_point now)
    {
        PhaseGroup &g = m_g;
        if (g.producers.empty() || g.producerThreads.empty() || g.producersDoneAt != Clock::time_point{})
            return;
        // A broker that stopped answering: nothing acknowledged or failed for a whole timeout
        // while records wait. Stop sending; the flush reports what is left.
        if (now - g.lastAckProgressAt > m_env.timeout && !g.shared.stopProducers) {
            g.shared.stopProducers = true;
            m_outcome.errors.push_back("no acknowledgement from the broker for "
                                       + std::to_string(m_env.timeout.count()) + " ms; stopped producing");
        }
        if (g.producersFinished()) {
            joinAll(g.producerThreads);
            g.producersDoneAt = now;
            m_drainUntil = now + m_env.timeout;
            m_phase = cancelled() ? "interrupted" : "drain";
        }
    }

    bool isDone(Clock::time_point now)
    {
        const PhaseGroup &g = m_g;
        const PhaseSpec &spec = g.spec;
        const bool producersDone = g.producers.empty() || g.producersDoneAt != Clock::time_point{};
        if (g.consumers.empty())
            return producersDone;
        if (!g.producers.empty()) {
            // Round trip: drain until every acknowledged record came back, or the timeout.
            return producersDone
                && (cancelled() || now >= m_drainUntil || (g.tracker && g.tracker->missing() == 0));
        }
        // A backlog read's window ends on time even with records left: the lag says how many.
        const bool byDuration = (spec.records <= 0 || spec.backlogRead) && now >= g.shared.produceUntil;
        const bool reached = spec.records > 0 && g.shared.consumedTotal.load() >= spec.records;
        const bool idle = now - g.lastConsumedAt > spec.idleTimeout;
        if (idle && !reached && !cancelled())
            m_outcome.errors.push_back("no record arrived for " + std::to_string(spec.idleTimeout.count())
                                       + " ms; stopped consuming");
        return cancelled() || byDuration || reached || idle || g.consumersFinished();
    }

    PhaseGroup &m_g;
    PhaseGroup *m_probe;
    const PhaseEnvironment &m_env;
    PhaseOutcome &m_outcome;
    Clock::time_point m_nextSnapshot;
    Clock::time_point m_lastSnapshot;
    Clock::time_point m_drainUntil{};
    std::string m_phase;
};

} // namespace

PhaseOutcome runPhase(const PhaseEnvironment &env, const PhaseSpec &mainSpec, const PhaseSpec *probeSpec)
{
    PhaseOutcome outcome;
    const auto launched = Clock::now();
    const auto readyBy = launched + env.timeout;
    PhaseGroup main;
    main.spec = mainSpec;
    std::unique_ptr<PhaseGroup> probe;
    startGroup(main, env, readyBy);
    std::vector<PhaseGroup *> groups{&main};
    if (probeSpec) {
        probe = std::make_unique<PhaseGroup>();
        probe->spec = *probeSpec;
        probe->spec.records = 0;
        probe->spec.duration = std::chrono::hours(24 * 365); // runs until the main group ends
        startGroup(*probe, env, readyBy);
        groups.push_back(probe.get());
    }
    const auto cancelled = [&] { return env.cancel && env.cancel->load(); };

    // The readiness barrier: the schedule starts when every client is connected and sees the
    // topic's leaders, so connecting and the first metadata are not charged to any record.
    const std::vector<std::string> notReady = awaitReady(groups, env, readyBy);
    if (notReady.empty())
        awaitStartInstant(env, outcome);
    const auto start = Clock::now();
    if (!notReady.empty() && !cancelled()) {
        // A client that cannot reach the topic leaves nothing to measure: stop them all.
        for (PhaseGroup *g : groups)
            g->shared.stopProducers = g->shared.stopConsumers = true;
        outcome.failed = true;
        outcome.errors.insert(outcome.errors.end(), notReady.begin(), notReady.end());
    }
    for (PhaseGroup *g : groups)
        beginSchedule(*g, start);
    if (notReady.empty() && !cancelled())
        Coordinator(main, probe.get(), env, outcome).run();

    main.shared.stopProducers = true;
    joinAll(main.producerThreads);
    if (main.producersDoneAt == Clock::time_point{})
        main.producersDoneAt = Clock::now();
    main.shared.stopConsumers = true;
    joinAll(main.consumerThreads);
    if (probe) {
        probe->shared.stopProducers = true;
        joinAll(probe->producerThreads);
        // Give the probe's last records a moment to come back before counting.
        const auto probeDrain = Clock::now() + std::min<Clock::duration>(env.timeout, std::chrono::seconds(3));
        while (Clock::now() < probeDrain && probe->tracker && probe->tracker->missing() > 0 && !cancelled())
            std::this_thread::sleep_for(kTick);
        probe->shared.stopConsumers = true;
        joinAll(probe->consumerThreads);
        HdrHistogram rest[IntervalHistograms::KindCount] = {makeLatencyHistogram(), makeLatencyHistogram(),
                                                            makeLatencyHistogram()};
        collect(*probe, rest);
    }
    HdrHistogram rest[IntervalHistograms::KindCount] = {makeLatencyHistogram(), makeLatencyHistogram(),
                                                        makeLatencyHistogram()};
    collect(main, rest);

    for (const auto &c : main.producers)
        if (const int64_t first = c->firstSendUnixNs.load(); first > 0)
            outcome.firstSendUnixNs = outcome.firstSendUnixNs == 0 ? first : std::min(outcome.firstSendUnixNs, first);
    outcome.interrupted = cancelled();
    measurePhase(main, probe.get(), env, outcome);
    outcome.scenario.metrics["clients.startup_s"] = seconds(start - launched);
    return outcome;
}

} // namespace plimsoll
