// End to end: `plimsoll budget` over OpenMessaging Benchmark results imported as a user imports
// them — a run whose windows are all zero is named and left out of every pick, in the text and
// in --json; the corpus's runs with a few empty windows among real ones stay in.
#include "support/tempdir.h"

#include "support/clirun.h"
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace {

using Result = plimsoll::test::CliRun;

class BudgetCli : public ::testing::Test
{
protected:
    QTemporaryDir dir;

    Result plimsoll(const QStringList &args) const
    {
        return plimsoll::test::runPlimsoll(dir.filePath(QStringLiteral("store.db")), args);
    }

    // An OpenMessaging Benchmark result whose six windows are all zero: the producers sent
    // nothing (a broker that refused them, a misnamed topic), so OMB recorded 0 and p99 0.
    QString allZeroOmb() const
    {
        nlohmann::json zeros = nlohmann::json::array();
        for (int i = 0; i < 6; ++i)
            zeros.push_back(0.0);
        const nlohmann::json doc = {{"workload", "1 topic / 16 partitions / 1kb / 4 producers"},
                                    {"driver", "Kafka"},
                                    {"publishRate", zeros},
                                    {"consumeRate", zeros},
                                    {"publishLatency99pct", zeros},
                                    {"aggregatedPublishLatencyAvg", 0.0},
                                    {"aggregatedPublishLatency50pct", 0.0},
                                    {"aggregatedPublishLatency99pct", 0.0},
                                    {"aggregatedPublishLatency999pct", 0.0},
                                    {"aggregatedPublishLatencyQuantiles", nlohmann::json::object()}};
        QFile f(dir.filePath(QStringLiteral("omb-all-zero.json")));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(doc.dump()));
        return f.fileName();
    }
};

} // namespace

TEST_F(BudgetCli, AnAllZeroOmbRunIsNamedAndLeftOutOfEveryPick)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string corpus = plimsoll::test::corpusPath("omb/");
    ASSERT_EQ(plimsoll({"import", allZeroOmb(),
                        QString::fromStdString(corpus + "redpanda-data__openmessaging-benchmark__blog-results-kafka-latency-sync-200k.json"),
                        QString::fromStdString(corpus + "luky116__openmessaging-benchmark__100-partition,10-producer,10-consumer.json")})
                  .exitCode,
              0);

    const Result json = plimsoll({"budget", "--p99", "25ms", "--json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const nlohmann::json j = nlohmann::json::parse(json.out);
    // The empty run, and only it: the Pulsar run's two empty windows among four real ones are a
    // measurement (a mean of 14k records/s, p99 7.98 s), not nothing.
    ASSERT_EQ(j["left_out"].size(), 1u) << j["left_out"].dump();
    EXPECT_EQ(j["left_out"][0]["scenario"], "1 topic / 16 partitions / 1kb / 4 producers");
    EXPECT_EQ(j["left_out"][0]["reason"], "left out, it measured nothing: throughput 0/s and p99 0 (empty windows)");
    int leftOutPoints = 0;
    for (const auto &p : j["points"]) {
        leftOutPoints += p["left_out"].get<bool>();
        if (p["left_out"].get<bool>()) {
            EXPECT_FALSE(p["qualifies"].get<bool>());
        }
    }
    EXPECT_EQ(leftOutPoints, 1);
    // Its configuration has no pick and says why; Kafka's product pick is the 200K-rate run, and
    // the overall pick is a real point.
    bool sawEmptyConfiguration = false;
    for (const auto &s : j["per_configuration"]) {
        if (s["configuration"].get<std::string>().starts_with("1 topic / 16 partitions")) {
            sawEmptyConfiguration = true;
            EXPECT_FALSE(s["found"].get<bool>());
            EXPECT_TRUE(s["all_left_out"].get<bool>());
            EXPECT_EQ(s["missed_because"], "its only point measured nothing: throughput 0/s and p99 0 (empty windows)");
        } else if (s["found"].get<bool>()) {
            EXPECT_GT(s["best"]["throughput"].get<double>(), 0);
        }
    }
    EXPECT_TRUE(sawEmptyConfiguration);
    for (const auto &s : j["per_product"]) {
        if (s["found"].get<bool>()) {
            EXPECT_GT(s["best"]["throughput"].get<double>(), 0) << s.dump();
        }
    }
    ASSERT_TRUE(j["overall"]["found"].get<bool>());
    EXPECT_GT(j["overall"]["best"]["p99_s"].get<double>(), 0);

    // The text says how many were left out, and lists each with its run and reason.
    const Result text = plimsoll({"budget", "--p99", "25ms"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("(1 left out: they measured nothing)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("no pick: its only point measured nothing"), std::string::npos) << text.out;
    const auto listed = text.out.find("Left out of every pick:\n");
    ASSERT_NE(listed, std::string::npos) << text.out;
    const std::string list = text.out.substr(listed);
    EXPECT_NE(list.find("run " + j["left_out"][0]["run"].get<std::string>() +
                        ", 1 topic / 16 partitions / 1kb / 4 producers: measured nothing: throughput 0/s and p99 0"),
              std::string::npos)
        << list;
}
