// What goes into the store comes back out and in again unchanged: jsonl and hlog exports,
// a removed run restored by importing its file again, a bench's histogram log.
#include "support/tempdir.h"

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
    nlohmann::json json() const { return nlohmann::json::parse(out); }
};

class RoundTrip : public ::testing::Test
{
protected:
    QTemporaryDir dir;

    Out plimsoll(const QString &db, QStringList args) const
    {
        args.prepend(dir.filePath(db));
        args.prepend("--db");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(env);
        p.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(p.waitForFinished(120000));
        return {p.exitCode(), p.readAllStandardOutput().toStdString(),
                p.readAllStandardError().toStdString()};
    }
    QString write(const QString &name, const QByteArray &bytes) const
    {
        QFile f(dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        return f.fileName();
    }
    // `show --json` of every run, without what differs between two stores by design.
    nlohmann::json shown(const QString &db) const
    {
        nlohmann::json out = nlohmann::json::object();
        for (const auto &r : plimsoll(db, {"runs", "--json"}).json()) {
            const QString key = QString::fromStdString(r["run_key"].get<std::string>());
            nlohmann::json run = plimsoll(db, {"show", key, "--json"}).json();
            run.erase("id");
            run.erase("source");
            for (auto &s : run["scenarios"])
                s.erase("series"); // not part of the jsonl format
            out[key.toStdString()] = run;
        }
        return out;
    }
};

const std::string kCorpus = plimsoll::test::corpusDir();
const std::string kData = PLIMSOLL_TEST_DATA_DIR;

} // namespace

TEST_F(RoundTrip, JsonlExportKeepsRunLevelProvenance)
{
    PLIMSOLL_REQUIRES_CORPUS();
    // An hlog run's provenance is not its first scenario's; a redis-benchmark run has none
    // while its scenarios have theirs.
    const QString hlog = QString::fromStdString(kCorpus + "/hdrhistogram/HdrHistogram__HdrHistogram__tagged-Log.logV2.hlog");
    const QString redis = QString::fromStdString(kCorpus + "/redis-benchmark/paulrzcz__redka__benchmark.md__original-redis-block.txt");
    ASSERT_EQ(plimsoll("a.db", {"import", hlog, redis}).code, 0);
    const nlohmann::json before = shown("a.db");
    ASSERT_EQ(before.size(), 2u);
    bool differs = false, emptyRun = false;
    for (const auto &[key, run] : before.items()) {
        differs |= run["provenance"].is_string() &&
                   run["provenance"] != run["scenarios"][0]["provenance"];
        emptyRun |= run["provenance"].is_null() && !run["scenarios"][0]["provenance"].is_null();
    }
    ASSERT_TRUE(differs && emptyRun) << before.dump(2);

    const QString jsonl = dir.filePath("runs.jsonl");
    ASSERT_EQ(plimsoll("a.db", {"export", "--format", "jsonl", "--out", jsonl}).code, 0);
    const Out imp = plimsoll("b.db", {"import", jsonl});
    ASSERT_EQ(imp.code, 0) << imp.err;
    EXPECT_EQ(shown("b.db"), before);
}

