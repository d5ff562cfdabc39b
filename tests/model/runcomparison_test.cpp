#include "model/trends/changepoints.h"
#include "model/trends/multipletesting.h"
#include "export/otavacsv.h"
#include "model/trends/runcomparison.h"
#include "model/trends/trendchanges.h"
#include "model/trends/comparisonhistory.h"
#include "model/store/store.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <cmath>
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
    ChangesRequest q;
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

// A sample run (a transcribed figure, other tuning) before one's own nightlies is not part of
// their history: it starts no baseline, as it is not a point of their series. With no run of
// one's own, the samples' own contract changes still show.
TEST(TrendChanges, SampleRunsStartNoBaselineBesideRunsOfOnesOwn)
{
    RunRecord sample = nightly(1, 500000, 0.05, 65536);
    sample.runKey = "sample-1";
    sample.sample = true;
    std::vector<RunRecord> runs{sample};
    for (int d = 2; d <= 6; ++d)
        runs.push_back(nightly(d, 640000, 0.05));
    EXPECT_TRUE(findChanges(TrendHistory::fromRuns(runs), {}, {}).baselineChanges.empty());

    RunRecord later = sample;
    later.runKey = "sample-2";
    later.timestamp = day(2);
    later.tuning["batch.size"] = 16384;
    const ChangesReport samplesOnly = findChanges(TrendHistory::fromRuns({sample, later}), {}, {});
    ASSERT_EQ(samplesOnly.baselineChanges.size(), 1u);
    EXPECT_EQ(samplesOnly.baselineChanges[0].runKey, "sample-2");
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

TEST(RunComparison, NoiseBandLeavesALastWeekOutlierOut)
{
    // Twenty-five quiet nights (±0.2 %) with a failed node's night among the last ten: that
    // night is no part of the noise, so a 3 % drop tonight still shows.
    std::vector<RunRecord> runs;
    for (int d = 1; d <= 25; ++d)
        runs.push_back(nightly(d, d == 20 ? 400000 : 640000 * (1 + ((d * 7) % 5 - 2) * 0.001), 0.05));
    runs.push_back(nightly(26, 620800, 0.05));
    const RunComparison c = compareRuns(TrendHistory::fromRuns(runs), "nightly-25", "nightly-26", {});
    const MetricComparison &m = metric(c, "records_per_s");
    EXPECT_EQ(m.historyPoints, 10) << "ten nights besides the outlier";
    EXPECT_LT(m.historyStddev, 2000) << "the outlier's 240k would make it ~75k";
    EXPECT_EQ(m.verdict, Verdict::Regression);
}

// ---------------------------------------------------------------- many metrics at once

TEST(Holm, AdjustedPValuesAndLevelsOfTheTextbookExample)
{
    // Holm (1979) as usually taught: four tests at α = 0.05. Sorted 0.005, 0.01, 0.03, 0.04
    // meet α/4, α/3, then 0.03 > α/2: two rejections, and the procedure stops there.
    const HolmResult h = holm({0.01, 0.04, 0.03, 0.005}, 0.05);
    EXPECT_EQ(h.rejected, 2u);
    // Adjusted: min(1, running max of (m − k + 1) p₍ₖ₎) = 0.02, 0.03, 0.06, max(0.06, 0.04).
    const std::vector<double> adjusted = {0.03, 0.06, 0.06, 0.02};
    const std::vector<double> level = {0.05 / 3, 0.05 / 2, 0.05 / 2, 0.05 / 4};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_NEAR(h.adjusted[i], adjusted[i], 1e-15) << i;
        EXPECT_NEAR(h.level[i], level[i], 1e-15) << i;
    }
    // 0.04 would pass α/1 on its own, but Holm never reaches it: its level is the one it stopped at.
    EXPECT_GT(0.04, h.level[1]);
    EXPECT_TRUE(holm({}, 0.05).adjusted.empty());
    // Large factors are capped at 1.
    EXPECT_DOUBLE_EQ(holm({0.5, 0.6, 0.7}, 0.05).adjusted[0], 1.0);
}

