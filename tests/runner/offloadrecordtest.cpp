// The offload record (bench offload) against a Prometheus endpoint served by the test, whose
// Korvet storage-worker metrics the test scripts in time: a backlog archived at 10 MiB/s in
// 4 MiB segments until its lag reaches zero after one second. The record reads the drain from
// the baseline to the stable zero-lag snapshot; a broker without the lag gauge, a drain that
// does not end and a drain that archived nothing are refused with the reason; the binary stores
// pipeline/offload with archived bytes/s as its throughput.
#include "runner/offloadrecord.h"
#include "scriptedarchive.h"

#include "model/sizing/sizingmodels.h"
#include <plimsoll/version.h>

#include <gtest/gtest.h>

#include <QProcess>
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <cmath>
#include <sstream>
#include <thread>
#include <vector>

using namespace plimsoll;
using namespace std::chrono_literals;

namespace {

using test::Script;
using test::ScriptedArchive;
using test::kMiB;

OffloadRecordConfig config(const std::string &url)
{
    OffloadRecordConfig c;
    c.brokerMetricsUrls = {url};
    c.interval = 50ms;
    c.drainTimeout = 20s;
    c.scrapeTimeout = 5s;
    c.tuning = {{"icebergOffloadThreads", "4"}};
    return c;
}

double metric(const ScenarioResult &s, const char *name)
{
    const auto it = s.metrics.find(name);
    return it == s.metrics.end() ? -1 : it->second;
}

} // namespace

TEST(OffloadRecord, TheDrainGivesArchivedBytesSegmentsArchiveTimesAndTheLargestLag)
{
    ScriptedArchive archive({});
    const std::atomic<bool> cancel{false};
    const double begun = archive.elapsed();
    const BenchResult r = runOffloadRecord(config(archive.url()), cancel);
    ASSERT_EQ(r.exitCode, 0) << (r.errors.empty() ? "" : r.errors[0]);
    ASSERT_EQ(r.scenarios.size(), 1u);
    const ScenarioResult &s = r.scenarios[0];
    EXPECT_EQ(s.name, "pipeline/offload");
    EXPECT_EQ(s.kind, "offload");
    std::printf("offload: %.2f MiB/s, %.2f segments/s, drain %.3f s, p50 %.3f s, p99 %.3f s, max lag %.1f s\n",
                metric(s, "bytes_per_s") / kMiB, metric(s, "offload.segments_per_s"), metric(s, "offload.drain_s"),
                metric(s, "offload.archive_p50_s"), metric(s, "offload.archive_p99_s"), metric(s, "offload.max_lag_s"));
    // The drain ends at 1 s; the zero-lag poll comes up to one interval (and a scrape) later.
    const double drain = metric(s, "offload.drain_s");
    EXPECT_GE(drain, 1.0 - begun - 0.02);
    EXPECT_LE(drain, 1.0 - begun + 0.5);
    // What was archived over that wall-clock: 10 MiB/s for the part of it the drain lasted.
    EXPECT_NEAR(metric(s, "offload.archived_bytes"), 10 * kMiB * (1.0 - begun), 0.06 * 10 * kMiB);
    EXPECT_NEAR(metric(s, "bytes_per_s"), metric(s, "offload.archived_bytes") / drain, 1e-6);
    EXPECT_NEAR(metric(s, "offload.segments_per_s"), metric(s, "bytes_per_s") / (4 * kMiB), 1e-6);
    EXPECT_NEAR(metric(s, "records_per_s"), metric(s, "bytes_per_s") / 1000, 1e-6);
    // Every segment in the 100–200 ms bucket: p50 at its middle, p99 near its top.
    EXPECT_NEAR(metric(s, "offload.archive_p50_s"), 0.15, 1e-9);
    EXPECT_NEAR(metric(s, "offload.archive_p99_s"), 0.199, 1e-9);
    EXPECT_NEAR(metric(s, "offload.archive_avg_s"), 0.19, 1e-9);
    EXPECT_EQ(metric(s, "offload.failures"), 2);
    EXPECT_EQ(metric(s, "offload.retries"), 5);
    // The oldest waiting segment at the baseline: 30 s less what had drained by then; the
    // segments waiting then: what 10 MiB/s archives in the rest of the second, in 4 MiB segments.
    EXPECT_NEAR(metric(s, "offload.max_lag_s"), 30 * (1 - begun), 1.0);
    EXPECT_EQ(metric(s, "offload.max_lag_segments"), std::ceil((1.0 - begun) * 10 / 4));
    EXPECT_EQ(r.tuning.at("icebergOffloadThreads"), "4");
    EXPECT_EQ(r.workload, "offload");
}

