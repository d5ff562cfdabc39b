#include "runner/consumeramp.h"
#include "runner/collectors.h"

#include <cstdio>

namespace plimsoll {

namespace {

// The page's scenario families: pipeline/consume/… over a backlog in Redis, and
// pipeline/consume-tiered/… over one offloaded to the archive.
std::string familyOf(const RunConfig &config) { return config.tiered ? "pipeline/consume-tiered/" : "pipeline/consume/"; }

// The backlog through the run's producer clients, with its record size and compression. An
// outcome to report when it did not fully land (a ramp over part of a backlog measures
// nothing it says); nullopt when every record was acknowledged.
std::optional<PhaseOutcome> preload(const RunConfig &config, const PhaseEnvironment &environment,
                                    const PhaseSpec &base, double &recordsPerS)
{
    PhaseSpec spec = base;
    spec.scenario = familyOf(config) + "preload";
    spec.kind = "preload";
    spec.producers = config.producerClients;
    spec.consumers = 0;
    spec.records = config.backlog;
    spec.warmup = {};
    spec.duration = {};
    PhaseOutcome outcome = runPhase(environment, spec);
    const auto acked = outcome.scenario.metrics.find("producer.acknowledged");
    const int64_t acknowledged = acked == outcome.scenario.metrics.end() ? 0 : static_cast<int64_t>(acked->second);
    recordsPerS = outcome.scenario.metrics["records_per_s"];
    if (acknowledged == config.backlog && !outcome.failed && !outcome.interrupted)
        return std::nullopt;
    if (!outcome.interrupted) {
        outcome.failed = true;
        outcome.errors.push_back("the backlog's preload had " + std::to_string(acknowledged) + " of "
                                 + std::to_string(config.backlog)
                                 + " records acknowledged; the consume ramp did not start");
    }
    return outcome;
}

PhaseSpec stepSpec(const RunConfig &config, const PhaseSpec &base, int consumers, int64_t backlog)
{
    PhaseSpec step = base;
    step.kind = "ramp-step";
    step.scenario = familyOf(config) + "step-" + std::to_string(consumers);
    step.producers = 0;
    step.consumers = consumers;
    step.records = backlog;
    step.backlogRead = true;
    step.startOffsets.clear(); // the group assigns the partitions
    step.autoOffsetReset = "earliest";
    // A group of the step's own, so that it reads the whole backlog from its beginning.
    step.group = (config.group.empty() ? "plimsoll-ramp-" + config.runId : config.group) + "-step-"
               + std::to_string(consumers);
    return step;
}

// The end of the ramp when the step's group read the whole backlog within its warm-up:
// nothing was left for its window, and a larger step would read it sooner still.
bool backlogExhausted(PhaseOutcome &outcome, const RunConfig &config)
{
    auto &m = outcome.scenario.metrics;
    if (m["consumer.backlog_read_in_warmup"] < 1)
        return false;
    char text[320];
    std::snprintf(text, sizeof text,
                  "the ramp ended at %s: backlog exhausted, its group read all %.0f records within the %.1f s "
                  "warm-up and left its window nothing to measure (a larger --backlog or a shorter --warmup "
                  "measures it)",
                  outcome.scenario.name.c_str(), m["consumer.backlog_records"],
                  std::chrono::duration<double>(config.warmup).count());
    outcome.warnings.emplace_back(text);
    outcome.scenario.saturated = false;
    outcome.scenario.bottleneck = "none";
    m["ramp.backlog_exhausted"] = 1;
    return true;
}

// A tiered window that the archive served nothing: the backlog was read from Redis (not
// offloaded, or read back already), so the step does not measure a tiered read. Ends the ramp.
bool noRemoteReads(PhaseOutcome &outcome, const RunConfig &config)
{
    if (!config.tiered)
        return false;
    const auto &m = outcome.scenario.metrics;
    const auto it = m.find("broker.remote_read_messages");
    if (it != m.end() && it->second > 0)
        return false;
    outcome.failed = true;
    outcome.errors.push_back(
        "the tiered ramp ended at " + outcome.scenario.name + ": its window served no remote reads (" +
        (it == m.end() ? std::string("no korvet_storage_read_messages_sum{tier=\"remote\"} in --broker-metrics")
                       : std::string("korvet_storage_read_messages_sum{tier=\"remote\"} did not grow")) +
        "), so the backlog was not read from the archive: offload it first, or check --broker-metrics");
    return true;
}

} // namespace

std::vector<PhaseOutcome> runConsumeRamp(const RunConfig &config, const PhaseEnvironment &environment,
                                         const PhaseSpec &base, const std::string &probeTopic,
                                         const ConsumeRampTarget &target)
{
    std::vector<PhaseOutcome> outcomes;
    double preloadRate = 0;
    if (config.backlog > 0)
        if (auto failed = preload(config, environment, base, preloadRate)) {
            outcomes.push_back(std::move(*failed));
            return outcomes;
        }
    int64_t backlog = 0;
    if ((environment.cancel && environment.cancel->load()) || !target.countBacklog(backlog))
        return outcomes;
    std::vector<std::string> notKorvet = korvetEndpointWarnings(config.brokerMetricsUrls, environment.timeout);
    for (double load : config.steps) {
        if (environment.cancel && environment.cancel->load())
            break;
        const PhaseSpec step = stepSpec(config, base, static_cast<int>(load), backlog);
        auto outcome = runRampStep(config, environment, step, probeTopic, target.startOffsets);
        if (!outcome)
            break;
        outcome->warnings.insert(outcome->warnings.begin(), notKorvet.begin(), notKorvet.end());
        notKorvet.clear();
        if (config.backlog > 0)
            outcome->scenario.metrics["backlog.preload_records_per_s"] = preloadRate;
        if (backlogExhausted(*outcome, config) || noRemoteReads(*outcome, config)) {
            outcomes.push_back(std::move(*outcome));
            break;
        }
        if (!judgeRampStep(config, outcomes, std::move(*outcome)))
            break;
    }
    return outcomes;
}

} // namespace plimsoll
