// plimsoll bench against the real broker and redis-server of tests/services, where the numbers
// must hold under what goes wrong: a ramp with its collectors, records that are not this run's
// (or are this run's twice), the broker frozen mid-run, and a fixed rate held to its target.
//
// The broker is shared with the other integration tests and is never killed here: the pause
// test stops it with SIGSTOP for three seconds and always resumes it (a guard sends SIGCONT
// even when an assertion fails). "Broker killed mid-run" kills a broker of its own, started
// by tests/services/kafka.sh into a state directory of the test (~10 s with the jars cached).
#include "runner/benchengine.h"
#include "runner/envelope.h"
#include "runner/kafkaclient.h"
#include "benchtestsupport.h"
#include "servicesenv.h"
#include "servedkorvet.h"

#include "model/sizing/placementrequest.h"
#include "model/sizing/sizingmodels.h"
#include "runner/benchstore.h"
#include <plimsoll/version.h>

#include <gtest/gtest.h>

#include <algorithm>

#include <QProcess>
#include <QTemporaryDir>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <future>
#include <mutex>
#include <random>
#include <regex>
#include <thread>

using namespace std::chrono_literals;

namespace plimsoll {
namespace {

using test::metricOf;

std::string uniqueTopic(const std::string &purpose) { return test::uniqueTopic("plimsoll-test-faults", purpose); }

// A port nothing listens on right now, for the second bench's --metrics-port.
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address);
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

// The second bench serves an empty /metrics until its first interval ends: wait for the page
// to carry the CPU counter, or step 1 would begin with nothing to diff against.
bool metricsReady(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    std::string response;
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0) {
        const std::string request = "GET /metrics HTTP/1.0\r\n\r\n";
        (void)!::send(fd, request.data(), request.size(), 0);
        char buffer[4096];
        for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
            response.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return response.find("\nprocess_cpu_seconds_total ") != std::string::npos;
}

class BenchFaults : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(test::ServicesEnv::load(m_env));
        m_bootstrap = m_env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP");
        ASSERT_FALSE(m_bootstrap.empty());
        ASSERT_TRUE(m_dir.isValid());
    }
    RunConfig config(Workload workload, const std::string &purpose) const
    {
        return test::brokerRun(workload, m_bootstrap, uniqueTopic(purpose));
    }

    test::ServicesEnv m_env;
    std::string m_bootstrap;
    QTemporaryDir m_dir;
    std::atomic<bool> m_cancel{false};
};

