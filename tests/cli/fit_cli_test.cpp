// End to end: `plimsoll fit` over sweeps of separate result files — the corpus's OMB results at
// different partition counts and kafka-producer-perf-test runs at stepped target rates — and
// `plimsoll size` showing the broker models side by side.
#include "support/tempdir.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace {

struct Result
{
    int exitCode = -1;
    std::string out;
    std::string err;
    nlohmann::json json() const { return nlohmann::json::parse(out); }
};

class FitCli : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_TRUE(m_dir.isValid()); }
    Result plimsoll(QStringList args) const
    {
        args.prepend(m_dir.filePath("store.db"));
        args.prepend("--db");
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(e);
        p.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(p.waitForFinished(120000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(),
                p.readAllStandardError().toStdString()};
    }
    void importCorpus(const QStringList &files) const
    {
        QStringList args{"import"};
        for (const QString &f : files)
            args << QDir(QString::fromStdString(plimsoll::test::corpusDir())).filePath(f);
        const Result r = plimsoll(args);
        ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    }
    QTemporaryDir m_dir;
};

} // namespace

TEST_F(FitCli, OmbResultFilesAtDifferentPartitionCountsLineUpIntoASweep)
{
    PLIMSOLL_REQUIRES_CORPUS();
    // The partition counts are stated only in the workload names (inferred on import).
    importCorpus({"omb/luky116__openmessaging-benchmark__100-partition,10-producer,10-consumer.json",
                  "omb/streamnative__openmessaging-benchmark__kafka-100-partitions-1kb-batched-1ms-1mb-ack-all-sync.json",
                  "omb/redpanda-data__openmessaging-benchmark__blog-results-kafka-latency-sync-200k.json"});
    const QStringList select{"fit", "--tool", "openmessaging-benchmark", "--x", "partitions",
                             "--resamples", "0", "--json"};
    // Their producer counts differ: refused, naming the key.
    const Result refused = plimsoll(select);
    EXPECT_EQ(refused.exitCode, 1) << refused.out;
    EXPECT_NE(refused.err.find("do not share a tuning contract"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("topology.producers (absent, 2, 4)"), std::string::npos) << refused.err;

    QStringList leaving = select;
    for (const char *k : {"topology.producers", "topology.consumers", "tuning.*", "topology.record_size_bytes"})
        leaving << "--contract-exclude" << k;
    const Result r = plimsoll(leaving);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    ASSERT_EQ(j["data"].size(), 3u);
    EXPECT_EQ(j["runs"].size(), 3u);
    EXPECT_EQ(j["distinct_x"], 2); // 1 partition (the JSON's own word) and 100
    EXPECT_EQ(j["data"][0]["x"], 1.0);
    for (const auto &p : j["data"]) {
        EXPECT_FALSE(p["run"].get<std::string>().empty());
        EXPECT_FALSE(p["scenario"].get<std::string>().empty());
        EXPECT_FALSE(p["x_inferred_from"].is_null()) << p["scenario"];
    }
    bool listed = false;
    for (const auto &k : j["left_out"])
        listed = listed || k["key"] == "topology.producers";
    EXPECT_TRUE(listed);
    EXPECT_TRUE(j["weak"].get<bool>()); // two partition counts cannot fix three parameters
}

TEST_F(FitCli, ProducerPerfRunsAtSteppedTargetRatesFindTheKnee)
{
    PLIMSOLL_REQUIRES_CORPUS();
    QStringList files;
    for (const char *mb : {"5", "15", "25", "35", "45", "55"})
        files << QString("broker-series/aaronchlam__kafka-benchmarks__1-replicas_%1-throughput_0-trial_producer.txt")
                     .arg(mb);
    files << "kafka-perf/aaronchlam__kafka-benchmarks__1-replicas_10-throughput_0-trial_producer.txt";
    importCorpus(files);
    const Result r = plimsoll({"fit", "--tool", "kafka-producer-perf-test", "--since", "2018-11-23",
                               "--until", "2018-11-25", "--x", "offered_rate", "--resamples", "0",
                               "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    ASSERT_EQ(j["data"].size(), 7u);
    EXPECT_EQ(j["runs"].size(), 7u);
    // 5 MB/s of 512-byte records, read from the file name.
    EXPECT_NEAR(j["data"][0]["x"].get<double>(), 5e6 / 512, 1e-6);
    EXPECT_NE(j["data"][0]["x_inferred_from"].get<std::string>().find("5-throughput"), std::string::npos);
    EXPECT_NEAR(j["data"][6]["x"].get<double>(), 55e6 / 512, 1e-6);
    // The real p99s are noisy: at 25 MB/s p99 is 4.6 s against 1.4 s at 5 MB/s, which the
    // knee's latency rule (2× the low-load p99) takes as the knee.
    ASSERT_TRUE(j["knee"].is_object()) << j["knee_note"];
    EXPECT_EQ(j["knee"]["rule"], "latency");
    EXPECT_NEAR(j["knee"]["knee_offered"].get<double>(), 25e6 / 512, 1e-6);
    EXPECT_NEAR(j["knee"]["capacity"].get<double>(), 29294.271065, 0.01);
    // With the latency rule loosened, achieved keeps up to the 35 MB/s step and falls 13 % short
    // of the 45 MB/s one.
    const Result loose = plimsoll({"fit", "--tool", "kafka-producer-perf-test", "--x", "offered_rate",
                                   "--knee-latency-factor", "10", "--resamples", "0", "--json"});
    ASSERT_EQ(loose.exitCode, 0) << loose.err;
    const auto k = loose.json()["knee"];
    EXPECT_EQ(k["rule"], "shortfall");
    EXPECT_NEAR(k["knee_offered"].get<double>(), 45e6 / 512, 1e-6);
    EXPECT_NEAR(k["capacity"].get<double>(), 68355.577468, 0.01);
    EXPECT_TRUE(k["bounded"].get<bool>());
    EXPECT_EQ(plimsoll({"fit", "--tool", "kafka-producer-perf-test", "--x", "offered_rate",
                        "--knee-latency-factor", "1"})
                  .exitCode,
              2);
    // p99 against load, one entry per offered step.
    EXPECT_EQ(j["p99_against_load"].size(), 7u);

    const Result text = plimsoll({"fit", "--tool", "kafka-producer-perf-test", "--x", "offered_rate",
                                  "--resamples", "0"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("knee:"), std::string::npos);
    EXPECT_NE(text.out.find("7 points from 7 runs"), std::string::npos) << text.out;
}

TEST_F(FitCli, SelectionsAndDomains)
{
    ASSERT_EQ(plimsoll({"samples", "install"}).exitCode, 0);
    // The page's broker findings are a sample sweep of their own.
    const Result brokers = plimsoll({"fit", "--run", "sample:korvet-broker-scaling", "--x", "brokers", "--json"});
    ASSERT_EQ(brokers.exitCode, 0) << brokers.err;
    EXPECT_NEAR(brokers.json()["lambda"].get<double>(), 200000, 1);
    EXPECT_EQ(brokers.json()["points"], 2);
    // --run repeats; one run without the factor adds nothing.
    const Result two = plimsoll({"fit", "--run", "sample:korvet-broker-scaling", "--run",
                                 "sample:korvet-remote-archival", "--x", "brokers", "--json"});
    ASSERT_EQ(two.exitCode, 0) << two.err;
    EXPECT_EQ(two.json()["runs"].size(), 1u);
    EXPECT_EQ(plimsoll({"fit", "--x", "brokers"}).exitCode, 2);                 // no selection
    EXPECT_EQ(plimsoll({"fit", "--target", "korvet", "--x", "nodes"}).exitCode, 2); // no such factor
    EXPECT_EQ(plimsoll({"fit", "--target", "korvet", "--since", "yesterday"}).exitCode, 2);
    const Result none = plimsoll({"fit", "--target", "nothing-here", "--x", "brokers"});
    EXPECT_EQ(none.exitCode, 1);
    EXPECT_NE(none.err.find("no selected scenario has both topology.brokers and records_per_s"),
              std::string::npos)
        << none.err;

    // size: the broker answers side by side, and the user's choice.
    const Result size = plimsoll({"size", "--rate", "1.2M", "--json"});
    ASSERT_EQ(size.exitCode, 0) << size.err;
    const auto models = size.json()["broker_models"];
    EXPECT_EQ(models["taken"], "cpu");
    ASSERT_EQ(models["answers"].size(), 3u);
    EXPECT_EQ(models["answers"][0]["model"], "fitted");
    EXPECT_EQ(models["answers"][0]["units"], 11);
    EXPECT_EQ(models["answers"][1]["units"], 5);
    EXPECT_EQ(models["answers"][2]["units"], 6);
    const Result rule = plimsoll({"size", "--rate", "1.2M", "--broker-model", "rule", "--json"});
    ASSERT_EQ(rule.exitCode, 0) << rule.err;
    EXPECT_EQ(rule.json()["brokers"], 6);
    const Result text = plimsoll({"size", "--rate", "1.2M"});
    EXPECT_NE(text.out.find("Broker count by each model (the sizing took cpu"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("rule    6"), std::string::npos) << text.out;
    EXPECT_EQ(plimsoll({"size", "--rate", "1.2M", "--broker-model", "best"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"size", "--rate", "1.2M", "--key-pattern", "k:{topic}"}).exitCode, 2);

    // One partition model: placement recommends what the sizing picks for the measured shards.
    const Result place = plimsoll({"placement", "--shards", "24", "--partitions", "24", "--brokers", "3", "--json"});
    ASSERT_EQ(place.exitCode, 0) << place.err;
    const Result six = plimsoll({"size", "--rate", "600k", "--json"});
    EXPECT_EQ(place.json()["recommended"]["partitions"], six.json()["partitions"]);
    EXPECT_EQ(place.json()["recommended"]["partitions"], 96);
    EXPECT_EQ(plimsoll({"placement", "--shards", "24", "--partitions", "24", "--skew-target", "1.25",
                        "--json"})
                  .json()["recommended"]["skew_target"],
              1.25);
    EXPECT_EQ(plimsoll({"placement", "--shards", "24", "--partitions", "24", "--key-pattern", "x"}).exitCode, 2);
}
