#include "runner/benchengine.h"

#include "runner/benchfinish.h"
#include "runner/benchphase.h"
#include "runner/consumeramp.h"
#include "runner/envelope.h"
#include "runner/histogramlog.h"
#include "runner/kafkaclient.h"
#include "runner/metricsserver.h"
#include "runner/mockcluster.h"
#include "runner/rampsaturation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>

namespace plimsoll {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// A workload of one phase.
std::vector<PhaseOutcome> onePhase(PhaseOutcome outcome)
{
    std::vector<PhaseOutcome> outcomes;
    outcomes.push_back(std::move(outcome));
    return outcomes;
}

// One bench invocation, step by step: its settings (prepare), the metrics endpoint, the target
// (connect), the topics and the histogram log, the workload's phases, the cleanup, and the
// result (finish). A step that fails leaves its error in the result; before any topic exists
// the run then goes straight to finish(), after it the cleanup still runs.
class BenchRun
{
public:
    BenchRun(RunConfig config, const std::atomic<bool> &cancel, const BenchEngine::SnapshotSink &sink,
             const std::function<void(int)> &portSink)
        : m_config(std::move(config)), m_cancel(cancel), m_sink(sink), m_portSink(portSink)
    {}

    BenchResult run()
    {
        if (!prepare() || !startMetrics() || !connect() || !nameTopic())
            return finish();
        if (prepareTopics() && openHistogramLog())
            record(runWorkload(environment()));
        cleanUp();
        if (m_metrics)
            m_metrics->setStatus("finished");
        return finish();
    }

private:
    // The run's identity and settings, with the defaults that make a bare invocation meaningful.
    bool prepare()
    {
        RunConfig &c = m_config;
        if (c.runId.empty())
            c.runId = makeUuid();
        m_result.runId = c.runId;
        m_result.workload = workloadName(c.workload);
        m_result.bootstrapServers = c.bootstrapServers;
        m_result.embedded = c.embedded();
        m_result.startedAt = nowTimestamp();
        if (const auto problem = c.validate(); !problem.empty()) {
            m_result.errors.push_back(problem);
            return false;
        }
        if (c.workload == Workload::Ramp && c.duration.count() == 0) {
            // Each ramp step is a window of time; a record count does not size a step.
            c.duration = 10s;
        } else if (c.records == 0 && c.duration.count() == 0) {
            if (c.workload == Workload::Probe)
                c.duration = 10s;
            else
                c.records = 100000;
        }
        if (c.agent()) {
            // A fleet's totals; this agent's share of them.
            c.records = agentShare(c.records, c.agents, c.agentIndex);
            c.rate /= c.agents;
            m_result.agent = {{"index", c.agentIndex}, {"of", c.agents}, {"records", c.records}, {"rate", c.rate},
                              {"start_at_unix_ms", c.startAtUnixMs}};
        }
        return true;
    }

    bool startMetrics()
    {
        if (m_config.metricsPort < 0)
            return true;
        m_metrics = std::make_unique<MetricsServer>();
        if (auto error = m_metrics->start(static_cast<uint16_t>(m_config.metricsPort)); !error.empty()) {
            m_result.errors.push_back(error);
            return false;
        }
        m_metrics->setStatus("running");
        if (m_portSink)
            m_portSink(m_metrics->port());
        return true;
    }

    // The target: the embedded mock cluster (sized so the run fits in it), or the given cluster.
    bool connect()
    {
        RunConfig &c = m_config;
        m_kafkaConfig = c.clientConfig;
        if (c.embedded()) {
            m_mock = std::make_unique<MockCluster>(c.embeddedBrokers());
            if (!m_mock->ok()) {
                m_result.errors.push_back(m_mock->error().toString());
                return false;
            }
            m_kafkaConfig = {{"bootstrap.servers", m_mock->bootstrapServers()}};
            fitIntoMock();
            m_result.warnings.push_back("embedded target: librdkafka's mock cluster in this process, not a real broker; "
                                        "the numbers describe the client, not a broker");
        } else {
            m_kafkaConfig["bootstrap.servers"] = c.bootstrapServers;
        }
        m_admin = std::make_unique<KafkaClient>(m_kafkaConfig);
        return true;
    }