TEST(Holm, AgreesWithStatsmodels)
{
    // Reference values from an independent implementation: statsmodels 0.15.0
    // multipletests(p, alpha=0.05, method="holm") and scipy 1.17.1 t.isf(alpha / 2, dof),
    // run once on these inputs (ties included).
    const std::vector<double> p = {0.0002, 0.31, 0.012, 0.049, 0.0041, 0.75, 0.012, 0.038, 0.0007, 0.2, 0.0125, 1.0};
    const std::vector<double> adjusted = {0.0024, 0.93, 0.108, 0.245, 0.041, 1.0, 0.108, 0.228, 0.0077, 0.8, 0.108, 1.0};
    const HolmResult h = holm(p, 0.05);
    ASSERT_EQ(h.adjusted.size(), p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
        EXPECT_NEAR(h.adjusted[i], adjusted[i], 1e-12) << i;
        EXPECT_EQ(h.adjusted[i] <= 0.05, p[i] <= h.level[i]) << "level and adjusted p agree at " << i;
    }
    EXPECT_EQ(h.rejected, 3u);
    EXPECT_NEAR(studentTCritical(0.0025, 9), 4.1457888284432425, 1e-9);
    EXPECT_NEAR(studentTCritical(0.05 / 63, 9), 4.947839494992472, 1e-9);
    EXPECT_NEAR(studentTCritical(1e-6, 30), 6.119075620384216, 1e-8);
}

TEST(Holm, StudentCriticalValuesOfTheTables)
{
    // Two-sided critical values from any t table.
    EXPECT_NEAR(studentTCritical(0.05, 9), 2.262157, 1e-6);
    EXPECT_NEAR(studentTCritical(0.01, 4), 4.604095, 1e-6);
    EXPECT_NEAR(studentTCritical(0.05, 1), 12.706205, 1e-5);
    EXPECT_NEAR(studentTTwoSided(studentTCritical(0.00125, 9), 9), 0.00125, 1e-12);
    EXPECT_TRUE(std::isinf(studentTCritical(0, 9)));
    EXPECT_EQ(studentTCritical(1, 9), 0);
}

namespace {

// Ten nights of `metrics` latency metrics with ±1 % noise (sample σ 0.96 %), then a night
// where the first metric moved by `firstMove` (a fraction) and the rest held.
TrendHistory manyMetrics(int metrics, double firstMove)
{
    const double wiggle[] = {1, -1, 0.5, -0.5, 1.5, -1.5, 0, 0.8, -0.8, 0};
    std::vector<RunRecord> runs;
    for (int d = 1; d <= 11; ++d) {
        RunRecord r = nightly(d, 1, 1);
        r.scenarios[0].metrics.clear();
        for (int k = 0; k < metrics; ++k) {
            const double noise = d <= 10 ? wiggle[(d - 1 + k) % 10] / 100 : 0;
            const double move = d == 11 && k == 0 ? firstMove : 0;
            r.scenarios[0].metrics.push_back(
                {"stage" + std::to_string(k) + ".latency_p50_s", 0.010 * (1 + noise) * (1 + move)});
        }
        runs.push_back(r);
    }
    return TrendHistory::fromRuns(runs);
}

RunRecord rampStep(const std::string &key, int d, double offered, double achieved, double cpu, double p99)
{
    RunRecord r = nightly(d, achieved, p99);
    r.runKey = key;
    r.tuning = {{"acks", "all"}};
    r.scenarios[0].name = "bench/ramp/step-1";
    r.scenarios[0].metrics = {{"records_per_s", achieved},
                              {"latency_p99_s", p99},
                              {"broker_cpu_avg", cpu},
                              {"ramp.offered_records_per_s", offered}};
    return r;
}

} // namespace

