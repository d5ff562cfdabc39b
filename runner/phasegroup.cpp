#include "runner/phasegroup.h"

#include <QByteArray>

#include <algorithm>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string base64(const std::string &bytes)
{
    return QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())).toBase64().toStdString();
}

// The producers' numbers: rates, ack and service latency, what was sent, acknowledged and
// lost. Returns the errors they count (failed deliveries and client errors).
int64_t measureProducers(const PhaseGroup &g, PhaseOutcome &outcome)
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
        // Why, in the words of the first failed delivery (a timeout, a broker's refusal).
        std::string why;
        for (const auto &c : g.producers)
            if (c->failed > 0 && !(why = c->firstError()).empty())
                break;
        outcome.errors.push_back(std::to_string(failed) + " records were not delivered"
                                 + (interrupted ? std::string()
                                                : " (" + std::to_string(undelivered)
                                                      + " still queued when the flush timed out)")
                                 + (why.empty() ? std::string() : ", the first: " + why));
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
int64_t measureConsumers(const PhaseGroup &g, PhaseOutcome &outcome)
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
        if (mainSpec.records > 0 && g.shared.consumedTotal.load() < mainSpec.records && !outcome.interrupted
            && !mainSpec.backlogRead) {
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

// The offsets the group's consumers read, each counted once: per partition, the union of
// their runs of consecutive offsets.
int64_t distinctOffsets(const PhaseGroup &g)
{
    std::vector<std::array<int64_t, 3>> runs;
    for (const auto &c : g.consumers)
        runs.insert(runs.end(), c->offsetRuns.begin(), c->offsetRuns.end());
    std::sort(runs.begin(), runs.end());
    int64_t distinct = 0, partition = -1, covered = -1; // covered: the highest offset counted
    for (const auto &[p, first, last] : runs) {
        if (p != partition)
            partition = p, covered = first - 1;
        if (last > covered) {
            distinct += last - std::max(first - 1, covered);
            covered = last;
        }
    }
    return distinct;
}

// A consume ramp step's reading of its backlog of spec.records: the lag (records of the backlog
// not consumed yet) when the window opened and when it closed, its slope over the window,
// how long the group took to settle, whether the backlog was read within the warm-up, and
// the consumers' fetch latency.
void measureBacklogRead(const PhaseGroup &g, PhaseOutcome &outcome)
{
    auto &m = outcome.scenario.metrics;
    const int64_t backlog = g.spec.records;
    const int64_t consumed = g.sum(g.consumers, &ClientCounters::totalRecords);
    const int64_t distinct = distinctOffsets(g);
    m["consumer.distinct_records"] = static_cast<double>(distinct);
    m["consumer.duplicates"] = static_cast<double>(consumed - distinct);
    if (consumed > distinct) // at-least-once allows it; the commits on a rebalance should prevent it
        outcome.warnings.push_back(outcome.scenario.name + ": the group read " + std::to_string(consumed - distinct)
                                   + " records twice (a rebalance handed partitions over before their offsets "
                                     "were committed); the rate counts them");
    const int64_t measured = g.sum(g.consumers, &ClientCounters::measuredRecords);
    const int64_t lagStart = std::max<int64_t>(0, backlog - (consumed - measured));
    const int64_t lagEnd = std::max<int64_t>(0, backlog - distinct);
    const bool readInWarmup = lagStart == 0;
    const double windowS = std::max(1e-9, seconds((lagEnd == 0 ? g.lastConsumedAt : g.shared.produceUntil)
                                                  - g.shared.measureStart));
    m["consumer.backlog_records"] = static_cast<double>(backlog);
    m["consumer.lag_start"] = static_cast<double>(lagStart);
    m["consumer.lag_end"] = static_cast<double>(lagEnd);
    if (!readInWarmup)
        m["consumer.lag_slope_per_s"] = static_cast<double>(lagEnd - lagStart) / windowS;
    m["consumer.backlog_read_in_warmup"] = readInWarmup ? 1 : 0;
    if (lagEnd == 0)
        m["consumer.backlog_read_s"] = seconds(g.lastConsumedAt - g.shared.start);
    int64_t lastAssigned = 0, p99Us = 0, p50SumUs = 0, intervals = 0;
    for (const auto &c : g.consumers) {
        lastAssigned = std::max(lastAssigned, c->lastAssignedNs.load());
        p99Us = std::max(p99Us, c->fetchP99MaxUs.load());
        p50SumUs += c->fetchP50SumUs.load();
        intervals += c->fetchIntervals.load();
    }
    if (lastAssigned > 0)
        m["consumer.rebalance_s"] = std::max(0.0, static_cast<double>(lastAssigned - steadyNs(g.shared.start)) * 1e-9);
    if (intervals > 0) {
        m["consumer.fetch_p99_s"] = static_cast<double>(p99Us) * 1e-6;
        m["consumer.fetch_p50_s"] = static_cast<double>(p50SumUs) / static_cast<double>(intervals) * 1e-6;
    }
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

} // namespace

// The scenario's numbers, once every client of the phase has ended. Interrupted, what was
// still under way is in flight, not lost: records purged from the producers' queues after the
// stop were never refused by a broker, and acknowledged records not yet consumed were never
// given the drain.
void measurePhase(const PhaseGroup &g, const PhaseGroup *probe, const PhaseEnvironment &env, PhaseOutcome &outcome)
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
    if (mainSpec.backlogRead)
        measureBacklogRead(g, outcome);
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

} // namespace plimsoll
