// `plimsoll bench` (long form `benchmark`): live workloads against a Kafka-compatible
// cluster, as the seed's `korvet bench` spells them. Bare `plimsoll bench` is a round trip
// on a new topic plimsoll-benchmark-<uuid>.
#include "app/command.h"
#include "app/optiondomain.h"

#include "model/core/catalog.h"
#include "model/core/units.h"
#include "runner/benchengine.h"
#include "runner/benchrequest.h"
#include "runner/benchstore.h"
#include "runner/clientproperties.h"
#include "runner/fleet.h"
#include "runner/fleetramp.h"
#include "runner/kubernetesfleet.h"
#include "runner/kubernetesrun.h"
#include "runner/offloadrecord.h"
#include "runner/recollector.h"
#include "runner/resultfile.h"

#include <plimsoll/version.h>

#include <QDateTime>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <cstdio>
#include <functional>
#include <iostream>
#include <sstream>

#include <unistd.h>

namespace plimsoll {

namespace {

// The one flag a signal handler may touch; the engine polls it.
std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free);

// The exit code of a run quit at once by a second interrupt: nothing stored, no result file,
// told apart from 130 (stopped, its partial result kept), which a script may go on to read.
constexpr int kExitQuitAtOnce = 3;

// The first SIGINT/SIGTERM stops the run (bounded flush, partial result kept); a second one
// ends the process at once, saying that nothing was kept.
extern "C" void onInterrupt(int)
{
    if (g_cancel.exchange(true)) {
        static const char quit[] = "\nplimsoll: interrupted again: quitting at once; nothing was "
                                   "kept (no result stored or written)\n";
        (void)!::write(STDERR_FILENO, quit, sizeof quit - 1);
        ::_exit(kExitQuitAtOnce);
    }
    static const char notice[] = "\nplimsoll: interrupted: stopping and keeping the partial result "
                                 "(interrupt again to quit at once)\n";
    (void)!::write(STDERR_FILENO, notice, sizeof notice - 1);
}

struct BenchArgs : BenchRequest
{
    std::string output = "text", resultFile;
    bool noStore = false;
    // A fleet's launcher: local processes, or a Kubernetes Job's manifest (runner/kubernetesfleet.h).
    std::string launcher = "local";
    KubernetesFleetRequest kubernetes;
    KubectlOptions kubectl;
    bool dryRun = false;
};

constexpr const char *kKubernetesOptions[] = {"--image", "--namespace", "--client-secret", "--cpu-request",
                                              "--cpu-limit", "--memory-request", "--memory-limit", "--node-selector",
                                              "--service-account", "--start-margin", "--dry-run", "--out", "--kubectl"};

// Where a bench command's result goes: --output, --result-file, --no-store.
void addResultOptions(CLI::App *c, std::string &output, std::string &resultFile, bool &noStore)
{
    c->add_option("--output", output, "text, json or jsonl")
        ->check(CLI::IsMember({"text", "json", "jsonl"}))
        ->capture_default_str();
    c->add_option("--result-file", resultFile, "Write the final JSON result here, atomically");
    c->add_flag("--no-store", noStore, "Do not add the result to the store");
}

void addOptions(CLI::App *c, BenchArgs &a)
{
    RunConfig &r = a.config;
    c->add_option("--bootstrap-server", r.bootstrapServers,
                  "Kafka bootstrap servers, or embedded[:N] for librdkafka's in-process mock cluster")
        ->capture_default_str();
    c->add_flag_callback("--embedded", [&r] { r.bootstrapServers = "embedded"; },
                "Same as --bootstrap-server embedded: try it with no cluster (not a real broker)");
    c->add_option("--topic", r.topic, "Topic (default: a new plimsoll-benchmark-<uuid>)");
    c->add_flag("--create-topic", r.createTopic, "Create the named topic when it is missing");
    c->add_flag("--cleanup", r.cleanup, "Delete the topic afterwards, only if this run created it");
    addNumber(c, "--partitions", r.partitions, BenchArgs::kPartitions, "Partitions of a created topic")
        ->capture_default_str();
    addNumber(c, "--replication-factor", r.replicationFactor, BenchArgs::kReplicationFactor,
              "Replication factor of a created topic")
        ->capture_default_str();
    addNumber(c, "--clients", a.clients, BenchArgs::kClients, "Producer and consumer clients each");
    addNumber(c, "--producer-clients", r.producerClients, BenchArgs::kClients, "Producer clients")
        ->capture_default_str();
    addNumber(c, "--consumer-clients", r.consumerClients, BenchArgs::kClients, "Consumer clients")
        ->capture_default_str();
    c->add_option("--records", a.records, "Records to produce (or consume); default 100000 (" +
                                              BenchArgs::kRecords.describe() + ")");
    c->add_option("--duration", a.duration, "Run for this long instead of a record count (10s, PT1M)");
    c->add_option("--record-size", a.recordSize, "Bytes per value, envelope included (B/KB/MB/GB)")
        ->capture_default_str();
    c->add_option("--rate", a.rate, "'unlimited' or records/s over all producers (probe: its fixed rate)")
        ->capture_default_str();
    c->add_option("--acks", r.acks, "0, 1 or all")->capture_default_str();
    c->add_option("--compression", r.compression, "none, gzip, snappy, lz4, zstd")->capture_default_str();
    c->add_option("--linger", a.linger, "Producer linger (linger.ms)")->capture_default_str();
    c->add_option("--batch-size", a.batchSize, "Producer batch size (B/KB/MB)")->capture_default_str();
    c->add_option("--from", r.from, "Consumer start: beginning or end")->capture_default_str();
    c->add_option("--validate", a.validate, "checksum or none")->capture_default_str();
    c->add_option("--group", r.group, "Consumer group to join (default: assign partitions, no group)");
    c->add_option("--fetch-max-bytes", a.fetchMaxBytes, "Consumer fetch.max.bytes")->capture_default_str();
    c->add_option("--warmup", a.warmup, "Warm-up before measuring")->capture_default_str();
    c->add_option("--interval", a.interval, "Interval of live snapshots and interval records")
        ->capture_default_str();
    c->add_option("--timeout", a.timeout, "Bound on admin calls, flush and drain")->capture_default_str();
    addResultOptions(c, a.output, a.resultFile, a.noStore);
    addNumber(c, "--metrics-port", r.metricsPort, BenchArgs::kMetricsPort,
              "Serve /metrics and /health on 127.0.0.1:PORT while running");
    c->add_option("--command-config", a.commandConfig, "Kafka client .properties (TLS, SASL)");
    c->add_option("--histogram-log", r.histogramLog, "HdrHistogram V2 interval log file (µs)");
    c->add_option("--steps", a.steps, "Ramp: loads per step, e.g. 1,2,4,8 (producer clients, or rates)");
    c->add_flag("--step-by-rate", r.stepByRate, "Ramp: steps are records/s, not producer clients");
    c->add_option("--agents-steps", a.agentsSteps,
                  "Ramp: agents per step, e.g. 1,2,4,8,16 (a local fleet each; --producer-clients and --rate per agent)");
    c->add_flag("--continue-past-saturation", r.continuePastSaturation, "Ramp: run every step");
    c->add_option("--p99-limit", a.p99Limit, "Ramp: a step whose produce p99 exceeds this is saturated")
        ->capture_default_str();
    addNumber(c, "--probe-rate", r.probeRate, BenchArgs::kProbeRate, "Ramp: records/s of the latency probe (0: no probe)")
        ->capture_default_str();
    c->add_option("--redis", a.redis,
                  "Ramp: Redis shard HOST:PORT[,HOST:PORT...] whose INFO CPU gives shard_cpu_max (repeatable)");
    c->add_option("--broker-metrics", a.brokerMetrics,
                  "Ramp: broker Prometheus URL[,URL...]: CPU and broker-side latency per step (repeatable)");
    c->add_option("--re-api", a.reApi,
                  "Ramp: Redis Enterprise REST API URL[,URL...] whose /v1/shards/stats gives shard_cpu_max "
                  "(repeatable; credentials from PLIMSOLL_RE_USER / PLIMSOLL_RE_PASSWORD or the command-config)");
    c->add_option("--broker-latency-histogram", r.brokerLatencyHistogram,
                  "Ramp: the broker's produce-latency histogram family in those metrics")
        ->capture_default_str();
    c->add_option("--ramp", a.ramp, "Ramp: what the steps add, producers or consumers (a consume ramp)")
        ->capture_default_str();
    c->add_option("--backlog", a.backlog,
                  "Consume ramp: records to preload once before the first step (" + BenchArgs::kBacklog.describe()
                      + "); without it, --topic is read from its beginning");
    c->add_option("--fetch-p99-limit", a.fetchP99Limit,
                  std::string("Consume ramp: a step whose fetch p99 exceeds this is saturated (default ") +
                      BenchArgs::kFetchP99Limit + ", " + BenchArgs::kTieredFetchP99Limit + " with --tiered)");
    c->add_flag("--tiered", a.tiered,
                "Consume ramp over a backlog offloaded to the archive: every window must be served remote reads "
                "(checked in --broker-metrics)");
    c->add_option("--s3-get-metric", a.s3GetMetric,
                  "Tiered ramp: the Prometheus counter of S3 GETs in --broker-metrics (attributes a rising fetch p99)");
    c->add_option("--tuning", a.tuning,
                  "key=value[ key=value...]: the target's settings, part of the run's tuning contract (repeatable; "
                  "values positive numbers, comma lists of them, or words)");
    addNumber(c, "--agents", r.agents, BenchArgs::kAgents,
              "Run as N agent processes sharing the run: clients per agent, --records and --rate shared out");
    addNumber(c, "--agent-index", r.agentIndex, BenchArgs::kAgentIndex,
              "Run as this agent of an --agents fleet (the fleet's coordinator sets it)");
    addNumber(c, "--start-at", r.startAtUnixMs, BenchArgs::kStartAt,
              "An agent's coordinated start instant (the fleet's coordinator sets it)");
    c->add_option("--run-id", r.runId, "The run's id (default: a new uuid; a fleet's agents share it)");
    c->add_option("--launcher", a.launcher, "Where --agents run: local processes, or a Kubernetes Indexed Job")
        ->check(CLI::IsMember({"local", "kubernetes"}))
        ->capture_default_str();
    c->add_option("--image", a.kubernetes.job.image, "Kubernetes: the agents' image, with plimsoll on its PATH");
    c->add_option("--namespace", a.kubernetes.job.nameSpace, "Kubernetes: the Job's namespace (default: kubectl's)");
    c->add_option("--client-secret", a.kubernetes.job.clientPropertiesSecret,
                  "Kubernetes: a Secret holding the client properties under client.properties, mounted for the agents");
    c->add_option("--cpu-request", a.kubernetes.job.cpuRequest, "Kubernetes: each agent's CPU request (500m, 2)");
    c->add_option("--cpu-limit", a.kubernetes.job.cpuLimit, "Kubernetes: each agent's CPU limit");
    c->add_option("--memory-request", a.kubernetes.job.memoryRequest, "Kubernetes: each agent's memory request (512Mi, 4Gi)");
    c->add_option("--memory-limit", a.kubernetes.job.memoryLimit, "Kubernetes: each agent's memory limit");
    c->add_option("--node-selector", a.kubernetes.nodeSelectors, "Kubernetes: key=value a node must carry (repeatable)");
    c->add_option("--service-account", a.kubernetes.job.serviceAccount, "Kubernetes: the agents' service account");
    c->add_option("--start-margin", a.kubernetes.startMargin,
                  "Kubernetes: from writing the Job to the agents' start instant; apply it within this")
        ->capture_default_str();
    c->add_flag("--dry-run", a.dryRun, "Kubernetes: write the Job's manifest (--out DIR) for you to apply");
    c->add_option("--out", a.kubernetes.outDir,
                  "Kubernetes: the directory the manifest (and, applied, the pods' logs) is written to");
    c->add_option("--kubectl", a.kubectl.program, "Kubernetes: the kubectl program that applies the Job")
        ->capture_default_str();
}

// The typed strings into the config (runner/benchrequest.h, as the Bench view does); the
// client properties' notices go to stderr.
std::string resolve(BenchArgs &a)
{
    std::vector<std::string> notices;
    std::string problem = resolveBenchRequest(a, &notices);
    for (const std::string &notice : notices)
        std::cerr << "plimsoll: note: " << notice << "\n";
    return problem;
}

// Whether the user typed `option` on any of the parsed commands.
bool given(const std::vector<const CLI::App *> &parsed, const char *option)
{
    return std::any_of(parsed.begin(), parsed.end(), [&](const CLI::App *a) { return a->count(option) > 0; });
}

// An option the workload has no use for is refused, not ignored: "" when every one given applies.
std::string inapplicableOption(const std::vector<const CLI::App *> &parsed, Workload w, const std::string &ramp)
{
    const auto given = [&](const char *option) { return plimsoll::given(parsed, option); };
    for (const char *o : {"--steps", "--step-by-rate", "--continue-past-saturation", "--p99-limit", "--probe-rate",
                          "--broker-latency-histogram", "--ramp", "--agents-steps"})
        if (w != Workload::Ramp && given(o))
            return std::string(o) + " applies to 'bench ramp' only";
    const bool consumeRamp = w == Workload::Ramp && ramp == "consumers";
    for (const char *o : {"--backlog", "--fetch-p99-limit", "--tiered", "--s3-get-metric"})
        if (!consumeRamp && given(o))
            return std::string(o) + " applies to 'bench ramp --ramp consumers' only";
    if (consumeRamp && given("--p99-limit"))
        return "--p99-limit is the produce ramp's rule; a consume ramp's step saturates on --fetch-p99-limit";
    if (w == Workload::Producer)
        for (const char *o : {"--from", "--validate", "--group", "--fetch-max-bytes", "--consumer-clients"})
            if (given(o))
                return std::string(o) + " is a consumer setting: 'bench producer' runs no consumer";
    if (w == Workload::Consumer)
        for (const char *o : {"--rate", "--acks", "--compression", "--linger", "--batch-size", "--producer-clients"})
            if (given(o))
                return std::string(o) + " is a producer setting: 'bench consumer' produces nothing";
    return {};
}

void printSnapshot(const BenchSnapshot &s)
{
    char line[256];
    std::snprintf(line, sizeof line, "%7.1fs  %-22s %-7s produced %9.0f/s  consumed %9.0f/s  ack p99 %8.2f ms  e2e p99 %8.2f ms  errors %lld\n",
                  s.elapsedS, s.scenario.c_str(), s.phase.c_str(), s.producedPerS, s.consumedPerS, s.ackP99S * 1e3,
                  s.e2eP99S * 1e3, static_cast<long long>(s.errors));
    std::cerr << line;
}

// One poll of `bench offload`, on stderr as the snapshots are.
void printOffloadPoll(const BenchSnapshot &s)
{
    char line[256];
    std::snprintf(line, sizeof line, "%7.1fs  %-22s %-7s archived %12s  %7.2f segments/s  archive lag %8.2f s\n",
                  s.elapsedS, s.scenario.c_str(), s.phase.c_str(), formatMetric("bytes_per_s", s.bytesPerS).c_str(),
                  std::max(0.0, s.segmentsPerS), s.archiveLagS);
    std::cerr << line;
}

int reportResult(const CliContext &context, const BenchResult &result, const std::string &output,
                 const std::string &resultFile, bool noStore);

// The live intervals as --output asks: a JSON line each (jsonl), a line of text on stderr (text).
std::function<void(const BenchSnapshot &)> snapshotPrinter(const std::string &output)
{
    return [output](const BenchSnapshot &s) {
        if (output == "jsonl")
            std::cout << s.toJson().dump() << std::endl;
        else if (output == "text")
            printSnapshot(s);
    };
}

// A fleet's notes for the user (agents started, finished; steps; kubectl's steps): on stderr, as text.
std::function<void(const std::string &)> notePrinter(const std::string &output)
{
    return [output](const std::string &line) {
        if (output == "text")
            std::cerr << "plimsoll: " << line << "\n";
    };
}

// `run` with SIGINT/SIGTERM setting g_cancel (the first one; the handlers are put back after).
template <class Run> BenchResult interruptible(Run run)
{
    g_cancel = false;
    struct sigaction action = {};
    action.sa_handler = onInterrupt;
    struct sigaction oldInt = {}, oldTerm = {};
    sigaction(SIGINT, &action, &oldInt);
    sigaction(SIGTERM, &action, &oldTerm);
    BenchResult result = run();
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);
    return result;
}

