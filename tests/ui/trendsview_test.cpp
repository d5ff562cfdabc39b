// The Trends view on a store of thirty nights: change points and the new baseline marked and
// listed, sample runs kept out of a nightly series, the legend, the date range, hovering and
// clicking points, and the target chooser. Screenshots go to PLIMSOLL_ARTIFACT_DIR.
#include "model/store/sharedsettings.h"
#include "model/store/store.h"
#include "model/trends/trendhistory.h"
#include "ui/charts/trendmarkstyle.h"
#include "ui/formatting.h"
#include "ui/models/trendchangestablemodel.h"
#include "ui/views/changesview.h"
#include "ui/views/trendsview.h"
#include "ui/backgroundpool.h"
#include "sizingtestsupport.h"
#include "nightlystoretest.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QCompleter>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QLabel>
#include <QComboBox>
#include <QDateEdit>
#include <QDateTimeAxis>
#include <QHeaderView>
#include <QLineSeries>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <QApplication>
#include <QValueAxis>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>

#include <random>
#include <QTemporaryDir>
#include <QThreadPool>

#include <map>

#include <nlohmann/json.hpp>

using namespace plimsoll;
using plimsoll::test::nightlyRun;
using plimsoll::test::waitUntil;

namespace {

using TrendsViewTest = plimsoll::test::NightlyStoreTest;

// The chart's series named `name` (the marks are series with object names).
std::vector<QAbstractSeries *> seriesNamed(const TrendsView &view, const QString &name)
{
    std::vector<QAbstractSeries *> out;
    for (QAbstractSeries *s : view.chartView()->chart()->series())
        if (s->objectName() == name)
            out.push_back(s);
    return out;
}

qsizetype pointsOf(const TrendsView &view, const QString &name)
{
    const auto series = seriesNamed(view, name);
    return series.empty() ? -1 : qobject_cast<QXYSeries *>(series.front())->count();
}

// Sends the pointer to `value` (chart coordinates of the trend line) on the chart's viewport.
void pointerAt(TrendsView &view, QEvent::Type type, const QPointF &value)
{
    QChart *chart = view.chartView()->chart();
    QLineSeries *line = qobject_cast<QLineSeries *>(seriesNamed(view, "trendLine").front());
    const QPoint pos = view.chartView()->mapFromScene(chart->mapToScene(chart->mapToPosition(value, line)));
    QWidget *viewport = view.chartView()->viewport();
    QMouseEvent event(type, QPointF(pos), QPointF(viewport->mapToGlobal(pos)),
                      type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                      type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &event);
}

} // namespace

// A scenario first shown opens on its throughput, not on whichever metric sorts first.
TEST_F(TrendsViewTest, AScenarioOpensOnItsThroughput)
{
    TrendsView view(m_storePath);
    view.resize(1000, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.metricCombo()->count() > 1; }));
    EXPECT_NE(view.metricCombo()->itemText(0), "records_per_s") << "the list is in name order";
    EXPECT_EQ(view.metricCombo()->currentText(), "records_per_s");
    ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "records_per_s" && view.pointCount() == 30; }))
        << view.plottedMetric().toStdString();
    // A choice the user made stays when the store is read again.
    view.metricCombo()->setCurrentIndex(view.metricCombo()->findText("latency_p99_s"));
    ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "latency_p99_s"; }));
    QSignalSpy metricsRead(&view, &TrendsView::metricsLoaded);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return metricsRead.count() > 0; }));
    EXPECT_EQ(view.metricCombo()->currentText(), "latency_p99_s");
}

