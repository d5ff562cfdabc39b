// The window over more history than it shows at once: the Library is up before any other view
// reads, and a view fills in when it is first shown; the Library reads further pages as the
// table scrolls, as filters look further back and when it is sorted by another column; a trend
// longer than the chart draws keeps its lowest and highest runs visible and clickable.
#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/mainwindow.h"
#include "ui/models/runsfilterproxymodel.h"
#include "ui/models/runstablemodel.h"
#include "ui/views/libraryview.h"
#include "ui/views/sizingview.h"
#include "ui/views/trendsview.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QScatterSeries>
#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

using namespace plimsoll;
using plimsoll::test::waitUntil;

namespace {

// Run i of a nightly history: keys sort as numbers, one run an hour, the first five at commits
// starting "01d" (and no other), a throughput that wanders by a few percent.
RunRecord historyRun(int i, double value)
{
    char key[32], time[32], commit[32];
    std::snprintf(key, sizeof key, "run-%05d", i);
    std::snprintf(time, sizeof time, "2026-%02d-%02dT%02d:00:00Z", 1 + i / (28 * 24), 1 + (i / 24) % 28, i % 24);
    std::snprintf(commit, sizeof commit, i < 5 ? "01d%07d" : "c%09d", i);
    RunRecord run;
    run.runKey = key;
    run.timestamp = time;
    run.commit = commit;
    run.tool = "korvet-pipeline-benchmark";
    run.toolVersion = "0.20.0";
    run.target = "korvet";
    run.tuning = {{"linger.ms", 5}};
    ScenarioRecord s;
    s.name = "nightly/produce";
    s.kind = "benchmark";
    s.topology.producers = 4;
    s.metrics = {{"records_per_s", value}};
    run.scenarios.push_back(s);
    return run;
}

double wander(int i)
{
    return 600000 * (1 + 0.03 * std::sin(i / 40.0) + 0.01 * std::sin(i * 1.3));
}

class LargeStoreTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        m_storePath = m_dir.filePath(QStringLiteral("store.plimsoll"));
    }
    void TearDown() override
    {
        m_window.reset();
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }

    void populate(int runs, int dip = -1, int spike = -1)
    {
        std::vector<RunRecord> history;
        for (int i = 0; i < runs; ++i)
            history.push_back(historyRun(i, i == dip ? 120000 : i == spike ? 900000 : wander(i)));
        Store(m_storePath.toStdString())
            .importSource({"test:history", "plimsoll-trend", "sha-history", "test", "1", "2026-12-01T00:00:00Z",
                           false},
                          history);
    }

    MainWindow &openWindow()
    {
        m_window = std::make_unique<MainWindow>(m_storePath);
        m_window->resize(1280, 780);
        m_window->show();
        m_window->start(false);
        return *m_window;
    }

    static QString keyAt(const LibraryView *library, int row)
    {
        return library->runsProxy()->index(row, RunsTableModel::RunKeyColumn).data().toString();
    }

    QTemporaryDir m_dir;
    QString m_storePath;
    std::unique_ptr<MainWindow> m_window;
};

} // namespace

TEST_F(LargeStoreTest, LibraryComesFirstAndOtherViewsReadWhenShown)
{
    populate(40);
    MainWindow &window = openWindow();
    LibraryView *library = window.libraryView();
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == 40; }));

    // Nothing but the Library is built: the other views are built when first shown or asked for,
    // and one built unseen waits to be shown before it reads the store.
    EXPECT_EQ(window.builtViews(), std::vector<StoreView *>{library});
    EXPECT_EQ(window.viewKeys().size(), 9);
    TrendsView *trends = window.trendsView();
    auto *sizing = qobject_cast<SizingView *>(window.view(QStringLiteral("sizing")));
    ASSERT_NE(sizing, nullptr);
    EXPECT_EQ(window.builtViews().size(), 3u);
    EXPECT_TRUE(trends->isStale());
    EXPECT_TRUE(sizing->isStale());
    QTest::qWait(200);
    EXPECT_EQ(trends->scenarioCombo()->count(), 0);
    EXPECT_EQ(trends->pointCount(), 0);
    EXPECT_FALSE(sizing->modelsReady());

    // Shown, the Trends view fills in: its scenario, its metric, every run as a point.
    ASSERT_TRUE(window.showView(QStringLiteral("trends")));
    ASSERT_TRUE(waitUntil([&] { return trends->pointCount() == 40; })) << trends->pointCount();
    EXPECT_EQ(trends->plottedScenario(), "nightly/produce");
    EXPECT_FALSE(trends->isStale());

    // A write while Sizing is hidden: it reads when it is shown, not before.
    window.showView(QStringLiteral("library"));
    window.removeSampleRuns(); // none here; the views are asked to reload all the same
    auto *confirm = window.findChild<QMessageBox *>(QStringLiteral("confirmRemoveSamples"));
    ASSERT_NE(confirm, nullptr);
    ASSERT_TRUE(plimsoll::test::clickButtonNamed(*confirm, QStringLiteral("Remove")));
    ASSERT_TRUE(waitUntil([&] { return trends->isStale() && sizing->isStale(); }));
    window.showView(QStringLiteral("sizing"));
    ASSERT_TRUE(waitUntil([&] { return sizing->modelsReady(); }));
    EXPECT_FALSE(sizing->isStale());
}

