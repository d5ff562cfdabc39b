// plimsoll bench on librdkafka's mock cluster (the embedded target, or a mock of the test's
// own where a delay must be injected), no services: the start-up is charged to no record,
// the warm-up stays out of the numbers, and an interrupted run says so instead of calling
// its in-flight records missing. The numbers describe the client, not a broker.
#include "model/core/hdrhistogram.h"
#include "runner/benchengine.h"
#include "runner/mockcluster.h"

#include <gtest/gtest.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

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

// Consumers alone pass the readiness barrier too, assigned or in a group, and read what an
// earlier run produced.
TEST(runnerBenchEmbedded, ConsumersAloneReadWhatAnEarlierRunProduced)
{
    MockCluster mock(1);
    ASSERT_TRUE(mock.ok()) << mock.error().toString();
    ASSERT_TRUE(mock.createTopic("existing", 4, 1).ok());
    RunConfig c;
    c.bootstrapServers = mock.bootstrapServers();
    c.topic = "existing";
    c.records = 5000;
    c.recordSize = 256;
    c.timeout = 10s;
    std::atomic<bool> cancel{false};
    c.workload = Workload::Producer;
    ASSERT_EQ(BenchEngine(c).run(cancel).exitCode, 0);
    c.workload = Workload::Consumer;
    for (const std::string group : {"", "plimsoll-test-readers"}) {
        c.group = group;
        const BenchResult result = BenchEngine(c).run(cancel);
        ASSERT_EQ(result.exitCode, 0) << "group '" << group << "': "
                                      << (result.errors.empty() ? "" : result.errors.front());
        const ScenarioResult &s = result.scenarios.at(0);
        EXPECT_EQ(metricOf(s, "consumer.records"), 5000) << "group '" << group << "'";
        EXPECT_GT(metricOf(s, "records_per_s"), 0);
    }
}

// On the embedded target the consumers' fetch wait is short: at librdkafka's 500 ms the mock held
// every fetch that long, and e2e p99 read ~500 ms in every run, a wait rather than a latency.
TEST(runnerBenchEmbedded, EndToEndLatencyIsNotTheFetchWait)
{
    RunConfig c;
    c.workload = Workload::Roundtrip;
    c.bootstrapServers = "embedded";
    c.rate = 1000;
    c.duration = 3s;
    c.timeout = 10s;
    std::atomic<bool> cancel{false};
    const BenchResult result = BenchEngine(c).run(cancel);
    ASSERT_EQ(result.exitCode, 0) << (result.errors.empty() ? "" : result.errors.front());
    ASSERT_EQ(result.scenarios.size(), 1u);
    const auto &m = result.scenarios[0].metrics;
    ASSERT_EQ(m.count("e2e_p99_s"), 1u);
    EXPECT_LT(m.at("e2e_p99_s"), 0.25) << "e2e p99 at 1000 records/s on the embedded target";
    EXPECT_GT(m.at("e2e_p99_s"), 0);
}

// The window's Stop and the CLI's SIGINT set the same flag: the engine's interrupted path.
TEST(runnerBenchEmbedded, InterruptedRoundTripCountsInFlightNotMissing)
{
    RunConfig c;
    c.workload = Workload::Roundtrip;
    c.bootstrapServers = "embedded";
    c.rate = 5000;
    c.duration = 30s;
    c.timeout = 10s;
    std::atomic<bool> cancel{false};
    BenchEngine engine(c);
    engine.setSnapshotSink([&](const BenchSnapshot &) { cancel = true; }); // stop after the first interval
    const auto started = std::chrono::steady_clock::now();
    const BenchResult result = engine.run(cancel);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 15s);
    EXPECT_TRUE(result.interrupted);
    EXPECT_TRUE(result.partial);
    EXPECT_EQ(result.status(), "interrupted");
    EXPECT_EQ(result.exitCode, kExitInterrupted);
    EXPECT_TRUE(result.errors.empty()) << result.errors.front();
    ASSERT_EQ(result.scenarios.size(), 1u);
    const auto &m = result.scenarios[0].metrics;
    EXPECT_EQ(m.count("roundtrip.missing"), 0u) << "in-flight records were called missing";
    ASSERT_EQ(m.count("roundtrip.in_flight"), 1u);
    EXPECT_EQ(static_cast<int64_t>(m.at("roundtrip.in_flight")), result.inFlightUnconsumed);
    // Every acknowledged record was either consumed or is still in flight.
    EXPECT_EQ(m.at("roundtrip.acknowledged"),
              m.at("roundtrip.matched") - m.at("roundtrip.unacknowledged_consumed") + m.at("roundtrip.in_flight"));
    const nlohmann::json doc = result.toJson();
    EXPECT_EQ(doc["status"], "interrupted");
    EXPECT_EQ(doc["in_flight"]["acknowledged_not_consumed"], result.inFlightUnconsumed);
    const std::string text = result.toText();
    EXPECT_NE(text.find("result: INTERRUPTED (partial result kept)"), std::string::npos) << text;
    EXPECT_EQ(text.find("missing"), std::string::npos) << text;
}

struct Interrupted
{
    int exitCode = -1;
    std::string out, err;
};

