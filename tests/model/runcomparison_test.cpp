#include "model/otavacsv.h"
#include "model/runcomparison.h"
#include "model/trendchanges.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <cstdio>

using namespace plimsoll;

namespace {

std::string day(int d)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "2026-08-%02dT03:00:00Z", d);
    return buf;
}

RunRecord nightly(int d, double recordsPerS, double p99, int batch = 16384)
{
    RunRecord r;
    r.runKey = "nightly-" + std::to_string(d);
    r.timestamp = day(d);
    r.commit = "c" + std::to_string(d);
    r.imageDigest = "sha256:" + std::to_string(d);
    r.tool = "korvet-pipeline-benchmark";
    r.toolVersion = "1.4.0";
    r.target = "korvet";
    r.tuning = {{"acks", "1"}, {"batch.size", batch}, {"linger.ms", 5}};
    ScenarioRecord s;
    s.name = "pipeline/produce/step-16";
    s.topology.brokers = 3;
    s.topology.partitions = 96;
    s.topology.producers = 16;
    s.topology.recordSizeBytes = 700;
    s.metrics = {{"records_per_s", recordsPerS}, {"latency_p99_s", p99}};
    r.scenarios.push_back(s);
    return r;
}

// Ten quiet nights (±0.5 %), then the night under test.
std::vector<RunRecord> history(double lastRecords, double lastP99, int lastBatch = 16384)
{
    std::vector<RunRecord> runs;
    const double wiggle[] = {0.2, -0.4, 0.1, 0.5, -0.3, 0.0, 0.3, -0.5, 0.4, -0.1};
    for (int d = 1; d <= 10; ++d)
        runs.push_back(nightly(d, 640000 * (1 + wiggle[d - 1] / 100), 0.059 * (1 + wiggle[10 - d] / 100)));
    runs.push_back(nightly(11, lastRecords, lastP99, lastBatch));
    return runs;
}

const MetricComparison &metric(const RunComparison &c, const std::string &name)
{
    for (const auto &s : c.scenarios)
        for (const auto &m : s.metrics)
            if (m.metric == name)
                return m;
    throw std::runtime_error("no metric " + name);
}

} // namespace

TEST(TuningContract, CanonicalStringAndDifferences)
{
    const RunRecord a = nightly(1, 1, 1);
    const RunRecord b = nightly(2, 1, 1, 32768);
    const TuningContract ca = TuningContract::of(a, a.scenarios[0], {});
    const TuningContract cb = TuningContract::of(b, b.scenarios[0], {});
    EXPECT_EQ(ca.canonical(),
              "tool=korvet-pipeline-benchmark tool_major=1 topology.brokers=3 topology.partitions=96 "
              "topology.producers=16 topology.record_size_bytes=700 tuning.acks=1 "
              "tuning.batch.size=16384 tuning.linger.ms=5");
    ASSERT_EQ(ca.differences(cb).size(), 1u);
    EXPECT_EQ(ca.differences(cb)[0].key, "tuning.batch.size");
    EXPECT_EQ(*ca.differences(cb)[0].baseline, "16384");
    EXPECT_EQ(*ca.differences(cb)[0].current, "32768");
    // A family that leaves batch.size out compares the two.
    ContractPolicy loose{"pipeline/", {"tuning.batch.*"}};
    EXPECT_TRUE(TuningContract::of(a, a.scenarios[0], loose).compatibleWith(TuningContract::of(b, b.scenarios[0], loose)));
    EXPECT_EQ(toolMajorVersion("v2.0.1"), "2");
}

TEST(TuningContract, PoliciesPersistBesideTheStore)
{
    QTemporaryDir dir;
    const std::string store = dir.filePath("s.db").toStdString();
    ContractPolicies p;
    p.set("pipeline/produce/", {"tuning.linger.ms", "topology.producers"});
    p.set("archive/", {"compression"});
    ASSERT_TRUE(p.save(store));
    const ContractPolicies loaded = ContractPolicies::load(store);
    ASSERT_EQ(loaded.policies().size(), 2u);
    const ContractPolicy forStep = loaded.forScenario("pipeline/produce/step-16");
    EXPECT_EQ(forStep.family, "pipeline/produce/");
    EXPECT_TRUE(forStep.excludes("tuning.linger.ms"));
    EXPECT_FALSE(forStep.excludes("tuning.acks"));
    EXPECT_EQ(loaded.forScenario("other/x").family, "other/");
    EXPECT_TRUE(loaded.forScenario("other/x").excluded.empty());
}

