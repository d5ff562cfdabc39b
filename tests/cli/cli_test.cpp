// End to end: the real `plimsoll` executable, as a script or a user at a terminal runs it.
#include <gtest/gtest.h>

#include <QCryptographicHash>
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

class Cli : public ::testing::Test
{
protected:
    QTemporaryDir dir;
    QString db() const { return dir.filePath("store.db"); }

    Result run(const QStringList &args, const QProcessEnvironment &env = {}) const
    {
        QProcess p;
        QProcessEnvironment e = env.isEmpty() ? QProcessEnvironment::systemEnvironment() : env;
        e.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(e);
        p.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(p.waitForFinished(60000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(),
                p.readAllStandardError().toStdString()};
    }
    Result plimsoll(QStringList args) const
    {
        args.prepend(db());
        args.prepend("--db");
        return run(args);
    }
    QString write(const QString &name, const QByteArray &bytes) const
    {
        QFile f(dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        return f.fileName();
    }
    QByteArray storeHash() const
    {
        QCryptographicHash h(QCryptographicHash::Sha256);
        for (const char *suffix : {"", "-wal"}) {
            QFile f(db() + suffix);
            if (f.open(QIODevice::ReadOnly))
                h.addData(f.readAll());
        }
        return h.result();
    }
};

const QByteArray kKorvetResult = R"({
  "korvetVersion": "0.5.0-ea1",
  "timestamp": "2026-03-30T17:30:00Z",
  "gitCommit": "abc1234",
  "environment": {"javaVersion": "25", "osName": "Linux", "availableProcessors": 4, "maxMemoryMb": 4096},
  "config": {"messageCount": 10000, "recordSizeBytes": 1024, "partitions": 1, "iterations": 3,
             "batchSizes": [100, 500, 1000]},
  "scenarios": [
    {"type": "STANDALONE_CONSUMER", "batchSize": 100, "avgLatencyMs": 250, "p95LatencyMs": 320,
     "throughputMsgPerSec": 400.0}
  ]
}
)";

const QByteArray kTrend =
    R"({"format":"plimsoll-trend/1","run_key":"nightly-1","timestamp":"2026-08-11T03:00:00Z","commit":"c0ffee1","scenario":"pipeline/produce/step-1","topology":{"producers":1},"metrics":{"records_per_s":74506,"latency_p99_s":0.0054}}
{"format":"plimsoll-trend/1","run_key":"nightly-1","timestamp":"2026-08-11T03:00:00Z","commit":"c0ffee1","scenario":"pipeline/produce/step-2","topology":{"producers":2},"metrics":{"records_per_s":150043}}
{"format":"plimsoll-trend/1","run_key":"nightly-2","timestamp":"2026-08-12T03:00:00Z","commit":"d00d000","scenario":"pipeline/produce/step-1","topology":{"producers":1},"metrics":{"records_per_s":70001}}
)";

} // namespace