TEST_F(TrendsViewTest, MarksChangePointsAndBaseline)
{
    TrendsView view(m_storePath);
    view.resize(1000, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.metricCombo()->count() > 0; }));
    view.metricCombo()->setCurrentIndex(view.metricCombo()->findText("records_per_s"));
    QString failure;
    QObject::connect(&view, &StoreView::loadFailed, [&](const QString &e) { failure = e; });
    ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "records_per_s" && view.pointCount() == 30; }))
        << view.plottedMetric().toStdString() << " " << view.pointCount() << " " << failure.toStdString();

    // The drop at night 21 (index 20) is a change point and a regression; night 30 starts a
    // new contract (a dashed line, not a change).
    const auto changes = view.changePointIndexes();
    ASSERT_EQ(changes.size(), 1u) << ::testing::PrintToString(changes);
    EXPECT_EQ(changes[0], 20);
    EXPECT_EQ(view.marks()[20].verdict, Verdict::Regression);
    EXPECT_EQ(view.newBaselineIndexes(), std::vector<int>{29});
    int regressionPoints = 0;
    for (QAbstractSeries *s : view.chartView()->chart()->series())
        if (s->objectName() == "regressionChanges")
            regressionPoints = static_cast<int>(qobject_cast<QScatterSeries *>(s)->count());
    EXPECT_EQ(regressionPoints, 1);

    view.selectPoint(20);
    EXPECT_TRUE(view.pointDetailText("change").contains("regression")) << view.pointDetailText("change").toStdString();
    EXPECT_EQ(view.pointDetailText("commit"), "c0ffee1021");

    view.setBaselineRun("nightly-2026-09-10");
    view.selectPoint(25);
    EXPECT_TRUE(view.pointDetailText("vsBaseline").contains("regression")) << view.pointDetailText("vsBaseline").toStdString();
    EXPECT_TRUE(view.pointDetailText("vsBaseline").contains("%"));
    view.selectPoint(29);
    EXPECT_TRUE(view.pointDetailText("vsBaseline").contains("incompatible"));
    view.selectPoint(25);
    QTest::qWait(50);
    EXPECT_TRUE(view.grab().save(artifact("trends-change-points.png")));
}

// A sample run of the same scenario, target and tuning on night 15 is no night of one's own:
// Trends and the series `plimsoll changes` reads both leave it out (no fake spike and recovery),
// and the chart title says so.
TEST_F(TrendsViewTest, LeavesASampleRunOutOfANightlySeries)
{
    RunRecord sample = nightlyRun(15, "5a3p1e", 900000);
    sample.runKey = "sample:night-15";
    sample.timestamp = "2026-09-15T12:00:00Z";
    sample.sample = true;
    {
        Store store(m_storePath.toStdString());
        store.importSource({"sample:night", "plimsoll-trend", "sha-s", "test", "1", "2026-10-01T00:00:00Z", true},
                           {sample});
        const auto series = TrendHistory::load(store).series("nightly/pipeline/produce/step-16", "records_per_s", {});
        size_t points = 0;
        for (const TrendSeries &ts : series)
            for (const TrendPoint &p : ts.points) {
                ++points;
                EXPECT_NE(p.runKey, "sample:night-15");
            }
        EXPECT_EQ(points, 30u);
    }
    TrendsView view(m_storePath);
    view.resize(1000, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.metricCombo()->count() > 0; }));
    view.metricCombo()->setCurrentIndex(view.metricCombo()->findText("records_per_s"));
    ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "records_per_s" && view.pointCount() > 0; }));
    EXPECT_EQ(view.pointCount(), 30);
    for (const ChartPoint &p : view.points())
        EXPECT_NE(p.runKey, "sample:night-15");
    EXPECT_EQ(view.changePointIndexes(), std::vector<int>{20}); // only the real drop at night 21
    EXPECT_TRUE(view.chartView()->chart()->title().contains("1 sample run left out"))
        << view.chartView()->chart()->title().toStdString();
}

