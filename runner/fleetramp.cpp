#include "runner/fleetramp.h"

#include "runner/benchengine.h"
#include "runner/benchfinish.h"
#include "runner/collectors.h"
#include "runner/fleet.h"
#include "runner/kafkaclient.h"
#include "runner/rampsaturation.h"

#include <chrono>
#include <optional>
#include <map>
#include <thread>

namespace plimsoll {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

int64_t unixMsNow()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The settings every step and the probe share with the ramp, without what only the ramp has.
RunConfig stepBase(const RunConfig &ramp)
{
    RunConfig c = ramp;
    c.agentSteps.clear();
    c.steps.clear();
    c.redisShards.clear();
    c.brokerMetricsUrls.clear();
    c.reApiUrls.clear();
    c.cleanup = false; // the ramp deletes what it created, after its last step
    c.records = 0;
    c.metricsPort = -1;
    return c;
}

// One step: `agents` agents producing on the ramp's topic, while this thread's helper runs the
// probe from their start instant and the collectors sample the window.
class FleetRampStep
{
public:
    FleetRampStep(const RunConfig &ramp, int agents, std::string topic, std::string probeTopic)
        : m_ramp(ramp), m_agents(agents), m_topic(std::move(topic)), m_probeTopic(std::move(probeTopic))
    {}

    BenchResult run(const FleetRampLauncher &launcher, const std::atomic<bool> &cancel,
                    const std::function<void(const BenchSnapshot &)> &sink,
                    const std::function<void(const std::string &)> &note)
    {
        RunConfig c = stepBase(m_ramp);
        c.workload = Workload::Producer;
        c.topic = m_topic;
        c.createTopic = true;
        c.agents = m_agents;
        c.fleetRequested = true;
        c.rate = m_ramp.rate * m_agents; // the fleet's total: each agent offers --rate
        if (!m_ramp.histogramLog.empty())
            c.histogramLog = m_ramp.histogramLog + ".agents" + std::to_string(m_agents);
        BenchResult fleet;
        if (launcher.kubernetes) {
            KubernetesFleetRequest request = *launcher.kubernetes;
            request.outDir += "/agents-" + std::to_string(m_agents);
            const KubernetesFleetWritten written = writeKubernetesFleet(c, request);
            if (!written.ok()) {
                fleet.errors.push_back(written.error);
                return fleet;
            }
            startSide(written.fleet.config.startAtUnixMs, cancel);
            fleet = runKubernetesFleet(written, launcher.kubectl, cancel, note);
        } else {
            fleet = runLocalFleet(c, launcher.executable, cancel, sink, note,
                                  [&](int64_t startAtUnixMs) { startSide(startAtUnixMs, cancel); });
        }
        if (m_side.joinable())
            m_side.join();
        return fleet;
    }