TEST_F(Cli, ImportRunsShowEndToEnd)
{
    const QString korvet = write("result.txt", kKorvetResult); // detected by content
    const QString trend = write("nightly.jsonl", kTrend);
    const Result imp = plimsoll({"import", "--json", korvet, trend});
    ASSERT_EQ(imp.exitCode, 0) << imp.err;
    const auto report = imp.json();
    ASSERT_EQ(report["sources"].size(), 2u);
    EXPECT_EQ(report["sources"][0]["format"], "korvet-result");
    EXPECT_EQ(report["sources"][0]["status"], "imported");
    EXPECT_EQ(report["sources"][0]["runs"], 1);
    EXPECT_EQ(report["sources"][1]["format"], "plimsoll-trend");
    EXPECT_EQ(report["sources"][1]["runs"], 2);
    EXPECT_EQ(report["sources"][1]["scenarios"], 3);
    EXPECT_TRUE(report["sources"][1]["error"].is_null());

    const Result runs = plimsoll({"runs", "--json"});
    ASSERT_EQ(runs.exitCode, 0) << runs.err;
    const auto list = runs.json();
    ASSERT_EQ(list.size(), 3u);
    // Oldest first.
    EXPECT_EQ(list[0]["commit"], "abc1234");
    EXPECT_EQ(list[0]["tool"], "korvet-benchmark");
    EXPECT_EQ(list[1]["run_key"], "nightly-1");
    EXPECT_EQ(list[1]["scenario_count"], 2);
    EXPECT_EQ(list[1]["timestamp"], "2026-08-11T03:00:00Z");
    for (const auto &r : list)
        for (const char *key : {"id", "run_key", "timestamp", "tool", "commit", "scenario_count"})
            EXPECT_TRUE(r.contains(key)) << key;

    const Result show = plimsoll({"show", "nightly-1", "--json"});
    ASSERT_EQ(show.exitCode, 0) << show.err;
    const auto run = show.json();
    EXPECT_EQ(run["commit"], "c0ffee1");
    ASSERT_EQ(run["scenarios"].size(), 2u);
    EXPECT_EQ(run["scenarios"][0]["name"], "pipeline/produce/step-1");
    EXPECT_DOUBLE_EQ(run["scenarios"][0]["metrics"]["latency_p99_s"].get<double>(), 0.0054);
    EXPECT_EQ(run["scenarios"][0]["topology"]["producers"], 1);
    EXPECT_EQ(run["source"]["format"], "plimsoll-trend");

    // The Korvet result's milliseconds arrive as seconds.
    const Result korvetRun = plimsoll({"show", QString::fromStdString(list[0]["id"].dump()), "--json"});
    ASSERT_EQ(korvetRun.exitCode, 0) << korvetRun.err;
    const auto sc = korvetRun.json()["scenarios"][0];
    EXPECT_DOUBLE_EQ(sc["metrics"]["latency_avg_s"].get<double>(), 0.25);
    EXPECT_DOUBLE_EQ(sc["metrics"]["records_per_s"].get<double>(), 400.0);

    const Result filtered = plimsoll({"runs", "--json", "--commit", "d00d"});
    ASSERT_EQ(filtered.json().size(), 1u);
    EXPECT_EQ(filtered.json()[0]["run_key"], "nightly-2");

    // Same bytes again: nothing new.
    const Result again = plimsoll({"import", "--json", trend});
    ASSERT_EQ(again.exitCode, 0);
    EXPECT_EQ(again.json()["sources"][0]["status"], "unchanged");
    EXPECT_EQ(plimsoll({"runs", "--json"}).json().size(), 3u);
}

TEST_F(Cli, BrokenFileExitsOneWithPreciseMessageAndLeavesStoreUntouched)
{
    ASSERT_EQ(plimsoll({"import", write("good.jsonl", kTrend)}).exitCode, 0);
    const QByteArray before = storeHash();

    QByteArray broken = kTrend;
    broken.replace("\"timestamp\":\"2026-08-12T03:00:00Z\"", "\"timestamp\":\"yesterday\"");
    broken.replace("nightly-", "other-");
    const QString path = write("broken.jsonl", broken);
    const Result r = plimsoll({"import", "--json", path});
    EXPECT_EQ(r.exitCode, 1);
    const auto src = r.json()["sources"][0];
    EXPECT_EQ(src["status"], "failed");
    EXPECT_EQ(src["error"]["line"], 3);
    EXPECT_EQ(src["error"]["field"], "timestamp");
    const std::string message = src["error"]["message"];
    EXPECT_NE(message.find("broken.jsonl"), std::string::npos) << message;
    EXPECT_NE(message.find("line 3"), std::string::npos) << message;

    // Plain text goes to stderr, with the same precision.
    const Result text = plimsoll({"import", path});
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_NE(text.err.find("line 3"), std::string::npos) << text.err;
    EXPECT_NE(text.err.find("timestamp"), std::string::npos) << text.err;

    EXPECT_EQ(storeHash(), before);
    EXPECT_EQ(plimsoll({"runs", "--json"}).json().size(), 2u);
}

TEST_F(Cli, UnknownFormatAndMissingFileFailClearly)
{
    const Result r = plimsoll({"import", write("notes.txt", "just some notes\n"),
                               dir.filePath("missing.json")});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("notes.txt"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
}

TEST_F(Cli, DryRunWritesNothing)
{
    const Result r = plimsoll({"import", "--dry-run", "--json", write("a.jsonl", kTrend)});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.json()["sources"][0]["status"], "checked");
    EXPECT_EQ(r.json()["sources"][0]["runs"], 2);
    EXPECT_TRUE(plimsoll({"runs", "--json"}).json().empty());
}