TEST(RunComparison, OneMoveAmongManyMetricsIsCorrectedForTheirNumber)
{
    // +4 % against ±1 % noise: t = 4 / (0.96·√2) ≈ 2.95 with 9 degrees of freedom, p ≈ 0.016.
    // Alone, a regression; among twenty metrics Holm needs p ≤ 0.05 / 20, and it is noise.
    const RunComparison alone = compareRuns(manyMetrics(1, 0.04), "nightly-10", "nightly-11", {});
    const MetricComparison &a = metric(alone, "stage0.latency_p50_s");
    ASSERT_TRUE(a.pValue);
    EXPECT_NEAR(*a.pValue, 0.01625156030733788, 1e-9) << "scipy: 2 * t.sf(2.949, 9)";
    EXPECT_EQ(alone.tested, 1);
    EXPECT_EQ(a.verdict, Verdict::Regression);
    EXPECT_LT(a.noiseBand, std::abs(a.delta));

    const RunComparison many = compareRuns(manyMetrics(20, 0.04), "nightly-10", "nightly-11", {});
    const MetricComparison &m = metric(many, "stage0.latency_p50_s");
    EXPECT_EQ(many.tested, 20);
    EXPECT_NEAR(*m.pValue, *a.pValue, 1e-12) << "the raw p-value does not depend on the others";
    EXPECT_NEAR(*m.adjustedPValue, 20 * *m.pValue, 1e-12);
    EXPECT_EQ(m.verdict, Verdict::Unchanged);
    EXPECT_GT(m.noiseBand, std::abs(m.delta)) << "the band shown is the corrected one: the delta is inside it";
    EXPECT_FALSE(many.hasRegression()) << "the gate does not fail on noise";
    // The band is in the metric's unit: t(α/20, 9)·s·√2 of a 10 ms latency, 5–6 % of it.
    EXPECT_NEAR(m.noiseBand, studentTCritical(0.05 / 20, 9) * m.historyStddev * std::sqrt(2.0), 1e-12);
    EXPECT_GT(m.noiseBand / m.baseline, 0.05);
    EXPECT_LT(m.noiseBand / m.baseline, 0.06);

    // A real move survives the correction.
    const RunComparison real = compareRuns(manyMetrics(20, 0.25), "nightly-10", "nightly-11", {});
    EXPECT_EQ(metric(real, "stage0.latency_p50_s").verdict, Verdict::Regression);
    EXPECT_EQ(real.count(Verdict::Regression), 1);
    EXPECT_EQ(real.count(Verdict::Unchanged), 19);
}

TEST(RunComparison, AStricterAlphaWidensTheBand)
{
    ComparisonOptions strict;
    strict.alpha = 0.001;
    const RunComparison c = compareRuns(manyMetrics(1, 0.04), "nightly-10", "nightly-11", {}, strict);
    EXPECT_EQ(metric(c, "stage0.latency_p50_s").verdict, Verdict::Unchanged);
}

