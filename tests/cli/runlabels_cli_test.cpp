// Runs a user can tell apart: `plimsoll name`, `plimsoll tag` and `plimsoll runs --search` on
// real tool outputs (the shared corpus), the labels carried by the jsonl export and import and
// by `store copy` on both backends, and every bad label refused with its field and domain.
#include "support/clirun.h"
#include "support/tempdir.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using plimsoll::test::StoreBackend;
using plimsoll::test::TestStoreLocation;

namespace {

struct Out
{
    int code = -1;
    std::string out, err;
};

Out cli(const std::string &db, const QStringList &args)
{
    const plimsoll::test::CliRun r = plimsoll::test::runPlimsoll(QString::fromStdString(db), args);
    return {r.exitCode, r.out, r.err};
}

QString q(const std::string &s) { return QString::fromStdString(s); }

nlohmann::json runsJson(const std::string &db, QStringList extra = {})
{
    const Out out = cli(db, QStringList{"runs", "--json"} + extra);
    EXPECT_EQ(out.code, 0) << out.err;
    return nlohmann::json::parse(out.out);
}

// The run keys of `runs --json`.
std::vector<std::string> keysOf(const nlohmann::json &runs)
{
    std::vector<std::string> keys;
    for (const auto &r : runs)
        keys.push_back(r["run_key"]);
    return keys;
}

// The run imported from the corpus file whose path ends with `file`.
nlohmann::json runFrom(const nlohmann::json &runs, const std::string &file)
{
    for (const auto &r : runs) {
        const std::string source = r["source"];
        if (source.size() >= file.size() && source.compare(source.size() - file.size(), file.size(), file) == 0)
            return r;
    }
    ADD_FAILURE() << "no run from " << file;
    return {};
}

// Name and tags of every run, by key: what must survive an export and a copy.
std::map<std::string, std::pair<nlohmann::json, nlohmann::json>> labelsOf(const nlohmann::json &runs)
{
    std::map<std::string, std::pair<nlohmann::json, nlohmann::json>> out;
    for (const auto &r : runs)
        out[r["run_key"]] = {r["name"], r["tags"]};
    return out;
}

class RunLabelsCorpus : public ::testing::Test
{
protected:
    QTemporaryDir dir;
    std::string db() const { return dir.filePath("store.db").toStdString(); }
    void SetUp() override
    {
        if (!plimsoll::test::corpusMissing().empty())
            return;
        // The redis-benchmark client sweep's folder and the OMB results, as a user imports them.
        for (const char *folder : {"redis-benchmark", "omb"}) {
            const Out imported = cli(db(), {"import", q(plimsoll::test::corpusPath(folder))});
            ASSERT_EQ(imported.code, 0) << imported.err;
        }
    }
};

} // namespace

// The issue's "clients" found no run of the client sweep: the search now reads the source
// file's name and path, and the user's names and tags.
TEST_F(RunLabelsCorpus, SearchFindsRunsByFileNameFolderNameAndTags)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const nlohmann::json all = runsJson(db());
    ASSERT_EQ(all.size(), 6u) << all.dump(1); // 2 redis-benchmark files, 4 OMB results

    const nlohmann::json clients = runsJson(db(), {"--search", "CLIENTS"});
    ASSERT_EQ(clients.size(), 1u) << clients.dump(1);
    EXPECT_NE(clients[0]["source"].get<std::string>().find("results_redis_clients_50.csv"), std::string::npos);
    // A folder of the path finds its files (no run's tool or scenario says "corpus/omb"), a part
    // of a file's name its run.
    const QString folder = QDir(q(plimsoll::test::corpusDir())).dirName() + "/omb"; // "corpus/omb"
    EXPECT_EQ(runsJson(db(), {"--search", folder}).size(), 4u);
    EXPECT_EQ(runsJson(db(), {"--search", "luky116"}).size(), 1u);

    const std::string key = clients[0]["run_key"];
    const Out named = cli(db(), {"name", q(key), "valkey 50 clients"});
    ASSERT_EQ(named.code, 0) << named.err;
    EXPECT_NE(named.out.find("named 'valkey 50 clients'"), std::string::npos) << named.out;
    const Out tagged = cli(db(), {"tag", "valkey 50 clients", "sweep", "c50"});
    ASSERT_EQ(tagged.code, 0) << tagged.err;
    EXPECT_NE(tagged.out.find("tags: c50, sweep"), std::string::npos) << tagged.out;

    EXPECT_EQ(keysOf(runsJson(db(), {"--search", "Valkey 50"})), std::vector<std::string>{key});
    EXPECT_EQ(keysOf(runsJson(db(), {"--search", "c50"})), std::vector<std::string>{key});
    const Out table = cli(db(), {"runs", "--search", "sweep"});
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("NAME"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("valkey 50 clients"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("c50 sweep"), std::string::npos) << table.out;
    const Out none = cli(db(), {"runs", "--search", "no-such-thing"});
    EXPECT_NE(none.out.find("No runs match the filter (the store holds 6 runs"), std::string::npos) << none.out;
}