    // The mock keeps at most 5 MiB per partition: enough partitions for the records the run sends.
    void fitIntoMock()
    {
        RunConfig &c = m_config;
        const double rate = c.rate > 0 ? c.rate : 300000.0;
        const double records = c.rampKind == RampKind::Consumers ? static_cast<double>(c.backlog)
                             : c.records > 0 ? static_cast<double>(c.records)
                                             : rate * std::chrono::duration<double>(c.duration + c.warmup).count();
        const int needed = MockCluster::partitionsFor(static_cast<int64_t>(records * static_cast<double>(c.recordSize)));
        if (needed > c.partitions && c.workload != Workload::Probe) {
            m_result.adjustments.push_back({"partitions", std::to_string(c.partitions), std::to_string(needed),
                                            "the embedded mock cluster keeps at most 5 MiB per partition"});
            m_result.warnings.push_back(m_result.adjustments.back().text());
            c.partitions = needed;
        }
    }

    // The main topic's name: the user's, or a fresh one of this run's (never for a consumer).
    bool nameTopic()
    {
        m_freshTopic = m_config.topic.empty();
        if (m_freshTopic && m_config.workload == Workload::Consumer) {
            m_result.errors.push_back("consumer needs --topic: it reads records another run produced");
            return false;
        }
        const std::string prefix = m_config.workload == Workload::Probe ? "plimsoll-probe-" : "plimsoll-benchmark-";
        m_result.topic = m_freshTopic ? prefix + m_config.runId : m_config.topic;
        return true;
    }

    // The main topic and, for a ramp with a probe, the probe's.
    bool prepareTopics()
    {
        const RunConfig &c = m_config;
        const int mainPartitions = c.workload == Workload::Probe ? 1 : c.partitions;
        bool ready = ensureTopic(m_result.topic, mainPartitions, c.createTopic || m_freshTopic, m_freshTopic);
        if (ready && c.workload == Workload::Ramp && c.rampProbe) {
            m_probeTopic = "plimsoll-probe-" + c.runId;
            ready = ensureTopic(m_probeTopic, 1, true, true);
        }
        m_result.topicCreated =
            std::find(m_createdTopics.begin(), m_createdTopics.end(), m_result.topic) != m_createdTopics.end();
        // The brokers the cluster's metadata lists: the stored topology's broker count, which
        // the sizing divides a step's load by (a capacity per broker). Unknown when it fails.
        ClusterDescription cluster;
        if (ready && !m_mock && m_admin->describeCluster(cluster, toMs(c.timeout)).ok())
            m_clusterBrokers = int(cluster.brokers.size());
        return ready;
    }

    // Creates what the run needs, remembers what it created, touches nothing else.
    bool ensureTopic(const std::string &name, int partitions, bool mayCreate, bool fresh)
    {
        const RunConfig &c = m_config;
        if (m_mock) {
            if (auto error = m_mock->createTopic(name, partitions, std::min(c.replicationFactor, c.embeddedBrokers()));
                !error.ok()) {
                m_result.errors.push_back(error.toString());
                return false;
            }
            m_createdTopics.push_back(name);
            return true;
        }
        if (!fresh) {
            ClusterDescription cluster;
            if (auto error = m_admin->describeCluster(cluster, toMs(c.timeout)); !error.ok()) {
                m_result.errors.push_back(error.toString());
                return false;
            }
            if (cluster.topic(name))
                return true;
            if (!mayCreate) {
                m_result.errors.push_back("topic '" + name + "' does not exist on " + c.bootstrapServers
                                          + "; pass --create-topic to create it");
                return false;
            }
        }
        auto error = m_admin->createTopic(name, partitions, c.replicationFactor, toMs(c.timeout));
        if (error.is(RdKafka::ERR_TOPIC_ALREADY_EXISTS) && !fresh)
            return true; // created meanwhile by someone else: use it, never delete it
        if (!error.ok()) {
            m_result.errors.push_back(error.toString());
            return false;
        }
        m_createdTopics.push_back(name);
        return true;
    }