// Each poll that read the lag reaches the sink (the window's live chart, the CLI's lines): what
// was archived since the poll before, the lag now, the progress towards zero lag.
TEST(OffloadRecord, EveryPollIsReportedWithTheArchiveRateAndLag)
{
    ScriptedArchive archive({});
    const std::atomic<bool> cancel{false};
    std::vector<BenchSnapshot> polls;
    const BenchResult r =
        runOffloadRecord(config(archive.url()), cancel, [&polls](const BenchSnapshot &s) { polls.push_back(s); });
    ASSERT_EQ(r.exitCode, 0) << (r.errors.empty() ? "" : r.errors[0]);
    // 50 ms polls over a one-second drain, and the two zero-lag polls after it.
    ASSERT_GE(polls.size(), 10u);
    EXPECT_EQ(r.scenarios[0].metrics.at("offload.polls"), double(polls.size() + 1)) << "the baseline is no poll";
    double archived = 0, elapsed = 0, progress = 0;
    for (const BenchSnapshot &s : polls) {
        EXPECT_EQ(s.scenario, "pipeline/offload");
        EXPECT_EQ(s.phase, "drain");
        EXPECT_GT(s.elapsedS, elapsed);
        elapsed = s.elapsedS;
        EXPECT_GE(s.progress, progress) << "the scripted lag only falls";
        progress = s.progress;
        EXPECT_LE(s.bytesPerS, 10 * kMiB * 1.5) << "at " << s.elapsedS << " s";
        EXPECT_NEAR(s.segmentsPerS, s.bytesPerS / (4 * kMiB), 1e-6);
        archived += s.bytesPerS * s.intervalS;
    }
    EXPECT_EQ(polls.back().archiveLagS, 0);
    EXPECT_EQ(polls.back().progress, 1);
    EXPECT_GT(polls.front().archiveLagS, 0);
    // The polls' sum is the record's archive: nothing is archived after the first zero-lag poll.
    EXPECT_NEAR(archived, r.scenarios[0].metrics.at("offload.archived_bytes"), 0.01 * 10 * kMiB);
    const nlohmann::json line = polls.front().toJson();
    EXPECT_GT(line.at("archive_lag_s").get<double>(), 0);
    EXPECT_TRUE(line.contains("segments_per_s"));
}

// Offload records at 2, 4 and 8 partitions, archiving faster with more streams but less than in
// proportion: each states its partitions, and Sizing fits the archive rate against them and
// plans the streams a target rate needs.
TEST(OffloadRecord, RecordsAtSeveralPartitionCountsGiveSizingItsOffloadStreams)
{
    const std::atomic<bool> cancel{false};
    std::vector<RunRecord> runs;
    for (const auto &[partitions, mibPerS] : {std::pair{2, 4.0}, {4, 7.0}, {8, 10.0}}) {
        Script script; // a one-second drain: a late poll under load moves its rate little
        script.bytesPerS = mibPerS * kMiB;
        ScriptedArchive archive(script);
        OffloadRecordConfig c = config(archive.url());
        c.partitions = partitions;
        const BenchResult r = runOffloadRecord(c, cancel, {});
        ASSERT_EQ(r.exitCode, 0) << (r.errors.empty() ? "" : r.errors[0]);
        EXPECT_EQ(r.scenarios[0].topology.partitions.value_or(-1), partitions);
        EXPECT_EQ(r.config.at("partitions"), partitions);
        runs.push_back(r.toRunRecord(kVersion));
    }
    const SizingModels models = fitSizingModels(runs);
    ASSERT_TRUE(models.offload.fitted) << models.offload.reason;
    EXPECT_EQ(models.offload.fit.points, 3);
    // 1000 B a record: 4 MiB/s at 2 streams is about 4.2k records/s, 10 MiB/s at 8 about 10.5k;
    // 5k needs more than 2 streams and no more than the measured range and a little.
    const OffloadPlan plan = models.offload.plan(5000);
    EXPECT_TRUE(plan.reachable) << plan.line;
    EXPECT_GT(plan.streams, 2) << plan.line;
    EXPECT_LE(plan.streams, 10) << plan.line;

    // Unstated, the record has no partitions and gives the fit nothing.
    ScriptedArchive archive({});
    const BenchResult unstated = runOffloadRecord(config(archive.url()), cancel, {});
    ASSERT_EQ(unstated.exitCode, 0);
    EXPECT_FALSE(unstated.scenarios[0].topology.partitions);
    EXPECT_FALSE(fitSizingModels({unstated.toRunRecord(kVersion)}).offload.fitted);
}