// Starts the real binary on the embedded target, waits for its first live interval, sends
// SIGINT, and collects what it printed.
Interrupted interruptBinary(const QStringList &extra, bool intervalsOnStdout)
{
    QProcess p;
    QStringList args = {"bench", "--embedded", "--rate", "3000", "--duration", "60s", "--no-store"};
    args += extra;
    p.start(PLIMSOLL_BINARY, args);
    EXPECT_TRUE(p.waitForStarted(10000));
    std::string seen;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    const std::string marker = intervalsOnStdout ? "\"type\":\"interval\"" : "measure";
    while (seen.find(marker) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
        p.waitForReadyRead(200);
        seen += (intervalsOnStdout ? p.readAllStandardOutput() : p.readAllStandardError()).toStdString();
    }
    EXPECT_NE(seen.find(marker), std::string::npos) << "no live interval within a minute";
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    EXPECT_TRUE(p.waitForFinished(30000)) << "still running 30 s after SIGINT";
    Interrupted r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = (intervalsOnStdout ? seen : std::string()) + p.readAllStandardOutput().toStdString();
    r.err = (intervalsOnStdout ? std::string() : seen) + p.readAllStandardError().toStdString();
    return r;
}

TEST(runnerBenchEmbedded, SigintOnTheBinarySaysInterruptedInTextAndResultFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString resultFile = dir.filePath("result.json");
    const Interrupted r = interruptBinary({"--output", "text", "--result-file", resultFile}, false);
    EXPECT_EQ(r.exitCode, kExitInterrupted) << r.err << r.out;
    EXPECT_NE(r.out.find("result: INTERRUPTED (partial result kept)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the result is partial"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("acknowledged, not consumed"), std::string::npos) << r.out;
    EXPECT_EQ((r.out + r.err).find("missing after draining"), std::string::npos) << r.out << r.err;
    EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out;

    std::ifstream in(resultFile.toStdString());
    ASSERT_TRUE(in.good()) << "no result file after SIGINT";
    const auto doc = nlohmann::json::parse(in);
    EXPECT_EQ(doc["status"], "interrupted");
    EXPECT_EQ(doc["partial"], true);
    EXPECT_EQ(doc["interrupted"], true);
    EXPECT_EQ(doc["exit_code"], kExitInterrupted);
    EXPECT_TRUE(doc["in_flight"].contains("sent_not_acknowledged"));
    EXPECT_TRUE(doc["in_flight"].contains("acknowledged_not_consumed"));
    EXPECT_TRUE(doc["errors"].empty()) << doc["errors"].dump();
    ASSERT_FALSE(doc["scenarios"].empty()) << "the partial result was not kept";
    EXPECT_GT(doc["scenarios"][0]["metrics"]["roundtrip.matched"].get<double>(), 0);
}

TEST(runnerBenchEmbedded, SigintOnTheBinarySaysInterruptedInJson)
{
    const Interrupted r = interruptBinary({"--output", "jsonl"}, true);
    EXPECT_EQ(r.exitCode, kExitInterrupted) << r.err;
    const auto lastLine = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
    const auto doc = nlohmann::json::parse(lastLine, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["type"], "result");
    EXPECT_EQ(doc["status"], "interrupted");
    EXPECT_EQ(doc["partial"], true);
    EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
    EXPECT_EQ((r.out + r.err).find("missing after draining"), std::string::npos) << r.err;
}

// A second interrupt quits at once: its own exit code (3, not 130, which says a partial result
// was kept), a message saying nothing was kept, and indeed no result file and no stored run.
TEST(runnerBenchEmbedded, SecondSigintQuitsWithItsOwnCodeAndKeepsNothing)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString resultFile = dir.filePath("result.json");
    const QString db = dir.filePath("store.db");
    QProcess p;
    p.start(PLIMSOLL_BINARY, {"--db", db, "bench", "--embedded", "--rate", "3000", "--duration", "60s",
                              "--output", "text", "--result-file", resultFile});
    ASSERT_TRUE(p.waitForStarted(10000));
    std::string err;
    auto waitFor = [&](const std::string &marker) {
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        while (err.find(marker) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
            p.waitForReadyRead(20);
            err += p.readAllStandardError().toStdString();
        }
        return err.find(marker) != std::string::npos;
    };
    ASSERT_TRUE(waitFor("measure")) << "no live interval within a minute: " << err;
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    // The first interrupt's notice says its handler ran; the stop it starts takes a bounded flush.
    ASSERT_TRUE(waitFor("interrupt again to quit at once")) << err;
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    ASSERT_TRUE(p.waitForFinished(30000));
    err += p.readAllStandardError().toStdString();
    ASSERT_EQ(p.exitStatus(), QProcess::NormalExit) << err;
    EXPECT_EQ(p.exitCode(), 3) << err;
    EXPECT_NE(err.find("quitting at once; nothing was kept"), std::string::npos) << err;
    EXPECT_FALSE(QFile::exists(resultFile)) << "a result file after quitting at once";
    QProcess runs;
    runs.start(PLIMSOLL_BINARY, {"--db", db, "runs", "--json"});
    ASSERT_TRUE(runs.waitForFinished(30000));
    const std::string listed = runs.readAllStandardOutput().toStdString();
    EXPECT_EQ(listed.find("run_key"), std::string::npos) << listed;
}

} // namespace
} // namespace plimsoll
