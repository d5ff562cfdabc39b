#include "runner/benchphase.h"

#include "runner/histogramlog.h"

#include <nlohmann/json.hpp>

#include <QByteArray>

#include <algorithm>
#include <thread>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kTick = std::chrono::milliseconds(20);

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string base64(const std::string &bytes)
{
    return QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())).toBase64().toStdString();
}

// The clients of one topic and what they measured so far.
struct Group
{
    PhaseSpec spec;
    ClientShared shared;
    std::unique_ptr<SequenceTracker> tracker;
    std::vector<std::unique_ptr<ClientCounters>> producers;
    std::vector<std::unique_ptr<ClientCounters>> consumers;
    std::vector<std::thread> producerThreads;
    std::vector<std::thread> consumerThreads;
    HdrHistogram total[IntervalHistograms::KindCount] = {makeLatencyHistogram(), makeLatencyHistogram(),
                                                         makeLatencyHistogram()};
    int64_t lastProduced = 0, lastConsumed = 0, lastBytes = 0;  // measured, at the last snapshot
    int64_t lastProducedAll = 0, lastConsumedAll = 0;          // warm-up included
    int64_t lastConsumedTotal = 0;
    Clock::time_point producersDoneAt{};
    Clock::time_point lastConsumedAt{};
    Clock::time_point lastAckProgressAt{};
    int64_t lastAckCount = 0;
    std::atomic<double> rttAvgS{0};
    std::vector<std::string> errors;

    int64_t sum(const std::vector<std::unique_ptr<ClientCounters>> &clients,
                std::atomic<int64_t> ClientCounters::*field) const
    {
        int64_t total = 0;
        for (const auto &c : clients)
            total += ((*c).*field).load(std::memory_order_relaxed);
        return total;
    }
    bool producersFinished() const
    {
        for (const auto &c : producers)
            if (!c->finished)
                return false;
        return true;
    }
    bool consumersFinished() const
    {
        for (const auto &c : consumers)
            if (!c->finished)
                return false;
        return !consumers.empty();
    }
};

