// End to end: `plimsoll changes` over a stepped perf-test sweep imported beside a nightly series
// and beside the corpus's perf-test output that states no time: the sweep's steps are loads,
// not a history (no change point across them, said once in text and JSON), the file-dated runs
// are marked, and `compare` between two steps keeps its offered-rate rules.
#include "support/tempdir.h"

#include "support/clirun.h"
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cstdio>

namespace {

using Result = plimsoll::test::CliRun;

class TrendIdentityCli : public ::testing::Test
{
protected:
    QTemporaryDir dir;

    Result plimsoll(const QStringList &args) const
    {
        return plimsoll::test::runPlimsoll(dir.filePath(QStringLiteral("store.db")), args, 60000);
    }
    QString write(const QString &name, const std::string &text) const
    {
        return plimsoll::test::writeTestFile(dir.filePath(name), text);
    }

    // Seven steps of a kafka-producer-perf-test sweep (512-byte records at 5 … 55 MB/s offered,
    // as the corpus's broker-series harness runs them), an hour apart, with the offered rate
    // each file's path states; and 30 nights of a producer benchmark of its own.
    void SetUp() override
    {
        std::string text;
        const int mbPerS[] = {5, 10, 15, 25, 35, 45, 55};
        for (int i = 0; i < 7; ++i) {
            const double offered = mbPerS[i] * 1e6 / 512;
            char ts[32];
            std::snprintf(ts, sizeof ts, "2018-11-23T%02d:00:00Z", 12 + i);
            text += nlohmann::json{{"format", "plimsoll-trend/1"},
                                   {"run_key", "step-" + std::to_string(mbPerS[i])},
                                   {"timestamp", ts},
                                   {"tool", "kafka-producer-perf-test"},
                                   {"target", "kafka"},
                                   {"scenario", "producer"},
                                   {"topology", {{"producers", 1}, {"record_size_bytes", 512}}},
                                   {"metrics", {{"records_per_s", std::min(offered, 60000.0)},
                                                {"latency_p99_s", 0.003 * (i + 1)},
                                                {"offered_records_per_s", offered}}}}
                        .dump() +
                    "\n";
        }
        for (int d = 1; d <= 30; ++d) {
            char ts[32];
            std::snprintf(ts, sizeof ts, "2018-12-%02dT03:00:00Z", d);
            text += nlohmann::json{{"format", "plimsoll-trend/1"},
                                   {"run_key", "night-" + std::to_string(d)},
                                   {"timestamp", ts},
                                   {"tool", "kafka-producer-perf-test"},
                                   {"target", "kafka"},
                                   {"scenario", "producer/nightly"},
                                   {"topology", {{"producers", 4}}},
                                   {"metrics", {{"records_per_s", 200000 + (d * 37 % 7) * 100}}}}
                        .dump() +
                    "\n";
        }
        const Result imp = plimsoll({"import", write(QStringLiteral("runs.jsonl"), text)});
        ASSERT_EQ(imp.exitCode, 0) << imp.err;
    }
};

} // namespace

TEST_F(TrendIdentityCli, AStepSweepIsLoadsAndFileDatedRunsAreMarked)
{
    PLIMSOLL_REQUIRES_CORPUS();
    // Confluent's three producer runs, pasted from a doc: no time in them, so dated by the file.
    const Result imp = plimsoll(
        {"import", QString::fromStdString(plimsoll::test::corpusPath("kafka-perf/confluentinc__examples__multiregion.rst__producer-block.txt"))});
    ASSERT_EQ(imp.exitCode, 0) << imp.err;
    EXPECT_NE(imp.err.find("dated by the file's modification time"), std::string::npos) << imp.err;

    const Result json = plimsoll({"changes", "--json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const nlohmann::json j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["change_count"], 0) << j.dump(1);
    EXPECT_TRUE(j["baseline_changes"].empty()) << j["baseline_changes"].dump(1);
    // The sweep: seven loads of "producer", said once; each step its own one-point series.
    ASSERT_EQ(j["load_steps"].size(), 1u) << j["load_steps"].dump(1);
    const auto &steps = j["load_steps"][0];
    EXPECT_EQ(steps["scenario"], "producer");
    EXPECT_EQ(steps["keys"], nlohmann::json::array({"offered_rate"}));
    EXPECT_EQ(steps["loads"].size(), 7u);
    EXPECT_EQ(steps["runs"], 7);
    int producerSeries = 0, fileDated = 0;
    for (const auto &s : j["series"]) {
        if (s["scenario"] == "producer" && s["metric"] == "records_per_s") {
            ++producerSeries;
            EXPECT_EQ(s["points"], 1);
            EXPECT_NE(s["load"].get<std::string>().find("offered_rate="), std::string::npos);
        }
        if (s["time_inferred_points"].get<int>() > 0) {
            ++fileDated;
            EXPECT_NE(s["scenario"].get<std::string>().find("Replication"), std::string::npos) << s.dump();
            EXPECT_NE(s["note"].get<std::string>().find("dated by its file's modification time"), std::string::npos);
        }
        if (s["scenario"] == "producer/nightly") {
            EXPECT_EQ(s["points"], 30);
        }
    }
    EXPECT_EQ(producerSeries, 7);
    EXPECT_GT(fileDated, 0);

    const Result text = plimsoll({"changes"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("producer on kafka: 7 runs at 7 loads (offered_rate): each load is a series of its own"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("Single-region Replication (topic: single-region)  (topology.producers=1): its run is dated "
                            "by its file's modification time"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("1 scenario at several loads"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("of inferred time left out of the search"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("new baseline"), std::string::npos) << text.out;

    // Compare between two steps keeps its offered-rate rules: compatible, the offered rates
    // differ, the throughput is not comparable (not an incompatible baseline).
    const Result cmp = plimsoll({"compare", "--baseline", "step-5", "--current", "step-15", "--json"});
    ASSERT_EQ(cmp.exitCode, 0) << cmp.err;
    const nlohmann::json c = nlohmann::json::parse(cmp.out);
    ASSERT_EQ(c["scenarios"].size(), 1u);
    EXPECT_EQ(c["scenarios"][0]["status"], "compatible") << c["scenarios"][0].dump(1);
    EXPECT_TRUE(c["scenarios"][0]["offered"]["differs"].get<bool>());
    for (const auto &m : c["scenarios"][0]["metrics"])
        if (m["metric"] == "records_per_s") {
            EXPECT_EQ(m["verdict"], "not_comparable");
        }
}
