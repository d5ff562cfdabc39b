// plimsoll bench against the real Apache Kafka broker of tests/services: the engine
// in-process, and the `plimsoll` binary end to end. The mock cluster only where a fault
// must be injected on demand.
#include "runner/benchengine.h"
#include "runner/kafkaclient.h"
#include "runner/mockcluster.h"
#include "servicesenv.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <future>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

using namespace std::chrono_literals;

namespace plimsoll {
namespace {

std::string uniqueTopic(const std::string &purpose)
{
    std::random_device device;
    return "plimsoll-test-bench-" + purpose + "-" + std::to_string(device());
}

double metric(const BenchResult &r, const std::string &name)
{
    EXPECT_FALSE(r.scenarios.empty());
    if (r.scenarios.empty())
        return -1;
    auto it = r.scenarios.front().metrics.find(name);
    EXPECT_NE(it, r.scenarios.front().metrics.end()) << name;
    return it == r.scenarios.front().metrics.end() ? -1 : it->second;
}

std::string httpGet(int port, const std::string &path)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return {};
    }
    const std::string request = "GET " + path + " HTTP/1.0\r\n\r\n";
    (void)!::send(fd, request.data(), request.size(), 0);
    std::string response;
    char buffer[4096];
    for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
        response.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    return response;
}

