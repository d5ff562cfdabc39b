// `plimsoll import --scrapes BEFORE AFTER` end to end: two Prometheus scrapes saved to two
// files become one source and one run of the interval between them; refused pairs exit 1 with
// the file and line and leave the store as it was; usage errors exit 2.
#include <gtest/gtest.h>

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>

namespace {

struct Result
{
    int exitCode = -1;
    std::string out;
    std::string err;
    nlohmann::json json() const { return nlohmann::json::parse(out); }
};

// A Korvet broker's /metrics before and after a 60 s workload (tests/importers/scrapepair_test
// works the same numbers through by hand).
const QByteArray kBefore = R"(# TYPE korvet_broker_produce_seconds histogram
korvet_broker_produce_seconds_bucket{broker="0",le="0.001"} 4000
korvet_broker_produce_seconds_bucket{broker="0",le="0.005"} 9000
korvet_broker_produce_seconds_bucket{broker="0",le="0.01"} 9900
korvet_broker_produce_seconds_bucket{broker="0",le="0.05"} 9990
korvet_broker_produce_seconds_bucket{broker="0",le="0.1"} 10000
korvet_broker_produce_seconds_bucket{broker="0",le="+Inf"} 10000
korvet_broker_produce_seconds_sum{broker="0"} 25
korvet_broker_produce_seconds_count{broker="0"} 10000
# TYPE korvet_records_produced_total counter
korvet_records_produced_total{topic="bench"} 1.2e6
)";
const QByteArray kAfter = R"(# TYPE korvet_broker_produce_seconds histogram
korvet_broker_produce_seconds_bucket{broker="0",le="0.001"} 10000
korvet_broker_produce_seconds_bucket{broker="0",le="0.005"} 25000
korvet_broker_produce_seconds_bucket{broker="0",le="0.01"} 28900
korvet_broker_produce_seconds_bucket{broker="0",le="0.05"} 29690
korvet_broker_produce_seconds_bucket{broker="0",le="0.1"} 30000
korvet_broker_produce_seconds_bucket{broker="0",le="+Inf"} 30000
korvet_broker_produce_seconds_sum{broker="0"} 95
korvet_broker_produce_seconds_count{broker="0"} 30000
# TYPE korvet_records_produced_total counter
korvet_records_produced_total{topic="bench"} 3.6e6
)";
const int64_t kAfterMs = 1786413660000; // 2026-08-11T02:01:00Z

class ScrapesCli : public ::testing::Test
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
        return {p.exitCode(), p.readAllStandardOutput().toStdString(),
                p.readAllStandardError().toStdString()};
    }
    QString write(const QString &name, const QByteArray &bytes, int64_t modifiedMs) const
    {
        const QString path = dir.filePath(name);
        QFile f(path);
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        std::filesystem::last_write_time(
            path.toStdString(),
            std::chrono::file_clock::from_sys(std::chrono::sys_time<std::chrono::milliseconds>(
                std::chrono::milliseconds(modifiedMs))));
        return path;
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

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_F(ScrapesCli, TwoFilesBecomeOneRunOfTheInterval)
{
    const QString before = write("before.prom", kBefore, kAfterMs - 60000);
    const QString after = write("after.prom", kAfter, kAfterMs);

    const Result dry = plimsoll({"import", "--dry-run", "--json", "--scrapes", before, after});
    ASSERT_EQ(dry.exitCode, 0) << dry.err;
    EXPECT_EQ(dry.json()["sources"][0]["status"], "checked");
    EXPECT_TRUE(plimsoll({"runs", "--json"}).json().empty());

    const Result imp = plimsoll({"import", "--json", "--scrapes", before, after});
    ASSERT_EQ(imp.exitCode, 0) << imp.err;
    const auto report = imp.json();
    ASSERT_EQ(report["sources"].size(), 1u);
    const auto src = report["sources"][0];
    EXPECT_EQ(src["status"], "imported");
    EXPECT_EQ(src["format"], "prometheus");
    EXPECT_EQ(src["runs"], 1);
    EXPECT_EQ(src["scenarios"], 1);
    EXPECT_EQ(src["uri"], (before + " + " + after).toStdString());
    EXPECT_EQ(src["scrapes"], nlohmann::json({before.toStdString(), after.toStdString()}));
    EXPECT_EQ(src["interval_s"], 60);
    EXPECT_EQ(src["interval_from"], "file modification times");
    bool saidInferred = false;
    for (const auto &w : src["warnings"])
        saidInferred |= w["kind"] == "interval-inferred";
    EXPECT_TRUE(saidInferred) << src.dump(2);
    EXPECT_EQ(report["summary"]["imported"], 1);

    const auto runs = plimsoll({"runs", "--json"}).json();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0]["tool"], "prometheus");
    EXPECT_EQ(runs[0]["target"], "korvet");
    EXPECT_EQ(runs[0]["timestamp"], "2026-08-11T02:01:00Z");
    const Result show = plimsoll({"show", QString::fromStdString(runs[0]["run_key"]), "--json"});
    ASSERT_EQ(show.exitCode, 0) << show.err;
    const auto run = show.json();
    EXPECT_EQ(run["source"]["uri"], (before + " + " + after).toStdString());
    EXPECT_EQ(run["source"]["sha256"],
              QCryptographicHash::hash(kBefore + kAfter, QCryptographicHash::Sha256).toHex().toStdString());
    EXPECT_EQ(run["environment"]["interval_from"], "file modification times");
    EXPECT_EQ(run["environment"]["inferred"], nlohmann::json({"interval_s", "timestamp"}));
    const auto metrics = run["scenarios"][0]["metrics"];
    EXPECT_EQ(run["scenarios"][0]["name"], "prometheus/window-1");
    EXPECT_DOUBLE_EQ(metrics["prom.korvet_records_produced_total{topic=\"bench\"}.rate_per_s"].get<double>(),
                     2.4e6 / 60);
    // p99 of the 20,000 requests of the interval: rank 19,800 among the 300 in (50, 100] ms
    // above the 19,700 at or below 50 ms, interpolated linearly.
    EXPECT_DOUBLE_EQ(metrics["latency_p99_s"].get<double>(), 0.05 + 0.05 * (100.0 / 300));
    EXPECT_DOUBLE_EQ(metrics["korvet.produce_requests_per_s"].get<double>(), 20000.0 / 60);

    // Text form: the pair, its status, the interval and where it came from. The same bytes
    // keep their run; another interval is said to need a removal first.
    const Result again = plimsoll({"import", "--scrapes", before, after, "--interval", "90s"});
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_TRUE(contains(again.out, ": unchanged (prometheus): 1 run, 1 scenario")) << again.out;
    EXPECT_TRUE(contains(again.out, "interval 90 s (--interval)")) << again.out;
    EXPECT_TRUE(contains(again.err, "with an interval of 60 s (file modification times), not 90 s"))
        << again.err;
    EXPECT_TRUE(contains(again.err, "plimsoll remove")) << again.err;
    EXPECT_EQ(plimsoll({"runs", "--json"}).json().size(), 1u);
}

