// End to end: `plimsoll fit | size | placement | budget` on the real executable, over a store
// holding the bundled sample runs.
#include "model/store/store.h"
#include "support/hotpartitionramp.h"

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

// A stored step's measured partition rates laid on the shards: each shard's records/s is the sum
// of the partitions CRC16 puts on it; its skew stands beside the one partition counts predict.
TEST_F(SizingCli, PlacementLaysAStepsMeasuredPartitionLoadOnTheShards)
{
    const QString db = s_dir->filePath("load.db"), file = s_dir->filePath("load.jsonl");
    const std::string lines = plimsoll::test::hotPartitionRampJsonl();
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(lines));
    f.close();
    ASSERT_EQ(plimsoll({"import", file}, db).exitCode, 0);

    const Result r = plimsoll({"placement", "--shards", "3", "--load", "ramp-hot", "--topic", "orders", "--json"}, db);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["partitions"], 8) << "the run's measured partitions";
    const auto &load = j["measured_load"];
    EXPECT_EQ(load["step"], "ramp/step-1") << "the step whose partitions carried the most";
    EXPECT_DOUBLE_EQ(load["records_per_s"].get<double>(), 9000 + 7 * 1000);
    double total = 0, busiest = 0;
    for (std::size_t s = 0; s < j["shards"].size(); ++s) {
        double expected = 0;
        for (int p : j["shards"][s]["partitions"])
            expected += p == 2 ? 9000 : 1000;
        EXPECT_DOUBLE_EQ(load["shards"][s]["records_per_s"].get<double>(), expected) << s;
        total += expected;
        busiest = std::max(busiest, expected);
    }
    EXPECT_DOUBLE_EQ(load["max_skew"].get<double>(), busiest / (total / 3));
    EXPECT_DOUBLE_EQ(load["predicted_skew"].get<double>(), j["max_skew"].get<double>());
    EXPECT_DOUBLE_EQ(load["partition_skew"].get<double>(), 9000 / (total / 8));

    const Result text = plimsoll({"placement", "--shards", "3", "--load", "ramp-hot", "--load-step", "ramp/step-0",
                                  "--topic", "orders"}, db);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("measured load: run ramp-hot, step ramp/step-0: 1,000 records/s over 8 partitions"),
              std::string::npos) << text.out;
    EXPECT_NE(text.out.find("measured, 1.50 predicted from partition counts"), std::string::npos) << text.out;

    const Result other = plimsoll({"placement", "--shards", "3", "--load", "ramp-hot", "--partitions", "16"}, db);
    EXPECT_EQ(other.exitCode, 2);
    EXPECT_NE(other.err.find("has 8 partitions (0–7), the placement 16: give --partitions 8"), std::string::npos)
        << other.err;
    const Result unknown = plimsoll({"placement", "--shards", "3", "--load", "no-such-run"}, db);
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_NE(unknown.err.find("no run 'no-such-run'"), std::string::npos) << unknown.err;
    EXPECT_EQ(plimsoll({"placement", "--shards", "3"}, db).exitCode, 2) << "no partitions and no --load";
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

// The runs a sizing rests on: the sample runs count while the store has nothing of its own; once a
// ramp of one's own is imported it replaces them for what it measures (shard and broker capacity)
// and they answer for the rest (memory), each number labelled; left out or pooled when asked.
TEST_F(SizingCli, RunsOfOnesOwnReplaceTheSamplesForWhatTheyMeasure)
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
    EXPECT_EQ(own["evidence"]["runs"].size(), 7u);
    EXPECT_EQ(own["evidence"]["samples_left_out"], 0);
    // 50k records/s on 12 shards at 20 % CPU: 4,167 per shard at 20 %, 18,750 at 90 %: 600k needs 32.
    EXPECT_EQ(own["shards"], 32);
    auto lineOf = [](const nlohmann::json &sizing, const std::string &key) {
        for (const nlohmann::json &l : sizing["lines"])
            if (l["key"] == key)
                return l;
        return nlohmann::json();
    };
    EXPECT_EQ(lineOf(own, "shards")["evidence"], "own");
    EXPECT_EQ(lineOf(own, "brokers")["evidence"], "own");
    EXPECT_EQ(lineOf(own, "memory_total_bytes")["evidence"], "samples");
    r = plimsoll({"size", "--rate", "600k"}, db);
    EXPECT_EQ(r.out.rfind("Evidence: every run (7 runs; 1 run of your own with sizing evidence replaces the 6 sample "
                          "runs for what it measures; your runs answer for shard capacity, broker capacity",
                          0),
              0u)
        << r.out;
    r = plimsoll({"size", "--rate", "600k", "--samples", "exclude", "--json"}, db);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.json()["evidence"]["runs"], nlohmann::json::array({"own:ramp"}));
    EXPECT_EQ(r.json()["evidence"]["samples_left_out"], 6);
    EXPECT_EQ(lineOf(r.json(), "memory_total_bytes")["evidence"], "default");
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

