#include "runner/rampsaturation.h"

#include "runner/collectors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace plimsoll {

namespace {

double metric(const ScenarioResult &s, const std::string &name)
{
    auto it = s.metrics.find(name);
    return it == s.metrics.end() ? 0.0 : it->second;
}

std::string formatted(const char *format, double a, double b = 0)
{
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, format, a, b);
    return buffer;
}

// The page's attribution of a tiered ramp: S3 GETs that stopped scaling (< 10 % more) as
// consumers were added while fetch delivery p99 rose (> 20 %) mean the broker's bounded
// remote-read concurrency is the limit, and broker replicas the first thing to scale.
std::string remoteReadBound(const ScenarioResult &step, const ScenarioResult *previous)
{
    if (!previous)
        return {};
    const auto value = [](const ScenarioResult &s, const char *name) {
        const auto it = s.metrics.find(name);
        return it == s.metrics.end() ? -1.0 : it->second;
    };
    const double getsBefore = value(*previous, "broker.s3_get_per_s"), getsNow = value(step, "broker.s3_get_per_s");
    const double p99Before = value(*previous, "broker.fetch_delivery_p99_s");
    const double p99Now = value(step, "broker.fetch_delivery_p99_s");
    const int64_t consumersBefore = previous->topology.consumers.value_or(0);
    if (getsBefore <= 0 || getsNow < 0 || p99Before <= 0 || p99Now < 0 ||
        step.topology.consumers.value_or(0) <= consumersBefore)
        return {};
    if (getsNow >= getsBefore * 1.10 || p99Now <= p99Before * 1.20)
        return {};
    char text[400];
    std::snprintf(text, sizeof text,
                  "broker remote-read concurrency: S3 GETs stayed at %.0f/s (%.0f/s at %lld consumers) while "
                  "fetch delivery p99 rose from %.0f ms to %.0f ms; scale broker replicas first",
                  getsNow, getsBefore, static_cast<long long>(consumersBefore), p99Before * 1e3, p99Now * 1e3);
    return text;
}

// A fleet's step (metrics agents.<i>.records_per_s): the agent below 80 % of the agents' mean
// rate, whose client node ran out before the cluster did.
std::string laggingAgent(const ScenarioResult &step)
{
    constexpr std::string_view prefix = "agents.", suffix = ".records_per_s";
    double sum = 0, lowest = 0;
    int count = 0, lowestIndex = -1;
    for (const auto &[name, value] : step.metrics) {
        if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0
            || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string index = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
        if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos)
            continue;
        sum += value;
        ++count;
        if (lowestIndex < 0 || value < lowest) {
            lowest = value;
            lowestIndex = std::stoi(index);
        }
    }
    if (count < 2 || !(lowest < 0.8 * sum / count))
        return {};
    char text[240];
    std::snprintf(text, sizeof text,
                  "client node: agent %d ran at %.0f records/s, %.0f%% of the agents' mean of %.0f; its node, "
                  "not the cluster, ran out first",
                  lowestIndex, lowest, 100 * lowest / (sum / count), sum / count);
    return text;
}

// A rate as a reader takes it in: whole numbers from 10 up, two significant digits below.
std::string perSecond(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, v >= 10 ? "%.0f" : "%.2g", v);
    return text;
}

// The page's "back-pressure or connection-pool timeouts", from Korvet's own metrics of the
// window: an exhausted Redis connection pool (acquire timeouts) and the broker pushing back on
// its connections (back-pressure applied during the window, or still held when it closed).
// The pool comes first: a broker that waits on Redis connections is why it pushes back.
std::string korvetPushback(const ScenarioResult &step)
{
    const auto value = [&](const char *name) {
        const auto it = step.metrics.find(name);
        return it == step.metrics.end() ? 0.0 : it->second;
    };
    const double timeouts = value("storage.pool_timeouts_per_s"), waiters = value("storage.pool_pending");
    const double applied = value("broker.backpressure_applied_per_s");
    const double held = value("broker.backpressure_connections");
    std::string pool, pushback;
    if (timeouts > 0) {
        pool = "Redis connection pool: " + perSecond(timeouts) + " acquire timeouts/s";
        if (waiters > 0)
            pool += " (" + formatted("%.0f", waiters) + (waiters == 1 ? " waiter" : " waiters") + " at the window's end)";
    }
    if (applied > 0 || held > 0) {
        pushback = "broker back-pressure: ";
        if (applied > 0)
            pushback += "applied " + perSecond(applied) + " times/s";
        if (held > 0)
            pushback += (applied > 0 ? ", " : "") + formatted("%.0f", held) +
                        (held == 1 ? " connection" : " connections") + " held at the window's end";
    }
    if (!pool.empty() && !pushback.empty())
        return pool + "; " + pushback;
    return pool.empty() ? pushback : pool;
}

} // namespace

