// End to end: `plimsoll fit` over sweeps of separate result files — the corpus's OMB results at
// different partition counts and kafka-producer-perf-test runs at stepped target rates — and
// `plimsoll size` showing the broker models side by side.
#include "support/tempdir.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
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

TEST_F(FitCli, OmbResultFilesOfDifferentWorkloadsAreNotPooled)
{
    PLIMSOLL_REQUIRES_CORPUS();
    // Three harnesses' workloads; the partition counts are stated only in their names.
    importCorpus({"omb/luky116__openmessaging-benchmark__100-partition,10-producer,10-consumer.json",
                  "omb/streamnative__openmessaging-benchmark__kafka-100-partitions-1kb-batched-1ms-1mb-ack-all-sync.json",
                  "omb/redpanda-data__openmessaging-benchmark__blog-results-kafka-latency-sync-200k.json"});
    const QStringList select{"fit", "--tool", "openmessaging-benchmark", "--x", "partitions",
                             "--resamples", "0", "--json"};
    // Before any contract: three workloads, each named with its points.
    const Result refused = plimsoll(select);
    EXPECT_EQ(refused.exitCode, 1) << refused.out;
    EXPECT_NE(refused.err.find("the selected points are of 3 workloads, and a sweep fits one"), std::string::npos)
        << refused.err;
    for (const char *w : {"1 topic / * partition / 1Kb (1 point)", "*-partitions-200K-rate-4-producer (1 point)",
                          "1 topic / * partitions / 2 producer / 2 consumer / 1Kb / 200K Rate (1 point)"})
        EXPECT_NE(refused.err.find(w), std::string::npos) << refused.err;
    // One workload alone: its run achieved the 200K rate its name states, so it measured
    // latency at that rate, not capacity, and says so.
    QStringList one = select;
    one << "--workload" << "*-partitions-200K-rate-4-producer";
    const Result single = plimsoll(one);
    ASSERT_EQ(single.exitCode, 0) << single.err;
    const auto s = single.json();
    EXPECT_EQ(s["answer"], "latency");
    EXPECT_TRUE(s["lambda"].is_null());
    EXPECT_NE(s["headline"].get<std::string>().find("The point achieved its offered rate of 200,000 rec/s: the "
                                                    "runs measured latency at that rate, not capacity"),
              std::string::npos)
        << s["headline"];
    EXPECT_NE(s["data"][0]["left_out"].get<std::string>().find("achieved its offered rate"), std::string::npos);
    // The other harness's workload, at one partition count with no rate: no scaling model.
    QStringList other = select;
    other << "--workload" << "1 topic / * partition / 1Kb";
    const Result lone = plimsoll(other);
    EXPECT_EQ(lone.exitCode, 1) << lone.out;
    EXPECT_NE(lone.err.find("one point, at N = 1: a scaling model needs points at two loads or more"),
              std::string::npos)
        << lone.err;
    const Result unknown = plimsoll(QStringList(select) << "--workload" << "no-such-workload");
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_NE(unknown.err.find("no selected point is of the workload 'no-such-workload'"), std::string::npos)
        << unknown.err;
}

TEST_F(FitCli, AFactorStatedOnlyInAHarnessPathKeepsRunsApart)
{
    PLIMSOLL_REQUIRES_CORPUS();
    // A harness's tree: the replication factor and the offered MB/s only in the directories.
    const QDir corpus(QString::fromStdString(plimsoll::test::corpusDir()));
    QStringList args{"import"};
    for (const auto &[replicas, mb] : {std::pair{1, 5}, {1, 15}, {1, 25}, {3, 35}, {3, 45}, {3, 55}}) {
        const QString dir = m_dir.filePath(QString("harness/%1-replicas/%2-throughput/0-trial").arg(replicas).arg(mb));
        ASSERT_TRUE(QDir().mkpath(dir));
        const QString file = dir + "/producer.txt";
        ASSERT_TRUE(QFile::link(corpus.filePath(QString("broker-series/aaronchlam__kafka-benchmarks__1-replicas_%1"
                                                        "-throughput_0-trial_producer.txt")
                                                    .arg(mb)),
                                file));
        args << file;
    }
    const Result imported = plimsoll(args);
    ASSERT_EQ(imported.exitCode, 0) << imported.err << imported.out;
    const Result refused = plimsoll({"fit", "--tool", "kafka-producer-perf-test", "--x", "offered_rate", "--json"});
    EXPECT_EQ(refused.exitCode, 1) << refused.out;
    EXPECT_NE(refused.err.find("topology.replication (1, 3)"), std::string::npos) << refused.err;
    // Left out of the contract by hand, the replication factor is listed as differing; the
    // offered rate came from the directory's MB/s and the records' size.
    const Result pooled = plimsoll({"fit", "--tool", "kafka-producer-perf-test", "--x", "offered_rate",
                                    "--contract-exclude", "topology.replication", "--json"});
    ASSERT_EQ(pooled.exitCode, 0) << pooled.err;
    const auto j = pooled.json();
    ASSERT_EQ(j["data"].size(), 6u);
    EXPECT_NEAR(j["data"][0]["x"].get<double>(), 5e6 / 512, 1e-6);
    EXPECT_NE(j["data"][0]["x_inferred_from"].get<std::string>().find("inferred on import"), std::string::npos)
        << j["data"][0]["x_inferred_from"];
    bool listed = false;
    for (const auto &k : j["left_out"])
        listed = listed || k["key"] == "topology.replication";
    EXPECT_TRUE(listed) << j["left_out"];
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
    // Against an offered rate the answer is the knee, never a slope.
    EXPECT_EQ(j["answer"], "knee");
    EXPECT_EQ(j["model"], "knee");
    EXPECT_TRUE(j["lambda"].is_null());
    EXPECT_TRUE(j["n_star"].is_null());
    ASSERT_TRUE(j["knee"].is_object()) << j["knee_note"];
    EXPECT_EQ(j["headline"], j["knee"]["reason"]);
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
    EXPECT_NE(text.out.find("7 points of "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(" from 7 runs"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("lambda"), std::string::npos) << "no slope against an offered rate:\n" << text.out;
}

TEST_F(FitCli, SelectionsAndDomains)
{
    ASSERT_EQ(plimsoll({"samples", "install"}).exitCode, 0);
    // The page's broker findings are a sample sweep of their own.
    const Result brokers = plimsoll({"fit", "--run", "sample:korvet-broker-scaling", "--x", "brokers", "--json"});
    ASSERT_EQ(brokers.exitCode, 0) << brokers.err;
    // Two broker counts fix one parameter: linear, λ by least squares through both.
    EXPECT_EQ(brokers.json()["model"], "linear");
    EXPECT_NEAR(brokers.json()["lambda"].get<double>(), 176000, 1);
    EXPECT_TRUE(brokers.json()["sigma"].is_number());
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
    EXPECT_EQ(models["answers"][0]["units"], 7);
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
