// End to end: `plimsoll changes`, `compare` (the nightly gate), `export --format otava-csv`
// and `contract`, on trend-record files written here.
#include <gtest/gtest.h>

#include <QDate>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

namespace {

struct Result
{
    int exitCode = -1;
    std::string out;
    std::string err;
    nlohmann::json json() const { return nlohmann::json::parse(out); }
};

// One night of the pipeline benchmark: a trend record per scenario step.
std::string night(int day, double recordsPerS, double p99, int batch = 16384, const std::string &commit = "")
{
    char ts[32];
    // July has 31 days: night 32 is August 1st.
    std::snprintf(ts, sizeof ts, "2026-%02d-%02dT03:00:00Z", day <= 31 ? 7 : 8, day <= 31 ? day : day - 31);
    nlohmann::json rec = {{"format", "plimsoll-trend/1"},
                          {"run_key", "nightly-" + std::to_string(day)},
                          {"timestamp", ts},
                          {"commit", commit.empty() ? "c" + std::to_string(day) : commit},
                          {"image_digest", "sha256:" + std::to_string(1000 + day)},
                          {"tool", "korvet-pipeline-benchmark"},
                          {"tool_version", "1.2.0"},
                          {"target", "korvet"},
                          {"tuning", {{"acks", "1"}, {"batch.size", batch}, {"linger.ms", 5}}},
                          {"scenario", "pipeline/produce/step-16"},
                          {"kind", "ramp-step"},
                          {"topology", {{"brokers", 3}, {"partitions", 96}, {"producers", 16}}},
                          {"metrics", {{"records_per_s", recordsPerS}, {"latency_p99_s", p99}}}};
    return rec.dump() + "\n";
}

class TrendsCli : public ::testing::Test
{
protected:
    QTemporaryDir dir;
    QString db() const { return dir.filePath("store.db"); }