TEST_F(BenchFaults, RampOfThreeStepsWithRedisAndPrometheusCollectors)
{
    // The Prometheus endpoint: a second bench, producing at a steady rate in its own process,
    // serves process_cpu_seconds_total on --metrics-port, as a broker's /metrics would.
    const int port = freePort();
    QProcess second;
    second.start(PLIMSOLL_BINARY,
                 {"--db", m_dir.filePath("second.db"), "bench", "producer", "--bootstrap-server",
                  QString::fromStdString(m_bootstrap), "--topic", QString::fromStdString(uniqueTopic("metrics")),
                  "--create-topic", "--partitions", "1", "--rate", "3000", "--duration", "60s", "--record-size",
                  "256", "--metrics-port", QString::number(port), "--no-store", "--output", "json"});
    ASSERT_TRUE(second.waitForStarted(10000));
    const auto until = std::chrono::steady_clock::now() + 60s;
    while (!metricsReady(port) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(100ms);
    ASSERT_TRUE(metricsReady(port)) << "the second bench never served its CPU on :" << port;

    RunConfig c = config(Workload::Ramp, "ramp");
    c.stepByRate = true;
    c.steps = {300, 600, 900};
    c.duration = 3s;
    c.warmup = 500ms;
    c.recordSize = 512;
    c.continuePastSaturation = true; // three steps whatever a loaded 2-core machine shows
    c.redisShards = {m_env.value("PLIMSOLL_TEST_REDIS_HOST") + ":" + m_env.value("PLIMSOLL_TEST_REDIS_PORT")};
    c.brokerMetricsUrls = {"http://127.0.0.1:" + std::to_string(port) + "/metrics"};
    BenchEngine engine(c);
    const BenchResult result = engine.run(m_cancel);
    second.terminate(); // SIGTERM: the bench stops and exits on its own
    second.waitForFinished(30000);

    EXPECT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
    for (const auto &w : result.warnings)
        EXPECT_EQ(w.find("collectors"), std::string::npos) << w;
    std::vector<const ScenarioResult *> steps;
    for (const auto &s : result.scenarios)
        if (s.kind == "ramp-step")
            steps.push_back(&s);
    ASSERT_EQ(steps.size(), 3u);
    for (const ScenarioResult *s : steps) {
        // The test redis-server idles at a few percent of a core; INFO itself costs little.
        const double shard = metricOf(*s, "shard_cpu_max");
        EXPECT_GE(shard, 0) << s->name;
        EXPECT_LT(shard, 0.9) << s->name;
        // A bench producing 3000 records/s spends real CPU: more than nothing, and as a
        // fraction of one core (no system_cpu_count on a bench's page) under two cores.
        const double broker = metricOf(*s, "broker_cpu_avg");
        EXPECT_GT(broker, 0.001) << s->name;
        EXPECT_LT(broker, 2.0) << s->name;
        // The window is the measured part of the step: 3 s, not the 3.5 s with warm-up.
        EXPECT_NEAR(metricOf(*s, "collectors.window_s"), 3.0, 0.6) << s->name;
        EXPECT_FALSE(s->bottleneck.empty()) << s->name;
        // The counts a capacity per unit divides by: the test cluster's one broker, from its
        // metadata, and the one Redis shard the collectors read.
        EXPECT_EQ(s->topology.brokers.value_or(-1), 1) << s->name;
        EXPECT_EQ(s->topology.shards.value_or(-1), 1) << s->name;
        std::printf("%s: %.0f records/s, shard_cpu_max %.3f, broker_cpu_avg %.3f, window %.2f s, bottleneck: %s\n",
                    s->name.c_str(), metricOf(*s, "records_per_s"), shard, broker,
                    metricOf(*s, "collectors.window_s"), s->bottleneck.c_str());
    }
    // So a ramp Plimsoll ran sizes by itself: a capacity per broker and per shard from its steps.
    const SizingModels models = fitSizingModels({result.toRunRecord(kVersion)});
    EXPECT_TRUE(models.broker.ok) << models.broker.error;
    EXPECT_TRUE(models.shard.ok) << models.shard.error;
    EXPECT_GT(models.broker.capacityPerUnit, 0);
}

// A ramp against the real broker whose --broker-metrics is a Korvet's served page (Korvet
// cannot run here): its Redis connection pool times out 4 times a second with 7 waiters, so the
// first step is saturated by it, named, and the ramp stops there; the step lists the series the
// page lacked. A page with no Korvet series at all is said once, at the start, to be no Korvet.
TEST_F(BenchFaults, RampAgainstAKorvetPageStopsOnPoolTimeoutsAndNamesThem)
{
    test::KorvetRates rates;
    rates.poolTimeoutsPerS = 4;
    rates.poolPending = 7;
    test::ServedKorvet korvet(rates);
    RunConfig c = config(Workload::Ramp, "korvet-pool");
    c.stepByRate = true;
    c.steps = {300, 600};
    c.duration = 2s;
    c.warmup = 300ms;
    c.recordSize = 256;
    c.brokerMetricsUrls = {korvet.url()};
    const BenchResult result = BenchEngine(c).run(m_cancel);
    EXPECT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
    ASSERT_EQ(result.scenarios.size(), 1u) << "the ramp stops at the saturated step";
    const ScenarioResult &step = result.scenarios.front();
    EXPECT_TRUE(step.saturated);
    std::printf("%s: %s\n", step.name.c_str(), step.bottleneck.c_str());
    const std::regex reason(R"(Redis connection pool: ([0-9.]+) acquire timeouts/s \(7 waiters at the window's end\))");
    std::smatch m;
    ASSERT_TRUE(std::regex_match(step.bottleneck, m, reason)) << step.bottleneck;
    EXPECT_NEAR(std::stod(m[1]), 4, 0.5);
    EXPECT_EQ(step.seriesMissing, (std::vector<std::string>{"korvet_broker_fetch_delivery_seconds",
                                                            "korvet_broker_fetch_empty_total",
                                                            "korvet_storage_ack_seconds"}));
    EXPECT_NE(result.toJson().dump().find("\"korvet_series\""), std::string::npos);
    for (const auto &w : result.warnings)
        EXPECT_EQ(w.find("no Korvet series"), std::string::npos) << w;

    MetricsServer plain;
    ASSERT_EQ(plain.start(0), "");
    plain.setMetrics("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 3.5\n");
    RunConfig other = config(Workload::Ramp, "not-korvet");
    other.stepByRate = true;
    other.steps = {300, 600};
    other.duration = 1s;
    other.warmup = 200ms;
    other.recordSize = 256;
    other.continuePastSaturation = true;
    other.brokerMetricsUrls = {"http://127.0.0.1:" + std::to_string(plain.port()) + "/metrics"};
    const BenchResult unknown = BenchEngine(other).run(m_cancel);
    ASSERT_EQ(unknown.scenarios.size(), 2u);
    const auto said = std::count_if(unknown.warnings.begin(), unknown.warnings.end(), [](const std::string &w) {
        return w.find("have no Korvet series") != std::string::npos;
    });
    EXPECT_EQ(said, 1) << "once for the ramp, not once a step";
    EXPECT_NE(unknown.warnings.front().find("have no Korvet series"), std::string::npos) << unknown.warnings.front();
}

// A ramp against a Korvet whose high watermarks advance unevenly: each step records its topic's
// partitions' rates, they are stored, and `placement --load` lays them on the shards through
// CRC16 of the partitions' stream keys, beside the skew the partition counts predict.
TEST_F(BenchFaults, RampRecordsEachPartitionsRateAndPlacementLaysThemOnTheShards)
{
    RunConfig c = config(Workload::Ramp, "korvet-partitions");
    test::KorvetRates rates;
    rates.topic = c.topic;
    rates.recordsPerS = 60000;
    // Partition 5 takes a third of the records (a hot key), the other eleven share the rest.
    rates.partitionShares.assign(12, (2.0 / 3.0) / 11);
    rates.partitionShares[5] = 1.0 / 3.0;
    test::ServedKorvet korvet(rates);
    c.stepByRate = true;
    c.steps = {300};
    c.duration = 2s;
    c.warmup = 300ms;
    c.recordSize = 256;
    c.brokerMetricsUrls = {korvet.url()};
    const BenchResult result = BenchEngine(c).run(m_cancel);
    ASSERT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
    ASSERT_EQ(result.scenarios.size(), 1u);
    const ScenarioResult &step = result.scenarios.front();
    EXPECT_NEAR(step.metrics.at("partitions.5.records_per_s"), 20000, 2000);
    EXPECT_NEAR(step.metrics.at("partitions.0.records_per_s"), 40000.0 / 11, 400);
    EXPECT_NEAR(step.metrics.at("broker.partition_skew"), 4.0, 0.1); // 20,000 over a mean of 5,000
    const std::string text = result.toText();
    EXPECT_NE(text.find("partitions: 12, busiest 5 at "), std::string::npos) << text;

    QTemporaryDir dir;
    Store store(dir.filePath("store.db").toStdString());
    storeBenchResult(store, result, kVersion);
    const PartitionLoadRead read = readPartitionLoad(store, "plimsoll-bench-" + result.runId, "");
    ASSERT_TRUE(read.load) << read.error;
    EXPECT_EQ(read.load->topic, c.topic);
    EXPECT_EQ(read.load->rates.size(), 12u);
    // Three shards as redis-cli splits them; each shard's load is its partitions' by CRC16.
    const PlacementResult placement = Placement::clusterCreate(3).place(c.topic, 12);
    std::string error;
    const auto comparison = compareLoad(placement, *read.load, error);
    ASSERT_TRUE(comparison) << error;
    double total = 0, hottestShard = 0;
    for (std::size_t s = 0; s < placement.shards.size(); ++s) {
        double expected = 0;
        for (int p : placement.shards[s].partitions)
            expected += read.load->rates.at(p);
        EXPECT_DOUBLE_EQ(comparison->shards[s].recordsPerS, expected);
        total += expected;
        if (std::find(placement.shards[s].partitions.begin(), placement.shards[s].partitions.end(), 5) !=
            placement.shards[s].partitions.end())
            hottestShard = expected;
    }
    EXPECT_NEAR(comparison->total, total, 1e-6);
    EXPECT_DOUBLE_EQ(comparison->predictedSkew, placement.maxSkew);
    // The shard holding the hot partition is the busiest, by more than its partition count says.
    EXPECT_NEAR(comparison->measuredSkew, hottestShard / (total / 3), 1e-9);
    EXPECT_GT(comparison->measuredSkew, comparison->predictedSkew);
    std::printf("shards max/mean: %.2f measured, %.2f predicted\n", comparison->measuredSkew,
                comparison->predictedSkew);

    // Another partition count than the run measured is refused, naming both counts.
    EXPECT_FALSE(compareLoad(Placement::clusterCreate(3).place(c.topic, 24), *read.load, error));
    EXPECT_NE(error.find("has 12 partitions (0–11), the placement 24"), std::string::npos) << error;
    EXPECT_FALSE(readPartitionLoad(store, "plimsoll-bench-" + result.runId, "no-such-step").load);
}

TEST_F(BenchFaults, DuplicatesAndForeignRecordsAreCaughtByTheEnvelope)
{
    RunConfig c = config(Workload::Roundtrip, "envelope");
    c.records = 5000;
    c.rate = 2500;
    c.recordSize = 256;
    std::array<uint8_t, 16> runId{}, otherRun{};
    ASSERT_TRUE(Envelope::runIdFromUuid(c.runId, runId));
    ASSERT_TRUE(Envelope::runIdFromUuid(makeUuid(), otherRun));
    // Mid-run, a plain producer writes into the same topic: one copy of a record this run
    // already sent (producer 0, sequence 5: a duplicate), one record of another run, and one
    // value that is no envelope at all (both invalid).
    std::once_flag once;
    KafkaError injected;
    const std::string topic = c.topic, bootstrap = m_bootstrap;
    c.beforeSend = [&](int client, int64_t sequence) {
        if (client != 0 || sequence != 2000)
            return;
        std::call_once(once, [&] {
            EnvelopeWriter same(runId, 0, 256), other(otherRun, 0, 256);
            const std::vector<std::string> values = {std::string(same.write(5, 0)), std::string(other.write(7, 0)),
                                                     std::string(256, 'x')};
            KafkaClient plain({{"bootstrap.servers", bootstrap}});
            injected = plain.produce(topic, values, 15s);
        });
    };
    BenchEngine engine(c);
    const BenchResult result = engine.run(m_cancel);
    ASSERT_TRUE(injected.ok()) << injected.toString();
    ASSERT_EQ(result.scenarios.size(), 1u);
    const ScenarioResult &s = result.scenarios.front();
    EXPECT_EQ(metricOf(s, "roundtrip.matched"), 5000);
    EXPECT_EQ(metricOf(s, "roundtrip.duplicate"), 1);
    EXPECT_EQ(metricOf(s, "roundtrip.invalid"), 2);
    EXPECT_EQ(metricOf(s, "roundtrip.missing"), 0);
    // Invalid records fail the run (someone else writes into the topic); a duplicate alone
    // is at-least-once delivery and is reported, not failed.
    EXPECT_EQ(result.exitCode, 1);
}

// Sends SIGCONT to the broker when it goes out of scope, whatever happened in between.
struct Resume
{
    pid_t pid;
    ~Resume() { ::kill(pid, SIGCONT); }
};

TEST_F(BenchFaults, BrokerPausedMidRunShowsALatencySpikeAndLosesNothing)
{
    const pid_t broker = static_cast<pid_t>(std::stol(m_env.value("PLIMSOLL_TEST_KAFKA_PID")));
    ASSERT_GT(broker, 1);
    ASSERT_EQ(::kill(broker, 0), 0) << "no broker process " << broker;
    RunConfig c = config(Workload::Roundtrip, "pause");
    c.acks = "all";
    c.records = 8000;
    c.rate = 1000; // 8 s, the pause in the middle
    c.recordSize = 256;
    std::once_flag once;
    std::future<void> pause;
    Resume guard{broker};
    c.beforeSend = [&](int client, int64_t sequence) {
        if (client == 0 && sequence == 2500)
            std::call_once(once, [&] {
                // On its own thread: the producer keeps its schedule while the broker is frozen.
                pause = std::async(std::launch::async, [broker] {
                    ::kill(broker, SIGSTOP);
                    std::this_thread::sleep_for(3s);
                    ::kill(broker, SIGCONT);
                });
            });
    };
    BenchEngine engine(c);
    const BenchResult result = engine.run(m_cancel);
    if (pause.valid())
        pause.wait();
    ASSERT_TRUE(pause.valid()) << "the pause never happened";
    ASSERT_EQ(result.scenarios.size(), 1u);
    const ScenarioResult &s = result.scenarios.front();
    // Records scheduled at the start of the pause waited for all of it: the max from the
    // schedule spans the three seconds; p50 stays where an unpaused broker keeps it.
    EXPECT_GE(metricOf(s, "latency_max_s"), 2.5);
    EXPECT_GE(metricOf(s, "e2e_p99_s"), 1.0) << "over a third of the run waited behind the pause";
    EXPECT_LT(metricOf(s, "latency_p50_s"), 1.0);
    EXPECT_EQ(metricOf(s, "roundtrip.missing"), 0);
    EXPECT_EQ(metricOf(s, "roundtrip.matched"), 8000);
    EXPECT_EQ(metricOf(s, "producer.failed"), 0);
    EXPECT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
}

TEST_F(BenchFaults, FixedRateIsWithinTwoPercentOfTheTarget)
{
    RunConfig c = config(Workload::Producer, "rate");
    c.rate = 2000;
    c.records = 10000; // 5 s
    c.recordSize = 512;
    BenchEngine engine(c);
    const BenchResult result = engine.run(m_cancel);
    ASSERT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front());
    ASSERT_EQ(result.scenarios.size(), 1u);
    const double rate = metricOf(result.scenarios.front(), "records_per_s");
    std::printf("fixed rate: target 2000, achieved %.2f records/s\n", rate);
    // The pacer schedules on a fixed timeline, so the only shortfall is the last ack and the
    // coordinator's tick after the last send, a fixed tail over the 5 s window. Measured on the
    // 2-core machine at load average 10: 1989–1995 records/s in six runs (0.25–0.55 % short).
    // 1 % would leave 50 ms for that tail, which an ack p99 under such load can exceed; 2 %
    // (100 ms) is the strictest bound that held every time.
    EXPECT_NEAR(rate, 2000, 40) << "achieved " << rate << " records/s";
    EXPECT_EQ(metricOf(result.scenarios.front(), "producer.acknowledged"), 10000);
}