// `bench … --agents N --launcher kubernetes`: the Job applied with kubectl, followed, its pods'
// logs merged into one result and the Job deleted; with `--dry-run --out DIR`, the Job's manifest
// and the commands that do the same by hand.
int runKubernetesLauncher(const CliContext &context, BenchArgs &args, const std::vector<const CLI::App *> &parsed)
{
    if (given(parsed, "--histogram-log")) {
        printError("--histogram-log with --launcher kubernetes: the pods share no file system with this machine; "
                   "the histograms are in each agent's result");
        return kExitUsage;
    }
    if (args.dryRun && given(parsed, "--result-file")) {
        printError("--result-file with --dry-run: nothing runs here, so there is no result to write");
        return kExitUsage;
    }
    if (args.dryRun && args.config.agentRamp()) {
        printError("--dry-run with --agents-steps: a fleet ramp applies one Job a step, each written when its step "
                   "starts; --dry-run writes one fleet's Job (--agents N)");
        return kExitUsage;
    }
    if (args.dryRun && args.kubernetes.outDir.empty()) {
        printError("--dry-run writes the Job for you to apply: add --out DIR");
        return kExitUsage;
    }
    if (args.config.runId.empty())
        args.config.runId = makeUuid();
    if (args.kubernetes.outDir.empty()) // the manifest and the pods' logs, kept for the user
        args.kubernetes.outDir =
            (std::filesystem::temp_directory_path() / ("plimsoll-kubernetes-" + args.config.runId)).string();
    const std::string output = args.output;
    const auto note = notePrinter(output);
    if (args.config.agentRamp()) { // a Job a step, each applied when its step starts
        const FleetRampLauncher launcher{{}, args.kubernetes, args.kubectl};
        const BenchResult result = interruptible(
            [&] { return runFleetRamp(args.config, launcher, g_cancel, snapshotPrinter(output), note); });
        return reportResult(context, result, output, args.resultFile, args.noStore);
    }
    const KubernetesFleetWritten written = writeKubernetesFleet(args.config, args.kubernetes);
    if (!written.ok()) {
        printError(written.error);
        return written.file.empty() ? kExitUsage : kExitFailure;
    }
    if (args.dryRun) {
        std::cout << written.report;
        return kExitOk;
    }
    note("wrote " + written.file + "; its agents start at "
         + QDateTime::fromMSecsSinceEpoch(written.fleet.config.startAtUnixMs, Qt::UTC).toString(Qt::ISODate).toStdString());
    const BenchResult result =
        interruptible([&] { return runKubernetesFleet(written, args.kubectl, g_cancel, note); });
    return reportResult(context, result, output, args.resultFile, args.noStore);
}