    bool openHistogramLog()
    {
        const RunConfig &c = m_config;
        if (c.histogramLog.empty())
            return true;
        m_histogramLog = std::make_unique<HistogramLogWriter>(
            c.histogramLog, "plimsoll bench " + workloadName(c.workload) + " run " + c.runId + ", values in µs",
            c.startAtUnixMs);
        if (!m_histogramLog->ok()) {
            m_result.errors.push_back(m_histogramLog->error());
            return false;
        }
        return true;
    }

    // What every phase of the run shares: the connection, the producers' settings, the clock.
    PhaseEnvironment environment()
    {
        const RunConfig &c = m_config;
        PhaseEnvironment env;
        env.kafkaConfig = m_kafkaConfig;
        env.producerConfig = {{"acks", c.acks},
                              {"compression.type", c.compression},
                              {"linger.ms", std::to_string(std::chrono::duration<double, std::milli>(c.linger).count())},
                              {"batch.size", std::to_string(c.batchSize)}};
        if (m_mock) {
            // The mock evicts beyond 5 MiB per partition, so load must spread evenly: no sticky
            // batches to one partition, each keyless record to a random one.
            env.producerConfig["sticky.partitioning.linger.ms"] = "0";
            // The mock answers a fetch of a partition with nothing new only when
            // fetch.wait.max.ms is up, even if records arrive meanwhile: at librdkafka's 500 ms
            // every end-to-end latency would be that wait, not the client's.
            env.consumerConfig["fetch.wait.max.ms"] = kEmbeddedFetchWaitMs;
        }
        Envelope::runIdFromUuid(c.runId, env.runId);
        env.recordSize = static_cast<std::size_t>(c.recordSize);
        env.timeout = toMs(c.timeout);
        env.interval = c.interval;
        env.runStart = Clock::now();
        env.startAtUnixMs = c.startAtUnixMs;
        if (c.startAtUnixMs > 0) // a fleet's agent: its intervals and log count from the fleet's instant
            env.runStart += std::chrono::milliseconds(c.startAtUnixMs)
                          - std::chrono::system_clock::now().time_since_epoch();
        env.cancel = &m_cancel;
        env.beforeSend = c.beforeSend;
        env.histogramLog = m_histogramLog.get();
        env.onSnapshot = [this](const BenchSnapshot &snapshot) { onSnapshot(snapshot); };
        return env;
    }

    void onSnapshot(const BenchSnapshot &snapshot)
    {
        m_result.intervals.push_back(snapshot);
        if (m_metrics)
            m_metrics->setMetrics(prometheusText(snapshot, m_config.runId, m_result.workload));
        if (m_sink)
            m_sink(snapshot);
    }

    // What every workload's phase takes from the run's settings as they are.
    PhaseSpec baseSpec() const
    {
        const RunConfig &c = m_config;
        PhaseSpec spec;
        spec.topic = m_result.topic;
        spec.warmup = c.warmup;
        spec.duration = c.duration;
        spec.records = c.records;
        spec.rate = c.rate;
        spec.validateChecksum = c.validateChecksum;
        spec.group = c.group;
        spec.fetchMaxBytes = c.fetchMaxBytes;
        spec.idleTimeout = toMs(c.timeout);
        return spec;
    }

    // The phases of the workload; none when it could not start (the reason is in the result).
    std::vector<PhaseOutcome> runWorkload(const PhaseEnvironment &env)
    {
        const RunConfig &c = m_config;
        PhaseSpec spec = baseSpec();
        switch (c.workload) {
        case Workload::Producer:
            spec.scenario = "bench/producer";
            spec.producers = c.producerClients;
            sliceForAgent(spec, false);
            return onePhase(runPhase(env, spec));
        case Workload::Consumer:
            spec.scenario = "bench/consumer";
            spec.consumers = c.consumerClients;
            spec.autoOffsetReset = c.from == "end" ? "latest" : "earliest";
            if (c.group.empty() && !startOffsets(spec.topic, c.from == "end", spec.startOffsets))
                return {};
            if (!sliceForAgent(spec, true))
                return {};
            return onePhase(runPhase(env, spec));
        case Workload::Roundtrip:
        case Workload::Probe:
            return runRoundtrip(env, spec);
        case Workload::Ramp: {
            const StartOffsets probeStart = [this](const std::string &t, std::vector<int64_t> &o) {
                return startOffsets(t, true, o);
            };
            if (c.rampKind == RampKind::Consumers)
                return runConsumeRamp(c, env, spec, m_probeTopic,
                                      {probeStart, [this](int64_t &records) { return countBacklog(records); }});
            return runRamp(c, env, spec, m_probeTopic, probeStart);
        }
        }
        return {};
    }