TEST_F(RoundTrip, RemovedRunsComeBackWhenTheSameFileIsImportedAgain)
{
    const QString file = QString::fromStdString(kData + "/trend-records.jsonl");
    const Out first = plimsoll("s.db", {"import", "--json", file});
    ASSERT_EQ(first.code, 0) << first.err;
    const int64_t runs = first.json()["sources"][0]["runs"];
    ASSERT_GE(runs, 2);
    const auto listed = plimsoll("s.db", {"runs", "--json"}).json();
    const QString removed = QString::fromStdString(listed[0]["run_key"].get<std::string>());
    ASSERT_EQ(plimsoll("s.db", {"remove", removed}).code, 0);
    ASSERT_EQ(plimsoll("s.db", {"runs", "--json"}).json().size(), size_t(runs - 1));

    const Out again = plimsoll("s.db", {"import", "--json", file});
    ASSERT_EQ(again.code, 0) << again.err;
    const auto source = again.json()["sources"][0];
    EXPECT_EQ(source["status"], "imported") << source.dump();
    EXPECT_EQ(source["runs"], runs);
    bool said = false;
    for (const auto &w : source["warnings"])
        said |= w["detail"].get<std::string>().find("restores the 1 run removed") != std::string::npos;
    EXPECT_TRUE(said) << source.dump();
    EXPECT_EQ(plimsoll("s.db", {"runs", "--json"}).json().size(), size_t(runs));
    EXPECT_EQ(plimsoll("s.db", {"show", removed, "--json"}).code, 0);

    // Whole again: the same bytes are now unchanged.
    EXPECT_EQ(plimsoll("s.db", {"import", "--json", file}).json()["sources"][0]["status"], "unchanged");
}

TEST_F(RoundTrip, HlogExportImportsBackInItsOwnUnit)
{
    // Stored percentiles under 2.048 ms are exact in a 3-digit histogram of µs; 80 ms is
    // within its resolution (1/1024). Read as ns, each would come back 1000 times smaller.
    const QString trend = write(
        "lat.jsonl",
        R"({"format":"plimsoll-trend/1","run_key":"lat-1","timestamp":"2026-11-01T00:00:00Z","scenario":"fast","metrics":{"latency_p50_s":0.000812,"latency_p95_s":0.0012,"latency_p99_s":0.0019,"latency_p999_s":0.002,"latency_max_s":0.002047}}
{"format":"plimsoll-trend/1","run_key":"lat-1","timestamp":"2026-11-01T00:00:00Z","scenario":"slow","metrics":{"latency_p50_s":0.009,"latency_p95_s":0.03,"latency_p99_s":0.08,"latency_p999_s":0.12,"latency_max_s":0.2}}
)");
    ASSERT_EQ(plimsoll("a.db", {"import", trend}).code, 0);
    const QString hlog = dir.filePath("lat.hlog");
    ASSERT_EQ(plimsoll("a.db", {"export", "--format", "hlog", "--out", hlog}).code, 0);
    const Out imp = plimsoll("b.db", {"import", "--json", hlog});
    ASSERT_EQ(imp.code, 0) << imp.err;
    for (const auto &w : imp.json()["sources"][0]["warnings"])
        EXPECT_NE(w["kind"], "unit-assumed") << w.dump();
    const auto runs = plimsoll("b.db", {"runs", "--json"}).json();
    ASSERT_EQ(runs.size(), 1u);
    const auto run = plimsoll("b.db", {"show", QString::number(runs[0]["id"].get<int64_t>()), "--json"}).json();
    ASSERT_EQ(run["scenarios"].size(), 2u);
    const auto &fast = run["scenarios"][0]["metrics"];
    EXPECT_EQ(run["scenarios"][0]["name"], "latency/lat-1/fast");
    EXPECT_DOUBLE_EQ(fast["latency_p50_s"].get<double>(), 0.000812);
    EXPECT_DOUBLE_EQ(fast["latency_p99_s"].get<double>(), 0.0019);
    EXPECT_DOUBLE_EQ(fast["latency_max_s"].get<double>(), 0.002047);
    const auto &slow = run["scenarios"][1]["metrics"];
    EXPECT_NEAR(slow["latency_p99_s"].get<double>(), 0.08, 0.08 / 1024);
    EXPECT_NEAR(slow["latency_max_s"].get<double>(), 0.2, 0.2 / 1024);
}