    int64_t startAtUnixMs() const { return m_startAtUnixMs; }
    const std::optional<BenchResult> &probe() const { return m_probe; }
    const StepServerMetrics &server() const { return m_server; }

private:
    void startSide(int64_t startAtUnixMs, const std::atomic<bool> &cancel)
    {
        m_startAtUnixMs = startAtUnixMs;
        const auto windowStart = Clock::now() + std::chrono::milliseconds(startAtUnixMs - unixMsNow()) + m_ramp.warmup;
        m_side = std::thread([this, startAtUnixMs, windowStart, &cancel] {
            StepCollectors collectors(m_ramp.redisShards, m_ramp.brokerMetricsUrls, m_ramp.brokerLatencyHistogram,
                                      toMs(m_ramp.timeout));
            collectors.setRedisEnterprise(m_ramp.reApiUrls, {m_ramp.reUser, m_ramp.rePassword, m_ramp.reVerifyTls});
            collectors.setTopic(m_topic);
            collectors.beginAt(windowStart, &cancel, windowStart + m_ramp.duration);
            if (!m_probeTopic.empty()) {
                RunConfig p = stepBase(m_ramp);
                p.workload = Workload::Probe;
                p.topic = m_probeTopic;
                p.createTopic = true;
                p.producerClients = p.consumerClients = 1;
                p.rate = m_ramp.probeRate;
                p.histogramLog.clear();
                p.startAtUnixMs = startAtUnixMs;
                m_probe = BenchEngine(p).run(cancel);
            } else { // the window's end, or a stop
                while (Clock::now() < windowStart + m_ramp.duration && !cancel.load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
            m_server = collectors.end();
        });
    }

    const RunConfig &m_ramp;
    int m_agents;
    std::string m_topic, m_probeTopic;
    std::thread m_side;
    int64_t m_startAtUnixMs = 0;
    std::optional<BenchResult> m_probe;
    StepServerMetrics m_server;
};

// The step's fleet result as one ramp step: its merged scenario named for its agents, with the
// probe's latencies, the collectors' window, and what went wrong (no scenario: nothing ran).
PhaseOutcome stepOutcome(const RunConfig &ramp, int agents, BenchResult fleet,
                                        const FleetRampStep &step)
{
    PhaseOutcome outcome;
    const std::string name = fleetRampStepName(agents);
    for (auto &e : fleet.errors)
        outcome.errors.push_back(name + ": " + e);
    for (auto &w : fleet.warnings)
        if (w.rfind("the run failed", 0) != 0 && w.rfind("interrupted", 0) != 0)
            outcome.warnings.push_back(name + ": " + w);
    outcome.interrupted = fleet.interrupted;
    outcome.failed = !fleet.errors.empty();
    outcome.unacknowledged = fleet.inFlightUnacknowledged;
    if (fleet.scenarios.empty()) {
        if (outcome.errors.empty() && !outcome.interrupted)
            outcome.errors.push_back(name + ": nothing ran");
        return outcome;
    }
    outcome.scenario = std::move(fleet.scenarios.front());
    ScenarioResult &s = outcome.scenario;
    s.name = name;
    s.kind = "ramp-step";
    s.topology.agents = agents;
    if (!ramp.redisShards.empty())
        s.topology.shards = int(ramp.redisShards.size());
    s.metrics.erase("ack_p99_s"); // a ramp step's is its probe's
    if (const auto &probe = step.probe()) {
        if (!probe->scenarios.empty()) {
            const auto &m = probe->scenarios.front().metrics;
            for (const char *key : {"ack_p99_s", "e2e_p99_s"})
                if (const auto it = m.find(key); it != m.end())
                    s.metrics[key] = it->second;
            if (const auto it = m.find("producer.acknowledged"); it != m.end())
                s.metrics["probe.records"] = it->second;
        }
        for (const auto &e : probe->errors)
            outcome.errors.push_back(name + ": latency probe: " + e);
        outcome.failed |= !probe->errors.empty();
    }
    s.metrics.insert(step.server().metrics.begin(), step.server().metrics.end());
    s.seriesFound = step.server().seriesFound;
    s.seriesMissing = step.server().seriesMissing;
    for (const auto &w : step.server().warnings)
        outcome.warnings.push_back(name + ": " + w);
    return outcome;
}

} // namespace

std::string fleetRampStepName(int agents) { return "bench/ramp/agents-" + std::to_string(agents); }

BenchResult runFleetRamp(RunConfig config, const FleetRampLauncher &launcher, const std::atomic<bool> &cancel,
                         const std::function<void(const BenchSnapshot &)> &sink,
                         const std::function<void(const std::string &)> &note)
{
    BenchResult result;
    if (config.runId.empty())
        config.runId = makeUuid();
    if (config.duration.count() == 0)
        config.duration = 10s; // each step is a window of time, as the ramp's are
    const bool freshTopic = config.topic.empty();
    result.runId = config.runId;
    result.workload = workloadName(config.workload);
    result.bootstrapServers = config.bootstrapServers;
    result.topic = freshTopic ? "plimsoll-benchmark-" + config.runId : config.topic;
    result.startedAt = nowTimestamp();
    if (auto problem = config.validate(); !problem.empty()) {
        result.errors.push_back(problem);
        finishBenchResult(result, config, cancel.load());
        return result;
    }
    if (freshTopic)
        config.createTopic = true;
    const std::string probeTopic = config.rampProbe ? "plimsoll-probe-" + config.runId : std::string();
    const int64_t rampStartMs = unixMsNow();
    std::vector<PhaseOutcome> outcomes;
    bool probeCreated = false;
    for (std::string &w : korvetEndpointWarnings(config.brokerMetricsUrls, toMs(config.timeout))) {
        if (note)
            note("warning: " + w);
        result.warnings.push_back(std::move(w));
    }
    for (std::size_t i = 0; i < config.agentSteps.size() && !cancel.load(); ++i) {
        const int agents = config.agentSteps[i];
        if (note)
            note("step " + std::to_string(i + 1) + " of " + std::to_string(config.agentSteps.size()) + ": "
                 + std::to_string(agents) + (agents == 1 ? " agent" : " agents"));
        FleetRampStep step(config, agents, result.topic, probeTopic);
        const double stepCount = static_cast<double>(config.agentSteps.size());
        const auto stepSink = [&](const BenchSnapshot &snapshot) {
            BenchSnapshot s = snapshot;
            s.scenario = fleetRampStepName(agents);
            s.elapsedS += static_cast<double>(step.startAtUnixMs() - rampStartMs) * 1e-3;
            s.progress = s.progress < 0 ? -1 : (static_cast<double>(i) + s.progress) / stepCount;
            result.intervals.push_back(s);
            if (sink)
                sink(s);
        };
        BenchResult fleet = step.run(launcher, cancel, stepSink, note);
        result.topicCreated |= fleet.topicCreated;
        probeCreated |= step.probe() && step.probe()->topicCreated;
        PhaseOutcome outcome = stepOutcome(config, agents, std::move(fleet), step);
        if (outcome.scenario.name.empty()) { // the step measured nothing: keep why, and stop
            for (auto &e : outcome.errors)
                result.errors.push_back(std::move(e));
            result.interrupted |= outcome.interrupted;
            break;
        }
        // A failed step (an agent lost, records refused) ends the ramp: its result is partial.
        const bool failed = outcome.failed;
        if (!judgeRampStep(config, outcomes, std::move(outcome)) || failed)
            break;
    }
    for (auto &outcome : outcomes)
        addPhaseOutcome(result, std::move(outcome));
    if (config.cleanup && (result.topicCreated || probeCreated)) {
        std::map<std::string, std::string> kafka = config.clientConfig;
        kafka["bootstrap.servers"] = config.bootstrapServers;
        KafkaClient admin(kafka);
        if (result.topicCreated) {
            if (auto error = admin.deleteTopic(result.topic, toMs(config.timeout)); error.ok())
                result.topicDeleted = true;
            else
                result.warnings.push_back(error.toString());
        }
        if (probeCreated)
            if (auto error = admin.deleteTopic(probeTopic, toMs(config.timeout)); !error.ok())
                result.warnings.push_back(error.toString());
    }
    config.topic = result.topic;
    finishBenchResult(result, config, cancel.load());
    return result;
}

} // namespace plimsoll
