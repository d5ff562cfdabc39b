// librdkafka's own rdkafka_performance (examples/rdkafka_performance.c of Debian's librdkafka
// source package, built against the installed library by tests/services/rdkafka-performance.sh)
// against the test broker, producer then consumer, in its summary and -u table outputs. Each
// output, stdout and stderr as the tool wrote them (`> file 2>&1`), is imported and the
// imported numbers must equal what the tool printed. Needs the ctest fixture "services".
#include "importers/importservice.h"
#include "runner/servicesenv.h"

#include <QDateTime>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

double number(const std::string &s)
{
    return std::stod(s);
}

// Every match of `re` in `text`, in order: the tool prints a summary every second and once
// more at the end, so the last one is the result.
std::vector<std::smatch> allMatches(const std::string &text, const std::regex &re)
{
    std::vector<std::smatch> found;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        found.push_back(*it);
    return found;
}

// The cells of the last row of a -u table, by the header's column names.
std::map<std::string, std::string> lastTableRow(const std::string &text)
{
    std::vector<std::string> header;
    std::map<std::string, std::string> row;
    const std::regex cell(R"(\|\s*([^|\s]+)\s*)");
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("|", 0) != 0)
            continue;
        std::vector<std::string> cells;
        for (auto it = std::sregex_iterator(line.begin(), line.end(), cell); it != std::sregex_iterator(); ++it)
            cells.push_back((*it)[1]);
        if (!cells.empty() && cells[0] == "elapsed") {
            header = cells;
        } else if (cells.size() == header.size()) {
            row.clear();
            for (size_t i = 0; i < cells.size(); ++i)
                row[header[i]] = cells[i];
        }
    }
    return row;
}

class RdkafkaPerformanceLive : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        // Download (once, into ~/.cache/plimsoll), verify and build (once); later runs read
        // the cache. A failure says why: no network, a sha256 mismatch, a failed compile.
        QProcess p;
        p.start("bash", {PLIMSOLL_RDKAFKA_PERFORMANCE_SCRIPT, "build"});
        const bool finished = p.waitForFinished(240000);
        s_buildLog = p.readAllStandardError().toStdString();
        if (finished && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            s_binary = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
        else if (!finished)
            s_buildLog += "\n(rdkafka-performance.sh build did not finish in 240 s)";
    }

    void SetUp() override
    {
        ASSERT_FALSE(s_binary.isEmpty()) << "rdkafka_performance could not be built:\n" << s_buildLog;
        ASSERT_NO_FATAL_FAILURE(ServicesEnv::load(m_env));
        m_bootstrap = QString::fromStdString(m_env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"));
        ASSERT_FALSE(m_bootstrap.isEmpty());
        ASSERT_TRUE(m_dir.isValid());
    }

    // Runs the tool; stdout and stderr go to one artifact, as `> file 2>&1` writes them.
    // Returns the artifact's path and (in `text`) its contents.
    std::string run(const QStringList &args, const QString &artifact, std::string &text)
    {
        QProcess p;
        const QString out = QString(PLIMSOLL_ARTIFACT_DIR) + "/" + artifact;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.setStandardOutputFile(out);
        p.start(s_binary, QStringList{"-b", m_bootstrap} + args);
        EXPECT_TRUE(p.waitForFinished(150000)) << "rdkafka_performance " << args.join(' ').toStdString() << " hung";
        EXPECT_EQ(p.exitStatus(), QProcess::NormalExit) << "see " << out.toStdString();
        EXPECT_EQ(p.exitCode(), 0) << "see " << out.toStdString();
        QFile f(out);
        EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << out.toStdString();
        text = f.readAll().toStdString();
        return out.toStdString();
    }

    // Imports `path` into a store of its own, detected by content, and returns its one scenario.
    ScenarioRecord imported(const std::string &path, const std::string &scenario)
    {
        Store store(m_dir.filePath(QString("store-%1.db").arg(m_stores++)).toStdString());
        ImportService service(store);
        const SourceReport report = service.importFile({path, {}, false, false});
        EXPECT_EQ(report.status, "imported") << report.errorText;
        EXPECT_EQ(report.format, "rdkafka-performance");
        const auto runs = store.runs();
        EXPECT_EQ(runs.size(), 1u);
        if (runs.empty())
            return {};
        const auto detail = store.run(runs.front().runKey);
        EXPECT_TRUE(detail && detail->record.scenarios.size() == 1);
        if (!detail || detail->record.scenarios.empty())
            return {};
        EXPECT_EQ(detail->record.tool, "rdkafka_performance");
        EXPECT_EQ(detail->record.scenarios.front().name, scenario);
        return detail->record.scenarios.front();
    }

    QString topic(const char *what) const
    {
        return QString("plimsoll-rdkperf-%1-%2").arg(what).arg(QDateTime::currentMSecsSinceEpoch());
    }

    static inline QString s_binary;
    static inline std::string s_buildLog;
    ServicesEnv m_env;
    QString m_bootstrap;
    QTemporaryDir m_dir;
    int m_stores = 0;
};

} // namespace