// A second single-node broker for this test alone, stopped (and its data deleted) at the end.
class OwnBroker
{
public:
    explicit OwnBroker(const QString &stateDir) : m_state(stateDir)
    {
        QProcess start;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PLIMSOLL_KAFKA_HEAP", "384m"); // a few thousand small records: little heap
        start.setProcessEnvironment(env);
        start.start("bash", {PLIMSOLL_KAFKA_SCRIPT, "start", stateDir});
        if (!start.waitForFinished(240000) || start.exitCode() != 0) {
            m_error = "kafka.sh start failed: " + start.readAllStandardError().toStdString();
            return;
        }
        std::ifstream in((stateDir + "/env").toStdString());
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("PLIMSOLL_TEST_KAFKA_BOOTSTRAP=", 0) == 0)
                m_bootstrap = line.substr(line.find('=') + 1);
            if (line.rfind("PLIMSOLL_TEST_KAFKA_PID=", 0) == 0)
                m_pid = static_cast<pid_t>(std::stol(line.substr(line.find('=') + 1)));
        }
        if (m_bootstrap.empty() || m_pid <= 1)
            m_error = "no bootstrap or pid in " + (stateDir + "/env").toStdString();
    }
    ~OwnBroker()
    {
        QProcess stop;
        stop.start("bash", {PLIMSOLL_KAFKA_SCRIPT, "stop", m_state});
        stop.waitForFinished(120000);
    }
    const std::string &error() const { return m_error; }
    const std::string &bootstrap() const { return m_bootstrap; }
    pid_t pid() const { return m_pid; }