// Starts the clients' threads; they connect and wait at the readiness barrier until
// beginSchedule() gives them their timeline.
void startGroup(Group &g, const PhaseEnvironment &env, Clock::time_point readyBy)
{
    const PhaseSpec &spec = g.spec;
    ClientShared &s = g.shared;
    s.kafkaConfig = env.kafkaConfig;
    s.producerConfig = env.producerConfig;
    s.topic = spec.topic;
    s.runId = env.runId;
    s.recordSize = env.recordSize;
    s.readyBy = readyBy;
    s.flushTimeout = env.timeout;
    s.statisticsInterval = std::max(std::chrono::milliseconds(100),
                                    std::chrono::duration_cast<std::chrono::milliseconds>(env.interval));
    s.cancel = env.cancel;
    if (spec.roundtrip) {
        g.tracker = std::make_unique<SequenceTracker>(env.runId, spec.producers);
        s.tracker = g.tracker.get();
    }
    s.validateChecksum = spec.validateChecksum;
    s.measureEndToEnd = spec.roundtrip;
    s.consumeTarget = spec.producers == 0 ? spec.records : 0;
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
        for (std::size_t p = 0; p < spec.startOffsets.size(); ++p)
            if (static_cast<int>(p % static_cast<std::size_t>(spec.consumers)) == i)
                plan.partitions.emplace_back(static_cast<int32_t>(p), spec.startOffsets[p]);
        g.consumers.push_back(std::make_unique<ClientCounters>());
        g.consumerThreads.emplace_back(runConsumerClient, std::ref(s), plan, std::ref(*g.consumers.back()));
    }
    for (int i = 0; i < spec.producers; ++i) {
        ProducerPlan plan;
        plan.index = i;
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
void beginSchedule(Group &g, Clock::time_point start)
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
std::vector<std::string> awaitReady(const std::vector<Group *> &groups, const PhaseEnvironment &env,
                                    Clock::time_point readyBy)
{
    const auto cancelled = [&] { return env.cancel && env.cancel->load(); };
    for (;;) {
        std::vector<std::string> problems;
        bool waiting = false;
        for (const Group *g : groups)
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

void joinAll(std::vector<std::thread> &threads)
{
    for (auto &t : threads)
        if (t.joinable())
            t.join();
}

// Takes the clients' interval histograms into `interval` and the group's totals.
void collect(Group &g, HdrHistogram (&interval)[IntervalHistograms::KindCount])
{
    for (auto *clients : {&g.producers, &g.consumers})
        for (auto &c : *clients)
            c->histograms.drainInto(interval);
    for (int k = 0; k < IntervalHistograms::KindCount; ++k)
        g.total[k].add(interval[k]);
}

BenchSnapshot snapshot(Group &g, const PhaseEnvironment &env, Clock::time_point now, double intervalS,
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

void putLatency(std::map<std::string, double> &m, const std::string &prefix, const HdrHistogram &h)
{
    if (h.empty())
        return;
    m[prefix + "avg_s"] = h.mean() * 1e-6;
    m[prefix + "p50_s"] = percentileSeconds(h, 50);
    m[prefix + "p95_s"] = percentileSeconds(h, 95);
    m[prefix + "p99_s"] = percentileSeconds(h, 99);
    m[prefix + "p999_s"] = percentileSeconds(h, 99.9);
    m[prefix + "max_s"] = static_cast<double>(h.max()) * 1e-6;
}

void putExtraPercentiles(std::map<std::string, double> &m, const std::string &prefix, const HdrHistogram &h)
{
    if (h.empty())
        return;
    m[prefix + "p90_s"] = percentileSeconds(h, 90);
    m[prefix + "p9999_s"] = percentileSeconds(h, 99.99);
}

// One interval's snapshot of the main group (with the probe's latencies, when there is one),
// handed to the environment and the histogram log.
void emitSnapshot(Group &g, Group *probe, const PhaseEnvironment &env, Clock::time_point now,
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

// Coordinates the main group until it is done: progress watchdogs, the drain, snapshots.
void coordinate(Group &g, Group *probe, const PhaseEnvironment &env, PhaseOutcome &outcome)
{
    const PhaseSpec &mainSpec = g.spec;
    const auto cancelled = [&] { return env.cancel && env.cancel->load(); };
    auto nextSnapshot = g.shared.start + env.interval;
    auto lastSnapshot = g.shared.start;
    Clock::time_point drainUntil{};
    bool done = false;
    std::string phase = mainSpec.warmup.count() > 0 ? "warmup" : "measure";
    while (!done) {
        // During the warm-up, wake at its end too: its window closes there exactly.
        auto wake = Clock::now() + kTick;
        if (phase == "warmup")
            wake = std::min(wake, g.shared.measureStart);
        std::this_thread::sleep_until(wake);
        auto now = Clock::now();
        if (phase == "warmup" && now >= g.shared.measureStart) {
            // No interval mixes warm-up and measured records: the warm-up's last interval ends
            // here, the measured ones are counted from here.
            emitSnapshot(g, probe, env, now, lastSnapshot, phase);
            lastSnapshot = now;
            nextSnapshot = now + env.interval;
            phase = "measure";
        }
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

        if (!g.producers.empty() && g.producerThreads.size() && g.producersDoneAt == Clock::time_point{}) {
            // A broker that stopped answering: nothing acknowledged or failed for a whole
            // timeout while records wait. Stop sending; the flush reports what is left.
            if (now - g.lastAckProgressAt > env.timeout && !g.shared.stopProducers) {
                g.shared.stopProducers = true;
                outcome.errors.push_back("no acknowledgement from the broker for "
                                         + std::to_string(env.timeout.count()) + " ms; stopped producing");
            }
            if (g.producersFinished()) {
                joinAll(g.producerThreads);
                g.producersDoneAt = now;
                drainUntil = now + env.timeout;
                phase = cancelled() ? "interrupted" : "drain"; // a stopped run is given no drain
            }
        }

        const bool producersDone = g.producers.empty() || g.producersDoneAt != Clock::time_point{};
        if (g.consumers.empty()) {
            done = producersDone;
        } else if (!g.producers.empty()) {
            // Round trip: drain until every acknowledged record came back, or the timeout.
            done = producersDone && (cancelled() || now >= drainUntil || (g.tracker && g.tracker->missing() == 0));
        } else {
            const bool byDuration = mainSpec.records <= 0 && now >= g.shared.produceUntil;
            const bool reached = mainSpec.records > 0 && g.shared.consumedTotal.load() >= mainSpec.records;
            const bool idle = now - g.lastConsumedAt > mainSpec.idleTimeout;
            if (idle && !reached && !cancelled())
                outcome.errors.push_back("no record arrived for " + std::to_string(mainSpec.idleTimeout.count())
                                         + " ms; stopped consuming");
            done = cancelled() || byDuration || reached || idle || g.consumersFinished();
        }

        if (now >= nextSnapshot || done) {
            emitSnapshot(g, probe, env, now, lastSnapshot, phase);
            lastSnapshot = now;
            while (nextSnapshot <= now)
                nextSnapshot += env.interval;
        }
    }
}

// The producers' numbers: rates, ack and service latency, what was sent, acknowledged and
// lost. Returns the errors they count (failed deliveries and client errors).
int64_t measureProducers(const Group &g, PhaseOutcome &outcome)
{
    ScenarioResult &result = outcome.scenario;
    auto &m = result.metrics;
    const bool interrupted = outcome.interrupted;
    const double measuredS = std::max(1e-9, seconds(g.producersDoneAt - g.shared.measureStart));
    const int64_t measured = g.sum(g.producers, &ClientCounters::measuredRecords);
    m["records_per_s"] = static_cast<double>(measured) / measuredS;
    m["bytes_per_s"] = static_cast<double>(g.sum(g.producers, &ClientCounters::measuredBytes)) / measuredS;
    putLatency(m, "latency_", g.total[IntervalHistograms::Ack]);
    putExtraPercentiles(m, "producer.latency_", g.total[IntervalHistograms::Ack]);
    if (!g.total[IntervalHistograms::Ack].empty())
        m["ack_p99_s"] = m["latency_p99_s"];
    putLatency(m, "producer.service_", g.total[IntervalHistograms::Service]);
    m["producer.sent"] = static_cast<double>(g.sum(g.producers, &ClientCounters::sent));
    m["producer.acknowledged"] = static_cast<double>(g.sum(g.producers, &ClientCounters::acked));
    m["producer.undelivered"] = static_cast<double>(g.sum(g.producers, &ClientCounters::undelivered));
    m["producer.blocked_s"] = static_cast<double>(g.sum(g.producers, &ClientCounters::queueFullNs)) * 1e-9;
    m["producer.measured_s"] = measuredS;
    const int64_t sent = g.sum(g.producers, &ClientCounters::sent);
    const int64_t acked = g.sum(g.producers, &ClientCounters::acked);
    const int64_t undelivered = g.sum(g.producers, &ClientCounters::undelivered);
    const int64_t failed = g.sum(g.producers, &ClientCounters::failed) - (interrupted ? undelivered : 0);
    m["producer.failed"] = static_cast<double>(failed);
    if (interrupted) {
        outcome.unacknowledged = sent - acked - failed;
        m["producer.in_flight"] = static_cast<double>(outcome.unacknowledged);
    }
    if (failed > 0) {
        outcome.failed = true;
        outcome.errors.push_back(std::to_string(failed) + " records were not delivered"
                                 + (interrupted ? std::string()
                                                : " (" + std::to_string(undelivered)
                                                      + " still queued when the flush timed out)"));
    }
    for (const auto &c : g.producers)
        // A client that never got ready was reported by the readiness barrier.
        if (auto e = c->firstError(); !e.empty() && c->sent == 0 && c->ready) {
            outcome.failed = true;
            outcome.errors.push_back(e);
            break;
        }
    for (int k : {IntervalHistograms::Ack, IntervalHistograms::Service})
        result.histograms[k == IntervalHistograms::Ack ? "ack_us" : "service_us"] =
            base64(g.total[k].encodeCompressed());
    return failed + g.sum(g.producers, &ClientCounters::errors);
}

// The consumers' numbers: alone, the phase's rates and what failed the checks; in a round
// trip, the end-to-end latency. Returns the errors they count (client errors, invalid records).
int64_t measureConsumers(const Group &g, PhaseOutcome &outcome)
{
    ScenarioResult &result = outcome.scenario;
    auto &m = result.metrics;
    const PhaseSpec &mainSpec = g.spec;
    const int64_t consumed = g.sum(g.consumers, &ClientCounters::measuredRecords);
    const auto end = g.producers.empty() ? g.lastConsumedAt : Clock::now();
    const double measuredS = std::max(1e-9, seconds(end - g.shared.measureStart));
    const int64_t invalid = g.sum(g.consumers, &ClientCounters::invalid);
    if (g.producers.empty()) {
        m["records_per_s"] = static_cast<double>(consumed) / measuredS;
        m["bytes_per_s"] = static_cast<double>(g.sum(g.consumers, &ClientCounters::measuredBytes)) / measuredS;
        m["consumer.records"] = static_cast<double>(g.sum(g.consumers, &ClientCounters::totalRecords));
        m["consumer.invalid"] = static_cast<double>(invalid);
        if (mainSpec.records > 0 && g.shared.consumedTotal.load() < mainSpec.records && !outcome.interrupted) {
            outcome.failed = true;
            outcome.errors.push_back(std::to_string(g.shared.consumedTotal.load()) + " of "
                                     + std::to_string(mainSpec.records) + " records consumed");
        }
        if (invalid > 0) {
            outcome.failed = true;
            outcome.errors.push_back(std::to_string(invalid) + " records failed the envelope check");
        }
    }
    if (!g.total[IntervalHistograms::EndToEnd].empty()) {
        putLatency(m, "e2e.latency_", g.total[IntervalHistograms::EndToEnd]);
        m["e2e_p99_s"] = m["e2e.latency_p99_s"];
        result.histograms["e2e_us"] = base64(g.total[IntervalHistograms::EndToEnd].encodeCompressed());
    }
    return g.sum(g.consumers, &ClientCounters::errors) + invalid;
}

// The round trip's matching: every acknowledged record consumed once, and valid.
void measureMatching(const SequenceTracker &tracker, const PhaseEnvironment &env, PhaseOutcome &outcome)
{
    auto &m = outcome.scenario.metrics;
    const auto counts = tracker.counts();
    m["roundtrip.acknowledged"] = static_cast<double>(counts.acknowledged);
    m["roundtrip.matched"] = static_cast<double>(counts.matched);
    m["roundtrip.duplicate"] = static_cast<double>(counts.duplicate);
    m["roundtrip.invalid"] = static_cast<double>(counts.invalid);
    m["roundtrip.unacknowledged_consumed"] = static_cast<double>(counts.unacknowledgedConsumed);
    if (outcome.interrupted) {
        outcome.unconsumed = counts.missing;
        m["roundtrip.in_flight"] = static_cast<double>(counts.missing);
        if (counts.invalid > 0) {
            outcome.failed = true;
            outcome.errors.push_back(std::to_string(counts.invalid) + " invalid records consumed");
        }
        return;
    }
    m["roundtrip.missing"] = static_cast<double>(counts.missing);
    if (counts.missing > 0 || counts.invalid > 0) {
        outcome.failed = true;
        outcome.errors.push_back(std::to_string(counts.missing) + " acknowledged records missing, "
                                 + std::to_string(counts.invalid) + " invalid, after draining for up to "
                                 + std::to_string(env.timeout.count()) + " ms");
    }
}

// The scenario's numbers, once every client of the phase has ended. Interrupted, what was
// still under way is in flight, not lost: records purged from the producers' queues after the
// stop were never refused by a broker, and acknowledged records not yet consumed were never
// given the drain.
void measure(const Group &g, const Group *probe, const PhaseEnvironment &env, PhaseOutcome &outcome)
{
    ScenarioResult &result = outcome.scenario;
    const PhaseSpec &mainSpec = g.spec;
    result.name = mainSpec.scenario;
    result.kind = mainSpec.kind;
    result.topology.producers = mainSpec.producers;
    result.topology.consumers = mainSpec.consumers;
    result.topology.recordSizeBytes = static_cast<int64_t>(env.recordSize);
    auto &m = result.metrics;
    int64_t errors = 0;
    if (!g.producers.empty())
        errors += measureProducers(g, outcome);
    if (!g.consumers.empty())
        errors += measureConsumers(g, outcome);
    if (g.tracker)
        measureMatching(*g.tracker, env, outcome);
    if (probe) {
        if (!probe->total[IntervalHistograms::Ack].empty())
            m["ack_p99_s"] = percentileSeconds(probe->total[IntervalHistograms::Ack], 99);
        if (!probe->total[IntervalHistograms::EndToEnd].empty())
            m["e2e_p99_s"] = percentileSeconds(probe->total[IntervalHistograms::EndToEnd], 99);
        m["probe.records"] = static_cast<double>(probe->sum(probe->producers, &ClientCounters::acked));
    }
    m["errors"] = static_cast<double>(errors);
}

} // namespace

PhaseOutcome runPhase(const PhaseEnvironment &env, const PhaseSpec &mainSpec, const PhaseSpec *probeSpec)
{
    PhaseOutcome outcome;
    const auto launched = Clock::now();
    const auto readyBy = launched + env.timeout;
    Group main;
    main.spec = mainSpec;
    std::unique_ptr<Group> probe;
    startGroup(main, env, readyBy);
    std::vector<Group *> groups{&main};
    if (probeSpec) {
        probe = std::make_unique<Group>();
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
    const auto start = Clock::now();
    if (!notReady.empty() && !cancelled()) {
        // A client that cannot reach the topic leaves nothing to measure: stop them all.
        for (Group *g : groups)
            g->shared.stopProducers = g->shared.stopConsumers = true;
        outcome.failed = true;
        outcome.errors.insert(outcome.errors.end(), notReady.begin(), notReady.end());
    }
    for (Group *g : groups)
        beginSchedule(*g, start);
    if (notReady.empty() && !cancelled())
        coordinate(main, probe.get(), env, outcome);

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

    outcome.interrupted = cancelled();
    measure(main, probe.get(), env, outcome);
    outcome.scenario.metrics["clients.startup_s"] = seconds(start - launched);
    return outcome;
}

} // namespace plimsoll
