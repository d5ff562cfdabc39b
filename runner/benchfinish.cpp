#include "runner/benchfinish.h"

#include "runner/clientproperties.h"

#include <cstdio>

namespace plimsoll {

namespace {

// What an interrupted run tells its reader: that it was stopped, that its counts are partial,
// and what was still under way (never "missing": no drain was given to it).
std::string interruptionNote(const BenchResult &r)
{
    std::string note = "interrupted";
    if (!r.intervals.empty()) {
        char after[32];
        std::snprintf(after, sizeof after, " after %.1f s", r.intervals.back().elapsedS);
        note += after;
    }
    note += ": the result is partial, its counts cover the run until it was stopped";
    if (r.workload == "consumer")
        return note;
    note += "; in flight when it stopped: " + std::to_string(r.inFlightUnacknowledged) + " sent, not acknowledged";
    if (r.workload == "roundtrip" || r.workload == "probe")
        note += ", " + std::to_string(r.inFlightUnconsumed) + " acknowledged, not consumed";
    return note;
}

} // namespace

nlohmann::json benchConfigJson(const RunConfig &c)
{
    nlohmann::json j = {{"workload", workloadName(c.workload)},
                        {"bootstrap_servers", c.bootstrapServers},
                        {"topic", c.topic},
                        {"create_topic", c.createTopic},
                        {"cleanup", c.cleanup},
                        {"partitions", c.partitions},
                        {"replication_factor", c.replicationFactor},
                        {"producer_clients", c.producerClients},
                        {"consumer_clients", c.consumerClients},
                        {"records", c.records},
                        {"duration_s", std::chrono::duration<double>(c.duration).count()},
                        {"record_size_bytes", c.recordSize},
                        {"rate", c.rate > 0 ? nlohmann::json(c.rate) : nlohmann::json("unlimited")},
                        {"acks", c.acks},
                        {"compression", c.compression},
                        {"linger_s", std::chrono::duration<double>(c.linger).count()},
                        {"batch_size_bytes", c.batchSize},
                        {"from", c.from},
                        {"validate", c.validateChecksum ? "checksum" : "none"},
                        {"group", c.group},
                        {"fetch_max_bytes", c.fetchMaxBytes},
                        {"warmup_s", std::chrono::duration<double>(c.warmup).count()},
                        {"interval_s", std::chrono::duration<double>(c.interval).count()},
                        {"timeout_s", std::chrono::duration<double>(c.timeout).count()},
                        {"client_config", ClientProperties::redacted(c.clientConfig)}};
    if (!c.steps.empty())
        j["steps"] = c.steps;
    if (!c.agentSteps.empty())
        j["agents_steps"] = c.agentSteps;
    if (c.rampKind == RampKind::Consumers) {
        j["ramp"] = rampKindName(c.rampKind);
        j["backlog"] = c.backlog;
        j["fetch_p99_limit_s"] = std::chrono::duration<double>(c.fetchP99Limit).count();
    }
    if (!c.userTuning.empty())
        j["tuning"] = c.userTuning;
    return j;
}

void addPhaseOutcome(BenchResult &r, PhaseOutcome outcome)
{
    r.scenarios.push_back(std::move(outcome.scenario));
    for (auto &e : outcome.errors)
        r.errors.push_back(std::move(e));
    for (auto &w : outcome.warnings)
        r.warnings.push_back(std::move(w));
    if (outcome.failed)
        r.exitCode = 1;
    r.interrupted |= outcome.interrupted;
    r.inFlightUnacknowledged += outcome.unacknowledged;
    r.inFlightUnconsumed += outcome.unconsumed;
}

void finishBenchResult(BenchResult &r, const RunConfig &config, bool cancelled)
{
    r.finishedAt = nowTimestamp();
    r.tuning = config.tuning();
    r.config = benchConfigJson(config);
    // Stopped before a phase began (while the topic was prepared) counts as interrupted too.
    r.interrupted = r.interrupted || cancelled;
    if (!r.errors.empty() && r.exitCode == 0)
        r.exitCode = 1;
    if (r.interrupted && r.exitCode == 0)
        r.exitCode = kExitInterrupted;
    if (r.interrupted || r.exitCode != 0)
        r.partial = true;
    if (r.interrupted)
        r.warnings.push_back(interruptionNote(r));
    else if (r.partial)
        r.warnings.push_back("the run failed: the result is partial");
}

} // namespace plimsoll