// Beside the chart, a list a user reads instead of hunting squares: the contract change of night 30
// (newest first) naming its key, then the throughput drop of night 21 in red with its change and
// p-value as the chart computes them. Clicking a row selects that run.
TEST_F(TrendsViewTest, ListsChangePointsAndContractChanges)
{
    TrendsView view(m_storePath);
    openTrends(view);
    QTableView *list = view.changeList();
    QAbstractItemModelTester tester(list->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    const QAbstractItemModel *m = list->model();
    ASSERT_EQ(m->rowCount(), 2);
    EXPECT_EQ(view.changeSummaryText(), "Changes: 1 regression, 1 new baseline");
    using C = TrendChangesTableModel;
    const auto cell = [&](int row, int column) { return m->index(row, column).data().toString(); };

    EXPECT_EQ(cell(0, C::Run), "nightly-2026-09-30");
    EXPECT_EQ(cell(0, C::Verdict), "new baseline");
    EXPECT_EQ(cell(0, C::Change), "contract changed: tuning.batch.size");
    EXPECT_EQ(cell(0, C::PValue), "—");
    const auto contractLines = seriesNamed(view, "contractChange");
    ASSERT_EQ(contractLines.size(), 1u);
    EXPECT_EQ(m->index(0, C::Verdict).data(Qt::DecorationRole).value<QColor>(),
              qobject_cast<QLineSeries *>(contractLines.front())->pen().color());

    EXPECT_EQ(cell(1, C::Run), "nightly-2026-09-21");
    EXPECT_EQ(cell(1, C::Time), displayTimestamp("2026-09-21T02:30:00Z"));
    EXPECT_EQ(cell(1, C::Verdict), "regression");
    // 640k to 560k records/s: about −12.5 %, the figure the chart's detail gives.
    const double percent = view.marks()[20].forwardChangePercent;
    EXPECT_NEAR(percent, -12.5, 0.5);
    EXPECT_EQ(cell(1, C::Change), QString::asprintf("%+.1f %%", percent));
    bool parsed = false;
    EXPECT_LT(cell(1, C::PValue).toDouble(&parsed), 0.05);
    EXPECT_TRUE(parsed) << cell(1, C::PValue).toStdString();
    EXPECT_EQ(m->index(1, C::Verdict).data(Qt::DecorationRole).value<QColor>(),
              qobject_cast<QScatterSeries *>(seriesNamed(view, "regressionChanges").front())->color());

    // Readable at the width a 1024 px window gives the view: every column whole, no sideways scroll.
    EXPECT_LE(view.minimumSizeHint().width(), 850);
    EXPECT_LE(list->horizontalHeader()->length(), list->viewport()->width());
    for (int c = 0; c < C::ColumnCount; ++c)
        EXPECT_GE(list->columnWidth(c), static_cast<QAbstractItemView *>(list)->sizeHintForColumn(c)) << "column " << c;

    QSignalSpy selected(&view, &TrendsView::pointSelected);
    const QRect row = list->visualRect(m->index(1, C::Run));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, row.center());
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(view.pointDetailText("runKey"), "nightly-2026-09-21");
    EXPECT_TRUE(view.pointDetailText("change").contains("regression"));
    // Picking the point on the chart selects its row.
    view.selectPoint(29);
    EXPECT_EQ(list->currentIndex().row(), 0);
    view.selectPoint(3);
    EXPECT_TRUE(list->selectionModel()->selectedRows().isEmpty());
    view.selectPoint(20);
    QTest::qWait(50);
    EXPECT_TRUE(view.grab().save(artifact("trends-change-list.png")));
}

// The legend names every kind of mark, each entry whole at the width a small window gives.
TEST_F(TrendsViewTest, LegendNamesEveryMarkUnclipped)
{
    TrendsView view(m_storePath);
    openTrends(view);
    ASSERT_TRUE(view.legend()->isVisible());
    QStringList texts;
    for (QLabel *entry : view.legend()->findChildren<QLabel *>("legendEntry")) {
        texts << entry->text();
        EXPECT_TRUE(entry->isVisible());
        EXPECT_GE(entry->width(), entry->sizeHint().width()) << entry->text().toStdString();
        EXPECT_LE(entry->geometry().right(), view.legend()->width()) << entry->text().toStdString();
        EXPECT_FALSE(entry->toolTip().isEmpty());
    }
    EXPECT_EQ(texts, QStringList({"Runs", "Regression", "Improvement", "Neutral change", "Outlier", "Noise change",
                                  "Drift", "Contract change", "Baseline"}));
}

