#pragma once
// Server-side collectors of a ramp step, sampled at the two boundaries of the step's measured
// window (after its warm-up, and at its end), so a step's CPU and broker latency describe the
// same window as its client-side numbers:
//  - Redis INFO per shard (--redis HOST:PORT): CPU from the used_cpu_sys + used_cpu_user
//    delta over the window → shard_cpu_max, the hottest shard as a fraction of one core
//    (a Redis shard runs its commands on one thread, so one core is its limit).
//  - Prometheus /metrics per broker (--broker-metrics URL): process_cpu_seconds_total's rate
//    → broker_cpu_avg (mean over brokers; divided by system_cpu_count when the endpoint
//    exposes it, as Micrometer does, else a fraction of one core), and the histogram named by
//    latencyHistogram (Korvet's korvet_broker_produce_seconds), diffed over the window and
//    summed over brokers → broker.produce_p50_s / broker.produce_p99_s; Korvet's fetch path
//    the same way: korvet_broker_fetch_delivery_seconds (responses that carried records, the
//    consume side's saturation signal) → broker.fetch_delivery_p50_s / _p99_s,
//    korvet_broker_fetch_seconds (every fetch, long-poll waits included) → broker.fetch_p50_s /
//    _p99_s, korvet_broker_fetch_empty_total → broker.fetch_empty_per_s, and the window's
//    difference of korvet_storage_read_messages_sum{tier="remote"} →
//    broker.remote_read_messages (what a tiered read served from the archive); Korvet's
//    back-pressure, pending request bytes, Redis connection pool and storage latencies by tier
//    (runner/korvetmetrics.h), and which of Korvet's series the endpoints had.
//  - Redis Enterprise REST per cluster (--re-api URL, runner/recollector.h): each shard's
//    shard_cpu_user + shard_cpu_system over the window → shard_cpu_max with the INFO shards.
// A target that cannot be reached at either boundary leaves its numbers out and says so in a
// warning; it never fails the run (the client-side measurement still stands).
//
// Threading: a StepCollectors belongs to the ramp's thread; beginAt() samples on a helper
// thread of its own (so the step's coordinator is not delayed), which end() joins first.

#include "model/formats/prometheustext.h"
#include "runner/recollector.h"

#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace plimsoll {

struct RedisCpuSample
{
    double cpuSeconds = 0; // used_cpu_sys + used_cpu_user since the server started
    std::string error;     // empty when the sample is good
};

// Sends INFO cpu to HOST:PORT over a plain TCP connection (RESP), within `timeout`.
RedisCpuSample sampleRedisCpu(const std::string &hostPort, std::chrono::milliseconds timeout);

// used_cpu_sys + used_cpu_user of an INFO reply's text; nullopt when either is missing.
std::optional<double> redisCpuSeconds(const std::string &infoText);

struct PrometheusScrape
{
    PromSnapshot snapshot;
    std::string error; // empty when the scrape is good
};

// GET `url` (libcurl, http or https) and parse its one scrape.
PrometheusScrape scrapePrometheus(const std::string &url, std::chrono::milliseconds timeout);

struct StepServerMetrics
{
    std::map<std::string, double> metrics; // SI units, catalog names where they exist
    std::vector<std::string> warnings;
    // The Korvet series (runner/korvetmetrics.h) the broker metrics had at the window's end, and
    // those of the documented and newer generations none of them had.
    std::vector<std::string> seriesFound, seriesMissing;
};

// One line per broker metrics endpoint that has no Korvet series at all (not a Korvet, or a
// build whose metric names are not known here); empty when every endpoint has some, or cannot
// be reached (the step's own warnings say that).
std::vector<std::string> korvetEndpointWarnings(const std::vector<std::string> &brokerMetricsUrls,
                                                std::chrono::milliseconds timeout);

class StepCollectors
{
public:
    StepCollectors(std::vector<std::string> redisShards, std::vector<std::string> brokerMetricsUrls,
                   std::string latencyHistogram, std::chrono::milliseconds timeout);
    ~StepCollectors();
    StepCollectors(const StepCollectors &) = delete;
    StepCollectors &operator=(const StepCollectors &) = delete;

    // Redis Enterprise clusters' REST API base URLs (https://cluster:9443), with the
    // credentials they share. Before beginAt().
    void setRedisEnterprise(std::vector<std::string> baseUrls, ReCredentials credentials);

    // A counter of S3 GET requests in the broker metrics (a tiered ramp's --s3-get-metric):
    // its rate summed over the endpoints → broker.s3_get_per_s. Before beginAt().
    void setS3GetMetric(std::string family) { m_s3Get = std::move(family); }
    // The topic whose partitions' produce rates the step reads from Korvet's high watermarks
    // (korvet_broker_max_offset) → partitions.<p>.records_per_s, broker.partition_skew. Before
    // beginAt().
    void setTopic(std::string topic) { m_topic = std::move(topic); }

    bool empty() const { return m_redis.empty() && m_brokers.empty() && m_re.empty(); }
    // Takes the first sample at `at` (the end of the warm-up), unless `cancel` is set first.
    // With `closeAt` (the end of the measured window), the second sample is taken then, so
    // the drain after the window (waiting for the last acknowledgements) is not in it.
    void beginAt(std::chrono::steady_clock::time_point at, const std::atomic<bool> *cancel,
                 std::optional<std::chrono::steady_clock::time_point> closeAt = std::nullopt);
    // Takes the second sample (unless it was taken at `closeAt`; a step that ends before
    // then is sampled now) and returns the window's numbers.
    StepServerMetrics end();

private:
    struct Sample
    {
        std::chrono::steady_clock::time_point at;
        std::vector<RedisCpuSample> redis;
        std::vector<PrometheusScrape> brokers;
        std::vector<ReShardStats> re;
        std::string utc; // wall-clock time of the sample, ISO-8601 UTC (the REST API's stime/etime)
    };
    Sample sample() const;
    // The window's numbers from the first sample to `last`, `seconds` apart.
    void addShardCpu(const Sample &last, double seconds, StepServerMetrics &out) const;
    void addBrokerMetrics(const Sample &last, double seconds, StepServerMetrics &out) const;

    std::vector<std::string> m_redis;
    std::vector<std::string> m_brokers;
    std::vector<std::string> m_re;
    ReCredentials m_reCredentials;
    std::string m_histogram;
    std::string m_s3Get;
    std::string m_topic;
    std::chrono::milliseconds m_timeout;
    std::thread m_beginThread;
    std::optional<Sample> m_begin;
    std::optional<Sample> m_last;
    std::atomic<bool> m_ending{false};
};

} // namespace plimsoll