// `bench … --agents N`: the agents as processes of this machine, one merged result; `bench ramp
// --agents-steps …`: one such fleet per step.
int runFleet(const CliContext &context, BenchArgs &args, const std::vector<const CLI::App *> &parsed)
{
    if (args.launcher == "kubernetes")
        return runKubernetesLauncher(context, args, parsed);
    if (given(parsed, "--metrics-port")) {
        printError("--metrics-port with --agents: a fleet serves no /metrics; each agent's rates are in the "
                   "result's agents");
        return kExitUsage;
    }
    const std::string output = args.output;
    const auto sink = snapshotPrinter(output);
    const auto note = notePrinter(output);
    const BenchResult result = interruptible([&] {
        return args.config.agentRamp() ? runFleetRamp(args.config, FleetRampLauncher{}, g_cancel, sink, note)
                                       : runLocalFleet(args.config, {}, g_cancel, sink, note);
    });
    return reportResult(context, result, output, args.resultFile, args.noStore);
}

int runBench(const CliContext &context, BenchArgs &args, const std::vector<const CLI::App *> &parsed)
{
    args.config.fleetRequested = given(parsed, "--agents");
    if (given(parsed, "--launcher") && !args.config.fleetRequested && !given(parsed, "--agents-steps")) {
        printError("--launcher starts a fleet's agents: use it with --agents N or --agents-steps");
        return kExitUsage;
    }
    if (args.launcher != "kubernetes")
        for (const char *option : kKubernetesOptions)
            if (given(parsed, option)) {
                printError(std::string(option) + " applies to --launcher kubernetes only");
                return kExitUsage;
            }
    if (auto problem = inapplicableOption(parsed, args.config.workload, args.ramp); !problem.empty()) {
        printError(problem);
        return kExitUsage;
    }
    if (auto problem = resolve(args); !problem.empty()) {
        printError(problem);
        return kExitUsage;
    }
    if (args.config.fleetRequested || args.config.agent() || args.config.agentRamp()) {
        if (auto problem = args.config.validate(); !problem.empty()) {
            printError(problem);
            return kExitUsage;
        }
    }
    if (args.config.fleet() || args.config.agentRamp())
        return runFleet(context, args, parsed);
    BenchEngine engine(args.config);
    const std::string output = args.output;
    engine.setSnapshotSink(snapshotPrinter(output));
    if (args.config.embedded())
        std::cerr << "plimsoll: embedded target: librdkafka's mock cluster in this process, NOT a real broker; "
                     "the numbers describe the client.\n";

    const BenchResult result = interruptible([&engine] { return engine.run(g_cancel); });
    return reportResult(context, result, output, args.resultFile, args.noStore);
}