// A broker whose storage worker names its series otherwise: the default prefix finds no lag
// gauge and says how to name them; --archive-prefix reads them.
TEST(OffloadRecord, AnotherPrefixNamesTheArchiveSeries)
{
    Script script;
    script.prefix = "korvet_tier_archive";
    ScriptedArchive archive(script);
    const std::atomic<bool> cancel{false};
    const BenchResult missing = runOffloadRecord(config(archive.url()), cancel);
    ASSERT_FALSE(missing.errors.empty());
    EXPECT_NE(missing.errors[0].find("has no korvet_storage_archive_lag_oldest_seconds (nor "
                                     "korvet_storage_archive_lag_seconds)"),
              std::string::npos)
        << missing.errors[0];
    EXPECT_NE(missing.errors[0].find("read with their prefix"), std::string::npos) << missing.errors[0];

    OffloadRequest request;
    request.brokerMetrics = {archive.url()};
    request.interval = "50ms";
    request.archivePrefix = "korvet_tier_archive";
    OffloadRecordConfig c;
    ASSERT_EQ(request.resolve(&c), "");
    EXPECT_EQ(c.names.bytes, "korvet_tier_archive_bytes_total");
    const BenchResult r = runOffloadRecord(c, cancel);
    ASSERT_EQ(r.exitCode, 0) << (r.errors.empty() ? "" : r.errors[0]);
    EXPECT_GT(r.scenarios[0].metrics.at("bytes_per_s"), 5 * kMiB);
    EXPECT_EQ(r.scenarios[0].metrics.at("offload.failures"), 2);
    EXPECT_GT(r.scenarios[0].metrics.at("offload.archive_p99_s"), 0.1);

    for (const char *bad : {"", "9archive", "korvet-archive", "korvet archive"}) {
        request.archivePrefix = bad;
        EXPECT_NE(request.resolve(&c).find("--archive-prefix: '" + std::string(bad) +
                                           "' is not a Prometheus metric name"),
                  std::string::npos)
            << bad;
    }
}

// A build that exports the archive timer without buckets gives its mean, and no percentile that
// is not there; one with the lag gauge named <prefix>_lag_seconds is still read.
TEST(OffloadRecord, TimerWithoutBucketsGivesTheMeanAndTheEarlierLagNameIsRead)
{
    Script script;
    script.buckets = false;
    script.olderLagName = true;
    ScriptedArchive archive(script);
    const std::atomic<bool> cancel{false};
    const BenchResult r = runOffloadRecord(config(archive.url()), cancel);
    ASSERT_EQ(r.exitCode, 0) << (r.errors.empty() ? "" : r.errors[0]);
    const ScenarioResult &s = r.scenarios[0];
    EXPECT_NEAR(metric(s, "offload.archive_avg_s"), 0.19, 1e-9);
    EXPECT_EQ(s.metrics.count("offload.archive_p99_s"), 0u);
    EXPECT_EQ(s.metrics.count("offload.max_lag_segments"), 0u) << "a build without the segments gauge";
    EXPECT_GT(metric(s, "offload.max_lag_s"), 20);
    EXPECT_GT(metric(s, "bytes_per_s"), 5 * kMiB);
}