TEST_F(ScrapesCli, RefusedPairsExitOneNameTheFileAndWriteNothing)
{
    const QString before = write("before.prom", kBefore, kAfterMs - 60000);
    const QString after = write("after.prom", kAfter, kAfterMs);
    ASSERT_EQ(plimsoll({"import", "--dry-run", before}).exitCode, 0); // creates the store, writes nothing
    const QByteArray untouched = storeHash();

    // The later scrape given first.
    const Result reversed = plimsoll({"import", "--json", "--scrapes", after, before});
    EXPECT_EQ(reversed.exitCode, 1);
    const auto src = reversed.json()["sources"][0];
    EXPECT_EQ(src["status"], "failed");
    EXPECT_EQ(src["error"]["file"], before.toStdString());
    EXPECT_TRUE(contains(src["error"]["message"], "is older than")) << src.dump(2);

    // A counter reset is a warning with the file and the line, on stderr in text form.
    QByteArray restarted = kAfter;
    restarted.replace("3.6e6", "3000");
    const QString reset = write("restarted.prom", restarted, kAfterMs);
    const Result warned = plimsoll({"import", "--dry-run", "--scrapes", before, reset});
    EXPECT_EQ(warned.exitCode, 0) << warned.err;
    EXPECT_TRUE(contains(warned.err, "plimsoll: warning: " + reset.toStdString() + ": line 11: 1 counter went down"))
        << warned.err;

    // Scrapes of different targets.
    const QString redis = write("redis.prom", "# TYPE redis_commands_processed_total counter\n"
                                              "redis_commands_processed_total 7\n", kAfterMs);
    const Result other = plimsoll({"import", "--scrapes", before, redis});
    EXPECT_EQ(other.exitCode, 1);
    EXPECT_TRUE(contains(other.err, redis.toStdString() + ": line 2:")) << other.err;

    // The same scrape twice.
    const QString copy = write("copy.prom", kBefore, kAfterMs);
    const Result twice = plimsoll({"import", "--scrapes", before, copy});
    EXPECT_EQ(twice.exitCode, 1);
    EXPECT_TRUE(contains(twice.err, "the same bytes")) << twice.err;

    EXPECT_EQ(storeHash(), untouched);
    EXPECT_TRUE(plimsoll({"runs", "--json"}).json().empty());
}

TEST_F(ScrapesCli, UsageErrorsExitTwo)
{
    const QString before = write("before.prom", kBefore, kAfterMs - 60000);
    const QString after = write("after.prom", kAfter, kAfterMs);
    EXPECT_EQ(plimsoll({"import", "--scrapes", before}).exitCode, 2);
    EXPECT_EQ(plimsoll({"import"}).exitCode, 2);
    const Result alone = plimsoll({"import", "--interval", "60s", before});
    EXPECT_EQ(alone.exitCode, 2);
    EXPECT_TRUE(contains(alone.err, "--scrapes")) << alone.err;
    const Result zero = plimsoll({"import", "--scrapes", before, after, "--interval", "0s"});
    EXPECT_EQ(zero.exitCode, 2);
    EXPECT_TRUE(contains(zero.err, "longer than zero")) << zero.err;
    EXPECT_EQ(plimsoll({"import", "--scrapes", before, after, "--interval", "soon"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"import", "--format", "omb", "--scrapes", before, after}).exitCode, 2);
    // A bare number would be milliseconds: "90" for scrapes 90 s apart made every rate 1000x.
    for (const char *bare : {"90", "2.5"}) {
        const Result r = plimsoll({"import", "--scrapes", before, after, "--interval", bare});
        EXPECT_EQ(r.exitCode, 2) << bare;
        EXPECT_TRUE(contains(r.err, "has no unit")) << r.err;
        EXPECT_TRUE(contains(r.err, std::string(bare) + "s or " + bare + "ms")) << r.err;
    }
    EXPECT_FALSE(contains(plimsoll({"runs", "--json"}).out, "run_key")) << "nothing imported by a refused --interval";
}