TEST(RunComparison, ThroughputAtDifferentOfferedRatesIsNotComparable)
{
    // Offered 20k then 10k: throughput halves because less was asked, CPU with it; p99 is
    // still compared.
    const TrendHistory h = TrendHistory::fromRuns(
        {rampStep("fast", 1, 20000, 19900, 0.40, 0.010), rampStep("slow", 2, 10000, 9950, 0.20, 0.030)});
    const RunComparison c = compareRuns(h, "fast", "slow", {});
    ASSERT_EQ(c.scenarios.size(), 1u);
    const ScenarioComparison &s = c.scenarios[0];
    ASSERT_TRUE(s.compatible);
    EXPECT_TRUE(s.offeredDiffers);
    EXPECT_EQ(*s.offeredBaseline->recordsPerS, 20000);
    EXPECT_EQ(s.offeredBaseline->source, "ramp.offered_records_per_s");
    const MetricComparison &tp = metric(c, "records_per_s");
    EXPECT_EQ(tp.verdict, Verdict::NotComparable);
    EXPECT_NE(tp.note.find("achieved/offered 99.5 % -> 99.5 %"), std::string::npos) << tp.note;
    EXPECT_EQ(metric(c, "broker_cpu_avg").verdict, Verdict::FollowsThroughput);
    EXPECT_NEAR(*metric(c, "broker_cpu_avg").perRecordChangePercent, 0, 1e-9);
    EXPECT_EQ(metric(c, "latency_p99_s").verdict, Verdict::Regression);
    for (const MetricComparison &m : s.metrics)
        EXPECT_NE(m.metric, "ramp.offered_records_per_s") << "the offered rate is a setting, not a delta";
    EXPECT_EQ(c.count(Verdict::Regression), 1);

    // The same offered rate: a throughput drop is a regression again.
    const TrendHistory same = TrendHistory::fromRuns(
        {rampStep("a", 1, 20000, 19900, 0.40, 0.010), rampStep("b", 2, 20000, 15000, 0.40, 0.010)});
    const RunComparison c2 = compareRuns(same, "a", "b", {});
    EXPECT_FALSE(c2.scenarios[0].offeredDiffers);
    EXPECT_EQ(metric(c2, "records_per_s").verdict, Verdict::Regression);
}

TEST(RunComparison, OfferedRateFromTheRunsTuning)
{
    RunRecord r = nightly(1, 1, 1);
    const ScenarioRecord &s = r.scenarios[0];
    EXPECT_FALSE(offeredRate(r, s));
    r.tuning["rate"] = "50000";
    ASSERT_TRUE(offeredRate(r, s));
    EXPECT_EQ(*offeredRate(r, s)->recordsPerS, 50000);
    EXPECT_EQ(offeredRate(r, s)->source, "tuning.rate");
    r.tuning["rate"] = "unlimited";
    EXPECT_FALSE(offeredRate(r, s)->recordsPerS);
    EXPECT_TRUE(offeredRatesDiffer(*offeredRate(r, s), OfferedRate{50000, ""}));
    r.tuning["rate"] = "fast";
    EXPECT_FALSE(offeredRate(r, s)) << "a word that is no rate is not read as one";
    r.tuning.erase("rate");
    r.tuning["producerRate"] = 0; // OpenMessaging Benchmark: find the maximum
    EXPECT_FALSE(offeredRate(r, s)->recordsPerS);
    r.tuning["producerRate"] = 100000;
    EXPECT_EQ(*offeredRate(r, s)->recordsPerS, 100000);
    // Pacing jitter is no difference.
    EXPECT_FALSE(offeredRatesDiffer(OfferedRate{100000, ""}, OfferedRate{100300, ""}));
    EXPECT_TRUE(offeredRatesDiffer(OfferedRate{100000, ""}, OfferedRate{110000, ""}));
}

TEST(RunComparison, DifferentOfferedRatesInTheTuningCompareWhenTheFamilyLeavesRateOut)
{
    auto run = [](const std::string &key, int d, int rate, double achieved) {
        RunRecord r = nightly(d, achieved, 0.010);
        r.runKey = key;
        r.tuning["rate"] = rate;
        return r;
    };
    const TrendHistory h = TrendHistory::fromRuns({run("a", 1, 50000, 49000), run("b", 2, 25000, 24500)});
    EXPECT_FALSE(compareRuns(h, "a", "b", {}).scenarios[0].compatible) << "tuning.rate is part of the contract";
    const ContractPolicies loose(std::vector<ContractPolicy>{{"pipeline/produce/", {"tuning.rate"}}});
    const RunComparison c = compareRuns(h, "a", "b", loose);
    ASSERT_TRUE(c.scenarios[0].compatible);
    EXPECT_EQ(metric(c, "records_per_s").verdict, Verdict::NotComparable);
    EXPECT_FALSE(c.hasRegression());
}

