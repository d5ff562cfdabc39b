#pragma once
// What a bench run is asked to do: the options of `plimsoll bench`, as the seed's
// `korvet bench` spells them, in SI-friendly types. A RunConfig is copied by value into
// the worker before it starts, so the caller may change its own copy freely.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

enum class Workload { Producer, Consumer, Roundtrip, Ramp, Probe };

// What a ramp's steps add: producer clients (the produce ramp), or consumer clients of one
// group reading a backlog (the consume ramp).
enum class RampKind { Producers, Consumers };

std::string rampKindName(RampKind kind);

std::string workloadName(Workload workload);
std::optional<Workload> parseWorkload(const std::string &name);

struct RunConfig
{
    using Duration = std::chrono::nanoseconds;

    Workload workload = Workload::Roundtrip;
    std::string runId; // uuid; generated when empty

    // Target. "embedded" or "embedded:N" starts librdkafka's mock cluster in-process.
    std::string bootstrapServers = "localhost:9092";
    std::map<std::string, std::string> clientConfig; // librdkafka names, from --command-config
    std::string commandConfigPath; // that file, absolute: a fleet's agents read it themselves
    std::string topic;          // empty: plimsoll-benchmark-<uuid>, created by the run
    bool createTopic = false;   // create the named topic when it is missing
    bool cleanup = false;       // delete the topic afterwards, only if this run created it
    int partitions = 16;
    int replicationFactor = 1;

    int producerClients = 1;
    int consumerClients = 1;
    int64_t records = 0;       // 0: run for `duration`
    Duration duration{};       // 0 with records == 0: the workload's default
    int64_t recordSize = 1024; // bytes of each value, envelope included
    double rate = 0;           // records/s over all producers; 0 = unlimited

    std::string acks = "all";
    std::string compression = "none";
    Duration linger = std::chrono::milliseconds(5);
    int64_t batchSize = 16384;

    std::string from = "beginning"; // consumer: beginning | end
    bool validateChecksum = true;   // consumer: --validate checksum | none
    std::string group;              // consumer: join this group; empty = assign partitions
    int64_t fetchMaxBytes = 52428800;

    Duration warmup{};
    Duration interval = std::chrono::seconds(1); // snapshot and interval-record period
    Duration timeout = std::chrono::seconds(30); // drain / flush / admin bound

    // Ramp: the load of each step (producer clients, or records/s with stepByRate).
    std::vector<double> steps;
    bool stepByRate = false;
    bool continuePastSaturation = false;
    Duration p99Limit = std::chrono::milliseconds(250); // saturation rule
    double plateauGain = 0.05; // a step adding load but < 5 % more throughput has plateaued

    // Consume ramp (--ramp consumers): each step's consumers, one group of their own, read the
    // backlog from its beginning. `backlog` records are preloaded once before the first step;
    // 0 reads the existing --topic from its beginning instead.
    RampKind rampKind = RampKind::Producers;
    int64_t backlog = 0;
    Duration fetchP99Limit = std::chrono::milliseconds(500); // saturation rule of a consume step
    // The tiered consume ramp (--tiered): the backlog has been offloaded to the archive; each
    // window must have been served remote reads (korvet_storage_read_messages_sum{tier="remote"}
    // from --broker-metrics), and the S3 GET rate named here (a Prometheus counter the user
    // names, --s3-get-metric) attributes a fetch p99 that rises while GETs stop scaling to the
    // broker's bounded remote-read concurrency.
    bool tiered = false;
    std::string s3GetMetric;
    // --tuning key=value: the target's settings the user states (e.g. icebergReadThreads=8),
    // recorded in the tuning contract as given. Checked by parseTuningEntry().
    std::map<std::string, std::string> userTuning;

    double probeRate = 100;    // probe records/s (the seed's full-run rate)
    bool rampProbe = true;     // run the latency probe alongside a ramp