TEST_F(RunLabelsCorpus, NameTagAndShowAddressARunByItsUniqueName)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const nlohmann::json all = runsJson(db());
    const std::string sync = runFrom(all, "kafka-throughput-sync.json")["run_key"];
    const std::string latency = runFrom(all, "kafka-latency-sync-200k.json")["run_key"];

    ASSERT_EQ(cli(db(), {"name", q(sync), "kafka 1M/s"}).code, 0);
    const Out shown = cli(db(), {"show", "kafka 1m/s"}); // a name ignores case
    ASSERT_EQ(shown.code, 0) << shown.err;
    EXPECT_NE(shown.out.find("Name          kafka 1M/s"), std::string::npos) << shown.out;
    EXPECT_NE(shown.out.find(sync), std::string::npos) << shown.out;

    // Renamed: said with the old name; a second run of the same name makes the name ambiguous.
    const Out renamed = cli(db(), {"name", "kafka 1M/s", "kafka sync"});
    ASSERT_EQ(renamed.code, 0) << renamed.err;
    EXPECT_NE(renamed.out.find("(was 'kafka 1M/s')"), std::string::npos) << renamed.out;
    const Out shared = cli(db(), {"name", q(latency), "kafka sync"});
    ASSERT_EQ(shared.code, 0) << shared.err;
    EXPECT_NE(shared.out.find("2 runs are named 'kafka sync' now"), std::string::npos) << shared.out;
    const Out ambiguous = cli(db(), {"tag", "kafka sync", "blog"});
    EXPECT_EQ(ambiguous.code, 2);
    EXPECT_NE(ambiguous.err.find("2 runs are named 'kafka sync'; give the id or key of the one you mean"),
              std::string::npos)
        << ambiguous.err;
    EXPECT_NE(ambiguous.err.find(sync), std::string::npos) << ambiguous.err;
    EXPECT_NE(ambiguous.err.find(latency), std::string::npos) << ambiguous.err;
    EXPECT_EQ(cli(db(), {"show", "kafka sync"}).code, 2);

    // Tags added, removed; a tag it does not have is said, not an error.
    ASSERT_EQ(cli(db(), {"tag", q(sync), "blog", "fsync"}).code, 0);
    const Out removed = cli(db(), {"tag", q(sync), "fsync", "rf3", "--remove"});
    ASSERT_EQ(removed.code, 0) << removed.err;
    EXPECT_NE(removed.out.find("'rf3' was not one of its tags"), std::string::npos) << removed.out;
    EXPECT_NE(removed.out.find("tags: blog"), std::string::npos) << removed.out;

    // Cleared: the name no longer addresses the run, and the list no longer shows it.
    const Out cleared = cli(db(), {"name", q(latency), "--clear"});
    ASSERT_EQ(cleared.code, 0) << cleared.err;
    EXPECT_NE(cleared.out.find("no longer named 'kafka sync'"), std::string::npos) << cleared.out;
    const nlohmann::json after = runsJson(db());
    EXPECT_EQ(runFrom(after, "kafka-latency-sync-200k.json")["name"], nullptr);
    EXPECT_EQ(runFrom(after, "kafka-throughput-sync.json")["name"], "kafka sync");
    EXPECT_EQ(runFrom(after, "kafka-throughput-sync.json")["tags"], nlohmann::json({"blog"}));
    EXPECT_EQ(cli(db(), {"show", "kafka sync", "--json"}).code, 0) << "unique again";
}

