// Compare and Trends over a real store: verdict rows, the incompatible section with its keys,
// change points marked on the chart, a chosen baseline. Screenshots go to PLIMSOLL_ARTIFACT_DIR.
#include "model/comparisonhistory.h"
#include "model/runcomparison.h"
#include "model/store.h"
#include "model/trendhistory.h"
#include "ui/formatting.h"
#include "ui/models/comparisontablemodel.h"
#include "ui/models/runpickerlistmodel.h"
#include "ui/models/trendchangestablemodel.h"
#include "ui/views/compareview.h"
#include "ui/views/trendsview.h"
#include "ui/backgroundpool.h"
#include "sizingtestsupport.h"
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
#include <QValueAxis>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>

#include <map>

#include <nlohmann/json.hpp>

using namespace plimsoll;
using plimsoll::test::nightlyRun;
using plimsoll::test::waitUntil;

namespace {

class CompareViewTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.filePath("settings"));
        m_storePath = m_dir.filePath("store.plimsoll");
        // Twenty quiet nights, a throughput drop from night 21, night 29 with p99 doubled,
        // night 30 retuned (batch.size 65536).
        std::vector<RunRecord> runs;
        for (int d = 1; d <= 30; ++d) {
            const double wiggle = ((d * 7) % 5 - 2) * 0.002;
            const double rate = (d <= 20 ? 640000 : 560000) * (1 + wiggle);
            RunRecord r = nightlyRun(d, "c0ffee" + std::to_string(1000 + d), rate);
            r.scenarios[0].metrics = {{"records_per_s", rate},
                                      {"latency_p99_s", (d == 29 ? 0.100 : 0.050) * (1 - wiggle)}};
            if (d == 30)
                r.tuning["batch.size"] = 65536;
            runs.push_back(r);
        }
        Store store(m_storePath.toStdString());
        store.importSource({"test:nightly", "plimsoll-trend", "sha-n", "test", "1", "2026-10-01T00:00:00Z", false},
                           runs);
    }
    void TearDown() override
    {
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }

    static QString artifact(const QString &name) { return QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/") + name; }

    // Trends at `width` (the room a 1024 px window leaves beside its sidebar: ~800), showing
    // the nightly throughput.
    void openTrends(TrendsView &view, int width = 800)
    {
        view.resize(width, 640);
        view.show();
        view.reload();
        ASSERT_TRUE(waitUntil([&] { return view.metricCombo()->count() > 0; }));
        view.metricCombo()->setCurrentIndex(view.metricCombo()->findText("records_per_s"));
        ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "records_per_s" && view.pointCount() == 30; }));
        QTest::qWait(20);
    }

    QTemporaryDir m_dir;
    QString m_storePath;
};

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

// The verdict of a metric's row in the delta table, or empty when there is no such row.
QString verdictOf(const QTableView *table, const QString &metric)
{
    const QAbstractItemModel *m = table->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, ComparisonTableModel::Metric).data().toString() == metric)
            return m->index(r, ComparisonTableModel::Verdict).data(ComparisonTableModel::VerdictRole).toString();
    return {};
}

// Runs of another scenario, older than the nightlies: "soak-000" (2026-06-01) onwards, an hour
// apart, each with a throughput of its own.
std::vector<RunRecord> soakRuns(int count)
{
    std::vector<RunRecord> runs;
    const QDateTime first(QDate(2026, 6, 1), QTime(0, 0), Qt::UTC);
    for (int i = 0; i < count; ++i) {
        RunRecord r = nightlyRun(1, "50a4" + std::to_string(i), 300000 + 10 * i);
        r.runKey = QStringLiteral("soak-%1").arg(i, 3, 10, QLatin1Char('0')).toStdString();
        r.timestamp = first.addSecs(3600 * i).toString(Qt::ISODate).toStdString();
        r.scenarios[0].name = "soak/offload/consume";
        runs.push_back(r);
    }
    return runs;
}

// What the search finds, as the completer lists it: run keys, newest first.
QStringList foundKeys(const QCompleter *completer)
{
    QStringList keys;
    const QAbstractItemModel *m = completer->completionModel();
    for (int r = 0; r < m->rowCount(); ++r)
        keys << m->index(r, 0).data(RunPickerListModel::RunKeyRole).toString();
    return keys;
}

