// End to end: what `plimsoll` does with values outside an option's domain, with answers
// outside its model's validity, with the command-line contract the manual states (--db after
// the subcommand, bare dates, exit 2 for usage errors, no option silently ignored), and with a
// store that does not exist.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
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

Result run(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove("PLIMSOLL_DB");
    p.setProcessEnvironment(e);
    p.start(PLIMSOLL_BINARY, args);
    EXPECT_TRUE(p.waitForFinished(60000)) << "plimsoll did not finish";
    return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

class InputDomains : public ::testing::Test
{
protected:
    QTemporaryDir dir;
    QString db() const { return dir.filePath("store.db"); }
    Result plimsoll(QStringList args) const
    {
        args.prepend(db());
        args.prepend("--db");
        return run(args);
    }
    void installSamples() const { ASSERT_EQ(plimsoll({"samples", "install"}).exitCode, 0); }
};

struct Refusal
{
    QStringList args;
    std::string message; // what stderr must say
};

// Each value outside its option's domain: exit 2, the domain in words, nothing written.
TEST_F(InputDomains, OutOfDomainValuesAreRefusedWithTheirDomain)
{
    const std::vector<Refusal> refusals = {
        {{"size", "--rate", "600k", "--compression", "0"}, "--compression must be 1 or more (got 0)"},
        {{"size", "--rate", "600k", "--replication", "0"}, "--replication must be a whole number from 1 to 16 (got 0)"},
        {{"size", "--rate", "600k", "--replication", "1.5"}, "--replication must be a whole number"},
        {{"size", "--rate", "600k", "--headroom", "1.5"}, "--headroom must be between 0 and 1 (got 1.5)"},
        {{"size", "--rate", "600k", "--headroom", "150%"}, "--headroom must be between 0 and 1 (got 1.5)"},
        {{"size", "--rate", "600k", "--headroom", "-0.1"}, "--headroom must be between 0 and 1 (got -0.1)"},
        {{"size", "--rate", "600k", "--cpu-limit", "1.5"}, "--cpu-limit must be greater than 0 and at most 1 (got 1.5)"},
        {{"size", "--rate", "600k", "--cpu-limit", "ninety"}, "--cpu-limit must be greater than 0 and at most 1 ('ninety' is not a number)"},
        {{"size", "--rate", "0"}, "--rate must be greater than 0 records/s (got 0 records/s)"},
        {{"size", "--rate", "600k", "--retention", "0"}, "--retention must be greater than 0 s (got 0 s)"},
        {{"size", "--rate", "600k", "--record-size", "0"}, "--record-size must be greater than 0 B"},
        {{"size", "--rate", "600k", "--p99", "0"}, "--p99 must be greater than 0 s"},
        {{"report", "--out", "x.md", "--rate", "600k", "--replication", "0"}, "--replication must be"},
        {{"placement", "--shards", "0", "--partitions", "96"}, "--shards must be a whole number from 1 to 16384 (got 0)"},
        {{"placement", "--shards", "20000", "--partitions", "96"}, "--shards must be a whole number from 1 to 16384 (got 20000)"},
        {{"placement", "--shards", "24", "--partitions", "96", "--skew-target", "0.5"}, "--skew-target must be 1 or more (got 0.5)"},
        {{"placement", "--shards", "24", "--partitions", "96", "--brokers", "0"}, "--brokers must be a whole number from 1"},
        {{"changes", "--window", "1"}, "--window must be a whole number from 2 to 100000 (got 1)"},
        {{"changes", "--pvalue", "0"}, "--pvalue must be greater than 0 and at most 1 (got 0)"},
        {{"changes", "--min-magnitude", "-1"}, "--min-magnitude must be 0 or more (got -1)"},
        {{"compare", "--baseline", "a", "--current", "b", "--history", "-1"}, "--history must be a whole number from 0"},
        {{"fit", "--run", "r", "--scenarios", "p/", "--resamples", "-1"}, "--resamples must be a whole number from 0"},
        {{"fit", "--run", "r", "--scenarios", "p/", "--predict", "4,-2"}, "--predict must be greater than 0 (got -2)"},
        {{"fit", "--run", "r", "--scenarios", "p/", "--x", "producer"}, "--x must be a load factor: producers, consumers"},
        {{"budget", "--p99", "1ms", "--little-tolerance", "2"}, "--little-tolerance must be between 0 and 1 (got 2)"},
        {{"budget", "--p99", "0"}, "--p99 must be greater than 0 s"},
        {{"bench", "--embedded", "--partitions", "0"}, "--partitions must be a whole number from 1"},
        {{"bench", "--embedded", "--clients", "0"}, "--clients must be a whole number from 1"},
        {{"bench", "--embedded", "--records", "0"}, "--records must be a whole number from 1 to 1000000000000 (got 0)"},
        {{"bench", "--embedded", "--records", "1.5k"}, "--records must be a whole number from 1 to 1000000000000 ('1.5k' is not a number)"},
        {{"bench", "--embedded", "--metrics-port", "70000"}, "--metrics-port must be a whole number from 0 to 65535 (got 70000)"},
        {{"bench", "ramp", "--embedded", "--steps", "1,2", "--probe-rate", "-1"}, "--probe-rate must be 0 records/s or more"},
        {{"bench", "--embedded", "--rate", "0"}, "--rate must be greater than 0 records/s (got 0 records/s): or 'unlimited'"},
        {{"bench", "ramp", "--embedded", "--steps", "1,2x"}, "--steps must be greater than 0 ('2x' is not a number)"},
        {{"bench", "ramp", "--embedded", "--steps", "1", "--p99-limit", "0"}, "--p99-limit must be greater than 0 s"},
        {{"import", "--timeout", "0", "x.json"}, "--timeout must be a whole number from 1 to 86400 (got 0)"},
        // Options the workload has no use for are refused, not ignored.
        {{"bench", "--embedded", "--steps", "1,2"}, "--steps applies to 'bench ramp' only"},
        {{"bench", "probe", "--embedded", "--p99-limit", "1s"}, "--p99-limit applies to 'bench ramp' only"},
        {{"bench", "producer", "--embedded", "--from", "end"}, "--from is a consumer setting: 'bench producer' runs no consumer"},
        {{"bench", "consumer", "--embedded", "--rate", "100"}, "--rate is a producer setting: 'bench consumer' produces nothing"},
    };
    for (const Refusal &r : refusals) {
        SCOPED_TRACE(r.args.join(' ').toStdString());
        const Result res = plimsoll(r.args);
        EXPECT_EQ(res.exitCode, 2) << res.err;
        EXPECT_TRUE(contains(res.err, r.message)) << res.err;
        // Never CLI11's own range text, never the option named twice.
        EXPECT_FALSE(contains(res.err, "e+308")) << res.err;
        EXPECT_FALSE(contains(res.err, "not in range")) << res.err;
        EXPECT_FALSE(contains(res.err, r.args[r.args.size() - 2].toStdString() + ": " +
                                           r.args[r.args.size() - 2].toStdString()))
            << res.err;
    }
    EXPECT_FALSE(QFileInfo::exists(db())) << "a refused command created the store";
}

TEST_F(InputDomains, HelpStatesEachDomain)
{
    const Result help = run({"size", "--help"});
    ASSERT_EQ(help.exitCode, 0);
    EXPECT_TRUE(contains(help.out, "(1 or more)")) << help.out;                       // --compression
    EXPECT_TRUE(contains(help.out, "(a whole number from 1 to 16)")) << help.out;     // --replication
    EXPECT_TRUE(contains(help.out, "(greater than 0 and at most 1)")) << help.out;    // --cpu-limit
}

// A target far past a Redis cluster's slot space is refused, not answered with one broker at
// an absurd utilization.
TEST_F(InputDomains, SizesBeyondTheSlotSpaceAreRefused)
{
    installSamples();
    for (const QString rate : {"1e12", "1e30", "500M"}) {
        SCOPED_TRACE(rate.toStdString());
        const Result r = plimsoll({"size", "--rate", rate, "--json"});
        EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
        EXPECT_TRUE(contains(r.err, "beyond the 16384 hash slots of one Redis cluster")) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    // A retention no cluster's memory can hold is refused the same way.
    const Result memory = plimsoll({"size", "--rate", "600k", "--retention", "3650d"});
    EXPECT_EQ(memory.exitCode, 1) << memory.out;
    EXPECT_TRUE(contains(memory.err, "beyond one Redis cluster")) << memory.err;

    // Within it, every count is an answer the model stands behind.
    const Result fits = plimsoll({"size", "--rate", "20M", "--json"});
    ASSERT_EQ(fits.exitCode, 0) << fits.err;
    const auto j = fits.json();
    EXPECT_GT(j["partitions"].get<int>(), 0);
    EXPECT_LE(j["shards"].get<int>(), 16384);
    for (const auto &u : j["utilization"])
        EXPECT_LE(u["utilization"].get<double>(), u["limit"].get<double>() * 1.0001) << u.dump();
}

// --tolerate-node-loss: the shards' rounding and its reasoning line name the same node count,
// and the spare node is said to be on top of it.
TEST_F(InputDomains, NodeLossShardsAgreeWithTheirReasoning)
{
    installSamples();
    for (const QString rate : {"150k", "400k", "600k", "1M"}) {
        for (const bool loss : {false, true}) {
            SCOPED_TRACE(rate.toStdString() + (loss ? " with node loss" : ""));
            QStringList args = {"size", "--rate", rate, "--json"};
            if (loss)
                args << "--tolerate-node-loss";
            const Result r = plimsoll(args);
            ASSERT_EQ(r.exitCode, 0) << r.err;
            const auto j = r.json();
            std::string reasoning;
            for (const auto &l : j["lines"])
                if (l["key"] == "shards")
                    reasoning = l["reasoning"];
            const QRegularExpression multiple(R"(multiple of (\d+) nodes)");
            const auto m = multiple.match(QString::fromStdString(reasoning));
            ASSERT_TRUE(m.hasMatch()) << reasoning;
            const int nodes = m.captured(1).toInt();
            EXPECT_EQ(j["shards"].get<int>() % nodes, 0) << reasoning;
            EXPECT_EQ(j["redis_nodes"].get<int>(), nodes + (loss ? 1 : 0)) << reasoning;
            if (loss) {
                EXPECT_TRUE(contains(reasoning, "the nodes left after losing one of " +
                                                    std::to_string(nodes + 1)))
                    << reasoning;
            }
        }
    }
}

TEST_F(InputDomains, DbIsTakenAfterTheSubcommandToo)
{
    installSamples();
    const Result before = plimsoll({"runs", "--json"});
    ASSERT_EQ(before.exitCode, 0) << before.err;
    for (const QStringList &args : {QStringList{"runs", "--json", "--db", db()},
                                    QStringList{"runs", "--db", db(), "--json"},
                                    QStringList{"bench", "probe", "--db", db(), "--help"}}) {
        SCOPED_TRACE(args.join(' ').toStdString());
        const Result after = run(args);
        EXPECT_EQ(after.exitCode, 0) << after.err;
        if (args.contains("runs")) {
            EXPECT_EQ(after.json(), before.json());
        }
    }
    const Result show = run({"show", "sample:korvet-single-shard", "--json", "--db", db()});
    ASSERT_EQ(show.exitCode, 0) << show.err;
    EXPECT_EQ(show.json()["run_key"], "sample:korvet-single-shard");
}

TEST_F(InputDomains, SinceAndUntilTakeABareDateEverywhere)
{
    installSamples();
    const Result all = plimsoll({"runs", "--json"});
    ASSERT_EQ(all.exitCode, 0);
    const Result none = plimsoll({"runs", "--json", "--since", "2030-01-01"});
    ASSERT_EQ(none.exitCode, 0) << none.err;
    EXPECT_TRUE(none.json().empty());
    const Result until = plimsoll({"runs", "--json", "--until", "2030-01-01"});
    ASSERT_EQ(until.exitCode, 0) << until.err;
    EXPECT_EQ(until.json().size(), all.json().size());
    const Result exported = plimsoll({"export", "--format", "json", "--since", "2030-01-01", "--out", "-"});
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    EXPECT_TRUE(exported.json().empty()) << exported.out;
    const Result changes = plimsoll({"changes", "--json", "--since", "2026-11-30"});
    ASSERT_EQ(changes.exitCode, 0) << changes.err;
    EXPECT_EQ(changes.json()["since"], "2026-11-30T00:00:00Z");
    for (const QStringList &args : {QStringList{"runs", "--since", "yesterday"},
                                    QStringList{"runs", "--until", "2026-13-45"},
                                    QStringList{"export", "--format", "csv", "--since", "soon", "--out", "-"},
                                    QStringList{"changes", "--since", "11/30/2026"}}) {
        SCOPED_TRACE(args.join(' ').toStdString());
        const Result r = plimsoll(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_TRUE(contains(r.err, "must be an ISO-8601 date or time")) << r.err;
    }
}

TEST_F(InputDomains, UsageErrorsExitTwo)
{
    const Result format = plimsoll({"import", "--format", "nope", "x.json"});
    EXPECT_EQ(format.exitCode, 2) << format.err;
    EXPECT_TRUE(contains(format.err, "--format must be one of")) << format.err;
    EXPECT_TRUE(contains(format.err, "plimsoll-trend")) << format.err;
    EXPECT_EQ(plimsoll({"export", "--format", "xml", "--out", "-"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"report", "--format", "docx", "--out", "x", "--rate", "1k"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"runs", "--no-such-option"}).exitCode, 2);
    EXPECT_FALSE(QFileInfo::exists(db()));
}

// Options that do not apply to the format asked for are refused; --metric selects for csv.
TEST_F(InputDomains, ExportOptionsEitherWorkOrAreRefused)
{
    installSamples();
    const Result all = plimsoll({"export", "--format", "csv", "--scenario", "pipeline/produce/step-16", "--out", "-"});
    ASSERT_EQ(all.exitCode, 0) << all.err;
    const Result one = plimsoll({"export", "--format", "csv", "--scenario", "pipeline/produce/step-16", "--metric",
                                 "records_per_s", "--out", "-"});
    ASSERT_EQ(one.exitCode, 0) << one.err;
    const auto rows = [](const std::string &csv) { return std::count(csv.begin(), csv.end(), '\n') - 1; };
    EXPECT_GT(rows(all.out), rows(one.out));
    EXPECT_EQ(rows(one.out), 1) << one.out;
    EXPECT_TRUE(contains(one.out, ",records_per_s,")) << one.out;
    const Result json = plimsoll({"export", "--format", "json", "--scenario", "pipeline/produce/step-16", "--metric",
                                  "shard_cpu_max", "--out", "-"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto metrics = json.json()[0]["scenarios"][0]["metrics"];
    EXPECT_EQ(metrics.size(), 1u) << metrics.dump();
    EXPECT_TRUE(metrics.contains("shard_cpu_max")) << metrics.dump();

    const Result otava = plimsoll({"export", "--format", "otava-csv", "--run", "sample:korvet-single-shard", "--out", "-"});
    EXPECT_EQ(otava.exitCode, 2) << otava.out;
    EXPECT_TRUE(contains(otava.err, "otava-csv exports every run")) << otava.err;
    const Result otavaSince = plimsoll({"export", "--format", "otava-csv", "--since", "2026-01-01", "--out", "-"});
    EXPECT_EQ(otavaSince.exitCode, 2) << otavaSince.out;
    const Result hlog = plimsoll({"export", "--format", "hlog", "--metric", "latency_p99_s", "--out", "-"});
    EXPECT_EQ(hlog.exitCode, 2) << hlog.out;
    EXPECT_TRUE(contains(hlog.err, "--metric does not apply to hlog")) << hlog.err;
}

// Read-only commands on a store that is not there: said to be missing, exit 1, nothing made.
TEST_F(InputDomains, ReadOnlyCommandsDoNotCreateStores)
{
    const QString missing = dir.filePath("missing/path.db");
    const std::vector<QStringList> commands = {
        {"runs"},
        {"show", "x"},
        {"remove", "x"},
        {"export", "--format", "csv", "--out", "-"},
        {"export", "--format", "otava-csv", "--out", "-"},
        {"compare", "--baseline", "a", "--current", "b"},
        {"changes"},
        {"contract"},
        {"fit", "--run", "r", "--scenarios", "p/"},
        {"size", "--rate", "600k"},
        {"budget", "--p99", "1ms"},
        {"report", "--out", dir.filePath("r.md"), "--rate", "600k"},
    };
    for (QStringList args : commands) {
        SCOPED_TRACE(args.join(' ').toStdString());
        args << "--db" << missing;
        const Result r = run(args);
        EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
        EXPECT_TRUE(contains(r.err, "no store at " + missing.toStdString())) << r.err;
        EXPECT_FALSE(QFileInfo::exists(missing));
        EXPECT_FALSE(QFileInfo::exists(dir.filePath("missing")));
    }
    EXPECT_FALSE(QFileInfo::exists(dir.filePath("r.md")));
}

} // namespace
