// The CLI on a team store: `--db postgresql://…` (or PLIMSOLL_DB) imports, lists and shows
// exactly what it does on a SQLite file; a URI with a password and a read-only role are told
// what to do. Runs in the fixture "postgres" (tests/services/postgres.sh).
#include "support/teststore.h"
#include "support/tempdir.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cstdio>

using plimsoll::test::StoreBackend;
using plimsoll::test::TestStoreLocation;

namespace {

struct Out
{
    int code = -1;
    std::string out, err;
};

// `plimsoll` on the store at `db`, given by --db or by PLIMSOLL_DB.
Out cli(const std::string &db, QStringList args, bool viaEnvironment = false)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("PLIMSOLL_DB");
    if (viaEnvironment)
        env.insert("PLIMSOLL_DB", QString::fromStdString(db));
    else
        args = QStringList{"--db", QString::fromStdString(db)} + args;
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(PLIMSOLL_BINARY, args);
    EXPECT_TRUE(p.waitForFinished(120000));
    return {p.exitCode(), p.readAllStandardOutput().toStdString(),
            p.readAllStandardError().toStdString()};
}

// What two stores give alike by design: everything but the ids they assign and the import time.
nlohmann::json withoutIds(nlohmann::json j)
{
    if (j.is_object()) {
        j.erase("id");
        j.erase("imported_at");
        for (auto &[key, value] : j.items())
            value = withoutIds(value);
    } else if (j.is_array()) {
        for (auto &value : j)
            value = withoutIds(value);
    }
    return j;
}

// `runs --json` and `show --json` of every run.
nlohmann::json everything(const std::string &db, bool viaEnvironment = false)
{
    const Out runs = cli(db, {"runs", "--json"}, viaEnvironment);
    EXPECT_EQ(runs.code, 0) << runs.err;
    nlohmann::json out = {{"runs", withoutIds(nlohmann::json::parse(runs.out))}};
    for (const auto &r : nlohmann::json::parse(runs.out)) {
        const Out shown = cli(db, {"show", QString::fromStdString(r["run_key"].get<std::string>()), "--json"},
                                   viaEnvironment);
        EXPECT_EQ(shown.code, 0) << shown.err;
        out["show"].push_back(withoutIds(nlohmann::json::parse(shown.out)));
    }
    return out;
}

class TeamStoreCli : public ::testing::TestWithParam<StoreBackend>
{
protected:
    TestStoreLocation team{GetParam()};
    QTemporaryDir dir;
    std::string file() const { return dir.filePath("local.db").toStdString(); }
};

const QStringList kSources = {QString::fromStdString(plimsoll::test::dataPath("trend-records.jsonl")),
                              QString::fromStdString(plimsoll::test::dataPath("korvet-result.json"))};

} // namespace

TEST_P(TeamStoreCli, ImportRunsAndShowGiveWhatASqliteFileGives)
{
    for (const QString &source : kSources) {
        const Out local = cli(file(), {"import", source});
        ASSERT_EQ(local.code, 0) << local.err;
        const Out shared = cli(team.location(), {"import", source});
        ASSERT_EQ(shared.code, 0) << shared.err;
        EXPECT_EQ(shared.out, local.out);
    }
    const nlohmann::json expected = everything(file());
    ASSERT_FALSE(expected["show"].empty());
    EXPECT_EQ(everything(team.location()), expected);
    EXPECT_EQ(everything(team.location(), true), expected) << "PLIMSOLL_DB names the team store too";

    // The same file again is unchanged, on both.
    const Out again = cli(team.location(), {"import", kSources[0]});
    EXPECT_EQ(again.code, 0) << again.err;
    EXPECT_EQ(again.out, cli(file(), {"import", kSources[0]}).out);
    EXPECT_NE(again.out.find("unchanged"), std::string::npos) << again.out;
}