// A date range narrows the time axis, the drawn points, the marks and the list, from the series
// already in memory (the store is not read again); Reset shows every run.
TEST_F(TrendsViewTest, DateRangeNarrowsTheChartWithoutReadingTheStore)
{
    TrendsView view(m_storePath);
    openTrends(view);
    QSignalSpy reads(&view, &TrendsView::seriesLoaded);
    auto *from = view.findChild<QDateEdit *>("rangeFrom");
    auto *to = view.findChild<QDateEdit *>("rangeTo");
    ASSERT_NE(from, nullptr);
    ASSERT_NE(to, nullptr);
    EXPECT_EQ(from->date(), QDate(2026, 9, 1));
    EXPECT_EQ(to->date(), QDate(2026, 9, 30));

    from->setDate(QDate(2026, 9, 15));
    to->setDate(QDate(2026, 9, 25));
    EXPECT_EQ(view.rangeCombo()->currentText(), "From – To");
    EXPECT_EQ(view.drawnIndexes().size(), 11u);
    EXPECT_EQ(pointsOf(view, "trendLine"), 11);
    for (const std::size_t i : view.drawnIndexes()) {
        const QDate day = QDateTime::fromMSecsSinceEpoch(qint64(view.points()[i].timeMs)).toLocalTime().date();
        EXPECT_GE(day, QDate(2026, 9, 15));
        EXPECT_LE(day, QDate(2026, 9, 25));
    }
    EXPECT_EQ(pointsOf(view, "regressionChanges"), 1);
    EXPECT_TRUE(seriesNamed(view, "contractChange").empty()); // night 30 is outside
    ASSERT_EQ(view.changeList()->model()->rowCount(), 1);
    EXPECT_EQ(view.changeSummaryText(), "Changes: 1 regression");
    EXPECT_EQ(view.changeList()->model()->index(0, TrendChangesTableModel::Run).data().toString(),
              "nightly-2026-09-21");
    auto *axis = qobject_cast<QDateTimeAxis *>(view.chartView()->chart()->axes(Qt::Horizontal).front());
    EXPECT_GE(axis->min().date(), QDate(2026, 9, 13));
    EXPECT_LE(axis->max().date(), QDate(2026, 9, 28)); // whole days of padding, not the month
    QTest::qWait(30);
    EXPECT_TRUE(view.grab().save(artifact("trends-date-range.png")));

    // The quiet first ten nights: nothing to list, nothing marked.
    view.setDateRange(QDate(2026, 9, 1), QDate(2026, 9, 10));
    EXPECT_EQ(pointsOf(view, "trendLine"), 10);
    EXPECT_EQ(pointsOf(view, "regressionChanges"), 0);
    EXPECT_EQ(view.changeList()->model()->rowCount(), 0);
    EXPECT_EQ(view.changeSummaryText(), "Changes: none among the runs shown");

    QTest::mouseClick(view.findChild<QPushButton *>("resetRange"), Qt::LeftButton);
    EXPECT_EQ(view.rangeCombo()->currentText(), "All runs");
    EXPECT_EQ(pointsOf(view, "trendLine"), 30);
    EXPECT_EQ(view.changeList()->model()->rowCount(), 2);
    EXPECT_EQ(seriesNamed(view, "contractChange").size(), 1u);
    EXPECT_EQ(from->date(), QDate(2026, 9, 1));

    // The last 30 days end at the latest run (night 30): the whole month, shown in the fields.
    view.setDateRange(QDate(2026, 9, 20), QDate(2026, 9, 22));
    view.rangeCombo()->setCurrentIndex(view.rangeCombo()->findText("Last 30 days"));
    EXPECT_EQ(pointsOf(view, "trendLine"), 30);
    EXPECT_EQ(from->date(), QDate(2026, 9, 1));
    EXPECT_EQ(to->date(), QDate(2026, 9, 30));
    EXPECT_EQ(reads.count(), 0);
}

// Hovering a point shows its run; a point under the dashed contract line of night 30 is still
// picked by a click there.
TEST_F(TrendsViewTest, HoverShowsTheRunAndAPointOnAContractLineIsClickable)
{
    TrendsView view(m_storePath);
    openTrends(view, 1000);
    QLineSeries *line = qobject_cast<QLineSeries *>(seriesNamed(view, "trendLine").front());
    ASSERT_EQ(line->count(), 30);
    pointerAt(view, QEvent::MouseMove, line->at(20));
    ASSERT_TRUE(waitUntil([] { return QToolTip::isVisible(); }));
    EXPECT_TRUE(QToolTip::text().contains("nightly-2026-09-21")) << QToolTip::text().toStdString();
    EXPECT_TRUE(QToolTip::text().contains("c0ffee1021"));
    EXPECT_TRUE(QToolTip::text().contains("regression"));

    // Far from every point (the top of the plot at the first night's time): no tooltip.
    QValueAxis *values = qobject_cast<QValueAxis *>(view.chartView()->chart()->axes(Qt::Vertical).front());
    pointerAt(view, QEvent::MouseMove, QPointF(line->at(2).x(), values->max()));
    EXPECT_TRUE(waitUntil([] { return !QToolTip::isVisible(); }));

    QSignalSpy selected(&view, &TrendsView::pointSelected);
    pointerAt(view, QEvent::MouseButtonPress, line->at(29));
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(view.pointDetailText("runKey"), "nightly-2026-09-30");
    EXPECT_TRUE(view.pointDetailText("change").contains("tuning.batch.size"));
}