class Bench : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(test::ServicesEnv::load(m_env));
        m_bootstrap = m_env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP");
        ASSERT_FALSE(m_bootstrap.empty());
        ASSERT_TRUE(m_dir.isValid());
    }
    RunConfig config(Workload workload) const
    {
        RunConfig c;
        c.workload = workload;
        c.bootstrapServers = m_bootstrap;
        c.partitions = 4;
        c.timeout = 30s;
        return c;
    }
    bool topicExists(const std::string &topic)
    {
        KafkaClient client({{"bootstrap.servers", m_bootstrap}});
        ClusterDescription cluster;
        EXPECT_TRUE(client.describeCluster(cluster, 15s).ok());
        return cluster.topic(topic) != nullptr;
    }
    struct Run
    {
        int exitCode = -1;
        std::string out, err;
    };
    Run plimsoll(QStringList args) const
    {
        QProcess p;
        args.prepend(m_dir.filePath("store.db"));
        args.prepend("--db");
        p.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(p.waitForFinished(170000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
    }

    test::ServicesEnv m_env;
    std::string m_bootstrap;
    QTemporaryDir m_dir;
    std::atomic<bool> m_cancel{false};
};

TEST_F(Bench, ProducerHundredThousandKibRecordsWritesValidResultFile)
{
    const QString resultFile = m_dir.filePath("result.json");
    const auto run = plimsoll({"bench", "producer", "--bootstrap-server", QString::fromStdString(m_bootstrap),
                               "--topic", QString::fromStdString(uniqueTopic("producer")), "--create-topic",
                               "--partitions", "4", "--records", "100000", "--record-size", "1KB", "--output", "json",
                               "--result-file", resultFile});
    ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
    std::ifstream in(resultFile.toStdString());
    const auto result = nlohmann::json::parse(in); // throws, failing the test, if not valid JSON
    EXPECT_EQ(nlohmann::json::parse(run.out), result);
    const auto &metrics = result["scenarios"][0]["metrics"];
    EXPECT_GT(metrics["records_per_s"].get<double>(), 0);
    EXPECT_EQ(metrics["errors"].get<double>(), 0);
    EXPECT_EQ(metrics["producer.acknowledged"].get<double>(), 100000);
    EXPECT_GT(metrics["latency_p99_s"].get<double>(), 0);
    EXPECT_FALSE(result["scenarios"][0]["histograms"]["ack_us"].get<std::string>().empty());
    // Atomic write: nothing but the result file is left in the directory.
    EXPECT_EQ(QDir(m_dir.path()).entryList({"result.json*"}, QDir::Files), QStringList{"result.json"});
    std::ofstream(std::string(PLIMSOLL_ARTIFACT_DIR) + "/bench-producer-result.json") << result.dump(2);
}

TEST_F(Bench, RoundTripFiftyThousandRecordsNoneMissingNoneDuplicated)
{
    auto c = config(Workload::Roundtrip);
    c.records = 50000;
    c.producerClients = 2;
    c.consumerClients = 2;
    c.cleanup = true;
    const auto result = BenchEngine(c).run(m_cancel);
    ASSERT_EQ(result.exitCode, 0) << nlohmann::json(result.errors).dump();
    EXPECT_EQ(metric(result, "roundtrip.matched"), 50000);
    EXPECT_EQ(metric(result, "roundtrip.missing"), 0);
    EXPECT_EQ(metric(result, "roundtrip.duplicate"), 0);
    EXPECT_EQ(metric(result, "roundtrip.invalid"), 0);
    EXPECT_GT(metric(result, "e2e_p99_s"), 0);
    EXPECT_FALSE(result.partial);
}

TEST_F(Bench, BareBenchCreatesAndCleansUpItsOwnTopicOnly)
{
    const std::string bystander = uniqueTopic("bystander");
    KafkaClient client({{"bootstrap.servers", m_bootstrap}});
    ASSERT_TRUE(client.createTopic(bystander, 1, 1, 30s).ok());
    const auto run = plimsoll({"bench", "--bootstrap-server", QString::fromStdString(m_bootstrap), "--records", "5000",
                               "--partitions", "2", "--cleanup", "--output", "json"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const auto result = nlohmann::json::parse(run.out);
    const std::string topic = result["topic"]["name"];
    EXPECT_EQ(topic.rfind("plimsoll-benchmark-", 0), 0u) << topic;
    EXPECT_TRUE(result["topic"]["created"].get<bool>());
    EXPECT_TRUE(result["topic"]["deleted"].get<bool>());
    EXPECT_EQ(result["workload"], "roundtrip");
    EXPECT_TRUE(topicExists(bystander));
    for (int i = 0; i < 50 && topicExists(topic); ++i)
        std::this_thread::sleep_for(100ms); // deletion is asynchronous on the broker
    EXPECT_FALSE(topicExists(topic));
}

TEST_F(Bench, CleanupNeverDeletesATopicTheRunDidNotCreate)
{
    const std::string topic = uniqueTopic("existing");
    KafkaClient client({{"bootstrap.servers", m_bootstrap}});
    ASSERT_TRUE(client.createTopic(topic, 2, 1, 30s).ok());
    auto c = config(Workload::Roundtrip);
    c.topic = topic;
    c.createTopic = true; // present already: used, not created
    c.records = 2000;
    c.cleanup = true;
    const auto result = BenchEngine(c).run(m_cancel);
    ASSERT_EQ(result.exitCode, 0) << nlohmann::json(result.errors).dump();
    EXPECT_FALSE(result.topicCreated);
    EXPECT_FALSE(result.topicDeleted);
    std::this_thread::sleep_for(500ms);
    EXPECT_TRUE(topicExists(topic));
}

TEST_F(Bench, FixedRateIsHeldAndLatencyCountsFromTheSchedule)
{
    auto c = config(Workload::Producer);
    c.rate = 2000;
    c.duration = 3s;
    c.linger = 1ms;
    // Stall the producer thread for 400 ms a second into the run. Every record due during the
    // stall is sent late; measured from its scheduled time, the stall shows in the latency.
    c.beforeSend = [](int, int64_t sequence) {
        if (sequence == 2000)
            std::this_thread::sleep_for(400ms);
    };
    const auto result = BenchEngine(c).run(m_cancel);
    ASSERT_EQ(result.exitCode, 0) << nlohmann::json(result.errors).dump();
    const double rate = metric(result, "records_per_s");
    EXPECT_NEAR(rate, 2000, 200) << "achieved " << rate << " records/s";
    EXPECT_NEAR(metric(result, "producer.acknowledged"), 6000, 10);
    EXPECT_GE(metric(result, "latency_max_s"), 0.39);
    // ~800 records were due during the stall: well over 1 % of 6000 waited > 200 ms.
    EXPECT_GE(metric(result, "latency_p99_s"), 0.2);
    // Service time (from the actual send) does not see the stall.
    EXPECT_LT(metric(result, "producer.service_p99_s"), 0.2);
}

TEST_F(Bench, MetricsPortServesHealthAndMetricsWhileRunning)
{
    auto c = config(Workload::Producer);
    c.rate = 1000;
    c.duration = 4s;
    c.metricsPort = 0; // any free port
    c.interval = 200ms;
    BenchEngine engine(c);
    std::promise<int> port;
    engine.setMetricsPortSink([&](int p) { port.set_value(p); });
    auto running = std::async(std::launch::async, [&] { return engine.run(m_cancel); });
    auto portFuture = port.get_future();
    ASSERT_EQ(portFuture.wait_for(30s), std::future_status::ready);
    const int p = portFuture.get();
    std::this_thread::sleep_for(1500ms);
    const std::string health = httpGet(p, "/health");
    const std::string metrics = httpGet(p, "/metrics");
    const auto result = running.get();
    EXPECT_NE(health.find("200 OK"), std::string::npos) << health;
    EXPECT_NE(health.find("\"running\""), std::string::npos) << health;
    EXPECT_NE(metrics.find("plimsoll_bench_produced_records_per_second{"), std::string::npos) << metrics;
    EXPECT_NE(metrics.find("# TYPE plimsoll_bench_acknowledged_records gauge"), std::string::npos);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_EQ(httpGet(p, "/health"), ""); // stopped with the run
}

TEST_F(Bench, RunLandsInTheStore)
{
    const auto run = plimsoll({"bench", "producer", "--bootstrap-server", QString::fromStdString(m_bootstrap),
                               "--topic", QString::fromStdString(uniqueTopic("store")), "--create-topic",
                               "--records", "3000", "--output", "json"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const std::string runId = nlohmann::json::parse(run.out)["run_id"];
    const auto runs = plimsoll({"runs", "--json"});
    ASSERT_EQ(runs.exitCode, 0) << runs.err;
    const auto list = nlohmann::json::parse(runs.out);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0]["tool"], "plimsoll-bench");
    EXPECT_EQ(list[0]["run_key"], "plimsoll-bench-" + runId);
    const auto show = plimsoll({"show", QString::fromStdString("plimsoll-bench-" + runId), "--json"});
    const auto detail = nlohmann::json::parse(show.out);
    EXPECT_EQ(detail["tuning"]["acks"], "all");
    EXPECT_EQ(detail["tuning"]["record_size_bytes"], "1024");
    EXPECT_GT(detail["scenarios"][0]["metrics"]["records_per_s"].get<double>(), 0);
}

TEST_F(Bench, UsageErrorsExitTwo)
{
    EXPECT_EQ(plimsoll({"bench", "--record-size", "10"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"bench", "--rate", "fast"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"bench", "--duration", "soon"}).exitCode, 2);
}

// Fault on demand: the mock cluster refuses produce requests mid-run. Labelled: this is
// librdkafka's mock, not the real broker.
TEST(BenchMockCluster, ProduceErrorsMidRunKeepPartialResultAndExitOne)
{
    MockCluster mock(1);
    ASSERT_TRUE(mock.ok()) << mock.error().toString();
    ASSERT_TRUE(mock.createTopic("faulty", 2, 1).ok());
    RunConfig c;
    c.workload = Workload::Producer;
    c.bootstrapServers = mock.bootstrapServers();
    c.topic = "faulty";
    c.rate = 2000;
    c.duration = 3s;
    c.timeout = 5s;
    std::atomic<bool> cancel{false};
    std::thread fault([&] {
        std::this_thread::sleep_for(1s);
        mock.pushProduceErrors(50, RdKafka::ERR_TOPIC_AUTHORIZATION_FAILED);
    });
    const auto started = std::chrono::steady_clock::now();
    const auto result = BenchEngine(c).run(cancel);
    fault.join();
    EXPECT_LT(std::chrono::steady_clock::now() - started, 3s + 2 * c.timeout);
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_TRUE(result.partial);
    ASSERT_EQ(result.scenarios.size(), 1u);
    EXPECT_GT(result.scenarios[0].metrics.at("errors"), 0);
    EXPECT_GT(result.scenarios[0].metrics.at("producer.acknowledged"), 0);
}

} // namespace
} // namespace plimsoll