// Types `text` into a picker's search field as a user does and waits for what the store found.
bool typeSearch(CompareView &view, QLineEdit *field, const QString &text)
{
    QSignalSpy found(&view, &CompareView::searchFinished);
    QApplication::setActiveWindow(&view);
    field->setFocus();
    field->clear();
    QTest::keyClicks(field, text);
    return found.wait(5000);
}

} // namespace

// Typing part of a run's key or of one of its scenarios' names lists the matching runs of the
// store, newest first; picking one compares it.
TEST_F(CompareViewTest, PickerFindsARunByPartOfItsKeyOrScenario)
{
    Store(m_storePath.toStdString())
        .importSource({"test:soak", "plimsoll-trend", "sha-soak", "test", "1", "2026-10-01T00:00:00Z", false},
                      soakRuns(3));
    CompareView view(m_storePath);
    QAbstractItemModelTester runs(view.runList(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester found(view.baselineCompleter()->model(),
                                   QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.resize(1100, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-30"; }));

    ASSERT_TRUE(typeSearch(view, view.currentSearch(), "09-2"));
    EXPECT_EQ(foundKeys(view.currentCompleter()),
              QStringList({"nightly-2026-09-29", "nightly-2026-09-28", "nightly-2026-09-27", "nightly-2026-09-26",
                           "nightly-2026-09-25", "nightly-2026-09-24", "nightly-2026-09-23", "nightly-2026-09-22",
                           "nightly-2026-09-21", "nightly-2026-09-20"}));

    // By scenario, without case: only the soak runs have "Offload".
    ASSERT_TRUE(typeSearch(view, view.baselineSearch(), "Offload"));
    EXPECT_EQ(foundKeys(view.baselineCompleter()), QStringList({"soak-002", "soak-001", "soak-000"}));
    QAbstractItemView *popup = view.baselineCompleter()->popup();
    ASSERT_TRUE(waitUntil([&] { return popup->isVisible(); }));
    const QModelIndex second = popup->model()->index(1, 0);
    EXPECT_TRUE(second.data().toString().startsWith("soak-001  (")) << second.data().toString().toStdString();
    QTest::mouseClick(popup->viewport(), Qt::LeftButton, {}, popup->visualRect(second).center());

    ASSERT_TRUE(waitUntil([&] { return view.comparison().baseline.runKey == "soak-001"; }));
    EXPECT_EQ(view.baselineCombo()->currentData(RunPickerListModel::RunKeyRole).toString(), "soak-001");
    EXPECT_EQ(view.baselineSearch()->text(), "soak-001");
    EXPECT_EQ(view.comparison().current.runKey, "nightly-2026-09-30");
    EXPECT_EQ(view.comparison().onlyInBaseline, std::vector<std::string>{"soak/offload/consume"});

    // Nothing matches: nothing listed, the comparison stays.
    ASSERT_TRUE(typeSearch(view, view.baselineSearch(), "no-such-run"));
    EXPECT_TRUE(foundKeys(view.baselineCompleter()).isEmpty());
    EXPECT_EQ(view.comparison().baseline.runKey, "soak-001");
}

// A store of more runs than a page: the pickers list the newest page, the next as the list is
// scrolled to its end, and a run far beyond them is found, listed in its place and compared.
TEST_F(CompareViewTest, PickersListThePagesReadAndFindRunsBeyondThem)
{
    const int soak = 2 * CompareView::kPageRuns + 20;
    Store(m_storePath.toStdString())
        .importSource({"test:soak", "plimsoll-trend", "sha-soak", "test", "1", "2026-10-01T00:00:00Z", false},
                      soakRuns(soak));
    CompareView view(m_storePath);
    view.resize(1100, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-30"; }));
    QComboBox *combo = view.baselineCombo();
    EXPECT_EQ(combo->count(), CompareView::kPageRuns);
    EXPECT_EQ(combo->itemData(0, RunPickerListModel::RunKeyRole).toString(), "nightly-2026-09-30");

    // What the list's view asks for when scrolled to its end.
    ASSERT_TRUE(view.runList()->canFetchMore({}));
    view.runList()->fetchMore({});
    ASSERT_TRUE(waitUntil([&] { return combo->count() == 2 * CompareView::kPageRuns; })) << combo->count();
    // Newest first across the pages: the soak runs follow the nightlies an hour apart.
    for (int i = 1; i < combo->count(); ++i)
        ASSERT_GT(view.runList()->runAt(i - 1).timestamp, view.runList()->runAt(i).timestamp) << i;

    ASSERT_TRUE(typeSearch(view, view.baselineSearch(), "soak-000"));
    ASSERT_EQ(foundKeys(view.baselineCompleter()), QStringList{"soak-000"});
    QAbstractItemView *popup = view.baselineCompleter()->popup();
    ASSERT_TRUE(waitUntil([&] { return popup->isVisible(); }));
    QTest::mouseClick(popup->viewport(), Qt::LeftButton, {},
                      popup->visualRect(popup->model()->index(0, 0)).center());
    ASSERT_TRUE(waitUntil([&] { return view.comparison().baseline.runKey == "soak-000"; }));
    // Listed last (the oldest run), the pages still continuing where they stopped.
    EXPECT_EQ(combo->count(), 2 * CompareView::kPageRuns + 1);
    EXPECT_EQ(combo->currentIndex(), combo->count() - 1);
    ASSERT_TRUE(view.runList()->canFetchMore({}));
    view.runList()->fetchMore({});
    ASSERT_TRUE(waitUntil([&] { return view.runList()->isComplete(); }));
    EXPECT_EQ(combo->count(), 30 + soak);
    EXPECT_EQ(combo->currentData(RunPickerListModel::RunKeyRole).toString(), "soak-000");

    // Asked for by key (another view's "compare with…"), a run not listed yet is read and chosen.
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return combo->count() == CompareView::kPageRuns + 1; })) << combo->count();
    view.setRuns("soak-005", "soak-006");
    ASSERT_TRUE(waitUntil([&] {
        return view.comparison().baseline.runKey == "soak-005" && view.comparison().current.runKey == "soak-006";
    }));
}

// Comparing reads the two runs and the recent runs of their scenarios only: another scenario's
// runs stay unread, and the comparison is the one the whole history gives.
TEST_F(CompareViewTest, ComparingReadsOnlyTheChosenRunsSeries)
{
    Store store(m_storePath.toStdString());
    store.importSource({"test:soak", "plimsoll-trend", "sha-soak", "test", "1", "2026-10-01T00:00:00Z", false},
                       soakRuns(300));
    const TrendHistory whole = TrendHistory::load(store);
    ASSERT_EQ(whole.runs().size(), 330u);
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"nightly-2026-09-28", "nightly-2026-09-29"},
        {"nightly-2026-09-20", "nightly-2026-09-21"},
        {"nightly-2026-09-29", "nightly-2026-09-30"},
        {"nightly-2026-09-05", "nightly-2026-09-25"}};
    for (const auto &[b, c] : pairs) {
        SCOPED_TRACE(b + " vs " + c);
        const TrendHistory read = comparisonHistory(store, b, c);
        // Every nightly up to the current run, each with its nightly scenario only.
        const int day = std::stoi(c.substr(c.size() - 2));
        ASSERT_EQ(read.runs().size(), size_t(day));
        for (const RunRecord &r : read.runs()) {
            EXPECT_EQ(r.runKey.rfind("nightly-", 0), 0u) << r.runKey;
            EXPECT_LE(r.timestamp, read.findRun(c)->timestamp);
            ASSERT_EQ(r.scenarios.size(), 1u);
        }
        const RunComparison expected = compareRuns(whole, b, c, {});
        const RunComparison got = compareRuns(read, b, c, {});
        ASSERT_EQ(got.scenarios.size(), expected.scenarios.size());
        EXPECT_EQ(got.tested, expected.tested);
        for (size_t s = 0; s < got.scenarios.size(); ++s) {
            ASSERT_EQ(got.scenarios[s].metrics.size(), expected.scenarios[s].metrics.size());
            EXPECT_EQ(got.scenarios[s].compatible, expected.scenarios[s].compatible);
            for (size_t m = 0; m < got.scenarios[s].metrics.size(); ++m) {
                const MetricComparison &g = got.scenarios[s].metrics[m], &e = expected.scenarios[s].metrics[m];
                EXPECT_EQ(g.metric, e.metric);
                EXPECT_EQ(g.verdict, e.verdict) << g.metric;
                EXPECT_EQ(g.historyPoints, e.historyPoints) << g.metric;
                EXPECT_DOUBLE_EQ(g.noiseBand, e.noiseBand) << g.metric;
                EXPECT_EQ(g.adjustedPValue, e.adjustedPValue) << g.metric;
            }
        }
    }
    // However long the series, at most the newest runs of it before the current one are read.
    const TrendHistory bounded = comparisonHistory(store, "nightly-2026-09-28", "nightly-2026-09-29", 5);
    EXPECT_EQ(bounded.runs().size(), 5u);
    EXPECT_EQ(bounded.runs().front().runKey, "nightly-2026-09-25");
    EXPECT_THROW(comparisonHistory(store, "nightly-2026-09-28", "no-such-run"), std::invalid_argument);
}

