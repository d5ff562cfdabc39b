// The consume ramp (bench ramp --ramp consumers) against the real broker of tests/services:
// a backlog preloaded once, steps of 1, 2 and 4 consumers in a group of their own each reading
// all of it, a backlog too small for the warm-up ending the ramp, an existing topic read from
// its beginning, and the command as the manual (docs/benchmarks.md) shows it.
#include "runner/benchengine.h"
#include "runner/metricsserver.h"
#include "benchtestsupport.h"
#include "servicesenv.h"

#include <atomic>

#include <thread>

#include <sstream>

#include <algorithm>

#include <gtest/gtest.h>

#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cstdio>

using namespace std::chrono_literals;

namespace plimsoll {
namespace {

using test::metricOf;

std::string uniqueTopic(const std::string &purpose) { return test::uniqueTopic("plimsoll-test-consume", purpose); }

std::vector<const ScenarioResult *> stepsOf(const BenchResult &r)
{
    std::vector<const ScenarioResult *> steps;
    for (const auto &s : r.scenarios)
        if (s.kind == "ramp-step")
            steps.push_back(&s);
    return steps;
}

class ConsumeRamp : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(test::ServicesEnv::load(m_env));
        m_bootstrap = m_env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP");
        ASSERT_FALSE(m_bootstrap.empty());
        ASSERT_TRUE(m_dir.isValid());
    }
    RunConfig config(const std::string &purpose) const
    {
        RunConfig c = test::brokerRun(Workload::Ramp, m_bootstrap, uniqueTopic(purpose));
        c.rampKind = RampKind::Consumers;
        c.recordSize = 512;
        c.interval = 500ms;
        return c;
    }

    test::ServicesEnv m_env;
    std::string m_bootstrap;
    QTemporaryDir m_dir;
    std::atomic<bool> m_cancel{false};
};

TEST_F(ConsumeRamp, OneTwoFourConsumersEachReadTheWholePreloadedBacklog)
{
    RunConfig c = config("ramp");
    c.backlog = 150000;
    c.steps = {1, 2, 4};
    c.warmup = 100ms;
    c.duration = 30s; // the window's bound; each step ends when its group has read the backlog
    c.continuePastSaturation = true; // three steps whatever a loaded 2-core machine shows
    c.userTuning = {{"icebergReadThreads", "8"}};
    const BenchResult result = BenchEngine(c).run(m_cancel);

    ASSERT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
    const auto steps = stepsOf(result);
    ASSERT_EQ(steps.size(), 3u);
    const int consumers[] = {1, 2, 4};
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const ScenarioResult &s = *steps[i];
        EXPECT_EQ(s.name, "pipeline/consume/step-" + std::to_string(consumers[i]));
        EXPECT_EQ(s.topology.consumers.value_or(-1), consumers[i]);
        EXPECT_EQ(s.topology.brokers.value_or(-1), 1) << "the test cluster's one broker, from its metadata";
        // Exactly the backlog: a rebalance as members join hands partitions over at their
        // committed offsets, neither re-reading nor skipping a record.
        EXPECT_EQ(metricOf(s, "consumer.records"), 150000) << s.name;
        EXPECT_EQ(metricOf(s, "consumer.distinct_records"), 150000) << s.name;
        EXPECT_EQ(metricOf(s, "consumer.duplicates"), 0) << s.name;
        EXPECT_EQ(metricOf(s, "consumer.invalid"), 0) << s.name;
        EXPECT_EQ(metricOf(s, "errors"), 0) << s.name;
        EXPECT_GT(metricOf(s, "consumer.lag_start"), 0) << s.name;
        EXPECT_EQ(metricOf(s, "consumer.lag_end"), 0) << s.name; // the lag falls to zero
        EXPECT_LT(metricOf(s, "consumer.lag_slope_per_s"), 0) << s.name;
        EXPECT_GT(metricOf(s, "records_per_s"), 1000) << s.name;
        EXPECT_NEAR(metricOf(s, "bytes_per_s") / metricOf(s, "records_per_s"), 512, 1) << s.name;
        EXPECT_GT(metricOf(s, "consumer.rebalance_s"), 0) << s.name;
        EXPECT_LT(metricOf(s, "consumer.rebalance_s"), 20) << s.name;
        EXPECT_GT(metricOf(s, "e2e_p99_s"), 0) << s.name << ": the probe's e2e p99 is the step's headline";
        EXPECT_EQ(metricOf(s, "ramp.backlog_exhausted"), -1) << s.name;
        EXPECT_GT(metricOf(s, "backlog.preload_records_per_s"), 0) << s.name;
        std::printf("%s: %.0f records/s, %.1f MiB/s, lag %.0f -> %.0f (slope %.0f/s), rebalance %.3f s, "
                    "fetch p99 %.1f ms, e2e p99 %.1f ms, read in %.2f s, bottleneck: %s\n",
                    s.name.c_str(), metricOf(s, "records_per_s"), metricOf(s, "bytes_per_s") / 1048576,
                    metricOf(s, "consumer.lag_start"), metricOf(s, "consumer.lag_end"),
                    metricOf(s, "consumer.lag_slope_per_s"), metricOf(s, "consumer.rebalance_s"),
                    metricOf(s, "consumer.fetch_p99_s") * 1e3, metricOf(s, "e2e_p99_s") * 1e3,
                    metricOf(s, "consumer.backlog_read_s"), s.bottleneck.c_str());
    }
    EXPECT_EQ(result.tuning.at("ramp"), "consumers");
    EXPECT_EQ(result.tuning.at("backlog"), "150000");
    EXPECT_EQ(result.tuning.at("icebergReadThreads"), "8");
    EXPECT_EQ(result.config["ramp"], "consumers");
}