// --output, --result-file and the store, for any bench run's result.
int reportResult(const CliContext &context, const BenchResult &result, const std::string &output,
                 const std::string &resultFile, bool noStore)
{
    int exitCode = result.exitCode;
    if (!noStore && !result.scenarios.empty()) {
        if (auto store = context.openStore()) {
            try {
                storeBenchResult(*store, result, kVersion);
            } catch (const StoreError &e) {
                printError(std::string("the result was not stored: ") + e.what());
                exitCode = kExitFailure;
            }
        } else {
            exitCode = kExitFailure;
        }
    }
    const std::string document = result.toJson().dump(2) + "\n";
    if (!resultFile.empty()) {
        if (auto error = writeFileAtomically(resultFile, document); !error.empty()) {
            printError(error);
            exitCode = kExitFailure;
        }
    }
    if (output == "json")
        std::cout << document;
    else if (output == "jsonl")
        std::cout << result.toJson().dump() << std::endl;
    else
        std::cout << result.toText();
    if (output != "text") {
        for (const auto &e : result.errors)
            printError(e);
        if (result.interrupted)
            std::cerr << "plimsoll: " << result.warnings.back() << "\n";
    }
    return exitCode;
}

struct OffloadArgs : OffloadRequest
{
    std::string output = "text", resultFile;
    bool noStore = false;
};

