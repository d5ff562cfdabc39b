// End to end: answers the evidence supports, on the real executable. A store holding the sample
// runs and one nightly ramp of one's own (tests/data/trend-records.jsonl: ramp steps with p99 but
// no CPU) sizes from both, each number labelled, in `size` and in `report` alike; a hash-tagged
// key pattern is warned at the numbers it breaks; `placement` says which slot split it models.
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

class SizingEvidenceCli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new QTemporaryDir;
        ASSERT_EQ(plimsoll({"samples", "install"}).exitCode, 0);
        const Result r = plimsoll({"import", PLIMSOLL_TEST_DATA_DIR "/trend-records.jsonl"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
    }
    static Result plimsoll(QStringList args)
    {
        args.prepend(s_dir->filePath("store.db"));
        args.prepend("--db");
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove("PLIMSOLL_DB");
        e.insert("QT_QPA_PLATFORM", "offscreen");
        p.setProcessEnvironment(e);
        p.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(p.waitForFinished(120000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
    }
    static QString markdown(const QStringList &inputs, const QString &name)
    {
        const QString out = s_dir->filePath(name);
        const Result r = plimsoll(QStringList{"report", "--format", "md", "--out", out} + inputs);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        QFile f(out);
        EXPECT_TRUE(f.open(QIODevice::ReadOnly));
        return QString::fromUtf8(f.readAll());
    }
    static nlohmann::json lineOf(const nlohmann::json &sizing, const std::string &key)
    {
        for (const nlohmann::json &l : sizing["lines"])
            if (l["key"] == key)
                return l;
        return {};
    }
    static QTemporaryDir *s_dir;
};
QTemporaryDir *SizingEvidenceCli::s_dir = nullptr;

} // namespace

// The reproduction: one run of one's own with sizing evidence (a ramp without CPU) used to
// leave the samples out entirely, and `size` and the report went blank. Now the own ramp answers
// for the latency curve, the samples for the capacities, each number says which, and the report
// prints the numbers `size` gives, each once.
TEST_F(SizingEvidenceCli, OneOwnRampAndTheSamplesSizeAlikeInSizeAndTheReport)
{
    const QStringList inputs = {"--rate", "600k", "--headroom", "20%", "--tolerate-node-loss"};
    const Result size = plimsoll(QStringList{"size", "--json"} + inputs);
    ASSERT_EQ(size.exitCode, 0) << size.err;
    const nlohmann::json j = size.json();
    EXPECT_EQ(j["evidence"]["samples"], "auto");
    EXPECT_EQ(j["evidence"]["samples_left_out"], 0);
    EXPECT_EQ(lineOf(j, "shards")["evidence"], "samples");
    EXPECT_EQ(lineOf(j, "brokers")["evidence"], "samples");
    EXPECT_EQ(lineOf(j, "p99")["evidence"], "own+samples"); // the own ramp's curve at the samples' capacities
    bool latencyOwn = false;
    for (const nlohmann::json &c : j["evidence"]["components"])
        if (c["component"] == "the latency curve")
            latencyOwn = c["evidence"] == "own";
    EXPECT_TRUE(latencyOwn) << j["evidence"].dump();

    // Every quantity of the sizing appears in the report's table once, as `size` prints it, with
    // its evidence beside it; the memory section reads the same estimate.
    const QString md = markdown(inputs, "own-and-samples.md");
    EXPECT_FALSE(md.contains("No sizing")) << md.left(400).toStdString();
    for (const nlohmann::json &l : j["lines"]) {
        const QString label = QString::fromStdString(l["label"].get<std::string>());
        const QString display = QString::fromStdString(l["display"].get<std::string>());
        const QString row = "| " + label + " | " + display;
        EXPECT_EQ(md.count(row), 1) << row.toStdString();
    }
    const QString provision =
        QString::number(j["memory_total_bytes"].get<double>() / (1024.0 * 1024 * 1024), 'f', 2);
    EXPECT_TRUE(md.contains("| To provision (skew and headroom) | ")) << md.toStdString();
    EXPECT_TRUE(md.contains(" | " + provision + " |")) << provision.toStdString();
    EXPECT_TRUE(md.contains("| Redis shards | " + QString::number(j["shards"].get<int>()) + " | samples |"));
    const QString topology = QStringLiteral("%1 Korvet brokers, %2 Redis nodes, %3 Redis shards, %4 partitions, %5 GiB")
                                 .arg(j["brokers"].get<int>())
                                 .arg(j["redis_nodes"].get<int>())
                                 .arg(j["shards"].get<int>())
                                 .arg(j["partitions"].get<int>())
                                 .arg(provision);
    EXPECT_TRUE(md.contains(topology)) << topology.toStdString();

    // --samples exclude means what it says: the own ramp alone has no CPU, so nothing answers.
    const Result excluded = plimsoll(QStringList{"size", "--samples", "exclude"} + inputs);
    EXPECT_EQ(excluded.exitCode, 1);
    EXPECT_NE(excluded.err.find("6 sample runs left out as asked"), std::string::npos) << excluded.err;
}

// A key pattern whose hash tag leaves the partition out puts the whole topic on one shard: the
// sizing scales that shard's CPU by its skew over the measured one and says so at the shard count,
// the partitions, the hottest shard's CPU and (with a longer retention) the memory per shard.
TEST_F(SizingEvidenceCli, AHashTaggedPatternIsWarnedAtTheNumbers)
{
    const QStringList inputs = {"--rate", "600k", "--retention", "120s", "--key-pattern", "{logs}:{partition}"};
    const Result r = plimsoll(QStringList{"size", "--json"} + inputs);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json j = r.json();
    EXPECT_NE(lineOf(j, "partitions")["caveat"].get<std::string>().find("share the hash tag {logs}"), std::string::npos);
    EXPECT_NE(lineOf(j, "shards")["caveat"].get<std::string>().find("only 1 of the"), std::string::npos);
    EXPECT_NE(lineOf(j, "shard_cpu")["caveat"].get<std::string>().find("past its 90% limit"), std::string::npos);
    EXPECT_NE(lineOf(j, "memory_per_shard_bytes")["caveat"].get<std::string>().find("past a node's memory"),
              std::string::npos);
    // The hottest shard carries every partition: its CPU is the measured per-shard figure times
    // the placement's skew (the shard count) over the measured configuration's.
    EXPECT_GT(lineOf(j, "shard_cpu")["value"].get<double>(), 0.9);
    EXPECT_EQ(j["bottleneck"], "Redis shard CPU");
    // The default pattern is not flagged.
    const Result plain = plimsoll({"size", "--rate", "600k", "--json"});
    ASSERT_EQ(plain.exitCode, 0);
    for (const nlohmann::json &l : plain.json()["lines"])
        EXPECT_TRUE(l["caveat"].is_null()) << l.dump();

    const Result text = plimsoll(QStringList{"size"} + inputs);
    EXPECT_NE(text.out.find("⚠ Partitions: every one of the"), std::string::npos) << text.out;
    const QString md = markdown(inputs, "hash-tag.md");
    EXPECT_TRUE(md.contains("⚠ every one of the")) << md.toStdString();

    const Result placed = plimsoll({"placement", "--shards", "24", "--partitions", "96", "--key-pattern",
                                   "{logs}:{partition}"});
    ASSERT_EQ(placed.exitCode, 0) << placed.err;
    EXPECT_NE(placed.out.find("warning: every one of the 96 partitions lands on"), std::string::npos) << placed.out;
    EXPECT_NE(placed.out.find("slots split as `redis-cli --cluster create` assigns them"), std::string::npos);
}