TEST_F(LargeStoreTest, LibraryReadsOnAsTheTableNeedsRows)
{
    const int runs = 2 * kLibraryPageSize + 500;
    populate(runs);
    MainWindow &window = openWindow();
    LibraryView *library = window.libraryView();
    RunsTableModel *model = library->runsModel();
    ASSERT_TRUE(waitUntil([&] { return model->rowCount() == kLibraryPageSize; })) << model->rowCount();
    EXPECT_FALSE(model->isComplete());
    EXPECT_EQ(library->storeRunCount(), runs);
    QTest::qWait(200);
    EXPECT_EQ(model->rowCount(), kLibraryPageSize); // a screenful needs no second page
    // Newest first, as the table is sorted.
    EXPECT_EQ(keyAt(library, 0), QStringLiteral("run-%1").arg(runs - 1, 5, 10, QLatin1Char('0')));

    // Sorted by run key while pages remain: the store reads again in that order, so the first
    // row is the first key of all, which the newest page did not hold.
    library->table()->sortByColumn(RunsTableModel::RunKeyColumn, Qt::AscendingOrder);
    ASSERT_TRUE(waitUntil([&] { return keyAt(library, 0) == "run-00000"; })) << keyAt(library, 0).toStdString();
    EXPECT_EQ(model->rowCount(), kLibraryPageSize);
    library->table()->sortByColumn(RunsTableModel::TimeColumn, Qt::DescendingOrder);
    ASSERT_TRUE(waitUntil([&] { return keyAt(library, 0) == QStringLiteral("run-%1").arg(runs - 1, 5, 10, QLatin1Char('0')); }));

    // Scrolled to the end: the next page.
    library->table()->scrollToBottom();
    ASSERT_TRUE(waitUntil([&] { return model->rowCount() == 2 * kLibraryPageSize; })) << model->rowCount();

    // A commit of the oldest runs, which no page read so far holds: pages are read until they
    // show, then the table holds every run.
    library->setCommitFilter(QStringLiteral("01D"));
    ASSERT_TRUE(waitUntil([&] { return library->runsProxy()->rowCount() == 5; })) << library->runsProxy()->rowCount();
    EXPECT_EQ(model->rowCount(), runs);
    EXPECT_TRUE(model->isComplete());
    EXPECT_EQ(keyAt(library, 4), "run-00000");
}

TEST_F(LargeStoreTest, LongTrendKeepsItsExtremesVisibleAndClickable)
{
    const int runs = 3 * int(kMaxDrawnTrendPoints);
    const int dip = 1234, spike = 4321;
    populate(runs, dip, spike);
    TrendsView view(m_storePath);
    view.resize(1000, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.pointCount() == runs; }, 60000)) << view.pointCount();

    // Drawn: no more than the chart can show, the dip and the spike among them.
    const std::vector<std::size_t> &drawn = view.drawnIndexes();
    EXPECT_LE(drawn.size(), kMaxDrawnTrendPoints + 2);
    EXPECT_TRUE(std::binary_search(drawn.begin(), drawn.end(), std::size_t(dip)));
    EXPECT_TRUE(std::binary_search(drawn.begin(), drawn.end(), std::size_t(spike)));
    // As a line: a marker per point would be a graphics item each, and hide each other anyway.
    QLineSeries *line = nullptr;
    QScatterSeries *markers = nullptr;
    for (QAbstractSeries *series : view.chartView()->chart()->series()) {
        if (series->objectName() == "trendLine")
            line = qobject_cast<QLineSeries *>(series);
        if (series->objectName() == "trendPoints")
            markers = qobject_cast<QScatterSeries *>(series);
    }
    ASSERT_NE(line, nullptr);
    ASSERT_NE(markers, nullptr);
    EXPECT_EQ(line->count(), qsizetype(drawn.size()));
    EXPECT_EQ(markers->count(), 0);

    // A click near the dip shows the dip's run, not the run at the same position in the drawn list.
    const auto at = std::lower_bound(drawn.begin(), drawn.end(), std::size_t(dip)) - drawn.begin();
    view.selectPointNear(line->at(at) + QPointF(60000, 0));
    EXPECT_EQ(view.pointDetailText(QStringLiteral("runKey")), QStringLiteral("run-%1").arg(dip, 5, 10, QLatin1Char('0')));
    EXPECT_EQ(view.pointDetailText(QStringLiteral("value")), QStringLiteral("120,000 rec/s"));

    // A date range of some 4,000 of the runs is thinned again, from the series in memory: no more
    // points than the chart draws, the dip and the spike still among them, nothing outside.
    QSignalSpy reads(&view, &TrendsView::seriesLoaded);
    QElapsedTimer timer;
    timer.start();
    view.setDateRange(QDate(2026, 2, 14), QDate(2026, 8, 13));
    std::printf("date range over %d points redrawn in %lld ms\n", runs, static_cast<long long>(timer.elapsed()));
    const std::vector<std::size_t> &ranged = view.drawnIndexes();
    EXPECT_LE(ranged.size(), kMaxDrawnTrendPoints + 2);
    EXPECT_GT(ranged.size(), kMaxDrawnTrendPoints / 2);
    EXPECT_TRUE(std::binary_search(ranged.begin(), ranged.end(), std::size_t(dip)));
    EXPECT_TRUE(std::binary_search(ranged.begin(), ranged.end(), std::size_t(spike)));
    for (const std::size_t i : {ranged.front(), ranged.back()}) {
        const QDate day = QDateTime::fromMSecsSinceEpoch(qint64(view.points()[i].timeMs)).toLocalTime().date();
        EXPECT_GE(day, QDate(2026, 2, 14));
        EXPECT_LE(day, QDate(2026, 8, 13));
    }
    EXPECT_EQ(line->count(), qsizetype(ranged.size()));
    EXPECT_EQ(reads.count(), 0);
}