// A scenario measured on two targets: the target chooser appears and narrows the chart and the
// list to one of them (each target has its own baseline and change points).
TEST_F(TrendsViewTest, TargetChooserNarrowsToOneTarget)
{
    std::vector<RunRecord> kafka;
    for (int d = 1; d <= 10; ++d) {
        RunRecord r = nightlyRun(d, "kafk4" + std::to_string(d), 300000 * (1 + (d % 3) * 0.001));
        r.runKey = "kafka-2026-09-" + std::to_string(d);
        r.timestamp = QStringLiteral("2026-09-%1T04:00:00Z").arg(d, 2, 10, QLatin1Char('0')).toStdString();
        r.target = "kafka";
        kafka.push_back(r);
    }
    Store(m_storePath.toStdString())
        .importSource({"test:kafka", "plimsoll-trend", "sha-k", "test", "1", "2026-10-01T00:00:00Z", false}, kafka);

    TrendsView view(m_storePath);
    view.resize(800, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.metricCombo()->count() > 0; }));
    view.metricCombo()->setCurrentIndex(view.metricCombo()->findText("records_per_s"));
    ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "records_per_s" && view.pointCount() == 40; }));
    QComboBox *targets = view.targetCombo();
    ASSERT_TRUE(targets->isVisible());
    ASSERT_EQ(targets->count(), 3);
    EXPECT_EQ(targets->itemText(0), "All targets");
    EXPECT_EQ(pointsOf(view, "trendLine"), 40);

    QSignalSpy reads(&view, &TrendsView::seriesLoaded);
    targets->setCurrentIndex(targets->findText("kafka"));
    EXPECT_EQ(pointsOf(view, "trendLine"), 10);
    for (const std::size_t i : view.drawnIndexes())
        EXPECT_EQ(view.points()[i].runKey.rfind("kafka-", 0), 0u) << view.points()[i].runKey;
    EXPECT_EQ(view.changeList()->model()->rowCount(), 0); // a steady kafka series
    EXPECT_EQ(pointsOf(view, "regressionChanges"), 0);

    targets->setCurrentIndex(targets->findText("korvet"));
    EXPECT_EQ(pointsOf(view, "trendLine"), 30);
    EXPECT_EQ(view.changeList()->model()->rowCount(), 2);
    EXPECT_EQ(pointsOf(view, "regressionChanges"), 1);
    EXPECT_EQ(reads.count(), 0);
    QTest::qWait(30);
    EXPECT_TRUE(view.grab().save(artifact("trends-target.png")));
}

// One target only: no chooser to read past.
TEST_F(TrendsViewTest, HidesTheTargetChooserForOneTarget)
{
    TrendsView view(m_storePath);
    openTrends(view);
    EXPECT_FALSE(view.targetCombo()->isVisible());
}

namespace {
class ChangesViewTest : public plimsoll::test::NightlyStoreTest
{
};
} // namespace

