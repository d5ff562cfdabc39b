// End to end: `plimsoll compare RUN RUN [RUN...]` on results whose scenario names differ — the
// corpus's OMB runs at two offered rates and (beside a copy at 5,000 partitions) two partition
// counts, its redis-benchmark run at 50 clients beside synthetic runs at 10 and 100 — and the
// words for input that cannot be compared.
#include "support/tempdir.h"

#include "support/clirun.h"
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace {

using nlohmann::json;

using Result = plimsoll::test::CliRun;

const char *kOmb200k = "omb/redpanda-data__openmessaging-benchmark__blog-results-kafka-latency-sync-200k.json";
const char *kOmb1000k = "omb/redpanda-data__openmessaging-benchmark__blog-results-kafka-throughput-sync.json";
const char *kOmbStreamnative =
    "omb/streamnative__openmessaging-benchmark__kafka-100-partitions-1kb-batched-1ms-1mb-ack-all-sync.json";
const char *kRedis50 = "redis-benchmark/botbabai__valkey-redis-benchmark__results_redis_clients_50.csv";

class CompareManyCli : public ::testing::Test
{
protected:
    QTemporaryDir dir;

    Result plimsoll(const QStringList &args) const
    {
        return plimsoll::test::runPlimsoll(dir.filePath(QStringLiteral("store.db")), args);
    }
    QString write(const QString &name, const std::string &text) const
    {
        return plimsoll::test::writeTestFile(dir.filePath(name), text);
    }
    // Imports a file and gives the key of the run it made (the store's newest).
    std::string import(const QString &path) const
    {
        const Result r = plimsoll({QStringLiteral("import"), path});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        const Result runs = plimsoll({QStringLiteral("runs"), QStringLiteral("--json")});
        const json j = runs.json();
        std::string newest;
        int64_t id = -1;
        for (const json &run : j.is_array() ? j : j.at("runs"))
            if (run.at("id").get<int64_t>() > id) {
                id = run.at("id").get<int64_t>();
                newest = run.at("run_key").get<std::string>();
            }
        return newest;
    }
    static QString corpus(const char *name)
    {
        return QString::fromStdString(plimsoll::test::corpusPath(name));
    }
    static std::string read(const QString &path)
    {
        std::ifstream in(path.toStdString(), std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }
    static const json &row(const json &report, const std::string &metric)
    {
        for (const json &r : report.at("table"))
            if (r.at("metric") == metric)
                return r;
        ADD_FAILURE() << "no row for " << metric;
        static const json none = json::object();
        return none;
    }
};

TEST_F(CompareManyCli, OmbRunsAtTwoOfferedRatesAlignByTheRate)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string a = import(corpus(kOmb200k));
    const std::string b = import(corpus(kOmb1000k));
    const Result text = plimsoll({"compare", QString::fromStdString(a), QString::fromStdString(b)});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("Scenarios aligned by offered rate: 200,000 rec/s ↔ 1,000,000 rec/s."),
              std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("only in"), std::string::npos) << text.out;
    // Throughput asked for at two rates does not compare; p99 does, and it rose from 19.7 ms to 1.46 s.
    EXPECT_NE(text.out.find("records_per_s            not_comparable  200,065 rec/s  590,550 rec/s"), std::string::npos)
        << text.out;

    const json j = plimsoll({"compare", QString::fromStdString(a), QString::fromStdString(b), "--json"}).json();
    EXPECT_EQ(j.at("alignment").at("runs").at(0).at("by"), "load factor");
    EXPECT_EQ(j.at("alignment").at("runs").at(0).at("factors").at(0).at("factor"), "offered_rate");
    const json &p99 = row(j, "latency_p99_s").at("cells");
    EXPECT_NEAR(p99.at(0).at("value").get<double>(), 0.0197, 0.0005);
    EXPECT_NEAR(p99.at(1).at("value").get<double>(), 1.46, 0.01);
    EXPECT_EQ(p99.at(1).at("scenario"), "100-partitions-1000K-rate-4-producer");
    EXPECT_EQ(p99.at(1).at("verdict"), "regression");
    EXPECT_EQ(row(j, "records_per_s").at("cells").at(1).at("verdict"), "not_comparable");
    // The pair's report is the nightly gate's, as before, beside the table.
    EXPECT_EQ(j.at("current").at("run_key"), b);
    EXPECT_TRUE(j.at("only_in_current").empty());
}

TEST_F(CompareManyCli, OmbRunsAtTwoPartitionCountsAlignByPartitionsAndCompare)
{
    PLIMSOLL_REQUIRES_CORPUS();
    // The same OMB result said to be at 5,000 partitions, latencies doubled: the workload name is
    // where OMB's old schema states its partitions.
    json omb = json::parse(read(corpus(kOmb200k)));
    omb["workload"] = "5000-partitions-200K-rate-4-producer";
    for (auto &[key, value] : omb.items())
        if (key.starts_with("aggregatedPublishLatency") && value.is_number())
            value = value.get<double>() * 2;
    const std::string a = import(corpus(kOmb200k));
    const std::string b = import(write("5000-partitions.json", omb.dump()));
    const json j = plimsoll({"compare", QString::fromStdString(a), QString::fromStdString(b), "--json"}).json();
    EXPECT_EQ(j.at("alignment").at("text"), "Scenarios aligned by partitions: 100 ↔ 5,000.");
    const json &avg = row(j, "latency_avg_s").at("cells");
    EXPECT_NEAR(avg.at(1).at("delta_percent").get<double>(), 100.0, 0.5);
    EXPECT_EQ(avg.at(1).at("verdict"), "regression"); // compared, not refused as another contract
    EXPECT_EQ(j.at("summary").at("incompatible"), 0);
}

