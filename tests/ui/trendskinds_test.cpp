// The nightly view tells the four kinds of finding apart: a level change (a filled square), an
// outlier (a ring), a noise change (a hollow diamond) and a drift (its fitted line, sloped), each
// with its own words when the run is picked.
#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/models/trendchangestablemodel.h"
#include "ui/views/trendsview.h"
#include "nightlystoretest.h"
#include "uitestsupport.h"
#include <gtest/gtest.h>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QScatterSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>

#include <random>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

// One run a night from 2026-01-01, the throughput of each night given.
void storeNights(const QString &path, const std::vector<double> &rates)
{
    std::vector<RunRecord> runs;
    const QDateTime start(QDate(2026, 1, 1), QTime(2, 30), Qt::UTC);
    for (std::size_t i = 0; i < rates.size(); ++i) {
        RunRecord r = nightlyRun(1, "c" + std::to_string(i), rates[i]);
        r.runKey = "night-" + std::to_string(i);
        r.timestamp = start.addDays(qint64(i)).toString(Qt::ISODate).toStdString();
        runs.push_back(std::move(r));
    }
    Store(path.toStdString())
        .importSource({"test:kinds", "plimsoll-trend", "sha-k", "test", "1", "2026-12-01T00:00:00Z", false}, runs);
}

void openThroughput(TrendsView &view, int points)
{
    view.resize(800, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.metricCombo()->count() > 0; }));
    view.metricCombo()->setCurrentIndex(view.metricCombo()->findText("records_per_s"));
    ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "records_per_s" && view.pointCount() == points; }));
}

int pointsOf(TrendsView &view, const QString &name)
{
    int n = 0;
    for (QAbstractSeries *s : view.chartView()->chart()->series())
        if (s->objectName() == name)
            n += static_cast<int>(static_cast<QXYSeries *>(s)->count());
    return n;
}

class TrendsKinds : public ::testing::Test
{
protected:
    void TearDown() override
    {
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }
    QTemporaryDir m_dir;
};

} // namespace

// 150 nights at 600,000 records/s ± 1 %, then 150 four times as noisy at the same level: one
// noise change, drawn as a diamond and worded with its ratio; no level change, no drift.
TEST_F(TrendsKinds, ANoiseChangeIsADiamondNotALevelChange)
{
    std::mt19937 rng(21);
    std::normal_distribution<double> quiet(0, 6000), loud(0, 24000);
    std::vector<double> rates;
    for (int i = 0; i < 300; ++i)
        rates.push_back(600000 + (i < 150 ? quiet(rng) : loud(rng)));
    const QString path = m_dir.filePath(QStringLiteral("noise.plimsoll"));
    storeNights(path, rates);
    TrendsView view(path);
    openThroughput(view, 300);
    ASSERT_EQ(view.noiseChangeIndexes().size(), 1u);
    const int at = view.noiseChangeIndexes()[0];
    EXPECT_NEAR(at, 150, 5);
    EXPECT_EQ(pointsOf(view, QStringLiteral("noiseChanges")), 1);
    EXPECT_TRUE(view.changePointIndexes().empty()) << ::testing::PrintToString(view.changePointIndexes());
    EXPECT_TRUE(view.drawnDrifts().empty());
    view.selectPoint(at);
    const QString detail = view.pointDetailText(QStringLiteral("change"));
    EXPECT_TRUE(detail.startsWith(QStringLiteral("noise change: ×"))) << detail.toStdString();
    const double ratio = detail.section(QChar(0xd7), 1).section(QLatin1Char(' '), 0, 0).toDouble();
    EXPECT_NEAR(ratio, 4, 1) << detail.toStdString();
    // The list under the chart has its row, counted apart from the level changes.
    EXPECT_EQ(view.changeSummaryText(), QStringLiteral("Changes: 1 noise change"));
    const QAbstractItemModel *rows = view.changeList()->model();
    ASSERT_EQ(rows->rowCount(), 1);
    EXPECT_EQ(rows->index(0, TrendChangesTableModel::Change).data().toString(),
              QStringLiteral("noise ×") + detail.section(QChar(0xd7), 1).section(QLatin1Char(' '), 0, 0))
        << "the ratio the detail gives";
    EXPECT_EQ(rows->index(0, TrendChangesTableModel::Verdict).data().toString(), QStringLiteral("regression"))
        << "noisier is worse";
}

// 80 steady nights, then 120 nights losing 500 records/s a night (±2,000 of noise): one drift,
// drawn as its fitted line from where it starts to the last night, and worded per day; not a
// staircase of changes.
TEST_F(TrendsKinds, ADriftIsItsFittedLineNotAStaircase)
{
    std::mt19937 rng(3);
    std::normal_distribution<double> noise(0, 2000);
    std::vector<double> rates;
    for (int i = 0; i < 200; ++i)
        rates.push_back(600000 - (i >= 80 ? 500.0 * (i - 80) : 0) + noise(rng));
    const QString path = m_dir.filePath(QStringLiteral("drift.plimsoll"));
    storeNights(path, rates);
    TrendsView view(path);
    openThroughput(view, 200);
    const std::vector<QLineF> drifts = view.drawnDrifts();
    ASSERT_EQ(drifts.size(), 1u);
    const QDateTime night0(QDate(2026, 1, 1), QTime(2, 30), Qt::UTC);
    const double startNight = (drifts[0].x1() - double(night0.toMSecsSinceEpoch())) / 86'400'000.0;
    EXPECT_NEAR(startNight, 80, 10);
    EXPECT_DOUBLE_EQ(drifts[0].x2(), double(night0.addDays(199).toMSecsSinceEpoch()));
    // The line's slope is the drift's (in the chart's units, which start near 600,000 records/s).
    const double unit = drifts[0].y1() / 600000;
    const double perNight = (drifts[0].y2() - drifts[0].y1()) / unit / (199 - startNight);
    EXPECT_NEAR(perNight, -500, 50);
    EXPECT_LE(view.changePointIndexes().size(), 1u) << "at most the change where it begins";
    view.selectPoint(150);
    const QString detail = view.pointDetailText(QStringLiteral("change"));
    EXPECT_TRUE(detail.startsWith(QStringLiteral("in a drift of -"))) << detail.toStdString();
    EXPECT_TRUE(detail.contains(QStringLiteral("per day")) && detail.contains(QStringLiteral("regression")))
        << detail.toStdString();
    // The drift's row sits at its first run, with its change over its runs.
    EXPECT_TRUE(view.changeSummaryText().contains(QStringLiteral("1 drift"))) << view.changeSummaryText().toStdString();
    const QAbstractItemModel *rows = view.changeList()->model();
    int driftRows = 0;
    for (int r = 0; r < rows->rowCount(); ++r) {
        const QString change = rows->index(r, TrendChangesTableModel::Change).data().toString();
        if (!change.startsWith(QStringLiteral("drift ")))
            continue;
        ++driftRows;
        EXPECT_TRUE(detail.contains(change.mid(6, change.indexOf(QLatin1Char('%')) - 5)))
            << change.toStdString() << " vs " << detail.toStdString();
        EXPECT_EQ(rows->index(r, TrendChangesTableModel::Verdict).data().toString(), QStringLiteral("regression"));
    }
    EXPECT_EQ(driftRows, 1);
}