TEST(RunComparison, LatencyUpIsARegressionThroughputUpAnImprovement)
{
    const TrendHistory h = TrendHistory::fromRuns(history(700000, 0.080));
    const RunComparison c = compareRuns(h, "nightly-10", "nightly-11", {});
    ASSERT_EQ(c.scenarios.size(), 1u);
    ASSERT_TRUE(c.scenarios[0].compatible);
    EXPECT_EQ(metric(c, "records_per_s").verdict, Verdict::Improvement);
    EXPECT_EQ(metric(c, "latency_p99_s").verdict, Verdict::Regression);
    EXPECT_EQ(metric(c, "latency_p99_s").historyPoints, 10);
    EXPECT_TRUE(c.hasRegression());
}

TEST(RunComparison, ThroughputDownIsARegressionLatencyDownAnImprovement)
{
    const TrendHistory h = TrendHistory::fromRuns(history(560000, 0.040));
    const RunComparison c = compareRuns(h, "nightly-10", "nightly-11", {});
    EXPECT_EQ(metric(c, "records_per_s").verdict, Verdict::Regression);
    EXPECT_EQ(metric(c, "latency_p99_s").verdict, Verdict::Improvement);
}

TEST(RunComparison, WithinTheNoiseIsUnchanged)
{
    const TrendHistory h = TrendHistory::fromRuns(history(641000, 0.0591));
    const RunComparison c = compareRuns(h, "nightly-10", "nightly-11", {});
    EXPECT_EQ(metric(c, "records_per_s").verdict, Verdict::Unchanged);
    EXPECT_EQ(metric(c, "latency_p99_s").verdict, Verdict::Unchanged);
    EXPECT_FALSE(c.hasRegression());
}

TEST(RunComparison, DifferentTuningIsIncompatibleWithNoDelta)
{
    const TrendHistory h = TrendHistory::fromRuns(history(300000, 0.5, 65536));
    const RunComparison c = compareRuns(h, "nightly-10", "nightly-11", {});
    ASSERT_EQ(c.scenarios.size(), 1u);
    EXPECT_FALSE(c.scenarios[0].compatible);
    EXPECT_TRUE(c.scenarios[0].metrics.empty());
    ASSERT_EQ(c.scenarios[0].differences.size(), 1u);
    EXPECT_EQ(c.scenarios[0].differences[0].key, "tuning.batch.size");
    EXPECT_EQ(c.count(Verdict::Incompatible), 1);
    EXPECT_FALSE(c.hasRegression()) << "an incompatible baseline is never a regression";
}

TEST(RunComparison, ScalabilityShiftShowsWhilePeakHolds)
{
    // Same peak throughput, but the current ramp climbs less steeply and bends earlier.
    auto ramp = [](const std::string &key, int d, double lambda, double sigma, double kappa) {
        RunRecord r = nightly(d, 1, 1);
        r.runKey = key;
        r.scenarios.clear();
        for (int n : {1, 2, 4, 8, 12, 16, 24, 32}) {
            ScenarioRecord s;
            s.name = "pipeline/produce/step-" + std::to_string(n);
            s.topology.producers = n;
            const double x = lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
            s.metrics = {{"records_per_s", x}};
            r.scenarios.push_back(s);
        }
        return r;
    };
    const TrendHistory h = TrendHistory::fromRuns(
        {ramp("before", 1, 100000, 0.02, 0.0005), ramp("after", 2, 150000, 0.10, 0.0010)});
    const RunComparison c = compareRuns(h, "before", "after", {});
    ASSERT_EQ(c.ramps.size(), 1u);
    const RampComparison &r = c.ramps[0];
    EXPECT_EQ(r.factor, "producers");
    ASSERT_EQ(r.parameters.size(), 4u) << r.note;
    EXPECT_EQ(r.parameters[0].name, "lambda");
    EXPECT_EQ(r.parameters[0].verdict, Verdict::Improvement);
    EXPECT_EQ(r.parameters[1].name, "sigma");
    EXPECT_EQ(r.parameters[1].verdict, Verdict::Regression);
    EXPECT_EQ(r.parameters[3].name, "n_star");
    EXPECT_EQ(r.parameters[3].verdict, Verdict::Regression);
}