    std::vector<PhaseOutcome> runRoundtrip(const PhaseEnvironment &env, PhaseSpec spec)
    {
        const RunConfig &c = m_config;
        spec.roundtrip = true;
        spec.validateChecksum = true;
        if (c.workload == Workload::Probe) {
            spec.scenario = "bench/probe";
            spec.kind = "probe";
            spec.producers = spec.consumers = 1;
            spec.rate = c.rate > 0 ? c.rate : c.probeRate;
        } else {
            spec.scenario = "bench/roundtrip";
            spec.producers = c.producerClients;
            spec.consumers = c.consumerClients;
        }
        spec.group.clear(); // matching needs every partition read from where this run starts
        if (!startOffsets(spec.topic, true, spec.startOffsets) || !sliceForAgent(spec, true))
            return {};
        return onePhase(runPhase(env, spec));
    }

    // A fleet's agent: its producer ids and, reading, the partitions it owns. False (the error in
    // the result) when the topic has fewer partitions than the fleet has agents.
    bool sliceForAgent(PhaseSpec &spec, bool reads)
    {
        const RunConfig &c = m_config;
        if (!c.agent())
            return true;
        spec.producerIdBase = static_cast<uint32_t>(c.agentIndex * c.producerClients);
        if (spec.producers > 0)
            m_result.agent["producer_ids"] = {spec.producerIdBase, spec.producerIdBase + spec.producers - 1};
        if (!reads)
            return true;
        spec.partitions = agentPartitions(int(spec.startOffsets.size()), c.agents, c.agentIndex);
        m_result.agent["partitions"] = spec.partitions;
        if (spec.partitions.empty())
            m_result.errors.push_back("topic '" + spec.topic + "' has " + std::to_string(spec.startOffsets.size())
                                      + " partitions, fewer than the fleet's " + std::to_string(c.agents)
                                      + " agents: each agent reads partitions of its own");
        return !spec.partitions.empty();
    }

    // Where the consumers of `topic` start, by partition: its end (before producing), or its
    // beginning. False when that could not be read (the error is in the result) or on a stop.
    bool startOffsets(const std::string &topic, bool fromEnd, std::vector<int64_t> &offsets)
    {
        const RunConfig &c = m_config;
        if (m_mock || !fromEnd) {
            // A fresh mock topic is empty; OFFSET_BEGINNING (-2) otherwise.
            int partitions = topic == m_probeTopic || c.workload == Workload::Probe ? 1 : c.partitions;
            if (!m_mock) {
                ClusterDescription cluster;
                if (m_admin->describeCluster(cluster, toMs(c.timeout)).ok() && cluster.topic(topic))
                    partitions = cluster.topic(topic)->partitionCount;
            }
            offsets.assign(static_cast<std::size_t>(partitions), m_mock && fromEnd ? 0 : -2);
            return true;
        }
        // The end as it is now, read before producing: records of this run are never
        // missed by a consumer that resolves "end" late. Right after a topic is created
        // its leaders may still be settling: retry those answers until the timeout.
        const auto until = Clock::now() + c.timeout;
        for (;;) {
            auto error = m_admin->endOffsets(topic, offsets, toMs(c.timeout));
            if (error.ok())
                return true;
            const bool settling = error.is(RdKafka::ERR_NOT_LEADER_FOR_PARTITION)
                               || error.is(RdKafka::ERR_LEADER_NOT_AVAILABLE)
                               || error.is(RdKafka::ERR_UNKNOWN_TOPIC_OR_PART);
            if (m_cancel.load())
                return false; // interrupted while waiting: nothing failed
            if (!settling || Clock::now() >= until) {
                m_result.errors.push_back(error.toString());
                return false;
            }
            std::this_thread::sleep_for(100ms);
        }
    }

