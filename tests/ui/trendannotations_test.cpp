// What the Trends view draws, read from the store: change points kept from the last read and
// searched for again only where new runs landed, with the marks a fresh search of the whole
// series gives; points placed at the times their runs were stored with.
#include "model/store.h"
#include "ui/formatting.h"
#include "ui/views/trendannotations.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QDateTime>
#include <QTemporaryDir>

#include <random>

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