void addOffloadCommand(CLI::App *bench, Commands &commands)
{
    auto *c = bench->add_subcommand("offload", "The offload record: archived bytes/s while a backlog drains to the "
                                               "remote tier, from the brokers' /metrics (scenario pipeline/offload)");
    auto a = std::make_shared<OffloadArgs>();
    c->add_option("--broker-metrics", a->brokerMetrics, "Broker Prometheus URL[,URL...] (repeatable)")->required();
    c->add_option("--interval", a->interval, "Between polls of the archive lag (" +
                                                 OffloadRequest::kInterval.describe() + ")")
        ->capture_default_str();
    c->add_option("--drain-timeout", a->drainTimeout, "Longest wait for the archive lag to reach zero (" +
                                                          OffloadRequest::kDrainTimeout.describe() + ")")
        ->capture_default_str();
    c->add_option("--timeout", a->timeout, "Bound on each scrape")->capture_default_str();
    c->add_option("--archive-prefix", a->archivePrefix,
                  "The archive series' common prefix (Korvet 0.19's korvet_storage_archive): PREFIX_lag_oldest_seconds, "
                  "PREFIX_lag_segments, PREFIX_bytes_total, PREFIX_segments_total, PREFIX_seconds, ...")
        ->capture_default_str();
    addNumber(c, "--partitions", a->partitions, OffloadRequest::kPartitions,
              "The partitions whose segments archive in parallel, stored as the record's topology: records at "
              "several counts give Sizing its offload capacity");
    c->add_option("--tuning", a->tuning,
                  "key=value[ key=value...]: the target's settings, part of the run's tuning contract (repeatable)");
    addResultOptions(c, a->output, a->resultFile, a->noStore);
    commands.add(c, [a](const CliContext &context) {
        OffloadRecordConfig config;
        if (std::string problem = a->resolve(&config); !problem.empty()) {
            printError(problem);
            return kExitUsage;
        }
        if (a->output == "text")
            std::cerr << "plimsoll: offload: polling the archive lag every " << a->interval << " until it is zero "
                      << "twice in a row (at most " << a->drainTimeout << ")\n";
        const std::string output = a->output;
        const auto sink = [output](const BenchSnapshot &s) {
            if (output == "jsonl")
                std::cout << s.toJson().dump() << std::endl;
            else if (output == "text")
                printOffloadPoll(s);
        };
        const BenchResult result = interruptible([&] { return runOffloadRecord(config, g_cancel, sink); });
        return reportResult(context, result, a->output, a->resultFile, a->noStore);
    });
}