TEST_F(RdkafkaPerformanceLive, SummariesImportExactlyWhatTheToolPrinted)
{
    const QString t = topic("summary");
    // -l: the payloads carry the producer's wall clock, so the consumer prints latency.
    std::string producerText;
    const std::string producerOut =
        run({"-P", "-t", t, "-p", "0", "-c", "200000", "-s", "1024", "-a", "-1", "-l"},
            "rdkafka-performance-producer.txt", producerText);
    static const std::regex produced(
        R"(% (\d+) messages produced \((\d+) bytes\), (\d+) delivered \(offset (-?\d+), (\d+) failed\) )"
        R"(in (\d+)ms: (\d+) msgs/s and ([0-9.]+) MB/s, (\d+) produce failures, (\d+) in queue, (\S+) compression\n)");
    const auto lines = allMatches(producerText, produced);
    ASSERT_FALSE(lines.empty()) << producerText;
    const std::smatch &p = lines.back();
    ASSERT_EQ(p.str(3), "200000") << "not every message was delivered:\n" << producerText;

    const ScenarioRecord ps = imported(producerOut, "producer");
    EXPECT_EQ(*ps.metric("records_per_s"), number(p[7]));
    EXPECT_EQ(*ps.metric("bytes_per_s"), number(p[8]) * 1e6); // the tool's MB is 10^6 B
    EXPECT_EQ(*ps.metric("producer.records_sent"), number(p[1]));
    EXPECT_EQ(*ps.metric("producer.bytes_sent"), number(p[2]));
    EXPECT_EQ(*ps.metric("producer.records_delivered"), 200000);
    EXPECT_EQ(*ps.metric("errors"), number(p[5]));
    EXPECT_EQ(*ps.metric("producer.produce_failures"), number(p[9]));
    EXPECT_EQ(*ps.metric("producer.elapsed_s"), number(p[6]) * 1e-3);
    EXPECT_EQ(ps.topology.recordSizeBytes, 1024);
    EXPECT_EQ(ps.topology.compression, "none");
    // The records_per_s series runs forward in time and ends in the result.
    const auto rates = std::find_if(ps.series.begin(), ps.series.end(),
                                    [](const SeriesRecord &r) { return r.name == "records_per_s"; });
    ASSERT_NE(rates, ps.series.end());
    const auto &series = rates->samples;
    for (size_t i = 1; i < series.size(); ++i)
        EXPECT_LT(series[i - 1].tOffsetS, series[i].tOffsetS);
    EXPECT_EQ(series.back().value, number(p[7]));

    std::string consumerText;
    const std::string consumerOut =
        run({"-C", "-t", t, "-p", "0", "-o", "beginning", "-c", "200000", "-l"},
            "rdkafka-performance-consumer.txt", consumerText);
    static const std::regex consumed(
        R"(% (\d+) messages \((\d+) bytes\) consumed in (\d+)ms: (\d+) msgs/s \(([0-9.]+) MB/s\))"
        R"(, latency curr/avg/lo/hi ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+)ms\n)");
    const auto clines = allMatches(consumerText, consumed);
    ASSERT_FALSE(clines.empty()) << consumerText;
    const std::smatch &c = clines.back();
    ASSERT_EQ(c.str(1), "200000") << consumerText;
    std::smatch fetch;
    ASSERT_TRUE(std::regex_search(consumerText, fetch, std::regex(R"(% Average application fetch latency: (\d+)us)")))
        << consumerText;

    const ScenarioRecord cs = imported(consumerOut, "consumer");
    EXPECT_EQ(*cs.metric("records_per_s"), number(c[4]));
    EXPECT_EQ(*cs.metric("bytes_per_s"), number(c[5]) * 1e6);
    EXPECT_EQ(*cs.metric("consumer.records_consumed"), 200000);
    EXPECT_EQ(*cs.metric("consumer.bytes_consumed"), number(c[2]));
    EXPECT_EQ(*cs.metric("consumer.elapsed_s"), number(c[3]) * 1e-3);
    EXPECT_EQ(*cs.metric("e2e.latency_avg_s"), number(c[7]) * 1e-3);
    EXPECT_EQ(*cs.metric("e2e.latency_min_s"), number(c[8]) * 1e-3);
    EXPECT_EQ(*cs.metric("e2e.latency_max_s"), number(c[9]) * 1e-3);
    EXPECT_EQ(*cs.metric("consumer.fetch_latency_avg_s"), number(fetch[1]) * 1e-6);
}