// The regression dashboard lists what `plimsoll changes` finds, filters it, and a row opens
// its series in Trends with the run of the change selected.
TEST_F(ChangesViewTest, ListsEveryChangeTheCommandFindsAndOpensItsSeriesInTrends)
{
    const std::string path = m_storePath.toStdString();
    const ChangesReport expected = [&] {
        const Store store(path);
        return findChanges(TrendHistory::load(store), ChangesRequest{}, loadContractPolicies(store));
    }();
    ASSERT_GT(expected.changeCount(), 0);
    ASSERT_EQ(expected.baselineChanges.size(), 1u); // night 30, retuned
    const DetectedChange *drop = nullptr;
    for (const SeriesChanges &s : expected.series)
        for (const DetectedChange &c : s.changes)
            if (s.series.metric == "records_per_s" && c.verdict == Verdict::Regression)
                drop = &c;
    ASSERT_NE(drop, nullptr) << "the throughput drop of night 21";

    ChangesView view(m_storePath);
    view.resize(800, 600);
    view.show();
    QSignalSpy loaded(&view, &ChangesView::loaded);
    view.reload();
    ASSERT_TRUE(loaded.wait(20000));
    QAbstractItemModel *rows = view.table()->model();
    EXPECT_EQ(rows->rowCount(), expected.changeCount() + 1);
    EXPECT_TRUE(view.summaryText().contains(QStringLiteral("1 new baseline"))) << view.summaryText().toStdString();
    // Newest first.
    for (int r = 1; r < rows->rowCount(); ++r)
        EXPECT_GE(rows->index(r - 1, ChangesView::Time).data(Qt::UserRole + 1).toString(),
                  rows->index(r, ChangesView::Time).data(Qt::UserRole + 1).toString());

    view.setShown(ChangesView::Show::Regressions);
    int dropRow = -1;
    for (int r = 0; r < view.shownRows(); ++r) {
        EXPECT_EQ(rows->index(r, ChangesView::Verdict).data().toString(), QStringLiteral("regression"));
        if (rows->index(r, ChangesView::Run).data().toString() == QString::fromStdString(drop->runKey) &&
            rows->index(r, ChangesView::Metric).data().toString() == displayMetricName("records_per_s"))
            dropRow = r;
    }
    ASSERT_GE(dropRow, 0);
    EXPECT_EQ(rows->index(dropRow, ChangesView::Change).data().toString(),
              QString::asprintf("%+.1f %%", drop->change.forwardChangePercent()));
    view.setFilterText(QStringLiteral("no-such-run"));
    EXPECT_EQ(view.shownRows(), 0);
    view.setFilterText(QString::fromStdString(drop->commit));
    EXPECT_GE(view.shownRows(), 1);
    view.setFilterText({});
    view.setShown(ChangesView::Show::All);
    EXPECT_EQ(view.shownRows(), expected.changeCount() + 1);

    TrendsView trends(m_storePath);
    trends.resize(800, 640);
    trends.show();
    QObject::connect(&view, &ChangesView::openSeries, &trends, &TrendsView::openSeries);
    QSignalSpy selected(&trends, &TrendsView::pointSelected);
    view.setShown(ChangesView::Show::Regressions);
    view.openRow(dropRow);
    ASSERT_TRUE(waitUntil([&] { return !selected.isEmpty(); }));
    EXPECT_EQ(selected.last().at(0).toString(), QString::fromStdString(drop->runKey));
    EXPECT_EQ(trends.plottedMetric(), QStringLiteral("records_per_s"));
    EXPECT_EQ(trends.pointDetailText(QStringLiteral("runKey")), QString::fromStdString(drop->runKey));
}

