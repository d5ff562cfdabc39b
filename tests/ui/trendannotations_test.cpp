// What the Trends view draws, read from the store: change points kept from the last read and
// searched for again only where new runs landed, with the marks a fresh search of the whole
// series gives; points placed at the times their runs were stored with.
#include "model/store/store.h"
#include "ui/formatting.h"
#include "model/trends/trendannotations.h"
#include "sizingtestsupport.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QDateTime>
#include <QTemporaryDir>

#include <cmath>
#include <random>
#include <set>
#include <tuple>

using namespace plimsoll;
using plimsoll::test::nightlyRun;

namespace {

constexpr const char *kScenario = "nightly/pipeline/produce/step-16";

// Runs ten minutes apart from 2026-01-01, the throughput stepping between three levels every
// 600 runs on noise (a change point every 600 runs).
std::vector<RunRecord> steppedRuns(int first, int count)
{
    std::vector<RunRecord> runs;
    const QDateTime start(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    for (int i = first; i < first + count; ++i) {
        std::mt19937 rng{static_cast<unsigned>(i)};
        std::normal_distribution<double> noise(0, 4000);
        const double rate = 600000 + 40000 * ((i / 600) % 3) + noise(rng);
        RunRecord r = nightlyRun(1, "c" + std::to_string(i), rate);
        r.runKey = "run-" + std::to_string(i);
        r.timestamp = start.addSecs(600LL * i).toString(Qt::ISODate).toStdString();
        runs.push_back(std::move(r));
    }
    return runs;
}

SourceRecord source(const std::string &uri)
{
    return {uri, "plimsoll-trend", "sha-" + uri, "test", "1", "2026-11-30T00:00:00Z", false};
}

std::vector<std::tuple<int, Verdict, double, double>> changeMarks(const AnnotatedSeries &s)
{
    std::vector<std::tuple<int, Verdict, double, double>> out;
    for (const int i : s.changePoints) {
        const PointMark &m = s.marks[std::size_t(i)];
        out.emplace_back(i, m.verdict, m.forwardChangePercent, m.pValue);
    }
    return out;
}

} // namespace

TEST(TrendAnnotations, NewRunsAreSearchedForChangesAloneWithTheResultOfAFullSearch)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string grown = dir.filePath("grown.db").toStdString();
    const std::string fresh = dir.filePath("fresh.db").toStdString();
    {
        Store store(grown);
        store.importSource(source("/history"), steppedRuns(0, 8000));
    }
    const AnnotatedSeries first = annotateSeries(grown, kScenario, "records_per_s");
    ASSERT_EQ(first.points.size(), 8000u);
    EXPECT_EQ(first.valuesExamined, 8000u) << "nothing kept yet: the whole series is searched";

    // A week of nights lands: the next read searches those, not the history before them.
    {
        Store store(grown);
        store.importSource(source("/week"), steppedRuns(8000, 1008));
    }
    const AnnotatedSeries again = annotateSeries(grown, kScenario, "records_per_s");
    ASSERT_EQ(again.points.size(), 9008u);
    EXPECT_GE(again.valuesExamined, 1008u);
    EXPECT_LE(again.valuesExamined, 1008u + 50u) << "at most a window before the new runs";

    {
        Store store(fresh);
        store.importSource(source("/history"), steppedRuns(0, 8000));
        store.importSource(source("/week"), steppedRuns(8000, 1008));
    }
    const AnnotatedSeries whole = annotateSeries(fresh, kScenario, "records_per_s");
    EXPECT_EQ(whole.valuesExamined, 9008u);
    ASSERT_GE(whole.changePoints.size(), 10u);
    EXPECT_EQ(changeMarks(again), changeMarks(whole));
    EXPECT_EQ(again.drawn, whole.drawn);

    // Nothing new: the kept search stands as it is.
    const AnnotatedSeries unchanged = annotateSeries(grown, kScenario, "records_per_s");
    EXPECT_LE(unchanged.valuesExamined, 50u) << "only the window the series' end cut short";
    EXPECT_EQ(changeMarks(unchanged), changeMarks(whole));
}

TEST(TrendAnnotations, PointsSitAtTheTimesTheirRunsWereStoredWith)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string path = dir.filePath("times.db").toStdString();
    std::vector<RunRecord> runs;
    for (const char *time : {"2026-09-01T02:30:00Z", "2026-09-02T02:30:00.250Z", "2026-09-03T04:30:00+02:00",
                             "2024-02-29T23:59:59Z", "1999-12-31T00:00:00Z", "2026-09-05T02:30:00.5Z",
                             "2026-02-30T02:30:00Z"}) {
        RunRecord r = nightlyRun(1, "c0ffee", 1000);
        r.runKey = time;
        r.timestamp = time;
        runs.push_back(std::move(r));
    }
    Store(path).importSource(source("/times"), runs);
    const AnnotatedSeries series = annotateSeries(path, kScenario, "records_per_s");
    std::size_t readable = 0;
    for (const RunRecord &r : runs)
        readable += parseStoredTimestamp(r.timestamp).isValid() ? 1 : 0;
    ASSERT_EQ(series.points.size(), readable) << "a point for each run with a readable time";
    EXPECT_EQ(readable, runs.size() - 1) << "February 30th is no time";
    for (const ChartPoint &p : series.points)
        EXPECT_EQ(p.timeMs, double(parseStoredTimestamp(p.timestamp).toMSecsSinceEpoch())) << p.timestamp;
}