TEST_P(TeamStoreCli, ReadOnlyRoleListsAndIsToldOnImport)
{
    ASSERT_EQ(cli(team.location(), {"import", kSources[0]}).code, 0);
    const Out listed = cli(team.readerLocation(), {"runs", "--json"});
    EXPECT_EQ(listed.code, 0) << listed.err;
    EXPECT_EQ(withoutIds(nlohmann::json::parse(listed.out)), everything(team.location())["runs"]);
    const Out refused = cli(team.readerLocation(), {"import", kSources[1]});
    EXPECT_NE(refused.code, 0);
    EXPECT_NE(refused.err.find("this store is read-only for user " + TestStoreLocation::reader()),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(refused.err.find("terminate"), std::string::npos) << refused.err;
}

TEST_P(TeamStoreCli, PasswordInTheUriIsRefusedAndNeverPrinted)
{
    std::string uri = team.location();
    uri.insert(uri.find('@'), ":hunter2-secret");
    for (const bool viaEnvironment : {false, true}) {
        const Out refused = cli(uri, {"runs"}, viaEnvironment);
        EXPECT_NE(refused.code, 0);
        EXPECT_NE(refused.err.find("~/.pgpass"), std::string::npos) << refused.err;
        EXPECT_EQ(refused.err.find("hunter2-secret"), std::string::npos) << refused.err;
        EXPECT_EQ(refused.out.find("hunter2-secret"), std::string::npos) << refused.out;
    }
}

// `store copy` moves a whole store between backends: a laptop's file into the team store and the
// team store back into a new file give what the first file gives — every run (`show --json`, ids
// aside), the sample runs, the saved sizings and contract choices.
// Copying again skips what is there.
TEST_P(TeamStoreCli, StoreCopyBetweenBackendsGivesTheSameStore)
{
    for (const QString &source :
         kSources + QStringList{QString::fromStdString(plimsoll::test::dataPath("plimsoll-bench-result-embedded.json"))})
        ASSERT_EQ(cli(file(), {"import", source}).code, 0);
    ASSERT_EQ(cli(file(), {"samples", "install"}).code, 0);
    ASSERT_EQ(cli(file(), {"size", "--rate", "600k", "--samples", "include", "--save", "600k now"}).code, 0);
    ASSERT_EQ(cli(file(), {"contract", "--family", "pipeline/produce/", "--exclude", "tuning.linger_ms"}).code, 0);
    const nlohmann::json expected = everything(file());
    ASSERT_GT(expected["show"].size(), 5u);
    const auto sizings = [](const std::string &db) {
        const Out out = cli(db, {"sizings", "--json"});
        EXPECT_EQ(out.code, 0) << out.err;
        return nlohmann::json::parse(out.out)["sizings"];
    };
    const auto contracts = [](const std::string &db) {
        const Out out = cli(db, {"contract", "--json"});
        EXPECT_EQ(out.code, 0) << out.err;
        return nlohmann::json::parse(out.out)["families"];
    };

    const Out copied = cli(file(), {"store", "copy", "--from", QString::fromStdString(file()), "--to",
                                    QString::fromStdString(team.location()), "--json"});
    ASSERT_EQ(copied.code, 0) << copied.err;
    const nlohmann::json report = nlohmann::json::parse(copied.out);
    EXPECT_EQ(report["runs_copied"], expected["runs"].size());
    EXPECT_EQ(report["settings_copied"], 2);
    EXPECT_EQ(everything(team.location()), expected);
    EXPECT_EQ(sizings(team.location()), sizings(file()));
    EXPECT_EQ(contracts(team.location()), contracts(file()));

    const Out again = cli(file(), {"store", "copy", "--from", QString::fromStdString(file()), "--to",
                                   QString::fromStdString(team.location())});
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.out.find("Copied 0 runs of 0 sources"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("sources were there already"), std::string::npos) << again.out;
    EXPECT_EQ(everything(team.location()), expected) << "nothing doubled";

    const std::string back = dir.filePath("back.db").toStdString();
    const Out home = cli(file(), {"store", "copy", "--from", QString::fromStdString(team.location()), "--to",
                                  QString::fromStdString(back)});
    ASSERT_EQ(home.code, 0) << home.err;
    EXPECT_EQ(everything(back), expected);
    EXPECT_EQ(sizings(back), sizings(file()));

    const Out missing = cli(file(), {"store", "copy", "--from", QString::fromStdString(dir.filePath("none.db").toStdString()),
                                     "--to", QString::fromStdString(back)});
    EXPECT_EQ(missing.code, 1);
    EXPECT_NE(missing.err.find("none.db"), std::string::npos) << missing.err;
    const Out itself = cli(file(), {"store", "copy", "--from", QString::fromStdString(back), "--to",
                                    QString::fromStdString(back)});
    EXPECT_EQ(itself.code, 1);
    EXPECT_NE(itself.err.find("into itself"), std::string::npos) << itself.err;
}

// A file of trend records, one run per line from `first` (run keys "night-N"), as a CI job's
// history would be; `bad` (1-based line, 0: none) replaced by a record with no timestamp.
std::string nightlyLines(int first, int count, int bad = 0)
{
    std::string text;
    for (int i = 0; i < count; ++i) {
        const int n = first + i;
        if (i + 1 == bad) {
            text += R"({"format":"plimsoll-trend/1","run_key":"broken","scenario":"pipeline/produce/step-1",)"
                    R"("metrics":{"records_per_s":1}})" "\n";
            continue;
        }
        char time[32];
        std::snprintf(time, sizeof time, "2026-%02d-%02dT%02d:%02d:00Z", 1 + n / 40000 % 12, 1 + n / 1440 % 28,
                      n / 60 % 24, n % 60);
        text += R"({"format":"plimsoll-trend/1","run_key":"night-)" + std::to_string(n) + R"(","timestamp":")" +
                time + R"(","commit":"c)" + std::to_string(n / 10) +
                R"(","scenario":"pipeline/produce/step-1","metrics":{"records_per_s":)" + std::to_string(1000 + n % 97) +
                R"(,"latency_p99_s":0.004}})" "\n";
    }
    return text;
}

