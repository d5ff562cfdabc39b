// Debian's redis-benchmark (redis-tools) against the test redis-server, in --csv, -q and full
// text modes; each output is imported and the imported numbers must equal what the tool
// printed. Needs the ctest fixture "services" (tests/services).
#include "importers/importers.h"
#include "runner/servicesenv.h"

#include <QBuffer>
#include <QFile>
#include <QProcess>

#include <gtest/gtest.h>

#include <regex>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

class RedisBenchmarkLive : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_NO_FATAL_FAILURE(ServicesEnv::load(m_env)); }

    // Runs redis-benchmark with a small request count, keeps its stdout as an artifact.
    std::string run(const QStringList &mode, const QString &artifact)
    {
        QProcess p;
        QStringList args{"-h", QString::fromStdString(m_env.value("PLIMSOLL_TEST_REDIS_HOST")),
                         "-p", QString::fromStdString(m_env.value("PLIMSOLL_TEST_REDIS_PORT")),
                         "-n", "2000", "-c", "5", "-t", "set,get"};
        p.start("redis-benchmark", args + mode);
        EXPECT_TRUE(p.waitForFinished(120000)) << "redis-benchmark did not finish";
        EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
        const QByteArray out = p.readAllStandardOutput();
        QFile f(QString(PLIMSOLL_ARTIFACT_DIR) + "/" + artifact);
        if (f.open(QIODevice::WriteOnly))
            f.write(out);
        return out.toStdString();
    }

    ImportResult import(const std::string &text, const std::string &uri)
    {
        QBuffer buffer;
        buffer.setData(QByteArray::fromStdString(text));
        buffer.open(QIODevice::ReadOnly);
        const Importer &importer = redisBenchmarkImporter();
        EXPECT_GT(importer.sniff(text), 0);
        return importer.parse(buffer, ImportOptions{uri}, {});
    }

    static const ScenarioRecord &scenario(const ImportResult &r, const std::string &name)
    {
        for (const auto &s : r.runs.at(0).scenarios)
            if (s.name == name)
                return s;
        ADD_FAILURE() << "no scenario " << name;
        static const ScenarioRecord none;
        return none;
    }

    ServicesEnv m_env;
};

double number(const std::string &s)
{
    return std::stod(s);
}

} // namespace

TEST_F(RedisBenchmarkLive, CsvNumbersEqualTheTools)
{
    const std::string out = run({"--csv"}, "redis-benchmark-c5.csv");
    const ImportResult r = import(out, "redis-benchmark-c5.csv");
    ASSERT_TRUE(r.ok()) << r.error->describe("csv");
    std::smatch m;
    const std::regex get(R"re("GET","([0-9.]+)","([0-9.]+)","([0-9.]+)","([0-9.]+)","([0-9.]+)","([0-9.]+)","([0-9.]+)")re");
    ASSERT_TRUE(std::regex_search(out, m, get)) << out;
    const ScenarioRecord &s = scenario(r, "redis-benchmark/GET/c-5");
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), number(m[1]));
    EXPECT_DOUBLE_EQ(*s.metric("latency_avg_s"), number(m[2]) * 1e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p50_s"), number(m[4]) * 1e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), number(m[6]) * 1e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_max_s"), number(m[7]) * 1e-3);
}

TEST_F(RedisBenchmarkLive, QuietNumbersEqualTheTools)
{
    const std::string out = run({"-q"}, "redis-benchmark-quiet.txt");
    const ImportResult r = import(out, "redis-benchmark-quiet.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("quiet");
    std::smatch m;
    const std::regex set(R"((?:^|[\r\n])SET: ([0-9.]+) requests per second, p50=([0-9.]+) msec)");
    ASSERT_TRUE(std::regex_search(out, m, set)) << out;
    const ScenarioRecord &s = scenario(r, "redis-benchmark/SET");
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), number(m[1]));
    EXPECT_DOUBLE_EQ(*s.metric("latency_p50_s"), number(m[2]) * 1e-3);
}

TEST_F(RedisBenchmarkLive, FullTextNumbersEqualTheTools)
{
    const std::string out = run({}, "redis-benchmark-full.txt");
    const ImportResult r = import(out, "redis-benchmark-full.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("full");
    std::smatch m;
    const std::regex get(R"(====== GET ======[\s\S]*?throughput summary: ([0-9.]+) requests per second[\s\S]*?max\s*\n\s*([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+))");
    ASSERT_TRUE(std::regex_search(out, m, get)) << out;
    const ScenarioRecord &s = scenario(r, "redis-benchmark/GET/c-5");
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), number(m[1]));
    EXPECT_DOUBLE_EQ(*s.metric("latency_avg_s"), number(m[2]) * 1e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p50_s"), number(m[4]) * 1e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p95_s"), number(m[5]) * 1e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), number(m[6]) * 1e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_max_s"), number(m[7]) * 1e-3);
    EXPECT_DOUBLE_EQ(*s.metric("redis.requests"), 2000);
    EXPECT_EQ(s.topology.clients, 5);
}