    // The consume ramp's backlog: the records of its topic, and the topic's partition count
    // (an existing topic's may differ from --partitions).
    bool countBacklog(int64_t &records)
    {
        const RunConfig &c = m_config;
        if (auto error = m_admin->countRecords(m_result.topic, records, toMs(c.timeout)); !error.ok()) {
            m_result.errors.push_back(error.toString());
            return false;
        }
        if (records <= 0) {
            m_result.errors.push_back("topic '" + m_result.topic
                                      + "' has no records for the consume ramp to read; --backlog N preloads some");
            return false;
        }
        ClusterDescription cluster;
        if (!m_mock && m_admin->describeCluster(cluster, toMs(c.timeout)).ok() && cluster.topic(m_result.topic))
            m_config.partitions = cluster.topic(m_result.topic)->partitionCount;
        return true;
    }

    // The phases' scenarios, errors, warnings and in-flight counts, into the result.
    void record(std::vector<PhaseOutcome> outcomes)
    {
        const RunConfig &c = m_config;
        for (auto &outcome : outcomes) {
            auto &topology = outcome.scenario.topology;
            topology.partitions = outcome.scenario.kind == "probe" ? 1 : c.partitions;
            topology.batchBytes = c.batchSize;
            topology.compression = c.compression;
            topology.acks = c.acks;
            if (m_mock)
                topology.brokers = c.embeddedBrokers();
            else if (m_clusterBrokers > 0)
                topology.brokers = m_clusterBrokers;
            // Each --redis HOST:PORT is one shard whose CPU the collectors read, on the ramp's
            // steps (the only scenarios they sample).
            if (!c.redisShards.empty() && outcome.scenario.kind == "ramp-step")
                topology.shards = int(c.redisShards.size());
            if (c.agent()) {
                m_result.agent["go_unix_ns"] = outcome.goUnixNs;
                m_result.agent["start_late_s"] = outcome.startLateS;
                if (outcome.firstSendUnixNs > 0)
                    m_result.agent["first_send_unix_ns"] = outcome.firstSendUnixNs;
            }
            addPhaseOutcome(m_result, std::move(outcome));
        }
        if (outcomes.empty() && m_result.errors.empty() && !m_cancel.load())
            m_result.errors.push_back("nothing ran");
    }

    // Only topics this run created, and only when asked.
    void cleanUp()
    {
        const RunConfig &c = m_config;
        if (c.cleanup && !m_mock) {
            for (const auto &topic : m_createdTopics) {
                if (auto error = m_admin->deleteTopic(topic, toMs(c.timeout)); !error.ok())
                    m_result.warnings.push_back(error.toString());
                else if (topic == m_result.topic)
                    m_result.topicDeleted = true;
            }
        } else if (c.cleanup && m_mock) {
            m_result.topicDeleted = m_result.topicCreated; // the mock cluster and its topics end with the run
        }
        if (c.cleanup && !m_freshTopic && !m_result.topicCreated)
            m_result.warnings.push_back("--cleanup left topic '" + m_result.topic
                                        + "' in place: this run did not create it");
    }

    // The result as the user reads it, whichever step the run ended at.
    BenchResult finish()
    {
        finishBenchResult(m_result, m_config, m_cancel.load());
        return std::move(m_result);
    }

    RunConfig m_config;
    const std::atomic<bool> &m_cancel;
    const BenchEngine::SnapshotSink &m_sink;
    const std::function<void(int)> &m_portSink;
    BenchResult m_result;
    // Declared in the order they are needed and so destroyed in reverse: the admin client
    // before the mock cluster it talks to.
    std::unique_ptr<MetricsServer> m_metrics;
    std::unique_ptr<MockCluster> m_mock;
    int m_clusterBrokers = 0; // from the metadata; 0: unknown (and on the embedded target)
    std::map<std::string, std::string> m_kafkaConfig;
    std::unique_ptr<KafkaClient> m_admin;
    bool m_freshTopic = false;
    std::string m_probeTopic;
    std::vector<std::string> m_createdTopics;
    std::unique_ptr<HistogramLogWriter> m_histogramLog;
};

} // namespace

BenchEngine::BenchEngine(RunConfig config)
    : m_config(std::move(config))
{}

BenchResult BenchEngine::run(const std::atomic<bool> &cancel)
{
    return BenchRun(m_config, cancel, m_sink, m_portSink).run();
}

} // namespace plimsoll