TEST_F(CompareViewTest, VerdictRowsAndIncompatibleKeys)
{
    CompareView view(m_storePath);
    QAbstractItemModelTester deltas(view.deltaTable()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester diffs(view.incompatibleTable()->model(),
                                   QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.resize(1100, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.baselineCombo()->count() == 30; }));

    view.setRuns("nightly-2026-09-28", "nightly-2026-09-29");
    ASSERT_TRUE(waitUntil([&] {
        return view.comparison().current.runKey == "nightly-2026-09-29" &&
               view.comparison().baseline.runKey == "nightly-2026-09-28";
    }));
    EXPECT_EQ(view.deltaTable()->model()->rowCount(), 2);
    EXPECT_EQ(verdictOf(view.deltaTable(), "latency_p99_s"), "regression");
    EXPECT_EQ(verdictOf(view.deltaTable(), "records_per_s"), "unchanged");
    EXPECT_EQ(view.incompatibleTable()->model()->rowCount(), 0);
    EXPECT_TRUE(view.summaryText().startsWith("1 regression(s)")) << view.summaryText().toStdString();

    // Throughput dropped 12.5 % between night 20 and night 21: a regression beyond the noise.
    view.setRuns("nightly-2026-09-20", "nightly-2026-09-21");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-21"; }));
    EXPECT_EQ(verdictOf(view.deltaTable(), "records_per_s"), "regression");

    // The retuned night: no delta rows at all, the differing key listed with both values.
    view.setRuns("nightly-2026-09-29", "nightly-2026-09-30");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-30"; }));
    EXPECT_EQ(view.deltaTable()->model()->rowCount(), 0);
    const QAbstractItemModel *inc = view.incompatibleTable()->model();
    ASSERT_EQ(inc->rowCount(), 1);
    EXPECT_EQ(inc->index(0, IncompatibleTableModel::Key).data().toString(), "tuning.batch.size");
    EXPECT_EQ(inc->index(0, IncompatibleTableModel::Baseline).data().toString(), "16384");
    EXPECT_EQ(inc->index(0, IncompatibleTableModel::Current).data().toString(), "65536");
    EXPECT_TRUE(view.grab().save(artifact("compare-incompatible.png")));

    view.setRuns("nightly-2026-09-28", "nightly-2026-09-29");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-29"; }));
    QTest::qWait(50);
    EXPECT_TRUE(view.grab().save(artifact("compare-view.png")));
}