TEST(OffloadRecord, ABrokerWithoutTheLagGaugeIsRefusedAtTheBaseline)
{
    Script script;
    script.lagGauge = false;
    ScriptedArchive archive(script);
    const std::atomic<bool> cancel{false};
    const BenchResult r = runOffloadRecord(config(archive.url()), cancel);
    EXPECT_EQ(r.exitCode, 1);
    ASSERT_FALSE(r.errors.empty());
    EXPECT_NE(r.errors[0].find("has no korvet_storage_archive_lag_oldest_seconds (nor "
                               "korvet_storage_archive_lag_seconds): the drain cannot be told"),
              std::string::npos)
        << r.errors[0];
    EXPECT_TRUE(r.scenarios.empty());

    OffloadRecordConfig unreachable = config("http://127.0.0.1:1/metrics");
    const BenchResult down = runOffloadRecord(unreachable, cancel);
    EXPECT_EQ(down.exitCode, 1);
    ASSERT_FALSE(down.errors.empty());
    EXPECT_NE(down.errors[0].find("at the baseline: broker metrics http://127.0.0.1:1/metrics"), std::string::npos)
        << down.errors[0];
}

TEST(OffloadRecord, ADrainThatDoesNotEndOrArchivesNothingIsNoRecord)
{
    Script slow;
    slow.drainS = 60;
    ScriptedArchive draining(slow);
    OffloadRecordConfig c = config(draining.url());
    c.drainTimeout = 400ms;
    const std::atomic<bool> cancel{false};
    const BenchResult timedOut = runOffloadRecord(c, cancel);
    EXPECT_EQ(timedOut.exitCode, 1);
    ASSERT_FALSE(timedOut.errors.empty());
    EXPECT_NE(timedOut.errors[0].find("was not zero twice in a row within the drain timeout"), std::string::npos)
        << timedOut.errors[0];
    EXPECT_TRUE(timedOut.scenarios.empty());

    Script idle;
    idle.startLagS = 0;
    idle.archives = false;
    ScriptedArchive nothing(idle);
    const BenchResult none = runOffloadRecord(config(nothing.url()), cancel);
    EXPECT_EQ(none.exitCode, 1);
    ASSERT_FALSE(none.errors.empty());
    EXPECT_NE(none.errors[0].find("nothing was archived between the baseline and the zero-lag snapshot"),
              std::string::npos)
        << none.errors[0];
}

TEST(OffloadRecord, CancelEndsThePollingAsInterrupted)
{
    Script slow;
    slow.drainS = 60;
    ScriptedArchive draining(slow);
    std::atomic<bool> cancel{false};
    std::thread stopper([&cancel] {
        std::this_thread::sleep_for(200ms);
        cancel = true;
    });
    const auto begun = std::chrono::steady_clock::now();
    const BenchResult r = runOffloadRecord(config(draining.url()), cancel);
    stopper.join();
    EXPECT_EQ(r.exitCode, kExitInterrupted);
    EXPECT_TRUE(r.interrupted);
    EXPECT_LT(std::chrono::steady_clock::now() - begun, 2s);
}

TEST(OffloadRecord, RequestOptionsAreCheckedBeforeAnythingRuns)
{
    OffloadRecordConfig c;
    OffloadRequest none;
    EXPECT_NE(none.resolve(&c).find("give --broker-metrics URL"), std::string::npos);
    OffloadRequest ftp;
    ftp.brokerMetrics = {"ftp://broker/metrics"};
    EXPECT_NE(ftp.resolve(&c).find("is not an http:// or https:// URL"), std::string::npos);
    OffloadRequest zero;
    zero.brokerMetrics = {"http://a:1/metrics,http://b:1/metrics"};
    zero.interval = "0";
    EXPECT_NE(zero.resolve(&c).find("--interval must be greater than 0 s"), std::string::npos) << zero.resolve(&c);
    OffloadRequest tuning = zero;
    tuning.interval = "250ms";
    tuning.tuning = {"icebergOffloadThreads=0"};
    EXPECT_NE(tuning.resolve(&c), "");
    tuning.tuning = {"icebergOffloadThreads=4 workerTickConcurrency=8"};
    ASSERT_EQ(tuning.resolve(&c), "");
    EXPECT_EQ(c.brokerMetricsUrls.size(), 2u);
    EXPECT_EQ(c.interval, 250ms);
    EXPECT_EQ(c.drainTimeout, 30min);
    EXPECT_EQ(c.tuning.at("workerTickConcurrency"), "8");
    EXPECT_EQ(c.partitions, 0) << "unstated";
    tuning.partitions = -3;
    EXPECT_NE(tuning.resolve(&c).find("--partitions must be"), std::string::npos) << tuning.resolve(&c);
    tuning.partitions = 32;
    ASSERT_EQ(tuning.resolve(&c), "");
    EXPECT_EQ(c.partitions, 32);
}