    // Ramp collectors (runner/collectors.h), sampled at each step's window boundaries.
    std::vector<std::string> redisShards;       // --redis HOST:PORT: INFO cpu → shard_cpu_max
    std::vector<std::string> brokerMetricsUrls; // --broker-metrics URL: Prometheus text
    // --re-api URL: Redis Enterprise REST /v1/shards/stats → shard_cpu_max. The credentials
    // come from the environment or the command-config (runner/recollector.h), never argv,
    // and are never written to a result.
    std::vector<std::string> reApiUrls;
    std::string reUser, rePassword;
    bool reVerifyTls = true;
    std::string brokerLatencyHistogram = "korvet_broker_produce_seconds"; // broker-side p50/p99
    double cpuLimit = 0.90; // saturation rule: a shard or broker at this CPU fraction or more

    // A fleet (runner/fleet.h): --agents N runs the workload as N agents sharing the run id.
    // --producer-clients and --consumer-clients are each agent's; --records and --rate are the
    // fleet's, shared out by agentShare(). As agent `agentIndex` (--agent-index, 0..N-1) this
    // process runs its share: producer ids from agentIndex × producerClients, so that records of
    // different agents never share an id, and, for the round trip and the consumer, the
    // partitions p ≡ agentIndex (mod N) only (its producers write them, its consumers read them,
    // so each agent matches all it sent). Its schedule starts at startAtUnixMs on the system
    // clock (--start-at, set by the coordinator), and its windows count from there.
    int agents = 1;
    int agentIndex = -1; // -1: not an agent (a single run, or the fleet's coordinator)
    int64_t startAtUnixMs = 0; // 0: when the clients are ready
    bool fleetRequested = false; // --agents given: run through the coordinator, even one agent
    bool agent() const { return agentIndex >= 0; }
    bool fleet() const { return fleetRequested && agentIndex < 0; }
    // The fleet ramp (bench ramp --agents-steps 1,2,4): each step a local fleet of that many
    // agents, each offering --producer-clients and --rate of its own (runner/fleetramp.h).
    std::vector<int> agentSteps;
    bool agentRamp() const { return workload == Workload::Ramp && !agentSteps.empty(); }

    std::string histogramLog; // HdrHistogram V2 interval log, empty = none
    int metricsPort = -1;     // serve /metrics and /health on 127.0.0.1 while running; -1 = off

    // Test hook: called on a producer thread before the send of each record (client index,
    // sequence). Lets a test stall the producer to show latency counts from schedule.
    std::function<void(int, int64_t)> beforeSend;

    bool embedded() const;
    int embeddedBrokers() const; // N of embedded:N, default 1
    int64_t minRecordSize() const;
    // Empty when usable; otherwise the first problem, phrased for a command line.
    std::string validate() const;
    // The tuning contract: what makes two runs comparable (no secrets in it): the run's own
    // settings and the user's --tuning entries.
    std::map<std::string, std::string> tuning() const;

private:
    std::string validateConsumeRamp() const;
    std::string validateFleet() const;
    std::string validateAgentRamp() const;
    std::map<std::string, std::string> builtInTuning() const;
    std::map<std::string, std::string> produceTuning() const;
};

// One --tuning entry "key=value" into *key / *value: "" when fine, else why it is refused
// (malformed, an unsupported value, zero or negative). A value is a positive number, a
// comma list of them (tieredSteps=1,2,4), or a word (brokerStack=netty).
std::string parseTuningEntry(const std::string &entry, std::string *key, std::string *value);

// The consumers' effective fetch settings (librdkafka names): fetch.max.bytes,
// max.partition.fetch.bytes and fetch.wait.max.ms, from the run's options and client config.
std::map<std::string, std::string> consumerFetchSettings(const RunConfig &config);

// The consumers' fetch.wait.max.ms on the embedded target (runner/benchengine.cpp says why).
inline constexpr const char *kEmbeddedFetchWaitMs = "5";

// Agent `index` of `agents`' share of a fleet total (records): an even split, the first
// `total % agents` agents taking one more.
int64_t agentShare(int64_t total, int agents, int index);
// The partitions agent `index` of `agents` owns among `partitionCount`: p ≡ index (mod agents).
std::vector<int32_t> agentPartitions(int partitionCount, int agents, int index);

// A run's duration as the milliseconds the Kafka clients' timeouts take.
inline std::chrono::milliseconds toMs(std::chrono::nanoseconds d)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(d);
}

// A random RFC 4122 version-4 uuid, lowercase.
std::string makeUuid();

} // namespace plimsoll
