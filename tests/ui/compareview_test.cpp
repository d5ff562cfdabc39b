// Compare and Trends over a real store: verdict rows, the incompatible section with its keys,
// change points marked on the chart, a chosen baseline. Screenshots go to PLIMSOLL_ARTIFACT_DIR.
#include "model/runcomparison.h"
#include "model/store.h"
#include "model/trendhistory.h"
#include "ui/models/comparisontablemodel.h"
#include "ui/views/compareview.h"
#include "ui/views/trendsview.h"
#include "ui/backgroundpool.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QPushButton>
#include <QLabel>
#include <QComboBox>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>

#include <map>

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

    QTemporaryDir m_dir;
    QString m_storePath;
};

// The verdict of a metric's row in the delta table, or empty when there is no such row.
QString verdictOf(const QTableView *table, const QString &metric)
{
    const QAbstractItemModel *m = table->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, ComparisonTableModel::Metric).data().toString() == metric)
            return m->index(r, ComparisonTableModel::Verdict).data(ComparisonTableModel::VerdictRole).toString();
    return {};
}

} // namespace

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
