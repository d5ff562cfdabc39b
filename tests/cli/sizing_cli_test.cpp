// End to end: `plimsoll fit | size | placement | budget` on the real executable, over a store
// holding the bundled sample runs.
#include <gtest/gtest.h>

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

class SizingCli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new QTemporaryDir;
        const Result r = plimsoll({"samples", "install"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
    }
    static Result plimsoll(QStringList args, const QString &db = {})
    {
        args.prepend(db.isEmpty() ? s_dir->filePath("store.db") : db);
        args.prepend("--db");
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(e);
        p.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(p.waitForFinished(60000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(),
                p.readAllStandardError().toStdString()};
    }
    static QTemporaryDir *s_dir;
};
QTemporaryDir *SizingCli::s_dir = nullptr;

const char *const kRamp = "sample:korvet-pipeline-produce-2026-08-11";

} // namespace

TEST_F(SizingCli, FitThePipelineRamp)
{
    const Result r = plimsoll({"fit", "--run", kRamp, "--scenarios", "pipeline/produce/step-",
                               "--x", "producers", "--y", "records_per_s", "--predict", "8,20",
                               "--resamples", "200", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["model"], "usl");
    for (const char *k : {"lambda", "sigma", "kappa", "n_star", "x_at_n_star", "r2", "weak", "ci",
                          "predictions"})
        EXPECT_TRUE(j.contains(k)) << k;
    EXPECT_NEAR(j["lambda"].get<double>(), 77000, 5000); // ~74.5k at one producer
    EXPECT_GT(j["r2"].get<double>(), 0.99);
    EXPECT_FALSE(j["weak"].get<bool>()); // 7 distinct producer counts
    EXPECT_EQ(j["points"], 7);           // the saturation summary is not a step
    ASSERT_EQ(j["predictions"].size(), 2u);
    const auto &p = j["predictions"][0];
    EXPECT_EQ(p["x"], 8.0);
    EXPECT_LE(p["lo"].get<double>(), p["y"].get<double>());
    EXPECT_GE(p["hi"].get<double>(), p["y"].get<double>());
    EXPECT_GT(p["y"].get<double>(), 409528);
    EXPECT_LT(p["y"].get<double>(), 528756);
    const double nStar = j["n_star"].get<double>();
    EXPECT_GT(nStar, 12);
    EXPECT_LT(nStar, 30);

    const Result ranged = plimsoll({"fit", "--run", kRamp, "--scenarios", "pipeline/produce/",
                                    "--fit-range", "1:9", "--resamples", "0", "--json"});
    ASSERT_EQ(ranged.exitCode, 0) << ranged.err;
    EXPECT_EQ(ranged.json()["points"], 5);
    EXPECT_TRUE(ranged.json()["weak"].get<bool>());

    EXPECT_EQ(plimsoll({"fit", "--run", "nope", "--scenarios", "x"}).exitCode, 1);
    EXPECT_EQ(plimsoll({"fit", "--run", kRamp, "--scenarios", "p", "--fit-range", "zz"}).exitCode, 2);
}

TEST_F(SizingCli, SizeSixHundredThousand)
{
    const Result r = plimsoll({"size", "--rate", "600k", "--record-size", "700B", "--retention",
                               "60s", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["brokers"], 3);
    EXPECT_EQ(j["shards"], 24);
    EXPECT_EQ(j["redis_nodes"], 3);
    EXPECT_EQ(j["partitions"], 96);
    EXPECT_EQ(j["bottleneck"], "Redis shard CPU");
    EXPECT_GT(j["memory_usage_bytes"].get<double>(), 50.0 * (1 << 30));
    EXPECT_LT(j["memory_usage_bytes"].get<double>(), 60.0 * (1 << 30));
    ASSERT_TRUE(j["p99_s"].is_number());
    for (const auto &line : j["lines"])
        EXPECT_FALSE(line["reasoning"].get<std::string>().empty()) << line["key"];
    bool brokersFromRamp = false;
    for (const auto &line : j["lines"])
        if (line["key"] == "brokers")
            brokersFromRamp = line["runs"] == nlohmann::json::array({kRamp});
    EXPECT_TRUE(brokersFromRamp);

    // MB/s targets, headroom and node loss; M suffix.
    const Result bytes = plimsoll({"size", "--rate", "400MB/s", "--record-size", "1KB", "--json"});
    ASSERT_EQ(bytes.exitCode, 0) << bytes.err;
    EXPECT_NEAR(bytes.json()["rate"].get<double>(), 409600, 1);
    const Result safe = plimsoll({"size", "--rate", "1.2M", "--headroom", "20%",
                                  "--tolerate-node-loss", "--json"});
    ASSERT_EQ(safe.exitCode, 0) << safe.err;
    EXPECT_GE(safe.json()["brokers"].get<int>(), 7);
    EXPECT_EQ(plimsoll({"size", "--rate", "fast"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"size", "--rate", "1k", "--retention", "forever"}).exitCode, 2);
    // Text form names the bottleneck.
    const Result text = plimsoll({"size", "--rate", "150k"});
    EXPECT_NE(text.out.find("Bottleneck"), std::string::npos);
}

TEST_F(SizingCli, PlacementOfNinetySixOnTwentyFour)
{
    const Result r = plimsoll({"placement", "--shards", "24", "--partitions", "96", "--topic",
                               "logs", "--brokers", "3", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    ASSERT_EQ(j["shards"].size(), 24u);
    int total = 0;
    for (const auto &s : j["shards"])
        total += s["count"].get<int>();
    EXPECT_EQ(total, 96);
    EXPECT_DOUBLE_EQ(j["mean"].get<double>(), 4.0);
    EXPECT_DOUBLE_EQ(j["max_skew"].get<double>(), j["max"].get<double>() / 4.0);
    EXPECT_EQ(j["recommended"]["partitions"].get<int>() % 3, 0);
    EXPECT_GE(j["recommended"]["partitions"].get<int>(), 96);
    EXPECT_EQ(plimsoll({"placement", "--shards", "0", "--partitions", "4"}).exitCode, 2);
}

TEST_F(SizingCli, BudgetSelectsTheBestPointPerConfiguration)
{
    const Result r = plimsoll({"budget", "--p99", "30ms", "--run", kRamp, "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    EXPECT_DOUBLE_EQ(j["budget"]["p99_s"].get<double>(), 0.030);
    EXPECT_EQ(j["points"].size(), 7u);
    EXPECT_EQ(j["qualifying"], 5); // p99 5.4 … 24.7 ms
    ASSERT_EQ(j["per_configuration"].size(), 1u);
    const auto &best = j["per_configuration"][0]["best"];
    EXPECT_EQ(best["throughput"], 528756.0);
    EXPECT_EQ(best["scenario"], "pipeline/produce/step-9");
    EXPECT_TRUE(best["little"].contains("ratio"));
    const Result none = plimsoll({"budget", "--p99", "1ms", "--json"});
    ASSERT_EQ(none.exitCode, 0);
    EXPECT_FALSE(none.json()["overall"]["found"].get<bool>());
}

// The runs a sizing rests on: the sample runs count while the store has nothing of its own, are
// left out (and said to be) once a ramp of one's own is imported, and come back when asked.
TEST_F(SizingCli, SampleRunsStepAsideForRunsOfOnesOwn)
{
    QTemporaryDir dir;
    const QString db = dir.filePath("own.db");
    ASSERT_EQ(plimsoll({"samples", "install"}, db).exitCode, 0);
    Result r = plimsoll({"size", "--rate", "600k", "--samples", "exclude"}, db);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("6 sample runs left out as asked; --samples include uses them"), std::string::npos) << r.err;
    EXPECT_EQ(plimsoll({"size", "--rate", "600k", "--samples", "some"}, db).exitCode, 2);
    r = plimsoll({"size", "--rate", "600k", "--since", "2026-13-01"}, db);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("2026-13-01"), std::string::npos) << r.err;

    // A ramp of one's own at half the samples' per-shard capacity: 3 steps, 12 shards.
    const QString ramp = dir.filePath("own.jsonl");
    {
        QFile f(ramp);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        for (int producers : {1, 2, 4}) {
            const nlohmann::json line = {
                {"format", "plimsoll-trend/1"}, {"run_key", "own:ramp"}, {"timestamp", "2026-11-30T02:00:00Z"},
                {"tool", "korvet-pipeline-benchmark"}, {"target", "korvet"},
                {"scenario", "pipeline/produce/step-" + std::to_string(producers)}, {"kind", "ramp-step"},
                {"topology", {{"brokers", 3}, {"shards", 12}, {"partitions", 48}, {"producers", producers}}},
                {"metrics", {{"records_per_s", 50000.0 * producers}, {"broker_cpu_avg", 0.05 * producers},
                             {"shard_cpu_max", 0.2 * producers}, {"latency_p99_s", 0.005}}}};
            f.write(QByteArray::fromStdString(line.dump()) + "\n");
        }
    }
    ASSERT_EQ(plimsoll({"import", ramp}, db).exitCode, 0);
    r = plimsoll({"size", "--rate", "600k", "--json"}, db);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json own = r.json();
    EXPECT_EQ(own["evidence"]["runs"], nlohmann::json::array({"own:ramp"}));
    EXPECT_EQ(own["evidence"]["samples_left_out"], 6);
    // 50k records/s on 12 shards at 20 % CPU: 4,167 per shard at 20 %, 18,750 at 90 %: 600k needs 32.
    EXPECT_EQ(own["shards"], 32);
    r = plimsoll({"size", "--rate", "600k"}, db);
    EXPECT_EQ(r.out.rfind("Evidence: every run (1 run; 6 sample runs left out: the selection holds 1 run of your own "
                          "with sizing evidence)",
                          0),
              0u)
        << r.out;
    r = plimsoll({"size", "--rate", "600k", "--samples", "include", "--json"}, db);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.json()["evidence"]["runs"].size(), 7u);
    EXPECT_EQ(r.json()["evidence"]["samples_left_out"], 0);
    // Picked by hand, a sample counts, as picked.
    r = plimsoll({"size", "--rate", "600k", "--run", kRamp, "--json"}, db);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.json()["shards"], 24);
    EXPECT_EQ(plimsoll({"size", "--rate", "600k", "--run", "no-such-run"}, db).exitCode, 1);
}