// Zoom on the time axis is the date range: a drag across the chart keeps the days it spans,
// the wheel narrows around the pointer, a double-click shows every run again.
TEST_F(TrendsViewTest, DragAndWheelZoomTheTimeAxisAndDoubleClickResets)
{
    TrendsView view(m_storePath);
    openTrends(view);
    QWidget *viewport = view.chartView()->viewport();
    QChart *chart = view.chartView()->chart();
    const QRect plot = view.chartView()->mapFromScene(chart->mapToScene(chart->plotArea())).boundingRect();
    const int y = plot.center().y() + plot.height() / 4; // below the line: no point under the press
    const QPoint start(plot.left() + plot.width() / 4, y), end(plot.left() + plot.width() * 3 / 5, y);
    QTest::mousePress(viewport, Qt::LeftButton, {}, start);
    QMouseEvent move(QEvent::MouseMove, QPointF(end), viewport->mapToGlobal(QPointF(end)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &move);
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, end);
    EXPECT_EQ(view.rangeCombo()->currentText(), "From – To");
    const size_t dragged = view.drawnIndexes().size();
    EXPECT_GT(dragged, 5u);
    EXPECT_LT(dragged, 20u);

    QTest::mouseDClick(viewport, Qt::LeftButton, {}, start);
    EXPECT_EQ(view.rangeCombo()->currentText(), "All runs");
    EXPECT_EQ(view.drawnIndexes().size(), 30u);

    QWheelEvent wheel(QPointF(plot.center()), viewport->mapToGlobal(QPointF(plot.center())), {}, {0, 240},
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(viewport, &wheel);
    EXPECT_EQ(view.rangeCombo()->currentText(), "From – To");
    EXPECT_LT(view.drawnIndexes().size(), 30u);
    EXPECT_GT(view.drawnIndexes().size(), 10u);
}

namespace {
class OutlierStoreTest : public plimsoll::test::NightlyStoreTest
{
};
} // namespace

// A one-night throughput collapse is an outlier, not two changes: the Changes view lists it as
// such, and Trends rings the point and says so, with no change point drawn around it.
TEST_F(OutlierStoreTest, OneNightSpikeIsAnOutlierInChangesAndTrends)
{
    const QString path = m_dir.filePath(QStringLiteral("spike.plimsoll"));
    std::vector<RunRecord> runs;
    std::mt19937 rng(4);
    std::normal_distribution<double> noise(0, 2000);
    const QDateTime start(QDate(2026, 3, 1), QTime(2, 30), Qt::UTC);
    for (int i = 0; i < 60; ++i) {
        RunRecord r = nightlyRun(1, "c" + std::to_string(i), i == 30 ? 450000 : 600000 + noise(rng));
        r.runKey = "night-" + std::to_string(i);
        r.timestamp = start.addDays(i).toString(Qt::ISODate).toStdString();
        runs.push_back(std::move(r));
    }
    Store(path.toStdString())
        .importSource({"test:spike", "plimsoll-trend", "sha-s", "test", "1", "2026-10-01T00:00:00Z", false}, runs);

    ChangesView changes(path);
    changes.resize(800, 600);
    changes.show();
    QSignalSpy loaded(&changes, &ChangesView::loaded);
    changes.reload();
    ASSERT_TRUE(loaded.wait(20000));
    QAbstractItemModel *rows = changes.table()->model();
    int outlierRows = 0;
    for (int r = 0; r < rows->rowCount(); ++r) {
        const QString change = rows->index(r, ChangesView::Change).data().toString();
        EXPECT_TRUE(change.startsWith(QStringLiteral("outlier -"))) << change.toStdString() << " in a series without changes";
        EXPECT_EQ(rows->index(r, ChangesView::Run).data().toString(), QStringLiteral("night-30"));
        outlierRows += change.startsWith(QStringLiteral("outlier"));
        if (rows->index(r, ChangesView::Metric).data().toString() == displayMetricName("records_per_s")) {
            EXPECT_TRUE(change.startsWith(QStringLiteral("outlier -24.8 %"))) << change.toStdString();
            EXPECT_EQ(rows->index(r, ChangesView::Verdict).data().toString(), QStringLiteral("regression"));
        }
    }
    EXPECT_EQ(outlierRows, 2) << "throughput and the latency that follows it";

    TrendsView view(path);
    view.resize(800, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.metricCombo()->count() > 0; }));
    view.metricCombo()->setCurrentIndex(view.metricCombo()->findText("records_per_s"));
    ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "records_per_s" && view.pointCount() == 60; }));
    EXPECT_EQ(view.outlierIndexes(), std::vector<int>{30});
    EXPECT_TRUE(view.changePointIndexes().empty()) << ::testing::PrintToString(view.changePointIndexes());
    int rings = -1;
    for (QAbstractSeries *s : view.chartView()->chart()->series())
        if (s->objectName() == "outliers")
            rings = static_cast<int>(qobject_cast<QScatterSeries *>(s)->count());
    EXPECT_EQ(rings, 1);
    view.selectPoint(30);
    const QString detail = view.pointDetailText(QStringLiteral("change"));
    EXPECT_TRUE(detail.contains(QStringLiteral("outlier -24.8 %")) && detail.contains(QStringLiteral("regression")))
        << detail.toStdString();
}