TEST_F(ConsumeRamp, BacklogTooSmallForTheWarmupEndsTheRampAsExhaustedNotSaturated)
{
    RunConfig c = config("small");
    c.backlog = 2000;
    c.steps = {1, 2, 4};
    c.warmup = 3s;
    c.duration = 2s;
    const BenchResult result = BenchEngine(c).run(m_cancel);

    ASSERT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
    const auto steps = stepsOf(result);
    ASSERT_EQ(steps.size(), 1u) << "the ramp goes on past an exhausted backlog";
    const ScenarioResult &s = *steps.front();
    EXPECT_EQ(metricOf(s, "ramp.backlog_exhausted"), 1);
    EXPECT_EQ(metricOf(s, "consumer.records"), 2000);
    EXPECT_FALSE(s.saturated);
    EXPECT_EQ(s.bottleneck, "none");
    bool told = false;
    for (const auto &w : result.warnings)
        told |= w.find("the ramp ended at pipeline/consume/step-1: backlog exhausted") != std::string::npos;
    EXPECT_TRUE(told) << "no backlog-exhausted notice among the warnings";
}

TEST_F(ConsumeRamp, FetchP99OverItsLimitSaturatesTheStep)
{
    RunConfig c = config("fetch");
    c.backlog = 30000;
    c.steps = {1, 2};
    c.duration = 20s;
    // A small local queue keeps the consumer fetching as it reads, so the statistics intervals
    // end with records still on the broker and the fetch latency is measured.
    c.clientConfig = {{"queued.min.messages", "1000"}, {"queued.max.messages.kbytes", "1024"}};
    c.fetchP99Limit = std::chrono::microseconds(1);
    const BenchResult result = BenchEngine(c).run(m_cancel);

    ASSERT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
    const auto steps = stepsOf(result);
    ASSERT_EQ(steps.size(), 1u) << "a saturated step ends the ramp";
    const ScenarioResult &s = *steps.front();
    EXPECT_GT(metricOf(s, "consumer.fetch_p99_s"), 0);
    EXPECT_GE(metricOf(s, "consumer.fetch_p99_s"), metricOf(s, "consumer.fetch_p50_s"));
    EXPECT_TRUE(s.saturated);
    EXPECT_EQ(s.bottleneck.rfind("fetch p99 ", 0), 0u) << s.bottleneck;
    EXPECT_NE(s.bottleneck.find("over the 0.001 ms limit"), std::string::npos) << s.bottleneck;
    EXPECT_EQ(metricOf(s, "consumer.records"), 30000);
    std::printf("%s: %.0f records/s, fetch p50 %.2f ms, p99 %.2f ms: %s\n", s.name.c_str(),
                metricOf(s, "records_per_s"), metricOf(s, "consumer.fetch_p50_s") * 1e3,
                metricOf(s, "consumer.fetch_p99_s") * 1e3, s.bottleneck.c_str());
}