// What a user sees of an import that fails well into a long file — a run key another file gave,
// a record that cannot be read — is what a SQLite file gives: the error at its line, and nothing
// of the file in the store.
TEST_P(TeamStoreCli, AFileFailingMidwayIsToldAtItsLineAndLeavesNothing)
{
    const auto write = [this](const char *name, const std::string &text) {
        const QString path = dir.filePath(name);
        QFile f(path);
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(text.data(), qint64(text.size()));
        return path;
    };
    const QString first = write("first.jsonl", nightlyLines(0, 3));
    // night-1 again on line 3,991: found when the file's runs are written, after its last line.
    const QString taken = write("taken.jsonl", nightlyLines(10, 3990) + nightlyLines(1, 1) + nightlyLines(5000, 499));
    const QString broken = write("broken.jsonl", nightlyLines(10, 6000, 4500));
    const std::string local = file();
    for (const std::string &db : {local, team.location()}) {
        const Out ok = cli(db, {"import", first});
        ASSERT_EQ(ok.code, 0) << ok.err;
    }
    for (const QString &path : {taken, broken}) {
        const Out onFile = cli(local, {"import", path});
        const Out onTeam = cli(team.location(), {"import", path});
        EXPECT_NE(onTeam.code, 0) << onTeam.out;
        EXPECT_EQ(onTeam.code, onFile.code);
        EXPECT_EQ(onTeam.err, onFile.err);
        EXPECT_EQ(onTeam.out, onFile.out);
    }
    EXPECT_NE(cli(team.location(), {"import", taken}).err.find(
                  "line 3991: field 'run_key': run key 'night-1' is already in the store (from "),
              std::string::npos)
        << cli(team.location(), {"import", taken}).err;
    EXPECT_NE(cli(team.location(), {"import", broken}).err.find("line 4500"), std::string::npos)
        << cli(team.location(), {"import", broken}).err;
    const nlohmann::json stored = everything(team.location());
    EXPECT_EQ(stored["runs"].size(), 3u);
    EXPECT_EQ(stored, everything(local));

    // The same files corrected import whole, alike.
    const QString fixed = write("fixed.jsonl", nightlyLines(10, 6000));
    for (const std::string &db : {local, team.location()}) {
        const Out ok = cli(db, {"import", fixed});
        ASSERT_EQ(ok.code, 0) << ok.err;
    }
    const Out runs = cli(team.location(), {"runs", "--json"});
    EXPECT_EQ(nlohmann::json::parse(runs.out).size(), 6003u);
    // Every run exported, and each series' change points, byte for byte alike.
    for (const QStringList &read : {QStringList{"export", "--format", "csv", "--out", "-"},
                                    QStringList{"export", "--format", "jsonl", "--out", "-"},
                                    QStringList{"changes", "--json"}}) {
        const Out onTeam = cli(team.location(), read), onFile = cli(local, read);
        EXPECT_EQ(onTeam.code, 0) << onTeam.err;
        EXPECT_GT(onTeam.out.size(), 6000u) << read.join(' ').toStdString();
        EXPECT_EQ(onTeam.out, onFile.out) << read.join(' ').toStdString();
    }
}

INSTANTIATE_TEST_SUITE_P(Team, TeamStoreCli, ::testing::Values(StoreBackend::PostgreSQL),
                         plimsoll::test::backendName);
