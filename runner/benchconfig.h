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
    // The tuning contract: what makes two runs comparable (no secrets in it).
    std::map<std::string, std::string> tuning() const;
};

// A random RFC 4122 version-4 uuid, lowercase.
std::string makeUuid();

} // namespace plimsoll