// The view and `plimsoll compare` make the same request of the same code: for three pairs (a
// regression, an unchanged night, the retuned night), every scenario's status and every metric's
// noise band and verdict are the command line's.
TEST_F(CompareViewTest, ComparesAsTheCommandLineCompares)
{
    CompareView view(m_storePath);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.baselineCombo()->count() == 30; }));
    for (const auto &[base, cur] : {std::pair{"nightly-2026-09-20", "nightly-2026-09-21"},
                                    std::pair{"nightly-2026-09-27", "nightly-2026-09-28"},
                                    std::pair{"nightly-2026-09-29", "nightly-2026-09-30"}}) {
        SCOPED_TRACE(std::string(base) + " → " + cur);
        view.setRuns(QString::fromLatin1(base), QString::fromLatin1(cur));
        ASSERT_TRUE(waitUntil([&] {
            return view.comparison().current.runKey == cur && view.comparison().baseline.runKey == base;
        }));
        const nlohmann::json cli = plimsoll::test::cliJson(
            m_storePath, QStringLiteral("compare"),
            {QStringLiteral("--baseline"), QString::fromLatin1(base), QStringLiteral("--current"), QString::fromLatin1(cur)});
        const RunComparison &shown = view.comparison();
        ASSERT_EQ(shown.scenarios.size(), cli["scenarios"].size());
        for (std::size_t i = 0; i < shown.scenarios.size(); ++i) {
            const ScenarioComparison &s = shown.scenarios[i];
            const nlohmann::json &line = cli["scenarios"][i];
            EXPECT_EQ(s.scenario, line["scenario"]);
            EXPECT_EQ(s.compatible ? "compatible" : "incompatible", line["status"].get<std::string>());
            if (!s.compatible)
                continue;
            ASSERT_EQ(s.metrics.size(), line["metrics"].size());
            for (std::size_t m = 0; m < s.metrics.size(); ++m) {
                SCOPED_TRACE(s.metrics[m].metric);
                EXPECT_EQ(s.metrics[m].metric, line["metrics"][m]["metric"]);
                EXPECT_EQ(toString(s.metrics[m].verdict), line["metrics"][m]["verdict"]);
                EXPECT_DOUBLE_EQ(s.metrics[m].noiseBand, line["metrics"][m]["noise_band"].get<double>());
            }
        }
    }
}