TEST(TrendChanges, ChangeInLatencySeriesIsARegressionAndTuningChangeABaseline)
{
    std::vector<RunRecord> runs;
    for (int d = 1; d <= 28; ++d)
        runs.push_back(nightly(d, 640000 + (d % 3) * 1000, d < 15 ? 0.050 + (d % 4) * 0.0005 : 0.070 + (d % 4) * 0.0005));
    runs.push_back(nightly(29, 500000, 0.2, 65536));
    const TrendHistory h = TrendHistory::fromRuns(runs);
    ChangesQuery q;
    q.metrics = {"latency_p99_s"};
    const ChangesReport r = findChanges(h, q, {});
    ASSERT_EQ(r.series.size(), 2u) << "the retuned night starts a series of its own";
    ASSERT_EQ(r.series[0].changes.size(), 1u);
    const DetectedChange &c = r.series[0].changes[0];
    EXPECT_EQ(c.change.index, 14u);
    EXPECT_EQ(c.runKey, "nightly-15");
    EXPECT_EQ(c.commit, "c15");
    EXPECT_EQ(c.verdict, Verdict::Regression);
    ASSERT_EQ(r.baselineChanges.size(), 1u);
    EXPECT_EQ(r.baselineChanges[0].runKey, "nightly-29");
    EXPECT_EQ(r.baselineChanges[0].differences[0].key, "tuning.batch.size");
    EXPECT_EQ(trendDirection("producer.latency_avg_max_s"), Direction::LowerIsBetter);
    EXPECT_EQ(trendDirection("archive.parquet_files"), Direction::Neutral);
}

TEST(OtavaCsv, ColumnsRowsAndEscaping)
{
    std::vector<RunRecord> runs = history(650000, 0.06);
    runs[0].commit = "=HYPERLINK(\"x\")";
    runs[1].runKey = "run,with,commas";
    const TrendHistory h = TrendHistory::fromRuns(runs);
    const OtavaExport e = exportOtavaCsv(h, {"step-16", {"records_per_s"}});
    EXPECT_EQ(e.metricColumns, std::vector<std::string>{"records_per_s"});
    EXPECT_EQ(e.rows, 11);
    const std::string header = e.csv.substr(0, e.csv.find('\n'));
    EXPECT_EQ(header, "time,run_key,commit,image_digest,target,tuning,records_per_s");
    EXPECT_NE(e.csv.find("2026-08-01 03:00:00 +0000,nightly-1,\"'=HYPERLINK(\"\"x\"\")\",sha256:1,korvet,"
                         "acks=1 batch.size=16384 linger.ms=5,641280\n"),
              std::string::npos)
        << e.csv;
    EXPECT_NE(e.csv.find("\"run,with,commas\""), std::string::npos);
    EXPECT_EQ(csvTextCell("-1+2"), "'-1+2");
    EXPECT_EQ(csvTextCell("@SUM(A1)"), "'@SUM(A1)");
    EXPECT_EQ(csvTextCell("plain"), "plain");
    // Two scenarios: columns are named scenario:metric.
    runs[2].scenarios.push_back({"pipeline/consume/step-16", "", {}, {{"records_per_s", 1.5}}, {}, "", 0});
    const OtavaExport two = exportOtavaCsv(TrendHistory::fromRuns(runs), {"pipeline/", {"records_per_s"}});
    EXPECT_EQ(two.metricColumns, (std::vector<std::string>{"pipeline/consume/step-16:records_per_s",
                                                           "pipeline/produce/step-16:records_per_s"}));
}

TEST(RunComparison, NoiseBandIgnoresHistoryBeforeTheLastStep)
{
    // Fifteen nights at 700k, then ten at 640k: a 5 % drop after that must not hide inside a
    // band inflated by the old step.
    std::vector<RunRecord> runs;
    for (int d = 1; d <= 25; ++d)
        runs.push_back(nightly(d, (d <= 15 ? 700000 : 640000) * (1 + ((d * 7) % 5 - 2) * 0.001), 0.05));
    runs.push_back(nightly(26, 608000, 0.05));
    const RunComparison c = compareRuns(TrendHistory::fromRuns(runs), "nightly-25", "nightly-26", {});
    EXPECT_EQ(metric(c, "records_per_s").historyPoints, 10);
    EXPECT_LT(metric(c, "records_per_s").noiseBand, 8000);
    EXPECT_EQ(metric(c, "records_per_s").verdict, Verdict::Regression);
}
