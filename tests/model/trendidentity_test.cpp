// A trend is one workload at one load: a sweep at stepped offered rates beside a nightly series
// of its own gives a series per step and no change point across them; runs dated by their
// file's modification time take no part in the change-point search; the store keeps how each
// run's time is known, and the Trends read agrees with `plimsoll changes`.
#include "model/store/store.h"
#include "model/trends/trendannotations.h"
#include "model/trends/trendchanges.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace plimsoll;

namespace {

std::string hourOf(int day, int hour)
{
    char ts[32];
    std::snprintf(ts, sizeof ts, "2018-%02d-%02dT%02d:00:00Z", 11 + day / 28, 1 + day % 28, hour);
    return ts;
}

// One kafka-producer-perf-test run of a stepped sweep: the offered rate as its path states it.
RunRecord sweepStep(int step, double offered)
{
    RunRecord r;
    r.runKey = "sweep-" + std::to_string(step);
    r.timestamp = hourOf(22, 10 + step);
    r.tool = "kafka-producer-perf-test";
    r.target = "kafka";
    ScenarioRecord s;
    s.name = "producer";
    s.kind = "producer";
    s.topology.producers = 1;
    s.topology.recordSizeBytes = 512;
    // Achieved follows offered up to ~60k records/s: throughput rises 10x across the steps.
    s.metrics = {{"records_per_s", std::min(offered, 60000.0) * 0.999},
                 {"latency_p99_s", 0.002 + 0.001 * step},
                 {"offered_records_per_s", offered}};
    r.scenarios.push_back(s);
    return r;
}

// A nightly run of another workload, 40 nights.
RunRecord nightly(int day, double recordsPerS)
{
    RunRecord r;
    r.runKey = "nightly-" + std::to_string(day);
    r.timestamp = hourOf(day, 3);
    r.tool = "kafka-producer-perf-test";
    r.target = "kafka";
    ScenarioRecord s;
    s.name = "producer/nightly";
    s.kind = "producer";
    s.topology.producers = 4;
    s.metrics = {{"records_per_s", recordsPerS}};
    r.scenarios.push_back(s);
    return r;
}

const SeriesChanges *seriesOf(const ChangesReport &r, const std::string &scenario, const std::string &metric,
                              const std::string &load)
{
    for (const SeriesChanges &s : r.series)
        if (s.series.scenario == scenario && s.series.metric == metric && s.series.contract.loadText() == load)
            return &s;
    return nullptr;
}

std::vector<RunRecord> sweepBesideNightlies()
{
    std::vector<RunRecord> runs;
    const double rates[] = {9765.625, 19531.25, 29296.875, 48828.125, 68359.375, 87890.625, 107421.875};
    for (int i = 0; i < 7; ++i)
        runs.push_back(sweepStep(i, rates[i]));
    for (int d = 0; d < 40; ++d)
        runs.push_back(nightly(d, 100000 + (d * 37 % 7) * 100));
    return runs;
}

} // namespace

TEST(TrendIdentity, AnOfferedRateStatedByAMetricIsPartOfTheContract)
{
    const RunRecord r = sweepStep(2, 29296.875);
    const TuningContract c = TuningContract::of(r, r.scenarios[0], {});
    EXPECT_EQ(c.settings().at(kOfferedRateKey), "29296.875");
    EXPECT_EQ(c.loadText(), "offered_rate=29296.875 topology.producers=1 topology.record_size_bytes=512");
    EXPECT_TRUE(isLoadKey("offered_rate"));
    EXPECT_TRUE(isLoadKey("topology.partitions"));
    EXPECT_FALSE(isLoadKey("topology.acks"));
    EXPECT_FALSE(isLoadKey("tuning.batch.size"));
    // A family may pool its offered rates again, as any key.
    const ContractPolicy pooled{"producer", {kOfferedRateKey}};
    EXPECT_EQ(TuningContract::of(r, r.scenarios[0], pooled).settings().count(kOfferedRateKey), 0u);
}

TEST(TrendIdentity, AStepSweepBesideNightliesIsSeveralLoadsNotAHistory)
{
    const TrendHistory history = TrendHistory::fromRuns(sweepBesideNightlies());
    const ChangesReport r = findChanges(history, {}, {});
    // Seven steps of records_per_s, each a series of one point: no change point among them.
    int producerSeries = 0;
    for (const SeriesChanges &s : r.series)
        if (s.series.scenario == "producer" && s.series.metric == "records_per_s") {
            ++producerSeries;
            EXPECT_EQ(s.series.points.size(), 1u);
            EXPECT_TRUE(s.changes.empty());
        }
    EXPECT_EQ(producerSeries, 7);
    // Said once, as a sweep, and not as six new baselines.
    ASSERT_EQ(r.loadSteps.size(), 1u);
    EXPECT_EQ(r.loadSteps[0].scenario, "producer");
    EXPECT_EQ(r.loadSteps[0].keys, std::vector<std::string>{"offered_rate"});
    EXPECT_EQ(r.loadSteps[0].loads.size(), 7u);
    EXPECT_EQ(r.loadSteps[0].runs, 7);
    EXPECT_TRUE(r.baselineChanges.empty());
    // The unrelated nightly series is still one history of 40 points.
    const SeriesChanges *nights = seriesOf(r, "producer/nightly", "records_per_s", "topology.producers=4");
    ASSERT_NE(nights, nullptr);
    EXPECT_EQ(nights->series.points.size(), 40u);

    // Before the offered rate was part of the contract the seven steps were one series of a
    // tenfold rise: a family can still pool them by hand, as with any key.
    ContractPolicies pooled;
    pooled.set("producer", {kOfferedRateKey});
    const ChangesReport asOne = findChanges(history, {"producer", {"records_per_s"}, {}, {5}}, pooled);
    const SeriesChanges *one = seriesOf(asOne, "producer", "records_per_s", "topology.producers=1 topology.record_size_bytes=512");
    ASSERT_NE(one, nullptr);
    EXPECT_EQ(one->series.points.size(), 7u);
}