TEST_F(RoundTrip, ARefusedFilesTextMessageNamesTheClosestFormatAndWhy)
{
    const QString csv = write("results.csv", "\"name\",\"ops\",\"note\"\n\"SET\",\"120000\",\"warm\"\n");
    const Out text = plimsoll("s.db", {"import", csv});
    EXPECT_EQ(text.code, 1);
    EXPECT_NE(text.err.find("results.csv: not a format Plimsoll reads; closest is redis-benchmark, "
                            "but it has quoted CSV rows"),
              std::string::npos)
        << text.err;
    const Out json = plimsoll("s.db", {"import", "--json", csv});
    const std::string message = json.json()["sources"][0]["error"]["message"];
    EXPECT_NE(text.err.find(message), std::string::npos) << text.err << "\n" << message;
}

TEST_F(RoundTrip, MetricsJsonShowsEachDomainAndImportsAreCheckedAgainstIt)
{
    const auto catalog = plimsoll("s.db", {"metrics", "--json"}).json();
    bool sawCpu = false;
    for (const auto &m : catalog["metrics"]) {
        ASSERT_TRUE(m.contains("domain")) << m.dump();
        EXPECT_EQ(m["domain"]["min"], 0) << m.dump();
        if (m["name"] == "shard_cpu_max") {
            sawCpu = true;
            EXPECT_EQ(m["domain"]["plausible_max"], 64);
        }
        if (m["name"] == "records_per_s") {
            EXPECT_TRUE(m["domain"]["plausible_max"].is_null());
        }
    }
    EXPECT_TRUE(sawCpu);

    const Out refused = plimsoll("s.db", {"import", QString::fromStdString(kData + "/domain/negative-latency.jsonl")});
    EXPECT_EQ(refused.code, 1);
    EXPECT_NE(refused.err.find("negative-latency.jsonl: line 2: field 'latency_p99_s': run 'domain-neg-1', "
                               "scenario 'produce/step-2': latency_p99_s is -0.004"),
              std::string::npos)
        << refused.err;
    const Out warned = plimsoll("s.db", {"import", QString::fromStdString(kData + "/domain/cpu-implausible.jsonl")});
    EXPECT_EQ(warned.code, 0) << warned.err;
    EXPECT_NE(warned.err.find("warning: "), std::string::npos);
    EXPECT_NE(warned.err.find("shard_cpu_max is 92"), std::string::npos) << warned.err;
}

TEST_F(RoundTrip, ABenchsHistogramLogImportsWithTheBenchsPercentiles)
{
    // The embedded mock cluster, in process: no broker needed.
    const QString log = dir.filePath("bench.hlog");
    const Out bench = plimsoll("bench.db", {"bench", "producer", "--embedded", "--records", "20000",
                                            "--record-size", "256B", "--histogram-log", log});
    ASSERT_EQ(bench.code, 0) << bench.err;
    const auto runs = plimsoll("bench.db", {"runs", "--json"}).json();
    ASSERT_EQ(runs.size(), 1u);
    const auto stored = plimsoll("bench.db", {"show", QString::fromStdString(runs[0]["run_key"].get<std::string>()), "--json"}).json();
    const auto &benched = stored["scenarios"][0]["metrics"];

    const Out imp = plimsoll("import.db", {"import", "--json", log});
    ASSERT_EQ(imp.code, 0) << imp.err;
    for (const auto &w : imp.json()["sources"][0]["warnings"])
        EXPECT_NE(w["kind"], "unit-assumed") << w.dump();
    const auto imported = plimsoll("import.db", {"show", "1", "--json"}).json();
    const nlohmann::json *ack = nullptr;
    for (const auto &s : imported["scenarios"])
        if (s["name"] == "latency/ack")
            ack = &s["metrics"];
    ASSERT_NE(ack, nullptr) << imported.dump(2);
    EXPECT_EQ((*ack)["hdr.total_count"].get<double>(), benched["producer.acknowledged"].get<double>());
    for (const char *m : {"latency_p50_s", "latency_p99_s", "latency_max_s"})
        EXPECT_DOUBLE_EQ((*ack)[m].get<double>(), benched[m].get<double>()) << m;
}