// `bench merge FILE...`: a fleet's result from its agents' reports gathered by hand (each pod's
// log), as the local launcher makes it from its agents' output.
void addMergeCommand(CLI::App *bench, Commands &commands)
{
    auto *c = bench->add_subcommand("merge", "One fleet result from its agents' reports: each agent's --output jsonl "
                                             "lines (a Kubernetes pod's log), a file per agent");
    struct MergeArgs
    {
        std::vector<std::string> files;
        std::string output = "text", resultFile;
        bool noStore = false;
    };
    auto a = std::make_shared<MergeArgs>();
    c->add_option("files", a->files, "An agent's report: its standard output (kubectl logs POD > FILE)")
        ->required()
        ->check(CLI::ExistingFile);
    addResultOptions(c, a->output, a->resultFile, a->noStore);
    commands.add(c, [a](const CliContext &context) {
        std::vector<AgentReport> reports;
        int agents = 0;
        if (auto problem = readAgentReports(a->files, reports, &agents); !problem.empty()) {
            printError(problem);
            return kExitUsage;
        }
        const BenchResult merged = mergeFleetResults(agents, BenchResult{}, reports);
        return reportResult(context, merged, a->output, a->resultFile, a->noStore);
    });
}

} // namespace

void addBenchCommands(CLI::App &app, Commands &commands)
{
    auto *bench = app.add_subcommand("bench", "Run a benchmark workload against a Kafka-compatible cluster "
                                              "(default: a round trip on a new topic)");
    bench->alias("benchmark");
    bench->require_subcommand(0, 1);
    auto args = std::make_shared<BenchArgs>();
    const struct
    {
        const char *name;
        Workload workload;
        const char *help;
    } workloads[] = {
        {"producer", Workload::Producer, "Producer throughput and send-to-ack latency"},
        {"consumer", Workload::Consumer, "Consume existing records, validating their checksums"},
        {"roundtrip", Workload::Roundtrip, "Produce and consume, proving nothing was lost"},
        {"ramp", Workload::Ramp, "Steps of load until saturation, with a latency probe"},
        {"probe", Workload::Probe, "Fixed low-rate latency probe: ack and end-to-end p99"},
    };
    for (const auto &w : workloads) {
        auto *sub = bench->add_subcommand(w.name, w.help);
        addOptions(sub, *args);
        const Workload workload = w.workload;
        sub->preparse_callback([args, workload](std::size_t) { args->config.workload = workload; });
        commands.add(sub, [args, sub, bench](const CliContext &context) { return runBench(context, *args, {sub, bench}); });
    }
    addOffloadCommand(bench, commands);
    addMergeCommand(bench, commands);
    addOptions(bench, *args);
    // Bare `bench`: the round trip (RunConfig's default workload). Registered after the
    // workloads so that a parsed workload subcommand is chosen first.
    commands.add(bench, [args, bench](const CliContext &context) { return runBench(context, *args, {bench}); });
}

} // namespace plimsoll