TEST_F(CompareViewTest, TrendsMarksChangePointsAndBaseline)
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
TEST_F(CompareViewTest, TrendsLeavesASampleRunOutOfANightlySeries)
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

TEST(ComparisonTableModel, ShowsWhyAThroughputIsNotComparableAndCpuFollowsIt)
{
    // Two ramp steps offered 20k and 10k records/s: the verdicts the model gives, as the table shows them.
    auto step = [](const std::string &key, int d, double offered, double achieved, double cpu) {
        RunRecord r = nightlyRun(d, "c" + std::to_string(d), achieved);
        r.runKey = key;
        r.scenarios[0].metrics = {{"records_per_s", achieved},
                                  {"broker_cpu_avg", cpu},
                                  {"ramp.offered_records_per_s", offered}};
        return r;
    };
    const RunComparison c = compareRuns(
        TrendHistory::fromRuns({step("fast", 1, 20000, 19900, 0.40), step("slow", 2, 10000, 9950, 0.20)}), "fast",
        "slow", {});
    ComparisonTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setComparison(c);
    ASSERT_EQ(model.rowCount(), 2);
    std::map<QString, int> rowOf;
    for (int r = 0; r < model.rowCount(); ++r)
        rowOf[model.index(r, ComparisonTableModel::Metric).data().toString()] = r;
    const QModelIndex tp = model.index(rowOf.at("records_per_s"), ComparisonTableModel::Verdict);
    EXPECT_EQ(tp.data().toString(), "not comparable");
    EXPECT_EQ(tp.data(ComparisonTableModel::VerdictRole).toString(), "not_comparable");
    EXPECT_TRUE(tp.data(Qt::ToolTipRole).toString().contains("achieved/offered")) << tp.data(Qt::ToolTipRole).toString().toStdString();
    const QModelIndex cpu = model.index(rowOf.at("broker_cpu_avg"), ComparisonTableModel::Verdict);
    EXPECT_EQ(cpu.data().toString(), "follows throughput");
    EXPECT_TRUE(cpu.data(Qt::ToolTipRole).toString().contains("per record")) << cpu.data(Qt::ToolTipRole).toString().toStdString();
    EXPECT_FALSE(cpu.data(Qt::BackgroundRole).isValid()) << "neither red nor green";
}

