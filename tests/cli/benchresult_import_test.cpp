// A result file written by `plimsoll bench` imports back as the same run the bench stored.
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace {

struct Out
{
    int code = -1;
    std::string out, err;
};

Out plimsoll(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("PLIMSOLL_DB");
    p.setProcessEnvironment(env);
    p.start(PLIMSOLL_BINARY, args);
    EXPECT_TRUE(p.waitForFinished(120000));
    return {p.exitCode(), p.readAllStandardOutput().toStdString(),
            p.readAllStandardError().toStdString()};
}

} // namespace

TEST(BenchResultImport, ResultFileImportsAsTheRunTheBenchStored)
{
    QTemporaryDir dir;
    const QString benchDb = dir.filePath("bench.db"), importDb = dir.filePath("import.db");
    const QString result = dir.filePath("result.json");
    // The embedded mock cluster: no broker needed, and the file says so.
    const Out bench = plimsoll({"--db", benchDb, "bench", "producer", "--embedded", "--records",
                                "20000", "--record-size", "256B", "--result-file", result});
    ASSERT_EQ(bench.code, 0) << bench.err;

    const Out imp = plimsoll({"--db", importDb, "import", "--json", result});
    ASSERT_EQ(imp.code, 0) << imp.err;
    const auto report = nlohmann::json::parse(imp.out)["sources"][0];
    EXPECT_EQ(report["format"], "plimsoll-bench-result");
    EXPECT_EQ(report["runs"], 1);
    bool warnedEmbedded = false;
    for (const auto &w : report["warnings"])
        warnedEmbedded |= w["detail"].get<std::string>().find("not a real broker") != std::string::npos;
    EXPECT_TRUE(warnedEmbedded) << report.dump();

    const auto runs = nlohmann::json::parse(plimsoll({"--db", benchDb, "runs", "--json"}).out);
    ASSERT_EQ(runs.size(), 1u);
    const QString key = QString::fromStdString(runs[0]["run_key"].get<std::string>());
    auto stored = nlohmann::json::parse(plimsoll({"--db", benchDb, "show", key, "--json"}).out);
    auto imported = nlohmann::json::parse(plimsoll({"--db", importDb, "show", key, "--json"}).out);
    for (auto *j : {&stored, &imported}) {
        j->erase("id");
        j->erase("source");
    }
    EXPECT_EQ(stored, imported);
    EXPECT_GT(imported["scenarios"][0]["metrics"]["records_per_s"].get<double>(), 0);
}

TEST(BenchResultImport, ABrokenResultFileNamesTheField)
{
    QTemporaryDir dir;
    QFile f(dir.filePath("result.json"));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"type": "result", "format": "plimsoll-bench/1", "run_id": "x", "scenarios": "none"})");
    f.close();
    const Out imp = plimsoll({"--db", dir.filePath("s.db"), "import", "--format",
                              "plimsoll-bench-result", f.fileName()});
    EXPECT_EQ(imp.code, 1);
    EXPECT_NE(imp.err.find("result.json"), std::string::npos) << imp.err;
}

// The CI recipe's case: the bench stored its run and wrote --result-file; importing that file
// into the same store is the same run again, "unchanged" with its key, not "already in the store".
TEST(BenchResultImport, TheResultFileOfAStoredBenchIsUnchangedInItsStore)
{
    QTemporaryDir dir;
    const QString db = dir.filePath("store.db");
    const QString result = dir.filePath("tonight.json");
    const Out bench = plimsoll({"--db", db, "bench", "producer", "--embedded", "--records", "5000",
                                "--record-size", "128B", "--result-file", result});
    ASSERT_EQ(bench.code, 0) << bench.err;
    const auto runs = nlohmann::json::parse(plimsoll({"--db", db, "runs", "--json"}).out);
    ASSERT_EQ(runs.size(), 1u);
    const std::string key = runs[0]["run_key"].get<std::string>();

    for (int attempt = 0; attempt < 2; ++attempt) {
        const Out imp = plimsoll({"--db", db, "import", "--json", result});
        ASSERT_EQ(imp.code, 0) << imp.err << imp.out;
        const auto report = nlohmann::json::parse(imp.out)["sources"][0];
        EXPECT_EQ(report["status"], "unchanged") << report.dump();
        EXPECT_EQ(report["latest_run"], key) << report.dump();
        EXPECT_EQ(report["runs"], 1) << report.dump();
    }
    EXPECT_EQ(nlohmann::json::parse(plimsoll({"--db", db, "runs", "--json"}).out).size(), 1u);

    // The same document re-indented is still that run; a changed one is another source, and its
    // run key is then refused as the stored run's.
    QFile f(result);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    auto doc = nlohmann::json::parse(f.readAll().toStdString());
    f.close();
    QFile compact(dir.filePath("compact.json"));
    ASSERT_TRUE(compact.open(QIODevice::WriteOnly));
    compact.write(QByteArray::fromStdString(doc.dump()));
    compact.close();
    const Out again = plimsoll({"--db", db, "import", "--json", compact.fileName()});
    EXPECT_EQ(again.code, 0) << again.err;
    EXPECT_EQ(nlohmann::json::parse(again.out)["sources"][0]["status"], "unchanged") << again.out;

    doc["tool_version"] = "edited";
    QFile edited(dir.filePath("edited.json"));
    ASSERT_TRUE(edited.open(QIODevice::WriteOnly));
    edited.write(QByteArray::fromStdString(doc.dump(2)));
    edited.close();
    const Out changed = plimsoll({"--db", db, "import", edited.fileName()});
    EXPECT_EQ(changed.code, 1) << changed.err;
    EXPECT_NE(changed.err.find("already in the store"), std::string::npos) << changed.err;
}
