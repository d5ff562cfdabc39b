#include "runner/benchengine.h"

#include "runner/benchphase.h"
#include "runner/clientproperties.h"
#include "runner/envelope.h"
#include "runner/histogramlog.h"
#include "runner/kafkaclient.h"
#include "runner/metricsserver.h"
#include "runner/mockcluster.h"
#include "runner/rampsaturation.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>

namespace plimsoll {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds toMs(std::chrono::nanoseconds d)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(d);
}

nlohmann::json configJson(const RunConfig &c)
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
    return j;
}

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

BenchEngine::BenchEngine(RunConfig config)
    : m_config(std::move(config))
{}

BenchResult BenchEngine::run(const std::atomic<bool> &cancel)
{
    RunConfig c = m_config;
    if (c.runId.empty())
        c.runId = makeUuid();
    BenchResult result;
    result.runId = c.runId;
    result.workload = workloadName(c.workload);
    result.bootstrapServers = c.bootstrapServers;
    result.embedded = c.embedded();
    result.startedAt = nowTimestamp();
    const auto finish = [&](BenchResult &r) -> BenchResult {
        r.finishedAt = nowTimestamp();
        r.tuning = c.tuning();
        r.config = configJson(c);
        // Stopped before a phase began (while the topic was prepared) counts as interrupted too.
        r.interrupted = r.interrupted || cancel.load();
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
        return std::move(r);
    };
    if (const auto problem = c.validate(); !problem.empty()) {
        result.errors.push_back(problem);
        return finish(result);
    }

    // Defaults that make a bare invocation meaningful.
    if (c.workload == Workload::Ramp && c.duration.count() == 0) {
        // Each ramp step is a window of time; a record count does not size a step.
        c.duration = 10s;
    } else if (c.records == 0 && c.duration.count() == 0) {
        if (c.workload == Workload::Probe)
            c.duration = 10s;
        else
            c.records = 100000;
    }

    std::unique_ptr<MetricsServer> metrics;
    if (c.metricsPort >= 0) {
        metrics = std::make_unique<MetricsServer>();
        if (auto error = metrics->start(static_cast<uint16_t>(c.metricsPort)); !error.empty()) {
            result.errors.push_back(error);
            return finish(result);
        }
        metrics->setStatus("running");
        if (m_portSink)
            m_portSink(metrics->port());
    }

    // The target.
    std::unique_ptr<MockCluster> mock;
    std::map<std::string, std::string> kafkaConfig = c.clientConfig;
    if (c.embedded()) {
        mock = std::make_unique<MockCluster>(c.embeddedBrokers());
        if (!mock->ok()) {
            result.errors.push_back(mock->error().toString());
            return finish(result);
        }
        kafkaConfig = {{"bootstrap.servers", mock->bootstrapServers()}};
        const double rate = c.rate > 0 ? c.rate : 300000.0;
        const double records = c.records > 0 ? static_cast<double>(c.records)
                                             : rate * std::chrono::duration<double>(c.duration + c.warmup).count();
        const int needed = MockCluster::partitionsFor(static_cast<int64_t>(records * static_cast<double>(c.recordSize)));
        if (needed > c.partitions && c.workload != Workload::Probe) {
            result.adjustments.push_back({"partitions", std::to_string(c.partitions), std::to_string(needed),
                                          "the embedded mock cluster keeps at most 5 MiB per partition"});
            result.warnings.push_back(result.adjustments.back().text());
            c.partitions = needed;
        }
        result.warnings.push_back("embedded target: librdkafka's mock cluster in this process, not a real broker; "
                                  "the numbers describe the client, not a broker");
    } else {
        kafkaConfig["bootstrap.servers"] = c.bootstrapServers;
    }
    KafkaClient admin(kafkaConfig);

    // Topics: create what the run needs, remember what it created, touch nothing else.
    std::vector<std::string> createdTopics;
    const auto ensureTopic = [&](const std::string &name, int partitions, bool mayCreate, bool fresh) -> bool {
        if (mock) {
            if (auto error = mock->createTopic(name, partitions, std::min(c.replicationFactor, c.embeddedBrokers()));
                !error.ok()) {
                result.errors.push_back(error.toString());
                return false;
            }
            createdTopics.push_back(name);
            return true;
        }
        ClusterDescription cluster;
        if (!fresh) {
            if (auto error = admin.describeCluster(cluster, toMs(c.timeout)); !error.ok()) {
                result.errors.push_back(error.toString());
                return false;
            }
            if (cluster.topic(name))
                return true;
            if (!mayCreate) {
                result.errors.push_back("topic '" + name + "' does not exist on " + c.bootstrapServers
                                        + "; pass --create-topic to create it");
                return false;
            }
        }
        auto error = admin.createTopic(name, partitions, c.replicationFactor, toMs(c.timeout));
        if (error.is(RdKafka::ERR_TOPIC_ALREADY_EXISTS) && !fresh)
            return true; // created meanwhile by someone else: use it, never delete it
        if (!error.ok()) {
            result.errors.push_back(error.toString());
            return false;
        }
        createdTopics.push_back(name);
        return true;
    };

    const bool freshTopic = c.topic.empty();
    if (freshTopic && c.workload == Workload::Consumer) {
        result.errors.push_back("consumer needs --topic: it reads records another run produced");
        return finish(result);
    }
    const std::string prefix = c.workload == Workload::Probe ? "plimsoll-probe-" : "plimsoll-benchmark-";
    result.topic = freshTopic ? prefix + c.runId : c.topic;
    const int mainPartitions = c.workload == Workload::Probe ? 1 : c.partitions;
    bool ready = ensureTopic(result.topic, mainPartitions, c.createTopic || freshTopic, freshTopic);
    std::string probeTopic;
    if (ready && c.workload == Workload::Ramp && c.rampProbe) {
        probeTopic = "plimsoll-probe-" + c.runId;
        ready = ensureTopic(probeTopic, 1, true, true);
    }
    result.topicCreated = std::find(createdTopics.begin(), createdTopics.end(), result.topic) != createdTopics.end();

    std::array<uint8_t, 16> runId{};
    Envelope::runIdFromUuid(c.runId, runId);
    std::unique_ptr<HistogramLogWriter> histogramLog;
    if (ready && !c.histogramLog.empty()) {
        histogramLog = std::make_unique<HistogramLogWriter>(c.histogramLog, "plimsoll bench " + workloadName(c.workload)
                                                                                + " run " + c.runId + ", values in µs");
        if (!histogramLog->ok()) {
            result.errors.push_back(histogramLog->error());
            ready = false;
        }
    }

    PhaseEnvironment env;
    env.kafkaConfig = kafkaConfig;
    env.producerConfig = {{"acks", c.acks},
                          {"compression.type", c.compression},
                          {"linger.ms", std::to_string(std::chrono::duration<double, std::milli>(c.linger).count())},
                          {"batch.size", std::to_string(c.batchSize)}};
    if (mock) {
        // The mock evicts beyond 5 MiB per partition, so load must spread evenly: no sticky
        // batches to one partition, each keyless record to a random one.
        env.producerConfig["sticky.partitioning.linger.ms"] = "0";
    }
    env.runId = runId;
    env.recordSize = static_cast<std::size_t>(c.recordSize);
    env.timeout = toMs(c.timeout);
    env.interval = c.interval;
    env.runStart = Clock::now();
    env.cancel = &cancel;
    env.beforeSend = c.beforeSend;
    env.histogramLog = histogramLog.get();
    env.onSnapshot = [&](const BenchSnapshot &snapshot) {
        result.intervals.push_back(snapshot);
        if (metrics)
            metrics->setMetrics(prometheusText(snapshot, c.runId, result.workload));
        if (m_sink)
            m_sink(snapshot);
    };

    const auto startOffsets = [&](const std::string &topic, bool fromEnd, std::vector<int64_t> &offsets) {
        if (mock || !fromEnd) {
            // A fresh mock topic is empty; OFFSET_BEGINNING (-2) otherwise.
            int partitions = topic == probeTopic || c.workload == Workload::Probe ? 1 : c.partitions;
            if (!mock) {
                ClusterDescription cluster;
                if (admin.describeCluster(cluster, toMs(c.timeout)).ok() && cluster.topic(topic))
                    partitions = cluster.topic(topic)->partitionCount;
            }
            offsets.assign(static_cast<std::size_t>(partitions), mock && fromEnd ? 0 : -2);
            return true;
        }
        // The end as it is now, read before producing: records of this run are never
        // missed by a consumer that resolves "end" late. Right after a topic is created
        // its leaders may still be settling: retry those answers until the timeout.
        const auto until = Clock::now() + c.timeout;
        for (;;) {
            auto error = admin.endOffsets(topic, offsets, toMs(c.timeout));
            if (error.ok())
                return true;
            const bool settling = error.is(RdKafka::ERR_NOT_LEADER_FOR_PARTITION)
                               || error.is(RdKafka::ERR_LEADER_NOT_AVAILABLE)
                               || error.is(RdKafka::ERR_UNKNOWN_TOPIC_OR_PART);
            if (cancel.load())
                return false; // interrupted while waiting: nothing failed
            if (!settling || Clock::now() >= until) {
                result.errors.push_back(error.toString());
                return false;
            }
            std::this_thread::sleep_for(100ms);
        }
    };

    if (ready) {
        PhaseSpec spec;
        spec.topic = result.topic;
        spec.warmup = c.warmup;
        spec.duration = c.duration;
        spec.records = c.records;
        spec.rate = c.rate;
        spec.validateChecksum = c.validateChecksum;
        spec.group = c.group;
        spec.fetchMaxBytes = c.fetchMaxBytes;
        spec.idleTimeout = toMs(c.timeout);
        std::vector<PhaseOutcome> outcomes;
        switch (c.workload) {
        case Workload::Producer:
            spec.scenario = "bench/producer";
            spec.producers = c.producerClients;
            outcomes.push_back(runPhase(env, spec));
            break;
        case Workload::Consumer:
            spec.scenario = "bench/consumer";
            spec.consumers = c.consumerClients;
            spec.autoOffsetReset = c.from == "end" ? "latest" : "earliest";
            if (c.group.empty() && !startOffsets(spec.topic, c.from == "end", spec.startOffsets))
                break;
            outcomes.push_back(runPhase(env, spec));
            break;
        case Workload::Roundtrip:
        case Workload::Probe:
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
            if (!startOffsets(spec.topic, true, spec.startOffsets))
                break;
            outcomes.push_back(runPhase(env, spec));
            break;
        case Workload::Ramp:
            outcomes = runRamp(c, env, spec, probeTopic,
                               [&](const std::string &t, std::vector<int64_t> &o) { return startOffsets(t, true, o); });
            break;
        }
        for (auto &outcome : outcomes) {
            outcome.scenario.topology.partitions = outcome.scenario.kind == "probe" ? 1 : c.partitions;
            outcome.scenario.topology.batchBytes = c.batchSize;
            outcome.scenario.topology.compression = c.compression;
            outcome.scenario.topology.acks = c.acks;
            if (mock)
                outcome.scenario.topology.brokers = c.embeddedBrokers();
            result.scenarios.push_back(std::move(outcome.scenario));
            for (auto &e : outcome.errors)
                result.errors.push_back(std::move(e));
            for (auto &w : outcome.warnings)
                result.warnings.push_back(std::move(w));
            if (outcome.failed)
                result.exitCode = 1;
            result.interrupted |= outcome.interrupted;
            result.inFlightUnacknowledged += outcome.unacknowledged;
            result.inFlightUnconsumed += outcome.unconsumed;
        }
        if (outcomes.empty() && result.errors.empty() && !cancel.load())
            result.errors.push_back("nothing ran");
    }

    // Cleanup: only topics this run created, and only when asked.
    if (c.cleanup && !mock) {
        for (const auto &topic : createdTopics) {
            if (auto error = admin.deleteTopic(topic, toMs(c.timeout)); !error.ok())
                result.warnings.push_back(error.toString());
            else if (topic == result.topic)
                result.topicDeleted = true;
        }
    } else if (c.cleanup && mock) {
        result.topicDeleted = result.topicCreated; // the mock cluster and its topics end with the run
    }
    if (c.cleanup && !freshTopic && !result.topicCreated)
        result.warnings.push_back("--cleanup left topic '" + result.topic + "' in place: this run did not create it");
    if (metrics)
        metrics->setStatus("finished");
    return finish(result);
}

} // namespace plimsoll
