// plimsoll bench on librdkafka's mock cluster (the embedded target, or a mock of the test's
// own where a delay must be injected), no services: the start-up is charged to no record and
// the warm-up stays out of the numbers. The numbers describe the client, not a broker.
#include "model/hdrhistogram.h"
#include "runner/benchengine.h"
#include "runner/mockcluster.h"

#include <gtest/gtest.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <QByteArray>

#include <thread>


using namespace std::chrono_literals;

namespace plimsoll {
namespace {

double metricOf(const ScenarioResult &s, const std::string &name)
{
    const auto it = s.metrics.find(name);
    EXPECT_NE(it, s.metrics.end()) << "no metric " << name;
    return it == s.metrics.end() ? -1 : it->second;
}

int64_t histogramCount(const ScenarioResult &s, const std::string &name)
{
    const auto it = s.histograms.find(name);
    if (it == s.histograms.end())
        return -1;
    const QByteArray bytes = QByteArray::fromBase64(QByteArray::fromStdString(it->second));
    std::string error;
    const auto h = HdrHistogram::decode(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())), &error);
    EXPECT_TRUE(h) << error;
    return h ? h->totalCount() : -1;
}

// Every response of the mock's broker comes 250 ms late, so connecting and reading the
// topic's leaders take several round trips before a record can go out. Were the send
// schedule started before that, the first records would be charged the whole start-up
// (3 round trips or more) and the p99 of a 3 s run would show it; started after readiness,
// a record waits one round trip for its acknowledgement.
TEST(runnerBenchEmbedded, SlowStartUpIsChargedToNoRecord)
{
    constexpr int kRttMs = 250;
    MockCluster mock(1);
    ASSERT_TRUE(mock.ok()) << mock.error().toString();
    ASSERT_TRUE(mock.createTopic("slow-start", 2, 1).ok());
    rd_kafka_mock_broker_set_rtt(mock.handle(), 1, kRttMs);
    RunConfig c;
    c.workload = Workload::Producer;
    c.bootstrapServers = mock.bootstrapServers();
    c.topic = "slow-start";
    c.rate = 1000;
    c.duration = 3s;
    c.timeout = 10s;
    std::atomic<bool> cancel{false};
    const BenchResult result = BenchEngine(c).run(cancel);
    ASSERT_EQ(result.exitCode, 0) << (result.errors.empty() ? "" : result.errors.front());
    ASSERT_EQ(result.scenarios.size(), 1u);
    const ScenarioResult &s = result.scenarios[0];
    const double rtt = kRttMs / 1e3;
    // Readiness waited for the cluster: at least the metadata's round trip.
    EXPECT_GE(metricOf(s, "clients.startup_s"), rtt);
    // One round trip, linger and the machine's noise; the start-up (>= 2 more round trips
    // before the first produce request) would put it at 3 × RTT.
    EXPECT_LT(metricOf(s, "latency_p99_s"), 2 * rtt);
    EXPECT_GE(metricOf(s, "latency_p50_s"), rtt * 0.9) << "the injected delay did not apply";
    EXPECT_NEAR(metricOf(s, "producer.acknowledged"), 3000, 30);
}

// The warm-up's records flow and are shown live, but the result's rates and histograms hold
// only the records scheduled after it, and no interval mixes the two.
TEST(runnerBenchEmbedded, WarmupIsLeftOutOfTheNumbers)
{
    RunConfig c;
    c.workload = Workload::Producer;
    c.bootstrapServers = "embedded";
    c.rate = 1000;
    c.warmup = 1500ms; // not a multiple of the interval: an interval would straddle its end
    c.duration = 2s;
    c.timeout = 10s;
    std::atomic<bool> cancel{false};
    const BenchResult result = BenchEngine(c).run(cancel);
    ASSERT_EQ(result.exitCode, 0) << (result.errors.empty() ? "" : result.errors.front());
    ASSERT_EQ(result.scenarios.size(), 1u);
    const ScenarioResult &s = result.scenarios[0];

    const double measuredS = metricOf(s, "producer.measured_s");
    const int64_t measured = std::llround(metricOf(s, "records_per_s") * measuredS);
    EXPECT_NEAR(static_cast<double>(measured), 2000, 60);
    // The histogram holds the measured records, not the warm-up's 1500.
    EXPECT_NEAR(static_cast<double>(histogramCount(s, "ack_us")), static_cast<double>(measured), 2);
    EXPECT_NEAR(metricOf(s, "producer.acknowledged") - static_cast<double>(measured), 1500, 60);

    int warmupIntervals = 0;
    double warmupS = 0;
    bool firstMeasured = true;
    for (const BenchSnapshot &i : result.intervals) {
        if (i.phase == "warmup") {
            ++warmupIntervals;
            warmupS += i.intervalS;
            EXPECT_GT(i.producedPerS, 500) << "a warm-up interval at " << i.elapsedS << " s shows no records";
        } else if (i.phase == "measure") {
            // Were the warm-up's end inside it, its measured rate would be a fraction of the
            // offered 1000/s (0/s when the end fell just before it closed).
            if (firstMeasured) {
                EXPECT_GT(i.producedPerS, 800) << "first measured interval at " << i.elapsedS << " s";
            }
            firstMeasured = false;
        }
    }
    EXPECT_EQ(warmupIntervals, 2); // 1 s and 0.5 s: the last warm-up interval ends with it
    EXPECT_NEAR(warmupS, 1.5, 0.05);
    EXPECT_FALSE(firstMeasured) << "no measured interval";
}

// Repeated short embedded round trips at a fixed rate: after the warm-up no interval reports
// 0 records/s, and the p99 stays far below the one-second start-up stall that the first
// records used to be charged (at 2000 records/s the mock acknowledges within a few ms).
TEST(runnerBenchEmbedded, RepeatedRateLimitedRunsHaveNoStartUpStall)
{
    for (int run = 0; run < 4; ++run) {
        RunConfig c;
        c.workload = Workload::Roundtrip;
        c.bootstrapServers = "embedded";
        c.rate = 2000;
        c.duration = 2s;
        c.timeout = 10s;
        std::atomic<bool> cancel{false};
        const BenchResult result = BenchEngine(c).run(cancel);
        ASSERT_EQ(result.exitCode, 0) << (result.errors.empty() ? "" : result.errors.front());
        for (const BenchSnapshot &i : result.intervals) {
            if (i.phase == "measure" && i.intervalS > 0.5) {
                EXPECT_GT(i.producedPerS, 1000) << "run " << run << ", interval at " << i.elapsedS << " s";
            }
        }
        EXPECT_LT(metricOf(result.scenarios.at(0), "latency_p99_s"), 0.5) << "run " << run;
    }
}

} // namespace
} // namespace plimsoll