TEST(RunComparison, ResourceVerdictsDependOnThroughput)
{
    // Same offered rate, no history: the 1 % floor judges, per record for CPU once throughput moved.
    auto pair = [](double tp2, double cpu2) {
        return compareRuns(TrendHistory::fromRuns({rampStep("a", 1, 20000, 20000, 0.50, 0.010),
                                                   rampStep("b", 2, 20000, tp2, cpu2, 0.010)}),
                           "a", "b", {});
    };
    // Throughput fell 20 %, CPU with it: no improvement, it follows throughput.
    const RunComparison fell = pair(16000, 0.40);
    EXPECT_EQ(metric(fell, "records_per_s").verdict, Verdict::Regression);
    EXPECT_EQ(metric(fell, "broker_cpu_avg").verdict, Verdict::FollowsThroughput);
    EXPECT_EQ(fell.count(Verdict::Improvement), 0);
    // The same CPU for 20 % less work: 25 % more per record, a regression.
    const RunComparison flat = pair(16000, 0.50);
    EXPECT_EQ(metric(flat, "broker_cpu_avg").verdict, Verdict::Regression);
    EXPECT_NEAR(*metric(flat, "broker_cpu_avg").perRecordChangePercent, 25, 1e-9);
    // CPU fell twice as fast as throughput: cheaper per record, an improvement.
    EXPECT_EQ(metric(pair(16000, 0.30), "broker_cpu_avg").verdict, Verdict::Improvement);
    // Throughput held: CPU is judged on its own.
    const RunComparison held = pair(20000, 0.40);
    EXPECT_EQ(metric(held, "broker_cpu_avg").verdict, Verdict::Improvement);
    EXPECT_FALSE(metric(held, "broker_cpu_avg").perRecordChangePercent);
}

TEST(TuningContract, ExclusionsOfExactlyOneFamily)
{
    ContractPolicies p;
    p.set("pipeline/", {"tuning.acks"});
    p.set("pipeline/produce/", {"tuning.linger.ms", "tuning.batch.*"});
    EXPECT_EQ(p.excludedOf("pipeline/produce/"), (std::vector<std::string>{"tuning.batch.*", "tuning.linger.ms"}));
    EXPECT_EQ(p.excludedOf("pipeline/"), std::vector<std::string>{"tuning.acks"});
    EXPECT_TRUE(p.excludedOf("other/").empty());
}

// `compare --previous`: the baseline of a night is the newest earlier run of its scenarios on its
// target; a sample run, a run on another target and a later run are passed over, and the first
// night of a series has none.
TEST(RunComparison, ThePreviousRunIsTheNewestEarlierOneOfTheSeries)
{
    QTemporaryDir dir;
    Store store(dir.filePath("s.db").toStdString());
    store.importSource({"/nights", "plimsoll-trend", "sha-n", "test", "1", day(20), false}, history(640000, 0.059));
    RunRecord sample = nightly(9, 1, 1);
    sample.runKey = "sample-night";
    sample.timestamp = "2026-08-10T12:00:00Z"; // after night 10, before night 11
    RunRecord elsewhere = nightly(9, 1, 1);
    elsewhere.runKey = "other-target";
    elsewhere.timestamp = "2026-08-10T13:00:00Z";
    elsewhere.target = "kafka";
    store.importSource({"/samples", "plimsoll-trend", "sha-s", "test", "1", day(20), true}, {sample});
    store.importSource({"/other", "plimsoll-trend", "sha-o", "test", "1", day(20), false}, {elsewhere});

    EXPECT_EQ(previousRunOf(store, "nightly-11"), std::optional<std::string>("nightly-10"));
    EXPECT_EQ(previousRunOf(store, "nightly-5"), std::optional<std::string>("nightly-4"));
    EXPECT_EQ(previousRunOf(store, "nightly-1"), std::nullopt);
    EXPECT_THROW(previousRunOf(store, "nope"), std::invalid_argument);
}