TEST_F(RunLabelsCorpus, BadNamesAndTagsAreRefusedWithTheirFieldAndDomain)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string key = runsJson(db())[0]["run_key"];
    const struct
    {
        QStringList args;
        int code;
        std::string says;
    } cases[] = {
        {{"name", q(key), ""}, 2, "name is empty: to remove a run's name, give --clear instead"},
        {{"name", q(key)}, 2, "give the run's new name (`plimsoll name RUN TEXT`), or --clear"},
        {{"name", q(key), "x", "--clear"}, 2, "give a new name or --clear, not both"},
        {{"name", q(key), "a\x1b[31mred"}, 2, "name holds the control character U+001B at character 2"},
        {{"name", q(key), QString::fromUtf8("abc\u202Etxt.exe")}, 2,
         "name holds the bidirectional control U+202E at character 4"},
        {{"name", q(key), QString(201, QLatin1Char('n'))}, 2, "name is 201 characters long"},
        {{"name", q(key), " padded"}, 2, "has a space at its start or end"},
        {{"name", q(key), "12345"}, 2, "is only digits"},
        {{"tag", q(key), "two words"}, 2, "tag 'two words' holds a space or a comma"},
        {{"tag", q(key), "a,b"}, 2, "holds a space or a comma"},
        {{"tag", q(key), QString(65, QLatin1Char('t'))}, 2, "characters long (a tag is 1 to 64 characters"},
        {{"tag", q(key), "ok\ttab"}, 2, "tag holds the control character U+0009"},
        {{"name", "no-such-run", "x"}, 1, "no run 'no-such-run' in"},
        {{"tag", "424242", "x"}, 1, "no run '424242' in"},
    };
    for (const auto &c : cases) {
        const Out out = cli(db(), c.args);
        EXPECT_EQ(out.code, c.code) << c.args.join(' ').toStdString() << "\n" << out.err;
        EXPECT_NE(out.err.find(c.says), std::string::npos) << c.args.join(' ').toStdString() << "\n" << out.err;
    }
    // Refused names state their domain; nothing was written by any of them.
    EXPECT_NE(cli(db(), {"name", q(key), "12345"}).err.find("(a run's name is 1 to 200 characters"), std::string::npos);
    for (const auto &r : runsJson(db())) {
        EXPECT_EQ(r["name"], nullptr);
        EXPECT_TRUE(r["tags"].empty());
    }
    // A name that is another run's key would address that run: refused.
    const nlohmann::json all = runsJson(db());
    const Out taken = cli(db(), {"name", q(all[0]["run_key"]), q(all[1]["run_key"])});
    EXPECT_EQ(taken.code, 2);
    EXPECT_NE(taken.err.find("is the key of run"), std::string::npos) << taken.err;
}

namespace {

class RunLabelsBackends : public ::testing::TestWithParam<StoreBackend>
{
protected:
    TestStoreLocation store{GetParam()};
    QTemporaryDir dir;
    std::string file(const char *name) const { return dir.filePath(name).toStdString(); }
};

} // namespace

// Names and tags written on either backend come back from a jsonl export imported elsewhere and
// from `store copy` each way.
TEST_P(RunLabelsBackends, NamesAndTagsRoundTripThroughJsonlAndStoreCopy)
{
    const std::string db = store.location();
    ASSERT_EQ(cli(db, {"import", q(plimsoll::test::dataPath("trend-records.jsonl"))}).code, 0);
    ASSERT_EQ(cli(db, {"import", q(plimsoll::test::dataPath("korvet-result.json"))}).code, 0);
    const nlohmann::json runs = runsJson(db);
    ASSERT_GE(runs.size(), 3u);
    const std::string first = runs[0]["run_key"], second = runs[1]["run_key"];
    ASSERT_EQ(cli(db, {"name", q(first), QString::fromUtf8("before upgrade — α")}).code, 0);
    ASSERT_EQ(cli(db, {"tag", q(first), "rf3", "nightly"}).code, 0);
    ASSERT_EQ(cli(db, {"tag", q(second), "solo"}).code, 0);
    const auto labels = labelsOf(runsJson(db));
    EXPECT_EQ(labels.at(first).first, "before upgrade — α");
    EXPECT_EQ(labels.at(first).second, nlohmann::json({"nightly", "rf3"}));
    EXPECT_EQ(labels.at(second).first, nullptr);

    // jsonl: the labels ride on each record of the run and come back on import.
    const std::string jsonl = file("export.jsonl");
    const Out exported = cli(db, {"export", "--format", "jsonl", "--out", q(jsonl)});
    ASSERT_EQ(exported.code, 0) << exported.err;
    QFile text(q(jsonl));
    ASSERT_TRUE(text.open(QIODevice::ReadOnly));
    const std::string body = text.readAll().toStdString();
    EXPECT_NE(body.find(R"("run_name":"before upgrade — α","run_tags":["nightly","rf3"])"), std::string::npos) << body;
    const std::string imported = file("imported.db");
    const Out back = cli(imported, {"import", q(jsonl)});
    ASSERT_EQ(back.code, 0) << back.err;
    EXPECT_EQ(labelsOf(runsJson(imported)), labels);

    // store copy: to a file and back into a fresh store of this backend.
    const std::string copy = file("copy.db");
    ASSERT_EQ(cli(copy, {"store", "copy", "--from", q(db), "--to", q(copy)}).code, 0);
    EXPECT_EQ(labelsOf(runsJson(copy)), labels);
    TestStoreLocation again{GetParam()};
    ASSERT_EQ(cli(copy, {"store", "copy", "--from", q(copy), "--to", q(again.location())}).code, 0);
    EXPECT_EQ(labelsOf(runsJson(again.location())), labels);
    const Out shown = cli(again.location(), {"show", "before upgrade — α", "--json"});
    ASSERT_EQ(shown.code, 0) << shown.err;
    EXPECT_EQ(nlohmann::json::parse(shown.out)["tags"], nlohmann::json({"nightly", "rf3"}));
}