// A ramp's USL parameters read as a user reads them: λ in its throughput unit with its interval
// beside it (no 7.733e+04, no interval in the Noise band column), a tiny κ as a power of ten,
// and a fit without an interval says so instead of printing nan.
TEST(ComparisonTableModel, UslParametersShowUnitsAndIntervalsBesideTheirValues)
{
    RunComparison c;
    RampComparison ramp;
    ramp.family = "pipeline/produce/";
    ramp.factor = "producers";
    ramp.metric = "records_per_s";
    ParameterComparison lambda{"lambda", Direction::HigherIsBetter, 77330, 80000, {75100, 79800}, {}, Verdict::Unchanged};
    ParameterComparison kappa{"kappa", Direction::LowerIsBetter, 0.0000211, 0.0000195, {}, {}, Verdict::Unchanged};
    ramp.parameters = {lambda, kappa};
    c.ramps = {ramp};
    ComparisonTableModel model;
    model.setComparison(c);
    ASSERT_EQ(model.rowCount(), 2);
    const QString base = model.index(0, ComparisonTableModel::Baseline).data().toString();
    EXPECT_FALSE(base.contains("e+")) << base.toStdString();
    EXPECT_TRUE(base.startsWith("77,330 rec/s")) << base.toStdString();
    EXPECT_TRUE(base.contains(" – ")) << base.toStdString(); // its interval beside it
    const QString current = model.index(0, ComparisonTableModel::Current).data().toString();
    EXPECT_TRUE(current.endsWith("(no interval)")) << current.toStdString();
    EXPECT_FALSE(current.contains("nan")) << current.toStdString();
    EXPECT_EQ(model.index(0, ComparisonTableModel::NoiseBand).data().toString(), "—");
    EXPECT_EQ(model.index(1, ComparisonTableModel::Baseline).data().toString(), "2.11 × 10⁻⁵ (no interval)");
}

// "Leave key out" can be taken back: the undo bar says what was left out, Undo puts the key
// back in the contract and the runs are incompatible again.
TEST_F(CompareViewTest, LeavingAKeyOutCanBeUndone)
{
    CompareView view(m_storePath);
    view.resize(1100, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.baselineCombo()->count() == 30; }));
    view.setRuns("nightly-2026-09-29", "nightly-2026-09-30");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-30"; }));
    ASSERT_EQ(view.incompatibleTable()->model()->rowCount(), 1);
    EXPECT_FALSE(view.undoButton()->isVisibleTo(&view));
    view.incompatibleTable()->selectRow(0);
    ASSERT_TRUE(view.leaveKeyOutButton()->isEnabled());
    QSignalSpy changed(&view, &StoreView::sharedSettingsChanged);
    view.leaveKeyOutButton()->click();
    ASSERT_TRUE(waitUntil([&] { return view.incompatibleTable()->model()->rowCount() == 0 && changed.count() == 1; }));
    EXPECT_GT(view.deltaTable()->model()->rowCount(), 0);
    EXPECT_TRUE(view.undoButton()->isVisibleTo(&view));
    EXPECT_TRUE(view.undoLabel()->text().contains("Left tuning.batch.size out of the contract of"))
        << view.undoLabel()->text().toStdString();
    view.undoButton()->click();
    ASSERT_TRUE(waitUntil([&] { return view.incompatibleTable()->model()->rowCount() == 1 && changed.count() == 2; }));
    EXPECT_EQ(view.deltaTable()->model()->rowCount(), 0);
    EXPECT_FALSE(view.undoButton()->isVisibleTo(&view));
    EXPECT_TRUE(ContractPolicies::load(m_storePath.toStdString()).forScenario("nightly/pipeline/produce/step-16").excluded.empty());
}

// Beside the chart, a list a user reads instead of hunting squares: the contract change of night 30
// (newest first) naming its key, then the throughput drop of night 21 in red with its change and
// p-value as the chart computes them. Clicking a row selects that run.
TEST_F(CompareViewTest, TrendsListsChangePointsAndContractChanges)
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
TEST_F(CompareViewTest, TrendsLegendNamesEveryMarkUnclipped)
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
    EXPECT_EQ(texts, QStringList({"Runs", "Regression", "Improvement", "Neutral change", "Contract change",
                                  "Baseline"}));
}

// A date range narrows the time axis, the drawn points, the marks and the list, from the series
// already in memory (the store is not read again); Reset shows every run.
TEST_F(CompareViewTest, TrendsDateRangeNarrowsTheChartWithoutReadingTheStore)
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
TEST_F(CompareViewTest, TrendsHoverShowsTheRunAndAPointOnAContractLineIsClickable)
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
TEST_F(CompareViewTest, TrendsTargetChooserNarrowsToOneTarget)
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
TEST_F(CompareViewTest, TrendsHidesTheTargetChooserForOneTarget)
{
    TrendsView view(m_storePath);
    openTrends(view);
    EXPECT_FALSE(view.targetCombo()->isVisible());
}
