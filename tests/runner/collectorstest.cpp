// The ramp's collectors and its CPU saturation rule, with no services: Redis INFO parsing,
// and a Prometheus endpoint served in-process (the runner's own MetricsServer) whose counters
// grow with time like a broker's, so the numbers a step reports can be checked exactly.
#include "runner/collectors.h"
#include "runner/metricsserver.h"
#include "runner/rampsaturation.h"
#include "servedkorvet.h"

#include <gtest/gtest.h>

#include <atomic>
#include <regex>
#include <sstream>
#include <thread>

using namespace std::chrono_literals;

namespace plimsoll {
namespace {

TEST(runnerCollectors, RedisInfoCpuIsSysPlusUser)
{
    const std::string info = "# CPU\r\nused_cpu_sys:1.250000\r\nused_cpu_user:2.500000\r\n"
                             "used_cpu_sys_children:9.0\r\nused_cpu_user_children:9.0\r\n";
    ASSERT_TRUE(redisCpuSeconds(info).has_value());
    EXPECT_DOUBLE_EQ(*redisCpuSeconds(info), 3.75) << "children's CPU is not the shard's";
    EXPECT_FALSE(redisCpuSeconds("# CPU\r\nused_cpu_sys:1.0\r\n").has_value());
}

TEST(runnerCollectors, UnreachableTargetsWarnAndLeaveNumbersOut)
{
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    StepCollectors collectors({"127.0.0.1:1"}, {"http://127.0.0.1:1/metrics"}, "korvet_broker_produce_seconds", 2s);
    collectors.beginAt(std::chrono::steady_clock::now(), nullptr);
    std::this_thread::sleep_for(50ms);
    const StepServerMetrics m = collectors.end();
    EXPECT_EQ(m.metrics.count("shard_cpu_max"), 0u);
    EXPECT_EQ(m.metrics.count("broker_cpu_avg"), 0u);
    EXPECT_GE(m.warnings.size(), 2u);
    EXPECT_EQ(sampleRedisCpu("no-port-here", 1s).error, "'no-port-here' is not HOST:PORT");
    // Credentials in a metrics URL never reach a message.
    const auto scrape = scrapePrometheus("http://plimsoll:s3cret@127.0.0.1:1/metrics", 2s);
    EXPECT_FALSE(scrape.error.empty());
    EXPECT_EQ(scrape.error.find("s3cret"), std::string::npos) << scrape.error;
    EXPECT_NE(scrape.error.find("http://***@127.0.0.1:1/metrics"), std::string::npos) << scrape.error;
}

// A broker's /metrics whose counters grow linearly with time: half a core of CPU on a
// two-core machine (system_cpu_count, as Micrometer exposes it), and 1000 produce requests/s
// of which half take ≤ 5 ms, 90 % ≤ 10 ms and all ≤ 50 ms.
class FakeBroker
{
public:
    FakeBroker()
    {
        EXPECT_EQ(m_server.start(0), "");
        m_thread = std::thread([this] {
            const auto start = std::chrono::steady_clock::now();
            while (!m_stop) {
                const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                m_server.setMetrics(text(t));
                std::this_thread::sleep_for(2ms);
            }
        });
        std::this_thread::sleep_for(20ms);
    }
    ~FakeBroker()
    {
        m_stop = true;
        m_thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_server.port()) + "/metrics"; }

private:
    static std::string text(double t)
    {
        const double n = 1000 * t;
        std::ostringstream out;
        out.precision(17);
        out << "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total " << 100 + 0.5 * t << "\n"
            << "# TYPE system_cpu_count gauge\nsystem_cpu_count 2\n"
            << "# TYPE korvet_broker_produce_seconds histogram\n";
        const std::pair<const char *, double> buckets[] = {
            {"0.001", 0}, {"0.005", 0.5 * n}, {"0.01", 0.9 * n}, {"0.05", n}, {"+Inf", n}};
        for (const auto &[le, count] : buckets)
            out << "korvet_broker_produce_seconds_bucket{le=\"" << le << "\"} " << count << "\n";
        out << "korvet_broker_produce_seconds_count " << n << "\nkorvet_broker_produce_seconds_sum " << 0.006 * n
            << "\n";
        // Korvet's fetch path: 500 deliveries/s (half within 20 ms, all within 100 ms), 800
        // fetches/s with their long polls (all within 500 ms), 300 empty polls/s, and 40
        // messages/s read from the remote tier beside 400/s locally.
        out << "# TYPE korvet_broker_fetch_delivery_seconds histogram\n";
        for (const auto &[le, count] : std::initializer_list<std::pair<const char *, double>>{
                 {"0.02", 0.25 * n}, {"0.1", 0.5 * n}, {"+Inf", 0.5 * n}})
            out << "korvet_broker_fetch_delivery_seconds_bucket{le=\"" << le << "\"} " << count << "\n";
        out << "korvet_broker_fetch_delivery_seconds_count " << 0.5 * n << "\n"
            << "korvet_broker_fetch_delivery_seconds_sum " << 0.02 * n << "\n"
            << "# TYPE korvet_broker_fetch_seconds histogram\n";
        for (const auto &[le, count] : std::initializer_list<std::pair<const char *, double>>{
                 {"0.5", 0.8 * n}, {"+Inf", 0.8 * n}})
            out << "korvet_broker_fetch_seconds_bucket{le=\"" << le << "\"} " << count << "\n";
        out << "korvet_broker_fetch_seconds_count " << 0.8 * n << "\nkorvet_broker_fetch_seconds_sum " << 0.2 * n
            << "\n# TYPE korvet_broker_fetch_empty_total counter\nkorvet_broker_fetch_empty_total " << 0.3 * n
            << "\n# TYPE korvet_storage_read_messages summary\n"
            << "korvet_storage_read_messages_count{tier=\"remote\"} " << 0.001 * n << "\n"
            << "korvet_storage_read_messages_sum{tier=\"remote\"} " << 0.04 * n << "\n"
            << "korvet_storage_read_messages_count{tier=\"local\"} " << 0.01 * n << "\n"
            << "korvet_storage_read_messages_sum{tier=\"local\"} " << 0.4 * n << "\n";
        return out.str();
    }