TEST(TrendIdentity, RunsDatedByTheirFilesTakeNoPartInTheSearch)
{
    // Forty nights with a 30 % step at night 20; nights 18 to 23 were imported from copies and
    // are dated by their files' modification time.
    std::vector<RunRecord> runs;
    for (int d = 0; d < 40; ++d) {
        RunRecord r = nightly(d, (d < 20 ? 100000 : 130000) + (d * 37 % 7) * 50);
        if (d >= 18 && d < 24)
            r.timeSource = TimeSource::FileModified;
        runs.push_back(r);
    }
    ChangesRequest request;
    request.options.window = 10;
    const ChangesReport mixed = findChanges(TrendHistory::fromRuns(runs), request, {});
    ASSERT_EQ(mixed.series.size(), 1u);
    EXPECT_EQ(mixed.series[0].timeInferredPoints, 6);
    EXPECT_EQ(mixed.timeInferredPoints(), 6);
    // The step is still found among the stated nights — at night 24, the first stated one after it,
    // its index the point's in the whole series.
    ASSERT_EQ(mixed.series[0].changes.size(), 1u);
    EXPECT_EQ(mixed.series[0].changes[0].runKey, "nightly-24");
    EXPECT_EQ(mixed.series[0].changes[0].change.index, 24u);

    // Every run dated by its file: no order, no change point, however large the step.
    for (RunRecord &r : runs)
        r.timeSource = TimeSource::FileModified;
    const ChangesReport undated = findChanges(TrendHistory::fromRuns(runs), request, {});
    EXPECT_TRUE(undated.series[0].changes.empty());
    EXPECT_EQ(undated.series[0].timeInferredPoints, 40);
}

// The store keeps how a run's time is known, and the Trends read (annotateSeries over the trend
// tables) cuts the same series, loads and change points as `plimsoll changes` (TrendHistory).
TEST(TrendIdentity, TheStoreAndTheTrendsReadAgreeWithChanges)
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("store.plimsoll").toStdString();
    std::vector<RunRecord> runs = sweepBesideNightlies();
    runs[3].timeSource = TimeSource::FileModified;
    runs[10].timeSource = TimeSource::Imported;
    {
        Store store(path);
        store.importSource({"test:sweep", "plimsoll-trend", "sha-sweep", "test", "1", "2018-12-01T00:00:00Z", false},
                           runs);
    }
    const Store store(path);
    EXPECT_EQ(store.run("sweep-3")->record.timeSource, TimeSource::FileModified);
    EXPECT_EQ(store.run("nightly-3")->record.timeSource, TimeSource::Imported);
    EXPECT_EQ(store.run("sweep-2")->record.timeSource, TimeSource::Stated);
    const TrendHistory history = TrendHistory::load(store);
    const auto loaded = std::find_if(history.runs().begin(), history.runs().end(),
                                     [](const RunRecord &r) { return r.runKey == "sweep-3"; });
    ASSERT_NE(loaded, history.runs().end());
    EXPECT_EQ(loaded->timeSource, TimeSource::FileModified);

    const AnnotatedSeries sweep = annotateSeries(path, "producer", "records_per_s");
    EXPECT_EQ(sweep.loads.size(), 7u);
    EXPECT_TRUE(sweep.newBaselines.empty()) << "a step of a sweep is no new baseline";
    EXPECT_TRUE(sweep.changePoints.empty());
    EXPECT_EQ(sweep.timeInferredPoints, 1);
    ChangesRequest onlyProducer;
    onlyProducer.scenarioContains = "producer";
    const ChangesReport report = findChanges(history, onlyProducer, {});
    std::vector<std::string> cliLoads = report.loadSteps.at(0).loads;
    std::vector<std::string> viewLoads = sweep.loads;
    std::sort(cliLoads.begin(), cliLoads.end());
    std::sort(viewLoads.begin(), viewLoads.end());
    EXPECT_EQ(viewLoads, cliLoads);

    const AnnotatedSeries nights = annotateSeries(path, "producer/nightly", "records_per_s");
    EXPECT_EQ(nights.loads.size(), 1u);
    EXPECT_EQ(nights.timeInferredPoints, 1);
    ASSERT_EQ(nights.points.size(), 40u);
    int marked = 0;
    for (std::size_t i = 0; i < nights.points.size(); ++i)
        if (nights.marks[i].timeInferred) {
            ++marked;
            EXPECT_EQ(nights.points[i].runKey, "nightly-3");
        }
    EXPECT_EQ(marked, 1);
}