TEST_F(CompareManyCli, RedisBenchmarkAtThreeClientCountsAlignsByClients)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string header =
        "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\","
        "\"p99_latency_ms\",\"max_latency_ms\"\n";
    const std::string c50 = import(corpus(kRedis50));
    const std::string c10 = import(write("redis_clients_10.csv", header +
                                                                     "\"SET\",\"100000.00\",\"0.050\",\"0.010\",\"0.047\",\"0.071\",\"0.100\",\"0.400\"\n"
                                                                     "\"GET\",\"110000.00\",\"0.045\",\"0.010\",\"0.043\",\"0.063\",\"0.090\",\"0.300\"\n"));
    const std::string c100 = import(write("redis_clients_100.csv", header +
                                                                       "\"SET\",\"230000.00\",\"0.400\",\"0.050\",\"0.390\",\"0.600\",\"0.900\",\"2.000\"\n"
                                                                       "\"GET\",\"240000.00\",\"0.380\",\"0.050\",\"0.370\",\"0.550\",\"0.800\",\"1.900\"\n"));
    const QStringList runs{QString::fromStdString(c50), QString::fromStdString(c10), QString::fromStdString(c100)};
    const Result text = plimsoll(QStringList{"compare"} + runs);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("Scenarios aligned by clients: 50 ↔ 10 ↔ 100."), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("redis-benchmark/SET/c-50  B: redis-benchmark/SET/c-10  C: redis-benchmark/SET/c-100"),
              std::string::npos)
        << text.out;

    const json j = plimsoll(QStringList{"compare"} + runs + QStringList{"--json"}).json();
    ASSERT_EQ(j.at("runs").size(), 3u);
    EXPECT_TRUE(j.at("runs").at(0).at("baseline").get<bool>());
    for (const json &r : j.at("table")) {
        if (r.at("scenario") != "redis-benchmark/SET/c-50" || r.at("metric") != "records_per_s")
            continue;
        EXPECT_NEAR(r.at("cells").at(0).at("value").get<double>(), 224215.23, 0.01);
        EXPECT_NEAR(r.at("cells").at(1).at("value").get<double>(), 100000, 0.01);
        EXPECT_NEAR(r.at("cells").at(2).at("value").get<double>(), 230000, 0.01);
        EXPECT_NEAR(r.at("cells").at(1).at("delta_percent").get<double>(), (100000 / 224215.23 - 1) * 100, 0.01);
        EXPECT_EQ(r.at("cells").at(2).at("scenario"), "redis-benchmark/SET/c-100");
    }
    // The 19 tests only the corpus run has are in one run only, by name.
    EXPECT_EQ(j.at("comparisons").at(0).at("only_in_baseline").size(), 19u);

    // --baseline picks another of them: the 10-client run, listed where it was.
    const json rebased = plimsoll(QStringList{"compare"} + runs + QStringList{"--baseline", runs[1], "--json"}).json();
    EXPECT_TRUE(rebased.at("runs").at(1).at("baseline").get<bool>());
    EXPECT_EQ(rebased.at("alignment").at("text"), "Scenarios aligned by clients: 50 ↔ 10 (baseline) ↔ 100.");
}

TEST_F(CompareManyCli, SingleScenarioRunsOfOtherSettingsAlignByPositionAndSayWhatDiffers)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string a = import(corpus(kOmb200k));
    const std::string b = import(corpus(kOmbStreamnative));
    const json j = plimsoll({"compare", QString::fromStdString(a), QString::fromStdString(b), "--json"}).json();
    const std::string text = j.at("alignment").at("text");
    EXPECT_EQ(text.rfind("Scenarios aligned by position (one scenario each); differing in producers: 4 ↔ 2", 0), 0u)
        << text;
    // More than one setting differs: the values stand side by side, the verdict says why there is none.
    const json &cell = row(j, "latency_p99_s").at("cells").at(1);
    EXPECT_EQ(cell.at("verdict"), "incompatible");
    EXPECT_NE(cell.at("note").get<std::string>().find("topology.producers (4 -> 2)"), std::string::npos) << cell;
    EXPECT_TRUE(cell.at("value").is_number());
}

TEST_F(CompareManyCli, InputThatCannotBeComparedIsNamed)
{
    const Result install = plimsoll({"samples", "install"});
    ASSERT_EQ(install.exitCode, 0) << install.err;
    const Result one = plimsoll({"compare", "1"});
    EXPECT_EQ(one.exitCode, 2);
    EXPECT_NE(one.err.find("compare needs two or more runs"), std::string::npos) << one.err;
    const Result none = plimsoll({"compare"});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("compare needs two or more runs"), std::string::npos) << none.err;

    const json runs = plimsoll({"runs", "--json"}).json();
    const json &list = runs.is_array() ? runs : runs.at("runs");
    const std::string key = list.at(0).at("run_key");
    const std::string id = std::to_string(list.at(0).at("id").get<int64_t>());
    const Result twice = plimsoll({"compare", QString::fromStdString(id), "2", QString::fromStdString(key)});
    EXPECT_EQ(twice.exitCode, 2);
    EXPECT_NE(twice.err.find("run '" + key + "' is named twice (as " + id + " and " + key + "): compare each run once"),
              std::string::npos)
        << twice.err;

    const Result unknown = plimsoll({"compare", "1", "2", "no-such-run"});
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_NE(unknown.err.find("no run 'no-such-run'"), std::string::npos) << unknown.err;

    const Result previous = plimsoll({"compare", "1", "2", "--previous"});
    EXPECT_EQ(previous.exitCode, 2);
    EXPECT_NE(previous.err.find("--previous compares one run, given with --current RUN"), std::string::npos)
        << previous.err;
}

} // namespace