private:
    QString m_state;
    std::string m_error, m_bootstrap;
    pid_t m_pid = -1;
};

TEST_F(BenchFaults, BrokerKilledMidRunEndsWithinItsTimeoutWithTheExactMissingCount)
{
    OwnBroker broker(m_dir.filePath("own-broker"));
    ASSERT_EQ(broker.error(), "");
    RunConfig c = config(Workload::Roundtrip, "killed");
    c.bootstrapServers = broker.bootstrap();
    c.acks = "all";
    c.records = 20000;
    c.rate = 2000; // 10 s planned; the broker dies after 2 s
    c.recordSize = 256;
    c.timeout = 8s;
    std::once_flag once;
    bool killed = false;
    c.beforeSend = [&](int client, int64_t sequence) {
        if (client == 0 && sequence == 4000)
            std::call_once(once, [&] { killed = ::kill(broker.pid(), SIGKILL) == 0; });
    };
    const auto started = std::chrono::steady_clock::now();
    BenchEngine engine(c);
    const BenchResult result = engine.run(m_cancel);
    const double tookS = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ASSERT_TRUE(killed);
    // Bounded: two seconds of producing, then at most a timeout without acknowledgements, a
    // flush and a drain, each bounded by --timeout (8 s); never the 10 s plan plus retries.
    EXPECT_LT(tookS, 2 + 3 * 8 + 5) << "the run took " << tookS << " s";
    EXPECT_EQ(result.exitCode, 1);
    ASSERT_EQ(result.scenarios.size(), 1u);
    const ScenarioResult &s = result.scenarios.front();
    const double acknowledged = metricOf(s, "roundtrip.acknowledged");
    // A broker minutes old on a loaded machine acknowledges slowly at first (374 of the 4000
    // sent before the kill, once): only "some" is certain.
    EXPECT_GT(acknowledged, 0) << "records before the kill were acknowledged";
    std::printf("killed broker: %.0f acknowledged, %.0f matched, %.0f missing, %.0f failed, %.1f s\n", acknowledged,
                metricOf(s, "roundtrip.matched"), metricOf(s, "roundtrip.missing"), metricOf(s, "producer.failed"),
                tookS);
    EXPECT_LT(acknowledged, 20000);
    // The exact count: every acknowledged record is either matched or missing, nothing else.
    EXPECT_EQ(metricOf(s, "roundtrip.missing"), acknowledged - metricOf(s, "roundtrip.matched"));
    EXPECT_EQ(metricOf(s, "roundtrip.invalid"), 0);
    EXPECT_FALSE(result.errors.empty());
    // Records that failed delivery are counted, and the verdict says why in the client's words;
    // with none failed (every record acknowledged before the broker went), no such verdict.
    const auto named = std::find_if(result.errors.begin(), result.errors.end(), [](const std::string &e) {
        return e.find("records were not delivered") != std::string::npos &&
               e.find(", the first: producer 0: ") != std::string::npos;
    });
    EXPECT_EQ(named != result.errors.end(), metricOf(s, "producer.failed") > 0)
        << "producer.failed " << metricOf(s, "producer.failed") << ": " << ::testing::PrintToString(result.errors);
}

} // namespace
} // namespace plimsoll