// The consume side on the command line, from a consume ramp imported beside a produce ramp
// (tests/data/consume-ramp.jsonl): each option reaches the sizing, and each is refused outside
// its domain with the domain in the message.
class ConsumeSizingCli : public SizingCli
{
protected:
    static void SetUpTestSuite()
    {
        SizingCli::SetUpTestSuite(); // the sample store, for a sizing with no consume ramp
        s_own = new QTemporaryDir;
        const Result r = plimsoll({"import", PLIMSOLL_TEST_DATA_DIR "/consume-ramp.jsonl"}, db());
        ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    }
    static void TearDownTestSuite()
    {
        delete s_own;
        s_own = nullptr;
        SizingCli::TearDownTestSuite();
    }
    static QString db() { return s_own->filePath("own.db"); }
    static nlohmann::json size(QStringList args)
    {
        args = QStringList{"size", "--rate", "300k"} + args + QStringList{"--json"};
        const Result r = plimsoll(args, db());
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return r.exitCode == 0 ? r.json() : nlohmann::json();
    }
    static const nlohmann::json *line(const nlohmann::json &sizing, const std::string &key)
    {
        for (const auto &l : sizing["lines"])
            if (l["key"] == key)
                return &l;
        return nullptr;
    }
    static QTemporaryDir *s_own;
};
QTemporaryDir *ConsumeSizingCli::s_own = nullptr;