TEST_F(ConsumeRamp, ExistingTopicIsReadFromItsBeginningWithoutAPreload)
{
    RunConfig producer;
    producer.workload = Workload::Producer;
    producer.bootstrapServers = m_bootstrap;
    producer.topic = uniqueTopic("existing");
    producer.createTopic = true;
    producer.partitions = 3;
    producer.records = 30000;
    producer.recordSize = 256;
    ASSERT_TRUE(BenchEngine(producer).run(m_cancel).ok());

    RunConfig c = config("unused");
    c.topic = producer.topic;
    c.createTopic = false;
    c.steps = {1, 2};
    c.duration = 20s;
    c.continuePastSaturation = true;
    c.rampProbe = false;
    const BenchResult result = BenchEngine(c).run(m_cancel);
    ASSERT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
    const auto steps = stepsOf(result);
    ASSERT_EQ(steps.size(), 2u);
    for (const ScenarioResult *s : steps) {
        EXPECT_EQ(metricOf(*s, "consumer.records"), 30000) << s->name;
        EXPECT_EQ(metricOf(*s, "consumer.distinct_records"), 30000) << s->name;
        EXPECT_EQ(metricOf(*s, "consumer.lag_end"), 0) << s->name;
        EXPECT_EQ(s->topology.partitions.value_or(-1), 3) << s->name << ": the topic's partitions, not --partitions";
        EXPECT_EQ(metricOf(*s, "backlog.preload_records_per_s"), -1) << s->name;
    }
    EXPECT_EQ(result.tuning.at("backlog"), "topic from beginning");
}

// The manual's command, through the binary: stored as pipeline/consume/step-N, and `fit`
// reads the stored ramp with consumers as the load factor.
TEST_F(ConsumeRamp, ReadmeCommandStoresStepsThatFitReadsWithConsumersAsTheFactor)
{
    const QString db = m_dir.filePath("store.db");
    QProcess bench;
    bench.start(PLIMSOLL_BINARY, {"--db", db, "bench", "ramp", "--ramp", "consumers", "--steps", "1,2,4", "--backlog",
                                  "100000", "--record-size", "256", "--partitions", "4", "--warmup", "100ms",
                                  "--duration", "30s", "--continue-past-saturation", "--bootstrap-server",
                                  QString::fromStdString(m_bootstrap), "--output", "json"});
    ASSERT_TRUE(bench.waitForFinished(170000));
    ASSERT_EQ(bench.exitCode(), 0) << bench.readAllStandardError().toStdString();
    const auto result = nlohmann::json::parse(bench.readAllStandardOutput().toStdString());
    ASSERT_EQ(result["scenarios"].size(), 3u) << result.dump(1);
    EXPECT_EQ(result["scenarios"][2]["name"], "pipeline/consume/step-4");
    EXPECT_EQ(result["scenarios"][2]["metrics"]["consumer.records"], 100000);

    QProcess fit;
    fit.start(PLIMSOLL_BINARY, {"--db", db, "fit", "--scenarios", "pipeline/consume/", "--x", "consumers", "--json"});
    ASSERT_TRUE(fit.waitForFinished(60000));
    const std::string out = fit.readAllStandardOutput().toStdString();
    ASSERT_EQ(fit.exitCode(), 0) << out << fit.readAllStandardError().toStdString();
    const auto fitted = nlohmann::json::parse(out);
    std::printf("fit: %s\n", fitted.dump().substr(0, 600).c_str());
    const auto &model = fitted.is_array() ? fitted[0] : fitted;
    EXPECT_EQ(model["x_factor"], "consumers");
    EXPECT_EQ(model["points"], 3);
}