// A nightly file that grows is imported again in place (its earlier import replaced): the runs it
// had keep the names and tags given them.
TEST_P(RunLabelsBackends, ARunKeepsItsLabelsWhenItsGrowingFileIsImportedAgain)
{
    const auto line = [](int night) {
        return "{\"format\":\"plimsoll-trend/1\",\"run_key\":\"night-" + std::to_string(night) +
               "\",\"timestamp\":\"2026-08-1" + std::to_string(night) +
               "T03:00:00Z\",\"scenario\":\"s\",\"metrics\":{\"records_per_s\":" + std::to_string(1000 + night) +
               "}}\n";
    };
    const QString path = dir.filePath("nightly.jsonl");
    const auto write = [&](int nights) {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        for (int n = 1; n <= nights; ++n)
            f.write(QByteArray::fromStdString(line(n)));
    };
    write(2);
    ASSERT_EQ(cli(store.location(), {"import", path}).code, 0);
    ASSERT_EQ(cli(store.location(), {"name", "night-1", "first night"}).code, 0);
    ASSERT_EQ(cli(store.location(), {"tag", "night-2", "slow"}).code, 0);
    write(3);
    const Out again = cli(store.location(), {"import", path});
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.err.find("replaces the earlier import"), std::string::npos) << again.err;
    const auto labels = labelsOf(runsJson(store.location()));
    ASSERT_EQ(labels.size(), 3u);
    EXPECT_EQ(labels.at("night-1").first, "first night");
    EXPECT_EQ(labels.at("night-2").second, nlohmann::json({"slow"}));
    EXPECT_EQ(labels.at("night-3").first, nullptr);
}

// A jsonl file with a bad label is refused at its line and field, as any other value.
TEST_P(RunLabelsBackends, AJsonlRecordWithABadLabelIsRefusedAtItsLineAndField)
{
    QFile f(dir.filePath("bad.jsonl"));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"format":"plimsoll-trend/1","run_key":"k1","timestamp":"2026-08-11T03:00:00Z","scenario":"s","metrics":{"records_per_s":1}}
{"format":"plimsoll-trend/1","run_key":"k2","timestamp":"2026-08-12T03:00:00Z","run_tags":["ok","two words"],"scenario":"s","metrics":{"records_per_s":1}}
)");
    f.close();
    const Out out = cli(store.location(), {"import", f.fileName()});
    EXPECT_EQ(out.code, 1);
    EXPECT_NE(out.err.find("line 2"), std::string::npos) << out.err;
    EXPECT_NE(out.err.find("run_tags"), std::string::npos) << out.err;
    EXPECT_NE(out.err.find("holds a space or a comma"), std::string::npos) << out.err;
}

INSTANTIATE_TEST_SUITE_P(Stores, RunLabelsBackends, ::testing::Values(StoreBackend::SQLite, StoreBackend::PostgreSQL),
                         plimsoll::test::backendName);