TEST_F(ConsumeSizingCli, ConsumerGroupsAddTheReadsTheConsumeRampMeasured)
{
    const auto none = size({});
    EXPECT_TRUE(none["consume"].is_null());
    EXPECT_EQ(none["brokers"], 2);
    const auto one = size({"--consumer-groups", "1"});
    const auto three = size({"--consumer-groups", "3"});
    EXPECT_EQ(one["brokers"], 3);
    EXPECT_EQ(three["brokers"], 5);
    EXPECT_EQ(three["shards"], 21);
    EXPECT_EQ(three["consume"]["records_per_s"], 900000.0);
    EXPECT_EQ(three["consume"]["measured"], true);
    EXPECT_EQ(three["bottleneck"], "broker CPU (consumer reads)");
    const auto *brokers = line(three, "brokers");
    ASSERT_NE(brokers, nullptr);
    EXPECT_NE((*brokers)["reasoning"].get<std::string>().find("raised from 2 for ingest alone to 5"),
              std::string::npos)
        << (*brokers)["reasoning"];

    // --consume-rate per group, from a backlog (faster than the target), in records/s or bytes/s.
    const auto backlog = size({"--consumer-groups", "1", "--consume-from", "backlog", "--consume-rate", "900k"});
    EXPECT_EQ(backlog["consume"]["records_per_s"], 900000.0);
    EXPECT_EQ(backlog["brokers"], three["brokers"]);
    EXPECT_NE((*line(backlog, "consume_rate"))["reasoning"].get<std::string>().find("from a backlog in Redis"),
              std::string::npos);
    const auto bytes = size({"--consumer-groups", "1", "--consume-from", "backlog", "--consume-rate", "700000B/s"});
    EXPECT_EQ(bytes["consume"]["records_per_s"], 1000.0);

    // --fetch-p99: a tighter fetch budget buys units.
    const auto tight = size({"--consumer-groups", "3", "--fetch-p99", "50ms"});
    EXPECT_LE(tight["consume"]["fetch_p99_s"].get<double>(), 0.050);
    EXPECT_GT(tight["brokers"].get<int>() + tight["shards"].get<int>(), 26);

    // People read the same lines.
    const Result text = plimsoll({"size", "--rate", "300k", "--consumer-groups", "3"}, db());
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("Consume side"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Predicted fetch p99"), std::string::npos) << text.out;
}

TEST_F(ConsumeSizingCli, TieredReadsWithoutATieredRampAndNoRampAtAllHoldTheMarginShown)
{
    // The store has no tiered consume ramp: its reads are unmeasured, and the margin is held.
    const auto tiered = size({"--consumer-groups", "2", "--consume-from", "backlog", "--tiered", "--tiered-reads",
                              "--consume-margin", "40%"});
    EXPECT_EQ(tiered["consume"]["measured"], false);
    EXPECT_EQ(tiered["consume"]["margin"], 0.4);
    EXPECT_EQ((*line(tiered, "consume_side"))["display"], "unmeasured, 40% margin");
    EXPECT_NE((*line(tiered, "consume_side"))["reasoning"].get<std::string>().find("--tiered"), std::string::npos);

    // The sample store has no consume ramp either: 30 % by default.
    const Result r = plimsoll({"size", "--rate", "600k", "--consumer-groups", "2", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.json()["consume"]["measured"], false);
    EXPECT_EQ(r.json()["consume"]["margin"], 0.3);
    EXPECT_GT(r.json()["shards"].get<int>(), 24); // the seed's 24 carry 600k with no margin
}

TEST_F(ConsumeSizingCli, EachConsumeOptionIsRefusedOutsideItsDomain)
{
    const struct
    {
        QStringList args;
        const char *message;
    } cases[] = {
        {{"--consumer-groups", "-1"}, "--consumer-groups must be a whole number"},
        {{"--consumer-groups", "two"}, "--consumer-groups"},
        {{"--consumer-groups", "1", "--consume-from", "head"}, "--consume-from must be tail or backlog (got 'head')"},
        {{"--consumer-groups", "1", "--consume-margin", "95%"}, "--consume-margin must be between 0 and 0.9"},
        {{"--consumer-groups", "1", "--consume-margin", "some"}, "--consume-margin 'some' is not a fraction"},
        {{"--consumer-groups", "1", "--consume-rate", "fast"}, "--consume-rate"},
        {{"--consumer-groups", "1", "--consume-rate", "600k"}, "--consume-rate 600000 records/s is above the target"},
        {{"--consume-rate", "100k"}, "--consume-rate is the rate of each consumer group: it needs --consumer-groups"},
        {{"--tiered-reads"}, "--tiered-reads says where consumer groups read: it needs --consumer-groups"},
        {{"--consumer-groups", "1", "--tiered", "--tiered-reads"}, "it needs --consume-from backlog"},
        {{"--consumer-groups", "1", "--consume-from", "backlog", "--tiered-reads"}, "it needs --tiered"},
        {{"--consumer-groups", "1", "--fetch-p99", "soon"}, "--fetch-p99"},
    };
    for (const auto &c : cases) {
        const Result r = plimsoll(QStringList{"size", "--rate", "300k"} + c.args, db());
        EXPECT_EQ(r.exitCode, 2) << c.args.join(' ').toStdString() << ": " << r.out;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args.join(' ').toStdString() << ": " << r.err;
    }
}

TEST_F(ConsumeSizingCli, ASavedSizingKeepsItsConsumeInputs)
{
    const Result r = plimsoll({"size", "--rate", "300k", "--consumer-groups", "3", "--consume-from", "backlog",
                               "--consume-rate", "200k", "--consume-margin", "0.25", "--fetch-p99", "2s", "--save",
                               "fan-out 3"},
                              db());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto body = plimsoll::Store(db().toStdString()).sharedSetting(plimsoll::kSavedSizingKind, "fan-out 3");
    ASSERT_TRUE(body) << "kept in the store";
    const auto saved = nlohmann::json::parse(*body);
    const auto &in = saved["inputs"];
    EXPECT_EQ(in["consumer_groups"], 3);
    EXPECT_EQ(in["consume_from"], "backlog");
    EXPECT_EQ(in["consume_rate_records_per_s"], 200000.0);
    EXPECT_EQ(in["consume_margin"], 0.25);
    EXPECT_EQ(in["fetch_p99_budget_s"], 2.0);
    EXPECT_EQ(in["tiered_reads"], false);
}
