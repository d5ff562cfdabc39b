// Apache's own kafka-producer-perf-test and kafka-consumer-perf-test (with --print-metrics),
// run against the test broker; their output is imported and the imported numbers must equal
// what the tools printed. Needs the ctest fixture "services" (tests/services).
#include "importers/importservice.h"
#include "runner/servicesenv.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

class KafkaPerfLive : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(ServicesEnv::load(m_env));
        ASSERT_TRUE(m_dir.isValid());
        m_store = std::make_unique<Store>(m_dir.filePath("store.db").toStdString());
    }

    // Runs kafka-perf.sh TOOL ARGS, keeps stdout in the artifact dir and returns its path.
    std::string run(const QString &tool, const QStringList &args, const QString &artifact)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PLIMSOLL_TEST_KAFKA_CLASSPATH_FILE",
                   QString::fromStdString(m_env.value("PLIMSOLL_TEST_KAFKA_CLASSPATH_FILE")));
        p.setProcessEnvironment(env);
        const QString out = QString(PLIMSOLL_ARTIFACT_DIR) + "/" + artifact;
        p.setStandardOutputFile(out);
        p.setStandardErrorFile(out + ".stderr.txt");
        p.start("bash", QStringList{PLIMSOLL_KAFKA_PERF_SCRIPT, tool} + args);
        EXPECT_TRUE(p.waitForFinished(150000)) << "kafka-perf.sh " << tool.toStdString() << " hung";
        EXPECT_EQ(p.exitCode(), 0) << "see " << out.toStdString() << ".stderr.txt";
        return out.toStdString();
    }

    static std::string read(const std::string &path)
    {
        QFile f(QString::fromStdString(path));
        EXPECT_TRUE(f.open(QIODevice::ReadOnly));
        return f.readAll().toStdString();
    }

    static double printedMetric(const std::string &text, const std::string &key)
    {
        const std::regex re(key + R"(:\{client-id=[^}]*\}\s*: ([0-9.]+))");
        std::smatch m;
        EXPECT_TRUE(std::regex_search(text, m, re)) << key;
        return m.empty() ? -1 : std::stod(m.str(1));
    }

    ScenarioRecord imported(const std::string &path, const std::string &format)
    {
        ImportService service(*m_store);
        const SourceReport report = service.importFile({path, {}, false, false});
        EXPECT_EQ(report.status, "imported") << report.errorText;
        EXPECT_EQ(report.format, format);
        // This file's run, whatever the times the tools printed (or did not) make the order.
        const std::string name = QFileInfo(QString::fromStdString(path)).fileName().toStdString();
        std::string runKey;
        for (const RunSummary &run : m_store->runs())
            if (QFileInfo(QString::fromStdString(run.sourceUri)).fileName().toStdString() == name)
                runKey = run.runKey;
        EXPECT_FALSE(runKey.empty()) << "no run from " << path;
        const auto detail = m_store->run(runKey);
        EXPECT_TRUE(detail && !detail->record.scenarios.empty());
        return detail ? detail->record.scenarios.front() : ScenarioRecord{};
    }

    ServicesEnv m_env;
    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
};

} // namespace