TEST_F(RdkafkaPerformanceLive, TablesImportExactlyWhatTheToolPrinted)
{
    const QString t = topic("table");
    std::string producerText;
    const std::string producerOut =
        run({"-P", "-t", t, "-p", "0", "-c", "50000", "-s", "512", "-a", "1", "-u", "-l"},
            "rdkafka-performance-producer-table.txt", producerText);
    auto p = lastTableRow(producerText);
    ASSERT_EQ(p["dr"], "50000") << producerText;
    ASSERT_TRUE(p.count("lat_avg")) << producerText;

    const ScenarioRecord ps = imported(producerOut, "producer");
    EXPECT_EQ(*ps.metric("records_per_s"), number(p["dr_m/s"]));
    EXPECT_EQ(*ps.metric("bytes_per_s"), number(p["dr_MB/s"]) * 1e6);
    EXPECT_EQ(*ps.metric("producer.records_sent"), number(p["msgs"]));
    EXPECT_EQ(*ps.metric("producer.bytes_sent"), number(p["bytes"]));
    EXPECT_EQ(*ps.metric("producer.records_delivered"), 50000);
    EXPECT_EQ(*ps.metric("errors"), number(p["dr_err"]));
    EXPECT_EQ(*ps.metric("producer.produce_failures"), number(p["tx_err"]));
    EXPECT_EQ(*ps.metric("producer.elapsed_s"), number(p["elapsed"]) * 1e-3);
    // Produce call to delivery report, on one clock: the send-to-ack latency.
    EXPECT_EQ(*ps.metric("latency_avg_s"), number(p["lat_avg"]) * 1e-3);
    EXPECT_EQ(*ps.metric("producer.latency_min_s"), number(p["lat_lo"]) * 1e-3);
    EXPECT_EQ(*ps.metric("latency_max_s"), number(p["lat_hi"]) * 1e-3);
    if (number(p["rtt"]) > 0)
        EXPECT_EQ(*ps.metric("producer.broker_rtt_avg_s"), number(p["rtt"]) * 1e-3);
    else
        EXPECT_FALSE(ps.metric("producer.broker_rtt_avg_s"));
    EXPECT_EQ(ps.topology.recordSizeBytes, 512);

    std::string consumerText;
    const std::string consumerOut =
        run({"-C", "-t", t, "-p", "0", "-o", "beginning", "-c", "50000", "-u", "-l"},
            "rdkafka-performance-consumer-table.txt", consumerText);
    auto c = lastTableRow(consumerText);
    ASSERT_EQ(c["msgs"], "50000") << consumerText;
    ASSERT_TRUE(c.count("lat_avg")) << consumerText;

    const ScenarioRecord cs = imported(consumerOut, "consumer");
    EXPECT_EQ(*cs.metric("records_per_s"), number(c["m/s"]));
    EXPECT_EQ(*cs.metric("bytes_per_s"), number(c["MB/s"]) * 1e6);
    EXPECT_EQ(*cs.metric("consumer.records_consumed"), 50000);
    EXPECT_EQ(*cs.metric("consumer.bytes_consumed"), number(c["bytes"]));
    EXPECT_EQ(*cs.metric("errors"), number(c["rx_err"]));
    EXPECT_EQ(*cs.metric("consumer.elapsed_s"), number(c["elapsed"]) * 1e-3);
    EXPECT_EQ(*cs.metric("e2e.latency_avg_s"), number(c["lat_avg"]) * 1e-3);
    EXPECT_EQ(*cs.metric("e2e.latency_min_s"), number(c["lat_lo"]) * 1e-3);
    EXPECT_EQ(*cs.metric("e2e.latency_max_s"), number(c["lat_hi"]) * 1e-3);
}