// Through the binary: stored as pipeline/offload, read back by `show`.
TEST(OffloadRecord, TheCommandStoresTheRecordForTrends)
{
    ScriptedArchive archive({});
    QTemporaryDir dir;
    const QString db = dir.filePath("store.db");
    QProcess bench;
    bench.start(PLIMSOLL_BINARY, {"--db", db, "bench", "offload", "--broker-metrics", QString::fromStdString(archive.url()),
                                  "--interval", "50ms", "--tuning", "icebergOffloadThreads=4", "--output", "json"});
    ASSERT_TRUE(bench.waitForFinished(60000));
    ASSERT_EQ(bench.exitCode(), 0) << bench.readAllStandardError().toStdString();
    const auto result = nlohmann::json::parse(bench.readAllStandardOutput().toStdString());
    ASSERT_EQ(result["scenarios"].size(), 1u) << result.dump(1);
    EXPECT_EQ(result["scenarios"][0]["name"], "pipeline/offload");
    EXPECT_GT(result["scenarios"][0]["metrics"]["bytes_per_s"].get<double>(), 5 * kMiB);

    QProcess show;
    show.start(PLIMSOLL_BINARY, {"--db", db, "show", QString::fromStdString("plimsoll-bench-" +
                                                                            result["run_id"].get<std::string>()),
                                 "--json"});
    ASSERT_TRUE(show.waitForFinished(60000));
    ASSERT_EQ(show.exitCode(), 0) << show.readAllStandardError().toStdString();
    const auto stored = nlohmann::json::parse(show.readAllStandardOutput().toStdString());
    ASSERT_EQ(stored["scenarios"].size(), 1u);
    EXPECT_EQ(stored["scenarios"][0]["kind"], "offload");
    EXPECT_EQ(stored["tuning"]["icebergOffloadThreads"], "4");

    // In text, a line a poll on stderr; in jsonl, a JSON line a poll before the result's.
    QProcess text;
    text.start(PLIMSOLL_BINARY, {"--db", db, "bench", "offload", "--broker-metrics", QString::fromStdString(archive.url()),
                                 "--interval", "50ms", "--no-store"});
    ASSERT_TRUE(text.waitForFinished(60000));
    const std::string lines = text.readAllStandardError().toStdString();
    EXPECT_NE(lines.find("pipeline/offload       drain   archived"), std::string::npos) << lines;
    EXPECT_NE(lines.find("archive lag     0.00 s"), std::string::npos) << lines;

    Script again;
    again.drainS = 0.5;
    ScriptedArchive second(again);
    QProcess jsonl;
    jsonl.start(PLIMSOLL_BINARY, {"--db", db, "bench", "offload", "--broker-metrics", QString::fromStdString(second.url()),
                                  "--interval", "50ms", "--no-store", "--output", "jsonl"});
    ASSERT_TRUE(jsonl.waitForFinished(60000));
    ASSERT_EQ(jsonl.exitCode(), 0) << jsonl.readAllStandardError().toStdString();
    int intervals = 0;
    for (const QByteArray &line : jsonl.readAllStandardOutput().split('\n'))
        if (!line.isEmpty() && nlohmann::json::parse(line.toStdString()).value("type", "") == "interval")
            ++intervals;
    EXPECT_GE(intervals, 5);

    QProcess usage;
    usage.start(PLIMSOLL_BINARY, {"--db", db, "bench", "offload", "--broker-metrics", "ftp://x", "--no-store"});
    ASSERT_TRUE(usage.waitForFinished(60000));
    EXPECT_EQ(usage.exitCode(), 2);
    usage.start(PLIMSOLL_BINARY, {"--db", db, "bench", "offload", "--broker-metrics", QString::fromStdString(archive.url()),
                                  "--partitions", "0", "--no-store"});
    ASSERT_TRUE(usage.waitForFinished(60000));
    EXPECT_EQ(usage.exitCode(), 2);
    EXPECT_NE(usage.readAllStandardError().toStdString().find("--partitions must be"), std::string::npos);
}