TEST_F(Cli, SamplesOnlyWhenAskedAndRemovable)
{
    ASSERT_EQ(plimsoll({"import", write("mine.jsonl", kTrend)}).exitCode, 0);
    // A store the command line made holds what was imported, no samples.
    EXPECT_TRUE(plimsoll({"runs", "--json", "--samples", "only"}).json().empty());
    EXPECT_EQ(plimsoll({"runs", "--json"}).json().size(), 2u);
    const Result install = plimsoll({"samples", "install", "--json"});
    ASSERT_EQ(install.exitCode, 0) << install.err;
    EXPECT_EQ(install.json()["sources"].size(), 6u);

    const auto samples = plimsoll({"runs", "--json", "--samples", "only"}).json();
    ASSERT_EQ(samples.size(), 6u);
    for (const auto &r : samples)
        EXPECT_TRUE(r["sample"].get<bool>());
    const auto ramp = plimsoll({"show", "sample:korvet-pipeline-produce-2026-08-11", "--json"}).json();
    int steps = 0;
    for (const auto &s : ramp["scenarios"]) {
        if (s["kind"] != "ramp-step")
            continue;
        ++steps;
        EXPECT_FALSE(s["provenance"].get<std::string>().empty());
    }
    EXPECT_EQ(steps, 7);

    // Installing again is harmless.
    // json() returns a temporary: keep it in a variable, a range-for over its ["sources"]
    // would walk a destroyed object (heap-use-after-free, found by ASan).
    const nlohmann::json again = plimsoll({"samples", "install", "--json"}).json();
    ASSERT_FALSE(again.at("sources").empty());
    for (const auto &s : again.at("sources"))
        EXPECT_EQ(s["status"], "unchanged");

    ASSERT_EQ(plimsoll({"samples", "remove"}).exitCode, 0);
    const auto left = plimsoll({"runs", "--json"}).json();
    ASSERT_EQ(left.size(), 2u);
    EXPECT_FALSE(left[0]["sample"].get<bool>());
}

TEST_F(Cli, StoreFromEnvironmentVersionAndNames)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString other = dir.filePath("from-env.db");
    QProcess p;
    env.insert("PLIMSOLL_DB", other);
    p.setProcessEnvironment(env);
    p.start(PLIMSOLL_BINARY, {"samples", "install"});
    ASSERT_TRUE(p.waitForFinished(60000));
    EXPECT_EQ(p.exitCode(), 0);
    EXPECT_TRUE(QFile::exists(other));
    EXPECT_FALSE(QFile::exists(db()));

    const Result version = run({"--version"});
    EXPECT_EQ(version.exitCode, 0);
    EXPECT_NE(version.out.find("plimsoll 0."), std::string::npos) << version.out;

    const auto names = plimsoll({"metrics", "--json"}).json();
    bool found = false;
    for (const auto &m : names["metrics"])
        found |= m["name"] == "shard_cpu_max";
    EXPECT_TRUE(found);
    EXPECT_EQ(names["factors"].size(), 12u); // replication among them
    bool agents = false; // a fleet ramp's load factor
    for (const auto &f : names["factors"])
        agents |= f["name"] == "agents";
    EXPECT_TRUE(agents) << names["factors"].dump();

    const auto formats = plimsoll({"formats", "--json"}).json();
    EXPECT_GE(formats.size(), 2u);
}

TEST_F(Cli, WindowWithoutDisplaySaysHowToGetOne)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.remove("WAYLAND_DISPLAY");
    env.remove("QT_QPA_PLATFORM");
    const Result r = run({"--db", db()}, env);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("xvfb-run"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("QT_QPA_PLATFORM=offscreen"), std::string::npos) << r.err;
}

TEST_F(Cli, ShowUnknownRunFails)
{
    ASSERT_EQ(plimsoll({"import", write("mine.jsonl", kTrend)}).exitCode, 0);
    const Result r = plimsoll({"show", "no-such-run"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no-such-run"), std::string::npos);
}