// A Korvet broker's /metrics as a tiered read would show it, scripted in time: messages read
// from the remote tier at `remotePerS`, S3 GETs at a flat 100/s, and fetch deliveries (100/s)
// whose latency grows with time, 20 ms × (1 + t): later steps see a higher p99.
class ScriptedKorvet
{
public:
    explicit ScriptedKorvet(double remotePerS) : m_remotePerS(remotePerS)
    {
        EXPECT_EQ(m_server.start(0), "");
        m_thread = std::thread([this] {
            const auto start = std::chrono::steady_clock::now();
            while (!m_stop) {
                m_server.setMetrics(text(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
                std::this_thread::sleep_for(5ms);
            }
        });
        std::this_thread::sleep_for(20ms);
    }
    ~ScriptedKorvet()
    {
        m_stop = true;
        m_thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_server.port()) + "/metrics"; }

private:
    std::string text(double t) const
    {
        std::ostringstream out;
        out.precision(17);
        out << "# TYPE korvet_broker_fetch_delivery_seconds histogram\n";
        // Buckets 10 ms apart up to 4 s: each window's p99 is read to 10 ms, whatever the
        // machine's pace puts the steps at.
        for (int k = 1; k <= 400; ++k) {
            const double le = 0.01 * k;
            // The observation at time u took 0.02 (1 + u): within `le` while u <= le / 0.02 - 1.
            const double within = std::clamp(le / 0.02 - 1, 0.0, t);
            out << "korvet_broker_fetch_delivery_seconds_bucket{le=\"" << le << "\"} " << 100 * within << "\n";
        }
        out << "korvet_broker_fetch_delivery_seconds_bucket{le=\"+Inf\"} " << 100 * t << "\n"
            << "korvet_broker_fetch_delivery_seconds_count " << 100 * t << "\n"
            << "korvet_broker_fetch_delivery_seconds_sum " << 2 * t + t * t << "\n"
            << "# TYPE korvet_storage_read_messages summary\n"
            << "korvet_storage_read_messages_count{tier=\"remote\"} " << m_remotePerS * t / 10 << "\n"
            << "korvet_storage_read_messages_sum{tier=\"remote\"} " << m_remotePerS * t << "\n"
            << "# TYPE korvet_s3_get_requests_total counter\n"
            << "korvet_s3_get_requests_total " << 100 * t << "\n";
        return out.str();
    }

    double m_remotePerS;
    MetricsServer m_server;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

// A tiered window the archive served nothing ends the ramp with that reason.
TEST_F(ConsumeRamp, TieredWindowWithoutRemoteReadsEndsTheRamp)
{
    ScriptedKorvet korvet(0);
    RunConfig c = config("tiered-none");
    c.tiered = true;
    c.brokerMetricsUrls = {korvet.url()};
    c.fetchP99Limit = 5s;
    // A backlog the group cannot read within the warm-up, so the window has reads to check.
    c.backlog = 200000;
    c.steps = {1, 2};
    c.warmup = 20ms;
    c.duration = 2s;
    const BenchResult result = BenchEngine(c).run(m_cancel);

    EXPECT_FALSE(result.ok());
    const auto steps = stepsOf(result);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0]->name, "pipeline/consume-tiered/step-1");
    bool told = false;
    for (const auto &e : result.errors)
        told |= e.find("its window served no remote reads") != std::string::npos;
    EXPECT_TRUE(told) << (result.errors.empty() ? "no error" : result.errors.front());
    EXPECT_EQ(result.tuning.at("tiered"), "yes");
}

// Each tiered step measures what the page's attribution reads: the remote reads its window was
// served, the S3 GET rate named by --s3-get-metric and the broker's fetch delivery p99
// (runnerCollectors.TieredStepsAttributeFlatS3GetsToTheRemoteReadConcurrency applies the rule).
TEST_F(ConsumeRamp, TieredStepsMeasureRemoteReadsS3GetsAndFetchDelivery)
{
    ScriptedKorvet korvet(50);
    RunConfig c = config("tiered-measures");
    c.tiered = true;
    c.brokerMetricsUrls = {korvet.url()};
    c.s3GetMetric = "korvet_s3_get_requests_total";
    c.fetchP99Limit = 5s;
    c.backlog = 300000;
    c.steps = {1, 2};
    c.warmup = 20ms;
    c.duration = 2s;
    c.continuePastSaturation = true;
    const BenchResult result = BenchEngine(c).run(m_cancel);

    ASSERT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
    const auto steps = stepsOf(result);
    ASSERT_GE(steps.size(), 1u);
    for (const ScenarioResult *s : steps) {
        EXPECT_EQ(s->name.rfind("pipeline/consume-tiered/step-", 0), 0u) << s->name;
        EXPECT_GT(metricOf(*s, "broker.remote_read_messages"), 0) << s->name;
        EXPECT_NEAR(metricOf(*s, "broker.s3_get_per_s"), 100, 15) << s->name;
        EXPECT_GT(metricOf(*s, "broker.fetch_delivery_p99_s"), 0.02) << s->name;
    }
}
} // namespace
} // namespace plimsoll