std::string saturationReason(const RunConfig &config, const ScenarioResult &step, const ScenarioResult *previous)
{
    // CPU first, as the seed names a component: the hotter of the shards and the brokers,
    // when it is at the limit (metrics absent when no collector was asked for).
    const auto cpu = [&](const char *name) {
        auto it = step.metrics.find(name);
        return it == step.metrics.end() ? -1.0 : it->second;
    };
    const double shardCpu = cpu("shard_cpu_max"), brokerCpu = cpu("broker_cpu_avg");
    if (std::max(shardCpu, brokerCpu) >= config.cpuLimit)
        return shardCpu >= brokerCpu
                   ? formatted("Redis shard CPU: hottest shard at %.0f%% (limit %.0f%%)", shardCpu * 100, config.cpuLimit * 100)
                   : formatted("broker CPU: %.0f%% on average (limit %.0f%%)", brokerCpu * 100, config.cpuLimit * 100);
    // Then Korvet's own pushback: a component that said it was full.
    if (std::string pushback = korvetPushback(step); !pushback.empty())
        return pushback;
    // Then the load generator: one agent of a fleet falling behind the others is its node's limit.
    if (std::string agent = laggingAgent(step); !agent.empty())
        return agent;
    const double limitS = std::chrono::duration<double>(config.p99Limit).count();
    const double p99 = metric(step, "latency_p99_s");
    if (p99 > limitS)
        return formatted("produce p99 %.1f ms over the %.0f ms limit", p99 * 1e3, limitS * 1e3);
    if (config.tiered)
        if (std::string bound = remoteReadBound(step, previous); !bound.empty())
            return bound;
    // A consume step's: the broker's fetch delivery p99 when --broker-metrics gives it (the
    // responses that carried records), else the consumers' own fetch p99 (absent from a
    // produce step).
    const double fetchLimitS = std::chrono::duration<double>(config.fetchP99Limit).count();
    const double brokerFetchP99 = metric(step, "broker.fetch_delivery_p99_s");
    if (brokerFetchP99 > fetchLimitS)
        return formatted("broker fetch delivery p99 %.1f ms over the %g ms limit", brokerFetchP99 * 1e3,
                         fetchLimitS * 1e3);
    const double fetchP99 = metric(step, "consumer.fetch_p99_s");
    if (step.metrics.count("broker.fetch_delivery_p99_s") == 0 && fetchP99 > fetchLimitS)
        return formatted("fetch p99 %.1f ms over the %g ms limit", fetchP99 * 1e3, fetchLimitS * 1e3);
    if (metric(step, "errors") > 0)
        return formatted("%.0f errors", metric(step, "errors"));
    // Back-pressure: producers spent over a tenth of the window blocked on a full queue.
    const double window = metric(step, "producer.measured_s") * static_cast<double>(step.topology.producers.value_or(1));
    if (window > 0 && metric(step, "producer.blocked_s") / window > 0.10)
        return formatted("back-pressure: producers blocked on a full local queue %.0f%% of the time",
                         100 * metric(step, "producer.blocked_s") / window);
    if (previous) {
        const double before = metric(*previous, "records_per_s");
        const double now = metric(step, "records_per_s");
        if (before > 0 && now < before * (1 + config.plateauGain))
            return formatted("throughput plateau: %.0f records/s after %.0f at the previous step", now, before);
    }
    return {};
}