    Result plimsoll(QStringList args) const
    {
        args.prepend(db());
        args.prepend("--db");
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(e);
        p.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(p.waitForFinished(60000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
    }
    QString write(const QString &name, const std::string &text) const
    {
        QFile f(dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(text.data(), qint64(text.size()));
        return f.fileName();
    }

    // Thirty nights: p99 steps from 50 ms to 65 ms at night 20 (commit "bad1dea"); night 31
    // doubles p99; night 32 changes batch.size (a new baseline, not a delta).
    void SetUp() override
    {
        std::string text;
        for (int d = 1; d <= 30; ++d) {
            const double wiggle = ((d * 7) % 5 - 2) * 0.002; // ±0.4 %, deterministic
            const double p99 = (d < 20 ? 0.050 : 0.065) * (1 + wiggle);
            text += night(d, 640000 * (1 - wiggle), p99, 16384, d == 20 ? "bad1dea" : "");
        }
        text += night(31, 640500, 0.130);
        text += night(32, 400000, 0.020, 65536, "=cmd|' /C calc'!A0");
        const Result imp = plimsoll({"import", write("nightly.jsonl", text)});
        ASSERT_EQ(imp.exitCode, 0) << imp.err;
    }
};

} // namespace

TEST_F(TrendsCli, ChangesFindsTheStepWithItsRunAndVerdict)
{
    const Result r = plimsoll({"changes", "--metric", "latency_p99_s", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["window"], 50);
    EXPECT_EQ(j["pvalue"], 0.001);
    // The retuned night is a series of its own; the first series holds nights 1–31.
    ASSERT_EQ(j["series"].size(), 2u) << j.dump(1);
    const auto &s = j["series"][0];
    EXPECT_EQ(s["metric"], "latency_p99_s");
    EXPECT_EQ(s["direction"], "lower");
    EXPECT_EQ(s["points"], 31);
    ASSERT_GE(s["changes"].size(), 1u) << s.dump(1);
    const auto &c = s["changes"][0];
    EXPECT_EQ(c["index"], 19);
    EXPECT_EQ(c["run_key"], "nightly-20");
    EXPECT_EQ(c["commit"], "bad1dea");
    EXPECT_EQ(c["verdict"], "regression");
    EXPECT_NEAR(c["forward_change_percent"].get<double>(), 30, 1.5);
    EXPECT_LE(c["pvalue"].get<double>(), 0.001);
    for (const char *k : {"time", "mean_before", "stddev_before", "mean_after", "stddev_after"})
        EXPECT_TRUE(c.contains(k)) << k;
    ASSERT_EQ(j["baseline_changes"].size(), 1u);
    EXPECT_EQ(j["baseline_changes"][0]["run_key"], "nightly-32");
    EXPECT_EQ(j["baseline_changes"][0]["differences"][0]["key"], "tuning.batch.size");

    // Throughput holds: nothing there. --since hides the older change.
    const Result thr = plimsoll({"changes", "--metric", "records_per_s", "--json"});
    ASSERT_EQ(thr.exitCode, 0) << thr.err;
    EXPECT_EQ(thr.json()["change_count"], 0);
    const Result since = plimsoll({"changes", "--metric", "latency_p99_s", "--since", "2026-07-25", "--json"});
    ASSERT_EQ(since.exitCode, 0) << since.err;
    // Kept in a variable: a range-for over since.json()["series"] walks a destroyed temporary.
    const nlohmann::json sinceJson = since.json();
    for (const auto &ser : sinceJson.at("series"))
        for (const auto &ch : ser.at("changes"))
            EXPECT_GE(ch["time"].get<std::string>(), "2026-07-25");
    EXPECT_EQ(plimsoll({"changes", "--since", "yesterday"}).exitCode, 2);
}

// A nightly latency series with what level changes alone would misreport: a one-night spike
// (night 41), a regression fixed ten nights later (71–80), noise that triples from night 96 on,
// and a jump on the very last night.
TEST_F(TrendsCli, ChangesTellsOutliersNoiseChangesAndProvisionalChangesApart)
{
    std::mt19937 rng(1);
    std::normal_distribution<double> noise(0, 0.0005);
    std::string text;
    for (int i = 0; i < 121; ++i) {
        double p99 = 0.050 + noise(rng) * (i >= 95 ? 3 : 1);
        if (i == 40)
            p99 = 0.080;
        if (i >= 70 && i < 80)
            p99 += 0.010;
        if (i == 120)
            p99 = 0.090;
        nlohmann::json rec = {{"format", "plimsoll-trend/1"},
                              {"run_key", "n-" + std::to_string(i + 1)},
                              {"timestamp", QDate(2026, 1, 1).addDays(i).toString(Qt::ISODate).toStdString() + "T02:00:00Z"},
                              {"commit", "c" + std::to_string(i + 1)},
                              {"tool", "korvet-pipeline-benchmark"},
                              {"target", "korvet"},
                              {"tuning", {{"acks", "1"}}},
                              {"scenario", "nightly/noisy"},
                              {"kind", "ramp-step"},
                              {"metrics", {{"latency_p99_s", p99}}}};
        text += rec.dump() + "\n";
    }
    ASSERT_EQ(plimsoll({"import", write("noisy.jsonl", text)}).exitCode, 0);

    const Result r = plimsoll({"changes", "--scenario", "nightly/noisy", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["min_segment"], 5);
    ASSERT_EQ(j["series"].size(), 1u);
    const auto &s = j["series"][0];
    // The spike: an outlier with its size, not a change into and out of its night.
    ASSERT_EQ(s["outliers"].size(), 1u) << s.dump(1);
    EXPECT_EQ(s["outliers"][0]["run_key"], "n-41");
    EXPECT_GT(s["outliers"][0]["sigmas"].get<double>(), 20);
    EXPECT_NEAR(s["outliers"][0]["percent"].get<double>(), 60, 2);
    EXPECT_EQ(s["outliers"][0]["verdict"], "regression");
    // The regression and its fix, confident; the last night's jump, provisional.
    std::vector<std::string> confident, provisional;
    for (const auto &c : s["changes"])
        (c["provisional"].get<bool>() ? provisional : confident).push_back(c["run_key"]);
    EXPECT_EQ(confident, (std::vector<std::string>{"n-71", "n-81"})) << s["changes"].dump(1);
    EXPECT_EQ(provisional, (std::vector<std::string>{"n-121"}));
    // The noise: one change, near night 96, three times the spread.
    ASSERT_EQ(s["variance_changes"].size(), 1u) << s.dump(1);
    const auto &v = s["variance_changes"][0];
    EXPECT_NEAR(v["index"].get<double>(), 95, 5);
    EXPECT_NEAR(v["ratio"].get<double>(), 3, 1);
    EXPECT_LT(v["pvalue"].get<double>(), 0.001);
    EXPECT_EQ(v["verdict"], "regression");
    EXPECT_EQ(j["outlier_count"], 1);
    EXPECT_EQ(j["variance_change_count"], 1);

    // The text says each for what it is.
    const Result t = plimsoll({"changes", "--scenario", "nightly/noisy"});
    ASSERT_EQ(t.exitCode, 0) << t.err;
    EXPECT_NE(t.out.find("2026-02-10T02:00:00Z  nightly/noisy  latency_p99_s  outlier +"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("σ of noise) regression  run n-41"), std::string::npos) << t.out;
    EXPECT_LT(t.out.find("run n-41"), t.out.find("run n-71")) << "oldest first: " << t.out;
    EXPECT_NE(t.out.find("noise ×"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("provisional: fewer than 5 runs after it  run n-121"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("3 change points, 1 outlier, 1 noise change in 1 series"), std::string::npos) << t.out;
}

// A growing dataset: p99 flat for 80 nights, then up 0.25 ms a night — one drift with its slope
// per run and per day, not a staircase of small regressions.
TEST_F(TrendsCli, ChangesReportsADriftInsteadOfAStaircase)
{
    std::mt19937 rng(3);
    std::normal_distribution<double> noise(0, 0.001);
    std::string text;
    for (int i = 0; i < 200; ++i) {
        const double p99 = 0.100 + (i >= 80 ? 0.00025 * (i - 80) : 0) + noise(rng);
        nlohmann::json rec = {{"format", "plimsoll-trend/1"},
                              {"run_key", "d-" + std::to_string(i + 1)},
                              {"timestamp", QDate(2026, 1, 1).addDays(i).toString(Qt::ISODate).toStdString() + "T02:00:00Z"},
                              {"tool", "korvet-pipeline-benchmark"},
                              {"target", "korvet"},
                              {"tuning", {{"acks", "1"}}},
                              {"scenario", "nightly/growing"},
                              {"kind", "ramp-step"},
                              {"metrics", {{"latency_p99_s", p99}}}};
        text += rec.dump() + "\n";
    }
    ASSERT_EQ(plimsoll({"import", write("growing.jsonl", text)}).exitCode, 0);
    const Result r = plimsoll({"changes", "--scenario", "nightly/growing", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = r.json();
    const auto &s = j["series"][0];
    ASSERT_EQ(s["drifts"].size(), 1u) << s.dump(1);
    const auto &d = s["drifts"][0];
    EXPECT_NEAR(d["per_run"].get<double>(), 0.00025, 0.00003);
    EXPECT_NEAR(d["per_day"].get<double>(), 0.00025, 0.00003) << "one run a day";
    EXPECT_NEAR(d["from_index"].get<double>(), 80, 10);
    EXPECT_EQ(d["to_run_key"], "d-200");
    EXPECT_EQ(d["verdict"], "regression");
    EXPECT_LE(s["changes"].size(), 1u) << "at most the change where the drift begins: " << s["changes"].dump(1);
    const Result t = plimsoll({"changes", "--scenario", "nightly/growing"});
    EXPECT_NE(t.out.find("latency_p99_s  drift +254 µs per run, +254 µs per day (102 ms → 130 ms over 110 runs) regression"), std::string::npos) << t.out;
}

TEST_F(TrendsCli, NightlyGateExitCodes)
{
    // Within the noise: exit 0 even with the gate on.
    const Result quiet = plimsoll({"compare", "--baseline", "nightly-28", "--current", "nightly-29", "--json",
                                   "--fail-on-regression"});
    EXPECT_EQ(quiet.exitCode, 0) << quiet.out << quiet.err;
    EXPECT_EQ(quiet.json()["summary"]["regressions"], 0);

    // p99 doubled: a regression; the gate fails, without the gate the report still exits 0.
    const Result bad = plimsoll({"compare", "--baseline", "nightly-30", "--current", "nightly-31", "--json",
                                 "--fail-on-regression"});
    EXPECT_EQ(bad.exitCode, 1) << bad.err;
    const auto j = bad.json();
    EXPECT_EQ(j["summary"]["regressions"], 1);
    const auto &metrics = j["scenarios"][0]["metrics"];
    bool sawP99 = false;
    for (const auto &m : metrics) {
        if (m["metric"] == "latency_p99_s") {
            sawP99 = true;
            EXPECT_EQ(m["verdict"], "regression");
            EXPECT_GT(m["delta"].get<double>(), 0.06);
            EXPECT_GT(m["noise_band"].get<double>(), 0);
            EXPECT_EQ(m["history_points"], 10);
        } else {
            EXPECT_EQ(m["verdict"], "unchanged");
        }
    }
    EXPECT_TRUE(sawP99);
    EXPECT_EQ(plimsoll({"compare", "--baseline", "nightly-30", "--current", "nightly-31"}).exitCode, 0);
    EXPECT_EQ(plimsoll({"compare", "--baseline", "nightly-30", "--current", "nope", "--fail-on-regression"}).exitCode, 1);
}

TEST_F(TrendsCli, RetunedRunIsIncompatibleWithNoDeltaUntilTheFamilyLeavesTheKeyOut)
{
    const Result r = plimsoll({"compare", "--baseline", "nightly-31", "--current", "nightly-32", "--json",
                               "--fail-on-regression"});
    EXPECT_EQ(r.exitCode, 0) << "an incompatible baseline is not a regression: " << r.err;
    const auto s = r.json()["scenarios"][0];
    EXPECT_EQ(s["status"], "incompatible");
    EXPECT_FALSE(s.contains("metrics"));
    EXPECT_EQ(r.out.find("\"delta\""), std::string::npos) << "no delta anywhere";
    ASSERT_EQ(s["differences"].size(), 1u);
    EXPECT_EQ(s["differences"][0]["key"], "tuning.batch.size");
    EXPECT_EQ(s["differences"][0]["baseline"], "16384");
    EXPECT_EQ(s["differences"][0]["current"], "65536");

    // The family's contract leaves batch.size out: now it compares (and throughput fell).
    const Result set = plimsoll({"contract", "--family", "pipeline/produce/", "--exclude", "tuning.batch.size", "--json"});
    ASSERT_EQ(set.exitCode, 0) << set.err;
    EXPECT_EQ(set.json()["families"][0]["excluded"][0], "tuning.batch.size");
    EXPECT_FALSE(QFile::exists(db() + ".contracts.ini")) << "kept in the store, not beside it";
    EXPECT_EQ(plimsoll({"contract", "--json"}).json()["families"][0]["family"], "pipeline/produce/")
        << "a later command reads the choice from the store";
    const Result again = plimsoll({"compare", "--baseline", "nightly-31", "--current", "nightly-32", "--json",
                                   "--fail-on-regression"});
    EXPECT_EQ(again.exitCode, 1);
    EXPECT_EQ(again.json()["scenarios"][0]["status"], "compatible");
    ASSERT_EQ(plimsoll({"contract", "--family", "pipeline/produce/", "--clear"}).exitCode, 0);
    EXPECT_EQ(plimsoll({"compare", "--baseline", "nightly-31", "--current", "nightly-32", "--json"})
                  .json()["scenarios"][0]["status"],
              "incompatible");
}

TEST_F(TrendsCli, ExportOtavaCsv)
{
    const QString out = dir.filePath("otava.csv");
    const Result r = plimsoll({"export", "--format", "otava-csv", "--scenario", "step-16", "--metric",
                               "records_per_s", "--metric", "latency_p99_s", "--out", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    QFile f(out);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    EXPECT_EQ(lines[0], "time,run_key,commit,image_digest,target,tuning,records_per_s,latency_p99_s");
    EXPECT_TRUE(lines[1].startsWith("2026-07-01 03:00:00 +0000,nightly-1,c1,sha256:1001,korvet,"
                                    "acks=1 batch.size=16384 linger.ms=5,"))
        << lines[1].toStdString();
    EXPECT_EQ(lines.size(), 34); // header, 32 runs, final newline
    // A commit that a spreadsheet would run as a formula is defused.
    EXPECT_TRUE(lines[32].contains(",'=cmd|' /C calc'!A0,")) << lines[32].toStdString();

    EXPECT_EQ(plimsoll({"export", "--format", "excel", "--out", out}).exitCode, 2);
    EXPECT_EQ(plimsoll({"export", "--format", "otava-csv", "--scenario", "nothing-like-it", "--out", out}).exitCode, 1);
    const Result toStdout = plimsoll({"export", "--format", "otava-csv", "--out", "-"});
    ASSERT_EQ(toStdout.exitCode, 0);
    EXPECT_EQ(toStdout.out.rfind("time,run_key,", 0), 0u);
}

TEST_F(TrendsCli, ContractExcludeAddsAndIncludeTakesBack)
{
    auto excluded = [&] {
        const Result r = plimsoll({"contract", "--json"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        const auto j = r.json();
        return j["families"].empty() ? nlohmann::json::array() : j["families"][0]["excluded"];
    };
    ASSERT_EQ(plimsoll({"contract", "--family", "pipeline/produce/", "--exclude", "tuning.linger.ms"}).exitCode, 0);
    ASSERT_EQ(plimsoll({"contract", "--family", "pipeline/produce/", "--exclude", "tuning.batch.size"}).exitCode, 0);
    EXPECT_EQ(excluded(), nlohmann::json({"tuning.batch.size", "tuning.linger.ms"})) << "the second adds to the first";
    // Leaving batch.size out makes the retuned night comparable; taking it back makes it incompatible again.
    EXPECT_EQ(plimsoll({"compare", "--baseline", "nightly-31", "--current", "nightly-32", "--json"})
                  .json()["scenarios"][0]["status"],
              "compatible");
    ASSERT_EQ(plimsoll({"contract", "--family", "pipeline/produce/", "--include", "tuning.batch.size"}).exitCode, 0);
    EXPECT_EQ(excluded(), nlohmann::json({"tuning.linger.ms"}));
    EXPECT_EQ(plimsoll({"compare", "--baseline", "nightly-31", "--current", "nightly-32", "--json"})
                  .json()["scenarios"][0]["status"],
              "incompatible");

    // A key the family does not leave out cannot be taken back: exit 2, and the message says what it leaves out.
    const Result notOut = plimsoll({"contract", "--family", "pipeline/produce/", "--include", "tuning.acks"});
    EXPECT_EQ(notOut.exitCode, 2);
    EXPECT_NE(notOut.err.find("does not leave it out (it leaves out: tuning.linger.ms)"), std::string::npos) << notOut.err;
    // A key left out by a pattern names the pattern to take back.
    ASSERT_EQ(plimsoll({"contract", "--family", "pipeline/produce/", "--exclude", "tuning.batch.*"}).exitCode, 0);
    const Result byPattern = plimsoll({"contract", "--family", "pipeline/produce/", "--include", "tuning.batch.size"});
    EXPECT_EQ(byPattern.exitCode, 2);
    EXPECT_NE(byPattern.err.find("by the pattern tuning.batch.*"), std::string::npos) << byPattern.err;
    EXPECT_EQ(excluded(), nlohmann::json({"tuning.batch.*", "tuning.linger.ms"})) << "a refused change changes nothing";
    EXPECT_EQ(plimsoll({"contract", "--family", "pipeline/produce/", "--include", "x", "--exclude", "x"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"contract", "--include", "tuning.linger.ms"}).exitCode, 2) << "--include needs --family";
    // Taking back the last key removes the family's choice altogether.
    ASSERT_EQ(plimsoll({"contract", "--family", "pipeline/produce/", "--include", "tuning.batch.*", "--include",
                        "tuning.linger.ms"})
                  .exitCode,
              0);
    EXPECT_TRUE(excluded().empty());
}

TEST_F(TrendsCli, ThroughputAtADifferentOfferedRateDoesNotFailTheGate)
{
    // Two bench runs asked for 50k and 25k records/s; the family leaves the rate out of its contract.
    auto run = [](const std::string &key, int day, int rate, double achieved) {
        nlohmann::json rec = {{"format", "plimsoll-trend/1"},
                              {"run_key", key},
                              {"timestamp", "2026-09-0" + std::to_string(day) + "T03:00:00Z"},
                              {"tool", "plimsoll-bench"},
                              {"target", "kafka"},
                              {"tuning", {{"acks", "all"}, {"rate", std::to_string(rate)}}},
                              {"scenario", "bench/producer"},
                              {"metrics", {{"records_per_s", achieved}, {"latency_p99_s", 0.009}, {"broker_cpu_avg", achieved / 1e5}}}};
        return rec.dump() + "\n";
    };
    ASSERT_EQ(plimsoll({"import", write("bench.jsonl", run("at-50k", 1, 50000, 49800) + run("at-25k", 2, 25000, 24900))})
                  .exitCode,
              0);
    const Result r = plimsoll({"compare", "--baseline", "at-50k", "--current", "at-25k", "--contract-exclude",
                               "tuning.rate", "--json", "--fail-on-regression"});
    EXPECT_EQ(r.exitCode, 0) << "half the offered load is no regression: " << r.out;
    const auto j = r.json();
    const auto &s = j["scenarios"][0];
    EXPECT_EQ(s["offered"]["differs"], true);
    EXPECT_EQ(s["offered"]["baseline"]["records_per_s"], 50000.0);
    EXPECT_EQ(s["offered"]["current"]["source"], "tuning.rate");
    std::map<std::string, nlohmann::json> byName;
    for (const auto &m : s["metrics"])
        byName[m["metric"].get<std::string>()] = m;
    EXPECT_EQ(byName["records_per_s"]["verdict"], "not_comparable");
    EXPECT_EQ(byName["broker_cpu_avg"]["verdict"], "follows_throughput");
    EXPECT_EQ(byName["latency_p99_s"]["verdict"], "unchanged");
    EXPECT_EQ(j["summary"]["not_comparable"], 1);
    EXPECT_EQ(j["summary"]["follows_throughput"], 1);
    EXPECT_EQ(j["summary"]["regressions"], 0);
    const Result text = plimsoll({"compare", "--baseline", "at-50k", "--current", "at-25k", "--contract-exclude",
                                  "tuning.rate"});
    EXPECT_NE(text.out.find("offered rate 50,000 rec/s -> 25,000 rec/s: throughput not comparable"), std::string::npos)
        << text.out;
}

namespace {

// The column (in code points) where `token` starts in `line`, or -1.
int columnOf(const std::string &line, const std::string &token)
{
    const auto at = line.find(token);
    if (at == std::string::npos)
        return -1;
    int n = 0;
    for (std::size_t i = 0; i < at; ++i)
        n += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

std::vector<std::string> linesOf(const std::string &text)
{
    std::vector<std::string> out;
    std::size_t from = 0;
    while (from < text.size()) {
        const auto nl = text.find('\n', from);
        out.push_back(text.substr(from, nl - from));
        if (nl == std::string::npos)
            break;
        from = nl + 1;
    }
    return out;
}

// The code point at column `col` onwards.
std::string fromColumn(const std::string &line, int col)
{
    std::size_t i = 0;
    for (int n = 0; i < line.size(); ++i) {
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) {
            if (n == col)
                break;
            ++n;
        }
    }
    return line.substr(i);
}

std::string record(const std::string &key, const std::string &ts, const std::string &scenario,
                   const nlohmann::json &metrics)
{
    return nlohmann::json{{"format", "plimsoll-trend/1"}, {"run_key", key}, {"timestamp", ts},
                          {"tool", "omb"},            {"target", "kafka"}, {"scenario", scenario},
                          {"metrics", metrics}}
               .dump() +
           "\n";
}

} // namespace

TEST_F(TrendsCli, CompareTextAlignsFoldsQuantilesAndCountsEverything)
{
    // Two runs of a tool with long metric names and sixty per-quantile latencies; a scenario
    // each run has alone.
    auto metrics = [](double p99) {
        nlohmann::json m = {{"records_per_s", 100000.0},
                            {"latency_p99_s", p99},
                            {"a.really.long.tool.specific.name.latency_p999_s", 0.050}};
        for (int q = 1; q <= 60; ++q)
            m["publish.quantile." + std::to_string(q) + ".0"] = 0.001 * q;
        return m;
    };
    std::string text = record("omb-a", "2026-09-10T03:00:00Z", "omb/x", metrics(0.010)) +
                       record("omb-a", "2026-09-10T03:00:00Z", "omb/gone", {{"records_per_s", 1.0}}) +
                       record("omb-b", "2026-09-11T03:00:00.250Z", "omb/x", metrics(0.015)) +
                       record("omb-b", "2026-09-11T03:00:00.250Z", "omb/new", {{"records_per_s", 1.0}});
    ASSERT_EQ(plimsoll({"import", write("omb.jsonl", text)}).exitCode, 0);

    const Result r = plimsoll({"compare", "--baseline", "omb-a", "--current", "omb-b"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto lines = linesOf(r.out);
    const auto header = std::find_if(lines.begin(), lines.end(),
                                     [](const std::string &l) { return l.find("METRIC") != std::string::npos; });
    ASSERT_NE(header, lines.end()) << r.out;
    const int verdictCol = columnOf(*header, "VERDICT");
    const int bandEnd = columnOf(*header, "NOISE BAND") + 10;
    int rows = 0;
    for (auto l = header + 1; l != lines.end() && !l->empty(); ++l) {
        if (l->rfind("  ", 0) != 0)
            continue; // a scenario's heading
        ++rows;
        const std::string verdict = fromColumn(*l, verdictCol);
        EXPECT_TRUE(verdict.rfind("unchanged", 0) == 0 || verdict.rfind("regression", 0) == 0)
            << "verdict column off in: " << *l << "\n" << r.out;
        // The band is right-aligned under its title.
        if (l->find("± ") != std::string::npos) {
            EXPECT_NE(fromColumn(*l, bandEnd - 1).substr(0, 1), " ") << *l << "\n" << r.out;
            EXPECT_EQ(fromColumn(*l, bandEnd).substr(0, 1), " ") << *l << "\n" << r.out;
        }
    }
    EXPECT_EQ(rows, 4) << "three metrics and one row for the sixty quantiles:\n" << r.out;
    const auto p99 = std::find_if(lines.begin(), lines.end(),
                                  [](const std::string &l) { return l.rfind("  latency_p99_s ", 0) == 0; });
    ASSERT_NE(p99, lines.end());
    EXPECT_NE(p99->find("regression"), std::string::npos);
    EXPECT_NE(p99->find("± 100 µs"), std::string::npos) << "a band of 1 % of 10 ms, in its unit: " << *p99;
    const auto tp = std::find_if(lines.begin(), lines.end(),
                                 [](const std::string &l) { return l.rfind("  records_per_s ", 0) == 0; });
    ASSERT_NE(tp, lines.end());
    EXPECT_NE(tp->find("± 1,000 rec/s"), std::string::npos) << *tp;
    const auto family = std::find_if(lines.begin(), lines.end(), [](const std::string &l) {
        return l.find("publish.quantile.*") != std::string::npos;
    });
    ASSERT_NE(family, lines.end());
    EXPECT_NE(family->find("60 quantiles"), std::string::npos) << *family;
    EXPECT_NE(r.out.find("1 regression, 0 improvements, 62 unchanged"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("63 metrics with fewer than 2 earlier runs (P -) judged by that floor alone"),
              std::string::npos)
        << "two runs and no history: the legend says what judged them\n" << r.out;
    EXPECT_NE(r.out.find("only in baseline (1): omb/gone"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("only in current (1): omb/new"), std::string::npos) << r.out;

    // --all and --json give every row.
    const Result all = plimsoll({"compare", "--baseline", "omb-a", "--current", "omb-b", "--all"});
    ASSERT_EQ(all.exitCode, 0);
    int quantileRows = 0;
    for (const auto &l : linesOf(all.out))
        quantileRows += l.rfind("  publish.quantile.", 0) == 0 ? 1 : 0;
    EXPECT_EQ(quantileRows, 60);
    const Result j = plimsoll({"compare", "--baseline", "omb-a", "--current", "omb-b", "--json"});
    EXPECT_EQ(j.json()["scenarios"][0]["metrics"].size(), 63u);
    EXPECT_EQ(j.json()["summary"]["unchanged"], 62);
    EXPECT_EQ(plimsoll({"compare", "--baseline", "omb-a", "--current", "omb-b", "--alpha", "0"}).exitCode, 2);
}

TEST_F(TrendsCli, RunsAndShowKeepTheirColumns)
{
    // Timestamps with and without a fraction, run keys short and long, metric names short and long.
    const std::string text =
        record("k", "2026-09-12T03:00:00.125Z", "s/one",
               {{"records_per_s", 5.0}, {"an.exceptionally.long.metric.name.for.a.tool_p99_s", 0.002}}) +
        record("a-run-key-much-longer-than-any-other-in-this-store", "2026-09-13T03:00:00Z", "s/one",
               {{"records_per_s", 6.0}});
    ASSERT_EQ(plimsoll({"import", write("mixed.jsonl", text)}).exitCode, 0);
    const Result runs = plimsoll({"runs"});
    ASSERT_EQ(runs.exitCode, 0) << runs.err;
    const auto lines = linesOf(runs.out);
    ASSERT_GE(lines.size(), 3u);
    for (const char *title : {"RUN KEY", "COMMIT", "TOOL"}) {
        const int col = columnOf(lines[0], title);
        ASSERT_GE(col, 0) << title;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            if (lines[i].empty())
                continue;
            EXPECT_NE(fromColumn(lines[i], col).substr(0, 1), " ") << title << " off in: " << lines[i];
            EXPECT_EQ(fromColumn(lines[i], col - 1).substr(0, 1), " ") << title << " off in: " << lines[i];
        }
    }
    const Result show = plimsoll({"show", "k"});
    ASSERT_EQ(show.exitCode, 0) << show.err;
    const auto shown = linesOf(show.out);
    const auto a = std::find_if(shown.begin(), shown.end(),
                                [](const std::string &l) { return l.find("    records_per_s") == 0; });
    const auto b = std::find_if(shown.begin(), shown.end(),
                                [](const std::string &l) { return l.find("    an.exceptionally") == 0; });
    ASSERT_NE(a, shown.end()) << show.out;
    ASSERT_NE(b, shown.end()) << show.out;
    EXPECT_EQ(columnOf(*a, "5 rec/s"), columnOf(*b, "2 ms")) << show.out;
}

TEST_F(TrendsCli, BudgetTableKeepsItsColumns)
{
    // The sample runs give products and configurations of different widths, some without a
    // point within the budget.
    ASSERT_EQ(plimsoll({"samples", "install"}).exitCode, 0);
    const Result r = plimsoll({"budget", "--p99", "30ms"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto lines = linesOf(r.out);
    ASSERT_GE(lines.size(), 4u) << r.out;
    EXPECT_NE(lines[0].find("budget p99 ≤ 30 ms"), std::string::npos) << lines[0];
    const std::string &header = lines[1];
    const int throughputEnd = columnOf(header, "THROUGHPUT") + 10;
    const int p99End = columnOf(header, "P99") + 3;
    const int noteCol = columnOf(header, "NOTE");
    int found = 0, missing = 0;
    for (std::size_t i = 2; i < lines.size() && !lines[i].empty(); ++i) {
        const std::string &l = lines[i];
        // Right-aligned numbers end under the end of their title; the note starts under its own.
        EXPECT_NE(fromColumn(l, throughputEnd - 1).substr(0, 1), " ") << l << "\n" << r.out;
        EXPECT_NE(fromColumn(l, p99End - 1).substr(0, 1), " ") << l << "\n" << r.out;
        if (l.find("no point within budget") != std::string::npos) {
            ++missing;
            EXPECT_EQ(columnOf(l, "no point within budget"), noteCol) << l << "\n" << r.out;
        } else {
            ++found;
            EXPECT_EQ(fromColumn(l, throughputEnd - 2).substr(0, 2), "/s") << l;
            EXPECT_EQ(fromColumn(l, p99End - 2).substr(0, 2), "ms") << l;
        }
    }
    EXPECT_GE(found, 1) << r.out;
    EXPECT_GE(missing, 1) << r.out;
}