// The Trends view and `plimsoll changes` answer one question — where did this series
// change — and must answer it alike: the same change points (run, verdict, size of the move)
// in every series of every target and tuning contract, and the same runs starting a new
// contract. Two targets, each with level shifts, and a retuning of one of them part-way.
TEST(TrendAnnotations, ChangePointsAreThoseTheChangesCommandFinds)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("parity.db"));
    std::vector<RunRecord> runs;
    const QDateTime start(QDate(2026, 3, 1), QTime(0, 0), Qt::UTC);
    for (int i = 0; i < 1800; ++i) {
        std::mt19937 rng{static_cast<unsigned>(i)};
        std::normal_distribution<double> noise(0, 3000);
        const bool kafka = i % 2 == 1;
        const int n = i / 2;
        const double level = kafka ? 300000 - 30000 * ((n / 250) % 2) : 600000 + 50000 * ((n / 300) % 3);
        RunRecord r = nightlyRun(1, "c" + std::to_string(i), level + noise(rng));
        r.runKey = "run-" + std::to_string(i);
        r.target = kafka ? "kafka" : "korvet";
        r.timestamp = start.addSecs(3600LL * i).toString(Qt::ISODate).toStdString();
        if (!kafka && n >= 500)
            r.tuning["linger.ms"] = 20; // retuned: a new series from here on
        runs.push_back(std::move(r));
    }
    Store(path.toStdString()).importSource(source("/parity"), runs);

    const AnnotatedSeries view = annotateSeries(path.toStdString(), kScenario, "records_per_s");
    using Change = std::tuple<std::string, std::string, std::string, std::string, long>;
    std::set<Change> drawn;
    for (const int i : view.changePoints) {
        const ChartPoint &p = view.points[std::size_t(i)];
        const PointMark &m = view.marks[std::size_t(i)];
        drawn.emplace(view.targets[std::size_t(p.target)], view.contracts[std::size_t(m.contract)],
                      std::string(p.runKey), toString(m.verdict), std::lround(m.forwardChangePercent * 100));
    }
    std::set<std::string> drawnBaselines;
    for (const int i : view.newBaselines)
        drawnBaselines.emplace(view.points[std::size_t(i)].runKey);

    const nlohmann::json cli = plimsoll::test::cliJson(
        path, QStringLiteral("changes"),
        {QStringLiteral("--scenario"), QString::fromUtf8(kScenario),
         QStringLiteral("--metric"), QStringLiteral("records_per_s")});
    std::set<Change> found;
    std::set<std::string> targets;
    for (const auto &series : cli.at("series")) {
        targets.insert(series.at("target").get<std::string>());
        for (const auto &c : series.at("changes"))
            found.emplace(series.at("target"), series.at("contract"), c.at("run_key"), c.at("verdict"),
                          std::lround(c.at("forward_change_percent").get<double>() * 100));
    }
    std::set<std::string> foundBaselines;
    for (const auto &b : cli.at("baseline_changes"))
        foundBaselines.insert(b.at("run_key").get<std::string>());

    EXPECT_EQ(targets, (std::set<std::string>{"kafka", "korvet"}));
    EXPECT_EQ(cli.at("series").size(), 3u) << "kafka, korvet before and after its retuning";
    // kafka shifts at its nights 250, 500 and 750; korvet at 300, and at 600 after its retuning.
    EXPECT_EQ(found.size(), 5u) << "each level shift, nothing on the noise";
    EXPECT_EQ(drawn, found);
    EXPECT_EQ(drawnBaselines, (std::set<std::string>{"run-1000"}));
    EXPECT_EQ(drawnBaselines, foundBaselines);
}

// On a first read the change points are searched for while the runs are read, over the metric's
// values as the series index holds them; that search stands only when those values are the
// chart's. Here they are not: some runs hold the scenario twice, the second at a hundredth of the
// rate (what a search over them would call changes), and a run's first is what the chart draws.
TEST(TrendAnnotations, ASearchOverOtherValuesThanTheChartsIsNotTaken)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string path = dir.filePath("twice.db").toStdString();
    std::vector<RunRecord> runs = steppedRuns(0, 2400);
    for (std::size_t i = 100; i < runs.size(); i += 7) {
        ScenarioRecord again = runs[i].scenarios.front();
        again.metrics = {{"records_per_s", 6000}};
        runs[i].scenarios.push_back(again);
    }
    Store(path).importSource(source("/twice"), runs);
    ASSERT_GT(Store(path).seriesValues(kScenario, "records_per_s").size(), runs.size());

    const AnnotatedSeries series = annotateSeries(path, kScenario, "records_per_s");
    ASSERT_EQ(series.points.size(), runs.size());
    std::vector<double> drawnValues;
    for (const ChartPoint &p : series.points)
        drawnValues.push_back(p.value);
    std::vector<int> expected;
    for (const ChangePoint &cp : detectChangePoints(drawnValues).strong)
        expected.push_back(int(cp.index));
    EXPECT_GE(expected.size(), 3u) << "the level shifts every 600 runs";
    EXPECT_EQ(series.changePoints, expected);
    EXPECT_EQ(series.valuesExamined, runs.size());
}