TEST_F(KafkaPerfLive, ProducerAndConsumerImportExactlyWhatTheToolsPrinted)
{
    const QString bootstrap = QString::fromStdString(m_env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"));
    ASSERT_FALSE(bootstrap.isEmpty());
    const QString topic = "plimsoll-import-" + QString::number(QDateTime::currentMSecsSinceEpoch());
    const std::string producerOut =
        run("producer",
            {"--topic", topic, "--num-records", "5000", "--record-size", "200", "--throughput", "-1",
             "--print-metrics", "--producer-props", "bootstrap.servers=" + bootstrap, "acks=all"},
            "import-kafka-producer-perf.txt");
    const std::string producerText = read(producerOut);
    static const std::regex finalLine(
        R"((\d+) records sent, ([0-9.]+) records/sec \(([0-9.]+) MB/sec\), ([0-9.]+) ms avg latency, )"
        R"(([0-9.]+) ms max latency, (\d+) ms 50th, (\d+) ms 95th, (\d+) ms 99th, (\d+) ms 99\.9th\.)");
    std::smatch f;
    ASSERT_TRUE(std::regex_search(producerText, f, finalLine)) << producerText;

    const ScenarioRecord p = imported(producerOut, "kafka-producer-perf");
    EXPECT_EQ(*p.metric("producer.records_sent"), 5000);
    EXPECT_EQ(*p.metric("records_per_s"), std::stod(f.str(2)));
    EXPECT_EQ(*p.metric("bytes_per_s"), std::stod(f.str(3)) * kMiB);
    EXPECT_EQ(*p.metric("latency_avg_s"), std::stod(f.str(4)) * 1e-3);
    EXPECT_EQ(*p.metric("latency_max_s"), std::stod(f.str(5)) * 1e-3);
    EXPECT_EQ(*p.metric("latency_p50_s"), std::stod(f.str(6)) * 1e-3);
    EXPECT_EQ(*p.metric("latency_p99_s"), std::stod(f.str(8)) * 1e-3);
    EXPECT_EQ(*p.metric("latency_p999_s"), std::stod(f.str(9)) * 1e-3);
    EXPECT_EQ(*p.metric("kafka.producer.batch-size-avg"),
              printedMetric(producerText, "producer-metrics:batch-size-avg"));
    EXPECT_EQ(*p.metric("kafka.producer.record-queue-time-avg"),
              printedMetric(producerText, "producer-metrics:record-queue-time-avg"));
    EXPECT_EQ(*p.metric("kafka.producer.request-latency-avg"),
              printedMetric(producerText, "producer-metrics:request-latency-avg"));

    const std::string consumerOut =
        run("consumer",
            {"--bootstrap-server", bootstrap, "--topic", topic, "--messages", "5000", "--timeout",
             "30000", "--print-metrics"},
            "import-kafka-consumer-perf.txt");
    const std::string consumerText = read(consumerOut);
    static const std::regex row(
        R"(\n\d{4}-\d\d-\d\d [0-9:]+, \d{4}-\d\d-\d\d [0-9:]+, ([0-9.]+), ([0-9.]+), (\d+), ([0-9.]+), (-?\d+), (-?\d+), (-?[0-9.]+), (-?[0-9.]+))");
    std::smatch c;
    ASSERT_TRUE(std::regex_search(consumerText, c, row)) << consumerText;
    const ScenarioRecord s = imported(consumerOut, "kafka-consumer-perf");
    EXPECT_EQ(*s.metric("consumer.records_consumed"), 5000);
    EXPECT_EQ(*s.metric("consumer.bytes_consumed"), std::stod(c.str(1)) * kMiB);
    EXPECT_EQ(*s.metric("bytes_per_s"), std::stod(c.str(2)) * kMiB);
    EXPECT_EQ(*s.metric("records_per_s"), std::stod(c.str(4)));
    EXPECT_EQ(*s.metric("consumer.fetch_time_s"), std::stod(c.str(6)) * 1e-3);
    EXPECT_EQ(*s.metric("consumer.fetch_records_per_s"), std::stod(c.str(8)));
    EXPECT_EQ(*s.metric("kafka.consumer-fetch-manager.fetch-latency-avg"),
              printedMetric(consumerText, "consumer-fetch-manager-metrics:fetch-latency-avg"));
}

// Kafka 4.x's tools (KIP-1147) as users now run them: --reporting-interval 1000 prints a periodic
// line a second apart, and the importer times each line by its own records over its rate (not a
// fixed 5 s); the command saved with the renamed options (--command-property) gives the same load
// factors as one saved with the old (--producer-props).
TEST_F(KafkaPerfLive, ReportingIntervalAndRenamedOptionsOfKafka4Tools)
{
    const QString bootstrap = QString::fromStdString(m_env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"));
    ASSERT_FALSE(bootstrap.isEmpty());
    const QString topic = "plimsoll-import-interval-" + QString::number(QDateTime::currentMSecsSinceEpoch());
    const QStringList common = {"--topic", topic, "--record-size", "200", "--throughput", "4000"};
    const QStringList renamed = common + QStringList{"--num-records", "24000", "--bootstrap-server", bootstrap,
                                                     "--reporting-interval", "1000", "--command-property", "acks=1",
                                                     "batch.size=16384", "compression.type=lz4"};
    const QStringList old = common + QStringList{"--num-records", "24000", "--producer-props",
                                                 "bootstrap.servers=" + bootstrap, "acks=1", "batch.size=16384",
                                                 "compression.type=lz4"};
    // Each saved as a user saves a sweep: the command, then what it printed.
    const auto saved = [&](const QStringList &args, const QString &name) {
        const std::string out = run("producer", args, name + ".out.txt");
        const std::string path = std::string(PLIMSOLL_ARTIFACT_DIR) + "/" + name.toStdString();
        std::ofstream file(path);
        file << "$ kafka-producer-perf-test.sh " << args.join(' ').toStdString() << "\n" << read(out);
        return path;
    };
    const ScenarioRecord now = imported(saved(renamed, "import-kafka4-producer.txt"), "kafka-producer-perf");
    const ScenarioRecord before = imported(saved(old, "import-kafka3-producer.txt"), "kafka-producer-perf");

    // 24000 records at 4000/s: about six periodic lines, each window within 20 % of 1 s.
    const SeriesRecord *rate = nullptr;
    for (const SeriesRecord &s : now.series)
        if (s.name == "records_per_s")
            rate = &s;
    ASSERT_NE(rate, nullptr);
    ASSERT_GE(rate->samples.size(), 4u);
    for (std::size_t i = 1; i < rate->samples.size(); ++i) {
        const double window = rate->samples[i].tOffsetS - rate->samples[i - 1].tOffsetS;
        std::printf("periodic line %zu: window %.3f s\n", i, window);
        EXPECT_NEAR(window, 1.0, 0.2) << "line " << i;
    }
    // The same load factors from either spelling.
    EXPECT_EQ(now.topology.recordSizeBytes, 200);
    EXPECT_EQ(now.topology.acks, std::optional<std::string>("1"));
    EXPECT_EQ(now.topology.batchBytes, 16384);
    EXPECT_EQ(now.topology.compression, std::optional<std::string>("lz4"));
    EXPECT_EQ(now.topology, before.topology);
    EXPECT_EQ(*now.metric("producer.offered_records_per_s"), 4000);
    EXPECT_EQ(*now.metric("producer.records_requested"), 24000);
    EXPECT_EQ(*before.metric("producer.offered_records_per_s"), *now.metric("producer.offered_records_per_s"));
    EXPECT_EQ(*before.metric("producer.records_requested"), *now.metric("producer.records_requested"));
}

// Kafka 4.x's share consumer (KIP-932) run with two threads, detailed stats and the renamed
// options, saved after its command: the summary it printed is the scenario, exactly; the threads
// are its consumers; their interval rows its series, a second apart.
TEST_F(KafkaPerfLive, ShareConsumerImportsWhatItPrintedWithItsThreads)
{
    const QString bootstrap = QString::fromStdString(m_env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"));
    ASSERT_FALSE(bootstrap.isEmpty());
    const QString stamp = QString::number(QDateTime::currentMSecsSinceEpoch());
    const QString topic = "plimsoll-import-share-" + stamp, group = "plimsoll-share-" + stamp;
    run("producer",
        {"--topic", topic, "--num-records", "400000", "--record-size", "100", "--throughput", "-1",
         "--command-property", "bootstrap.servers=" + bootstrap},
        "import-share-producer.txt");
    // A share group starts at the latest record unless told otherwise.
    run("configs",
        {"--bootstrap-server", bootstrap, "--alter", "--entity-type", "groups", "--entity-name", group,
         "--add-config", "share.auto.offset.reset=earliest"},
        "import-share-group-config.txt");
    const QStringList args = {"--bootstrap-server", bootstrap, "--topic", topic, "--group", group,
                              "--num-records", "400000", "--threads", "2", "--show-detailed-stats",
                              "--show-consumer-stats", "--reporting-interval", "1000", "--timeout", "30000"};
    const std::string out = run("share-consumer", args, "import-share-consumer.out.txt");
    const std::string text = read(out);
    const std::string path = std::string(PLIMSOLL_ARTIFACT_DIR) + "/import-share-consumer.txt";
    {
        std::ofstream file(path);
        file << "$ kafka-share-consumer-perf-test.sh " << args.join(' ').toStdString() << "\n" << text;
    }
    // The summary: the row that follows the threads' own and ends the output.
    static const std::regex summary(
        R"((?:^|\n)(\d{4}-\d\d-\d\d [0-9:]+), \d{4}-\d\d-\d\d [0-9:]+, ([0-9.]+), ([0-9.]+), ([0-9.]+), (\d+), (\d+)\s*$)");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, summary)) << text;
    const ScenarioRecord s = imported(path, "kafka-consumer-perf");
    EXPECT_EQ(s.name, "share-consumer");
    EXPECT_EQ(*s.metric("consumer.records_consumed"), std::stod(m.str(5)));
    EXPECT_EQ(*s.metric("consumer.records_consumed"), 400000);
    EXPECT_EQ(*s.metric("records_per_s"), std::stod(m.str(4)));
    EXPECT_EQ(*s.metric("bytes_per_s"), std::stod(m.str(3)) * kMiB);
    EXPECT_EQ(*s.metric("consumer.fetch_time_s"), std::stod(m.str(6)) * 1e-3);
    EXPECT_EQ(*s.metric("consumer.records_requested"), 400000);
    EXPECT_EQ(s.topology.consumers, 2);
    const SeriesRecord *records = nullptr;
    for (const SeriesRecord &series : s.series)
        if (series.name == "consumer.records_consumed")
            records = &series;
    ASSERT_NE(records, nullptr) << "no series from the threads' rows";
    ASSERT_GE(records->samples.size(), 3u) << text;
    for (std::size_t i = 1; i < records->samples.size(); ++i) {
        const double window = records->samples[i].tOffsetS - records->samples[i - 1].tOffsetS;
        std::printf("share consumer interval %zu: %.3f s, %.0f records so far\n", i, window,
                    records->samples[i].value);
        EXPECT_NEAR(window, 1.0, 0.2) << "interval " << i;
        EXPECT_GE(records->samples[i].value, records->samples[i - 1].value);
    }
    EXPECT_LE(records->samples.back().value, 400000);
}