std::optional<PhaseOutcome> runRampStep(const RunConfig &config, const PhaseEnvironment &environment,
                                        const PhaseSpec &step, const std::string &probeTopic,
                                        const StartOffsets &startOffsets)
{
    PhaseSpec probe;
    const bool withProbe = !probeTopic.empty();
    if (withProbe) {
        probe.scenario = step.scenario + "/probe";
        probe.kind = "probe";
        probe.topic = probeTopic;
        probe.producers = probe.consumers = 1;
        probe.rate = config.probeRate;
        probe.roundtrip = true;
        if (!startOffsets(probeTopic, probe.startOffsets))
            return std::nullopt;
    }
    // Collectors sample when the warm-up ends and when the step's window closes.
    StepCollectors collectors(config.redisShards, config.brokerMetricsUrls, config.brokerLatencyHistogram,
                              environment.timeout);
    collectors.setRedisEnterprise(config.reApiUrls, {config.reUser, config.rePassword, config.reVerifyTls});
    collectors.setS3GetMetric(config.s3GetMetric);
    collectors.setTopic(step.topic);
    const auto windowStart = std::chrono::steady_clock::now() + step.warmup;
    collectors.beginAt(windowStart, environment.cancel,
                       step.duration.count() > 0 ? std::optional(windowStart + step.duration) : std::nullopt);
    PhaseOutcome outcome = runPhase(environment, step, withProbe ? &probe : nullptr);
    StepServerMetrics server = collectors.end();
    outcome.scenario.metrics.insert(server.metrics.begin(), server.metrics.end());
    outcome.scenario.seriesFound = std::move(server.seriesFound);
    outcome.scenario.seriesMissing = std::move(server.seriesMissing);
    for (auto &w : server.warnings)
        outcome.warnings.push_back(std::move(w));
    return outcome;
}

bool judgeRampStep(const RunConfig &config, std::vector<PhaseOutcome> &outcomes, PhaseOutcome outcome)
{
    const ScenarioResult *previous = outcomes.empty() ? nullptr : &outcomes.back().scenario;
    const std::string reason = saturationReason(config, outcome.scenario, previous);
    outcome.scenario.saturated = !reason.empty();
    outcome.scenario.bottleneck = reason.empty() ? "none" : reason;
    // A saturated step is a finding, not a failure: only failed deliveries fail the run.
    const bool stop = (outcome.scenario.saturated && !config.continuePastSaturation) || outcome.interrupted;
    outcomes.push_back(std::move(outcome));
    return !stop;
}

std::vector<PhaseOutcome> runRamp(const RunConfig &config, const PhaseEnvironment &environment,
                                  const PhaseSpec &base, const std::string &probeTopic,
                                  const StartOffsets &startOffsets)
{
    std::vector<PhaseOutcome> outcomes;
    std::vector<std::string> notKorvet = korvetEndpointWarnings(config.brokerMetricsUrls, environment.timeout);
    for (std::size_t i = 0; i < config.steps.size(); ++i) {
        if (environment.cancel && environment.cancel->load())
            break;
        PhaseSpec step = base;
        step.kind = "ramp-step";
        const double load = config.steps[i];
        if (config.stepByRate) {
            step.producers = config.producerClients;
            step.rate = load;
            step.scenario = "bench/ramp/step-" + std::to_string(i + 1);
        } else {
            step.producers = static_cast<int>(std::lround(load));
            step.scenario = "bench/ramp/step-" + std::to_string(step.producers);
        }
        step.consumers = 0;
        step.records = 0; // each step is a window of time
        auto outcome = runRampStep(config, environment, step, probeTopic, startOffsets);
        if (!outcome)
            break;
        if (config.stepByRate)
            outcome->scenario.metrics["ramp.offered_records_per_s"] = load;
        // Said once, first: the endpoint's identity is the ramp's, not a step's.
        outcome->warnings.insert(outcome->warnings.begin(), notKorvet.begin(), notKorvet.end());
        notKorvet.clear();
        if (!judgeRampStep(config, outcomes, std::move(*outcome)))
            break;
    }
    return outcomes;
}

} // namespace plimsoll