    MetricsServer m_server;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

TEST(runnerCollectors, BrokerCpuAndLatencyFromTheWindowOnly)
{
    FakeBroker broker;
    StepCollectors collectors({}, {broker.url()}, "korvet_broker_produce_seconds", 2s);
    // The window begins after a "warm-up" of 200 ms: what came before must not count.
    collectors.beginAt(std::chrono::steady_clock::now() + 200ms, nullptr);
    std::this_thread::sleep_for(1200ms);
    const StepServerMetrics m = collectors.end();
    EXPECT_TRUE(m.warnings.empty()) << m.warnings.front();
    ASSERT_EQ(m.metrics.count("broker_cpu_avg"), 1u);
    // 0.5 core of 2: a quarter. The counter is refreshed every 2 ms and the window is ~1 s.
    EXPECT_NEAR(m.metrics.at("broker_cpu_avg"), 0.25, 0.02);
    EXPECT_NEAR(m.metrics.at("collectors.window_s"), 1.0, 0.3);
    // Median: the rank sits exactly on the 5 ms bucket's cumulative count.
    EXPECT_NEAR(m.metrics.at("broker.produce_p50_s"), 0.005, 0.0002);
    // p99: 9/10 of the way through (10 ms, 50 ms]: 46 ms, by histogram_quantile's interpolation.
    EXPECT_NEAR(m.metrics.at("broker.produce_p99_s"), 0.046, 0.001);
    EXPECT_NEAR(m.metrics.at("broker.produce_requests"), 1000 * m.metrics.at("collectors.window_s"), 60);

    // The fetch path, diffed over the same window: the delivery p50 sits on the 20 ms bucket,
    // p99 is 49/50 of the way through (20 ms, 100 ms]; every fetch within 500 ms.
    const double window = m.metrics.at("collectors.window_s");
    EXPECT_NEAR(m.metrics.at("broker.fetch_delivery_p50_s"), 0.020, 0.001);
    EXPECT_NEAR(m.metrics.at("broker.fetch_delivery_p99_s"), 0.0984, 0.002);
    EXPECT_NEAR(m.metrics.at("broker.fetch_delivery_requests"), 500 * window, 40);
    EXPECT_LE(m.metrics.at("broker.fetch_p99_s"), 0.5);
    EXPECT_NEAR(m.metrics.at("broker.fetch_empty_per_s"), 300, 25);
    EXPECT_NEAR(m.metrics.at("broker.remote_read_messages"), 40 * window, 5);
}

TEST(runnerCollectors, TheWindowClosesWhenTheStepsMeasuredTimeEndsNotWhenItsDrainEnds)
{
    FakeBroker broker;
    StepCollectors collectors({}, {broker.url()}, "korvet_broker_produce_seconds", 2s);
    // A 600 ms window after a 200 ms warm-up; the step then drains its last acknowledgements
    // for another second before it calls end(): the drain is not the window.
    const auto start = std::chrono::steady_clock::now();
    collectors.beginAt(start + 200ms, nullptr, start + 800ms);
    std::this_thread::sleep_for(1800ms);
    const StepServerMetrics m = collectors.end();
    ASSERT_EQ(m.metrics.count("collectors.window_s"), 1u);
    EXPECT_NEAR(m.metrics.at("collectors.window_s"), 0.6, 0.2);
    EXPECT_NEAR(m.metrics.at("broker.produce_requests"), 1000 * m.metrics.at("collectors.window_s"), 60);
}

TEST(runnerCollectors, AStepThatEndsBeforeItsWindowClosesIsSampledWhenItEnds)
{
    FakeBroker broker;
    StepCollectors collectors({}, {broker.url()}, "korvet_broker_produce_seconds", 2s);
    const auto start = std::chrono::steady_clock::now();
    collectors.beginAt(start + 100ms, nullptr, start + 30s);
    std::this_thread::sleep_for(700ms);
    const StepServerMetrics m = collectors.end(); // at once, not after 30 s
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
    ASSERT_EQ(m.metrics.count("collectors.window_s"), 1u);
    EXPECT_NEAR(m.metrics.at("collectors.window_s"), 0.6, 0.25);
}

TEST(runnerCollectors, StepCancelledDuringWarmupHasNoServerMetrics)
{
    FakeBroker broker;
    std::atomic<bool> cancel{true};
    StepCollectors collectors({}, {broker.url()}, "korvet_broker_produce_seconds", 2s);
    collectors.beginAt(std::chrono::steady_clock::now() + 10s, &cancel);
    const StepServerMetrics m = collectors.end(); // returns at once: the begin thread saw cancel
    EXPECT_TRUE(m.metrics.empty());
    ASSERT_EQ(m.warnings.size(), 1u);
}

ScenarioResult step(std::map<std::string, double> metrics)
{
    ScenarioResult s;
    s.metrics = std::move(metrics);
    s.metrics["records_per_s"] = 1000;
    s.topology.producers = 1;
    return s;
}

TEST(runnerCollectors, CpuAtNinetyPercentSaturatesAndNamesTheComponent)
{
    RunConfig config;
    EXPECT_EQ(saturationReason(config, step({{"shard_cpu_max", 0.89}, {"broker_cpu_avg", 0.5}}), nullptr), "");
    EXPECT_EQ(saturationReason(config, step({{"shard_cpu_max", 0.93}, {"broker_cpu_avg", 0.79}}), nullptr),
              "Redis shard CPU: hottest shard at 93% (limit 90%)");
    EXPECT_EQ(saturationReason(config, step({{"shard_cpu_max", 0.40}, {"broker_cpu_avg", 0.91}}), nullptr),
              "broker CPU: 91% on average (limit 90%)");
    // CPU is named before a p99 over its limit: the component explains the latency.
    EXPECT_EQ(saturationReason(config, step({{"broker_cpu_avg", 0.95}, {"latency_p99_s", 0.9}}), nullptr),
              "broker CPU: 95% on average (limit 90%)");
    EXPECT_EQ(saturationReason(config, step({{"latency_p99_s", 0.3}}), nullptr).rfind("produce p99", 0), 0u);
}

// A fleet ramp's step: an agent below 80 % of the agents' mean rate is its client node's limit,
// named after CPU (a hot cluster explains a slow agent) and before the latency rules.
TEST(runnerCollectors, AnAgentBehindTheOthersNamesItsClientNode)
{
    RunConfig config;
    ScenarioResult s = step({{"records_per_s", 19000}, {"agents.0.records_per_s", 5000}, {"agents.1.records_per_s", 5000},
                             {"agents.2.records_per_s", 3000}, {"agents.3.records_per_s", 6000},
                             {"latency_p99_s", 0.9}});
    EXPECT_EQ(saturationReason(config, s, nullptr),
              "client node: agent 2 ran at 3000 records/s, 63% of the agents' mean of 4750; its node, not the "
              "cluster, ran out first");
    s.metrics["agents.2.records_per_s"] = 4000; // 84 % of the mean: within the spread of equal nodes
    EXPECT_EQ(saturationReason(config, s, nullptr).rfind("produce p99", 0), 0u);
    s.metrics["agents.2.records_per_s"] = 1000;
    s.metrics["broker_cpu_avg"] = 0.95;
    EXPECT_EQ(saturationReason(config, s, nullptr), "broker CPU: 95% on average (limit 90%)");
    EXPECT_EQ(saturationReason(config, step({{"agents.0.records_per_s", 10}}), nullptr), "")
        << "one agent has no others to lag behind";
}

// A consume step saturates on the broker's fetch delivery p99 when --broker-metrics gives it
// (the responses that carried records), and on the consumers' own fetch p99 only without it.
TEST(runnerCollectors, ConsumeStepSaturatesOnTheBrokersFetchDeliveryFirst)
{
    RunConfig config;
    config.fetchP99Limit = 500ms;
    ScenarioResult step;
    step.name = "pipeline/consume/step-4";
    step.metrics = {{"records_per_s", 400000}, {"consumer.fetch_p99_s", 0.9}};
    EXPECT_EQ(saturationReason(config, step, nullptr), "fetch p99 900.0 ms over the 500 ms limit");
    // The broker says deliveries stay well within the limit: the client's long polls are not it.
    step.metrics["broker.fetch_delivery_p99_s"] = 0.120;
    EXPECT_EQ(saturationReason(config, step, nullptr), "");
    step.metrics["broker.fetch_delivery_p99_s"] = 0.750;
    EXPECT_EQ(saturationReason(config, step, nullptr), "broker fetch delivery p99 750.0 ms over the 500 ms limit");
}


// The page's attribution of a tiered ramp: S3 GETs flat (< 10 % more) as consumers are added
// while the broker's fetch delivery p99 rises (> 20 %) is the broker's bounded remote-read
// concurrency, with broker replicas the first thing to scale; GETs that scale are not it.
TEST(runnerCollectors, TieredStepsAttributeFlatS3GetsToTheRemoteReadConcurrency)
{
    RunConfig config;
    config.tiered = true;
    config.fetchP99Limit = 5s;
    const auto stepOf = [](int consumers, double gets, double p99) {
        ScenarioResult s;
        s.name = "pipeline/consume-tiered/step-" + std::to_string(consumers);
        s.topology.consumers = consumers;
        s.metrics = {{"records_per_s", 1000.0 * consumers}, {"broker.s3_get_per_s", gets},
                     {"broker.fetch_delivery_p99_s", p99}};
        return s;
    };
    const ScenarioResult two = stepOf(2, 400, 0.300);
    const std::string bound = saturationReason(config, stepOf(4, 410, 0.900), &two);
    EXPECT_EQ(bound, "broker remote-read concurrency: S3 GETs stayed at 410/s (400/s at 2 consumers) while fetch "
                     "delivery p99 rose from 300 ms to 900 ms; scale broker replicas first");
    EXPECT_EQ(saturationReason(config, stepOf(4, 800, 0.900), &two), "") << "GETs that scale are not the limit";
    EXPECT_EQ(saturationReason(config, stepOf(4, 410, 0.320), &two), "") << "a p99 that holds is not the limit";
    RunConfig redis = config;
    redis.tiered = false;
    EXPECT_EQ(saturationReason(redis, stepOf(4, 410, 0.900), &two), "") << "only a tiered ramp reads the archive";
}

// Korvet 0.19's documented series, served in Micrometer's Prometheus form, read over one window:
// the broker's back-pressure, its pending request bytes, the Redis connection pool's timeouts and
// waiters, storage latencies by tier (percentiles from buckets, the mean without), and which of
// the series the endpoint had.
StepServerMetrics korvetWindow(const std::string &url, std::chrono::milliseconds length = 1000ms,
                               const std::string &topic = "orders")
{
    StepCollectors collectors({}, {url}, "korvet_broker_produce_seconds", 2s);
    collectors.setTopic(topic);
    const auto start = std::chrono::steady_clock::now();
    collectors.beginAt(start + 100ms, nullptr, start + 100ms + length);
    std::this_thread::sleep_for(length + 300ms);
    return collectors.end();
}

// "… <number> <unit>…" of a reason: the number before `unit`, or -1.
double numberBefore(const std::string &text, const std::string &unit)
{
    const std::regex number("([0-9.]+) " + unit);
    std::smatch m;
    return std::regex_search(text, m, number) ? std::stod(m[1]) : -1;
}

TEST(runnerCollectors, KorvetsDocumentedSeriesGiveTheStepsPushbackPoolAndStorageNumbers)
{
    test::KorvetRates rates;
    rates.backpressureAppliedPerS = 12;
    rates.backpressureHeld = 3;
    rates.pendingBytes = 65536;
    rates.poolTimeoutsPerS = 4;
    rates.poolPending = 7;
    test::ServedKorvet korvet(rates);
    const StepServerMetrics m = korvetWindow(korvet.url());
    ASSERT_EQ(m.metrics.count("collectors.window_s"), 1u);
    EXPECT_NEAR(m.metrics.at("broker.backpressure_applied_per_s"), 12, 1.2);
    EXPECT_EQ(m.metrics.at("broker.backpressure_connections"), 3);
    EXPECT_EQ(m.metrics.at("broker.pending_bytes"), 65536);
    EXPECT_NEAR(m.metrics.at("storage.pool_timeouts_per_s"), 4, 0.4);
    EXPECT_EQ(m.metrics.at("storage.pool_pending"), 7);
    EXPECT_NEAR(m.metrics.at("broker.produce_records_per_s"), 20000, 2000);
    // The produce timer's buckets: p99 49/50 of the way through (4 ms, 10 ms].
    EXPECT_NEAR(m.metrics.at("broker.produce_p99_s"), 0.00988, 0.0002);
    // Local writes have buckets (p50 on the 2 ms bound, p99 near 5 ms); reads only their mean.
    EXPECT_NEAR(m.metrics.at("storage.write_local_p50_s"), 0.002, 0.0001);
    EXPECT_NEAR(m.metrics.at("storage.write_local_p99_s"), 0.00494, 0.0001);
    EXPECT_NEAR(m.metrics.at("storage.read_local_avg_s"), 0.003, 0.0002);
    EXPECT_NEAR(m.metrics.at("storage.read_remote_avg_s"), 0.190, 0.005);
    EXPECT_EQ(m.metrics.count("storage.read_local_p99_s"), 0u) << "no buckets, no percentile";
    // Request latency by Kafka API: a produce request's 4 ms, a fetch's 500 ms long poll.
    EXPECT_NEAR(m.metrics.at("broker.request_produce_avg_s"), 0.004, 0.0002);
    EXPECT_NEAR(m.metrics.at("broker.request_fetch_avg_s"), 0.5, 0.01);
    // What the endpoint lacked: the page's newer fetch series and the ack timer left out.
    EXPECT_EQ(m.seriesMissing, (std::vector<std::string>{"korvet_broker_fetch_delivery_seconds",
                                                         "korvet_broker_fetch_empty_total",
                                                         "korvet_storage_ack_seconds"}));
    EXPECT_NE(std::find(m.seriesFound.begin(), m.seriesFound.end(), "korvet_storage_local_pool_acquire_seconds"),
              m.seriesFound.end());
    EXPECT_EQ(m.seriesFound.size() + m.seriesMissing.size(), 16u) << "every documented and newer series, once";

    // Both of the page's signals in one window: the pool (the cause) named first.
    ScenarioResult s = step(m.metrics);
    const std::string reason = saturationReason(RunConfig{}, s, nullptr);
    EXPECT_TRUE(std::regex_match(reason, std::regex("Redis connection pool: [0-9.]+ acquire timeouts/s \\(7 waiters "
                                                    "at the window's end\\); broker back-pressure: applied [0-9.]+ "
                                                    "times/s, 3 connections held at the window's end")))
        << reason;
    EXPECT_NEAR(numberBefore(reason, "acquire timeouts/s"), 4, 0.4) << reason;
    EXPECT_NEAR(numberBefore(reason, "times/s"), 12, 1.2) << reason;
}

// The step's topic's partitions, each at its own rate from the high watermarks it advanced by
// in the window: a hot partition shows as the partition skew; another topic's are not counted.
TEST(runnerCollectors, HighWatermarksGiveEachPartitionsRateAndTheSkew)
{
    test::KorvetRates rates;
    rates.recordsPerS = 40000;
    rates.partitionShares = {0.4, 0.2, 0.2, 0.1, 0.1};
    test::ServedKorvet korvet(rates);
    const StepServerMetrics m = korvetWindow(korvet.url());
    for (int p = 0; p < 5; ++p) {
        const std::string key = "partitions." + std::to_string(p) + ".records_per_s";
        ASSERT_EQ(m.metrics.count(key), 1u) << key;
        EXPECT_NEAR(m.metrics.at(key), 40000 * rates.partitionShares[p], 40000 * rates.partitionShares[p] * 0.1)
            << key;
    }
    EXPECT_EQ(m.metrics.count("partitions.5.records_per_s"), 0u);
    // 16,000 records/s on partition 0 over a mean of 8,000.
    EXPECT_NEAR(m.metrics.at("broker.partition_skew"), 2.0, 0.05);

    // A step on a topic the broker does not report has no partition numbers.
    const StepServerMetrics other = korvetWindow(korvet.url(), 500ms, "payments");
    EXPECT_EQ(other.metrics.count("partitions.0.records_per_s"), 0u);
    EXPECT_EQ(other.metrics.count("broker.partition_skew"), 0u);
}

TEST(runnerCollectors, BrokerBackPressureAloneSaturatesAndAQuietKorvetDoesNot)
{
    test::KorvetRates pushing;
    pushing.backpressureAppliedPerS = 12;
    test::ServedKorvet korvet(pushing);
    const StepServerMetrics m = korvetWindow(korvet.url());
    EXPECT_EQ(m.metrics.at("storage.pool_timeouts_per_s"), 0) << "a pool that never timed out says 0";
    const std::string reason = saturationReason(RunConfig{}, step(m.metrics), nullptr);
    EXPECT_EQ(reason.rfind("broker back-pressure: applied ", 0), 0u) << reason;
    EXPECT_NEAR(numberBefore(reason, "times/s"), 12, 1.2) << reason;
    EXPECT_EQ(reason.find("held"), std::string::npos) << "none held when the window closed: " << reason;

    test::ServedKorvet quiet;
    const StepServerMetrics q = korvetWindow(quiet.url());
    EXPECT_EQ(q.metrics.at("broker.backpressure_applied_per_s"), 0);
    EXPECT_EQ(saturationReason(RunConfig{}, step(q.metrics), nullptr), "");
    // Pool timeouts with back-pressure released again: the pool alone.
    EXPECT_EQ(saturationReason(RunConfig{}, step({{"storage.pool_timeouts_per_s", 0.5}}), nullptr),
              "Redis connection pool: 0.5 acquire timeouts/s");
    // CPU at its limit still comes first: the component explains the pushback.
    EXPECT_EQ(saturationReason(RunConfig{}, step({{"shard_cpu_max", 0.95}, {"storage.pool_timeouts_per_s", 4}}), nullptr),
              "Redis shard CPU: hottest shard at 95% (limit 90%)");
}

// The generation before the "broker" segment (korvet-dist's dashboard) is still read, and found.
TEST(runnerCollectors, TheEarlierGenerationsProduceHistogramStandsInForTheDocumentedOne)
{
    MetricsServer server;
    ASSERT_EQ(server.start(0), "");
    std::atomic<bool> stop{false};
    std::thread serve([&] {
        const auto start = std::chrono::steady_clock::now();
        while (!stop) {
            const double n = 1000 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::ostringstream out;
            out.precision(17);
            out << "# TYPE korvet_produce_seconds histogram\n"
                << "korvet_produce_seconds_bucket{topic=\"t\",le=\"0.01\"} " << 0.5 * n << "\n"
                << "korvet_produce_seconds_bucket{topic=\"t\",le=\"0.1\"} " << n << "\n"
                << "korvet_produce_seconds_bucket{topic=\"t\",le=\"+Inf\"} " << n << "\n"
                << "korvet_produce_seconds_count{topic=\"t\"} " << n << "\nkorvet_produce_seconds_sum{topic=\"t\"} "
                << 0.02 * n << "\n# TYPE korvet_produce_messages_total counter\nkorvet_produce_messages_total{topic=\"t\"} "
                << 5 * n << "\n";
            server.setMetrics(out.str());
            std::this_thread::sleep_for(2ms);
        }
    });
    std::this_thread::sleep_for(20ms);
    const StepServerMetrics m = korvetWindow("http://127.0.0.1:" + std::to_string(server.port()) + "/metrics");
    stop = true;
    serve.join();
    ASSERT_EQ(m.metrics.count("broker.produce_p50_s"), 1u);
    EXPECT_NEAR(m.metrics.at("broker.produce_p50_s"), 0.01, 0.0005);
    EXPECT_NEAR(m.metrics.at("broker.produce_records_per_s"), 5000, 500);
    EXPECT_EQ(m.seriesFound, (std::vector<std::string>{"korvet_produce_seconds", "korvet_produce_messages_total"}));
    EXPECT_NE(std::find(m.seriesMissing.begin(), m.seriesMissing.end(), "korvet_broker_produce_seconds"),
              m.seriesMissing.end());
}

// An endpoint with no Korvet series at all is said to be no Korvet; a Korvet's is not.
TEST(runnerCollectors, AnEndpointWithoutKorvetSeriesIsSaidToBeNoKorvet)
{
    MetricsServer plain;
    ASSERT_EQ(plain.start(0), "");
    plain.setMetrics("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 12.5\n");
    const std::string url = "http://127.0.0.1:" + std::to_string(plain.port()) + "/metrics";
    const auto warnings = korvetEndpointWarnings({url}, 2s);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rfind("broker metrics " + url + " have no Korvet series", 0), 0u) << warnings[0];
    EXPECT_NE(warnings[0].find("not a Korvet, or a Korvet build whose metric names are not known here"),
              std::string::npos);
    test::ServedKorvet korvet;
    EXPECT_TRUE(korvetEndpointWarnings({korvet.url()}, 2s).empty());
}
} // namespace
} // namespace plimsoll
