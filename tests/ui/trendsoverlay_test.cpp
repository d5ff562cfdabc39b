// Trends' overlays: other scenarios' series of the plotted metric and other metrics of the
// plotted scenario, dashed over the plotted series, several at once, each removable.
#include "ui/charts/trendmarkstyle.h"
#include "ui/views/trendsview.h"
#include "ui/widgets/elidinglabel.h"
#include "nightlystoretest.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDate>
#include <QLineSeries>
#include <QSet>
#include <QToolButton>
#include <QValueAxis>

using namespace plimsoll;
using plimsoll::test::nightlyRun;
using plimsoll::test::waitUntil;

namespace {

class TrendsOverlayTest : public plimsoll::test::NightlyStoreTest
{
protected:
    // A second scenario in every night: a ramp step with 1.8 times the throughput; and, when
    // `moreMetrics`, the plotted scenario's p50 and bytes/s beside its throughput and p99.
    void addStep8(bool moreMetrics)
    {
        Store store(m_storePath.toStdString());
        std::vector<RunRecord> runs;
        for (int d = 1; d <= 30; ++d) {
            RunRecord r = nightlyRun(d, "beef" + std::to_string(1000 + d), 600000);
            r.runKey += "-step8";
            r.scenarios[0].name += "-step8";
            r.scenarios[0].metrics = {{"records_per_s", 1.8 * 600000}};
            if (moreMetrics) {
                ScenarioRecord plotted = nightlyRun(d, "beef", 600000).scenarios[0];
                plotted.name += "-detail";
                plotted.metrics = {{"records_per_s", 600000},
                                   {"latency_p99_s", 0.050},
                                   {"latency_p50_s", 0.004},
                                   {"bytes_per_s", 600000 * 1024.0}};
                r.scenarios.push_back(plotted);
            }
            runs.push_back(r);
        }
        store.importSource({"test:step8", "plimsoll-trend", "sha-s8", "test", "1", "2026-10-01T00:00:00Z", false},
                           runs);
    }

    static QToolButton *removeButton(TrendsView &view, const QString &name)
    {
        for (QWidget *entry : view.findChildren<QWidget *>("overlayEntry"))
            if (entry->findChild<ElidingLabel *>("legendOverlay")->fullText() == name)
                return entry->findChild<QToolButton *>("removeOverlay");
        return nullptr;
    }

    static int shownEntries(TrendsView &view)
    {
        int shown = 0;
        for (QWidget *entry : view.findChildren<QWidget *>("overlayEntry"))
            shown += entry->isVisible() ? 1 : 0;
        return shown;
    }
};

} // namespace

// Another scenario's series of the same metric, dashed over the plotted one: its points come
// from the store like the plotted series, within the same date range, on the same value axis;
// the legend's button takes it off again.
TEST_F(TrendsOverlayTest, AnotherScenarioOfTheSameMetric)
{
    addStep8(false);
    TrendsView view(m_storePath);
    openTrends(view);
    QComboBox *overlay = view.overlayCombo();
    ASSERT_EQ(overlay->itemText(0), "Add overlay…");
    const QString other = view.scenarioCombo()->currentText() + "-step8";
    const int index = overlay->findText(other);
    ASSERT_GT(index, 0) << "the other scenario is offered";
    EXPECT_EQ(overlay->findText(view.scenarioCombo()->currentText()), -1) << "not the plotted one";
    overlay->setCurrentIndex(index);
    ASSERT_TRUE(waitUntil([&] { return view.overlayPointCount() == 30; }));
    EXPECT_EQ(overlay->currentIndex(), 0) << "the combo is ready for another";
    EXPECT_EQ(overlay->findText(other), -1) << "an overlay drawn is not offered twice";
    EXPECT_EQ(view.overlayNames(), QStringList{other + " (dashed)"});
    auto *axis = qobject_cast<QValueAxis *>(view.chartView()->chart()->axes(Qt::Vertical).front());
    ASSERT_NE(axis, nullptr);
    EXPECT_GE(axis->max(), 1.8 * 600000 * 1e-3) << "the value axis holds the overlay (k records/s)";
    EXPECT_TRUE(view.overlayAxes().isEmpty()) << "the same metric needs no axis of its own";

    view.setDateRange(QDate(2026, 9, 15), QDate(2026, 9, 25));
    EXPECT_EQ(view.overlayPointCount(), 11);
    QToolButton *remove = removeButton(view, other + " (dashed)");
    ASSERT_NE(remove, nullptr);
    EXPECT_TRUE(remove->isVisible());
    remove->click();
    EXPECT_EQ(view.overlayPointCount(), 0);
    EXPECT_TRUE(view.overlayNames().isEmpty());
    EXPECT_GT(overlay->findText(other), 0) << "offered again once removed";
    EXPECT_FALSE(view.findChild<QWidget *>("overlayLegend")->isVisible());
}

// Another metric of the plotted scenario: throughput with its p99 beside it, each on an axis in
// its own unit (k records/s on the left, ms on the right), the legend saying what the dashed
// line is; choosing the p99 as the plotted metric takes the overlay off.
TEST_F(TrendsOverlayTest, AnotherMetricOnAnAxisOfItsOwn)
{
    TrendsView view(m_storePath);
    openTrends(view, 1000);
    QComboBox *overlay = view.overlayCombo();
    const int index = overlay->findText("latency_p99_s (right axis)");
    ASSERT_GT(index, 0) << "the scenario's other metric is offered";
    EXPECT_EQ(overlay->findText("records_per_s (right axis)"), -1) << "not the plotted one";
    EXPECT_TRUE(view.overlayAxes().isEmpty());
    overlay->setCurrentIndex(index);
    ASSERT_TRUE(waitUntil([&] { return view.overlayPointCount() == 30; }));
    ASSERT_EQ(view.overlayAxes().size(), 1);
    QValueAxis *right = view.overlayAxes().front();
    EXPECT_EQ(right->alignment(), Qt::AlignRight);
    EXPECT_EQ(right->titleText(), "latency_p99_s (ms)");
    // 50 ms nightly, 100 ms on the 29th: the right axis holds both, in ms.
    EXPECT_LE(right->min(), 50 * 0.998);
    EXPECT_GE(right->max(), 100);
    EXPECT_LT(right->max(), 200);
    auto *left = qobject_cast<QValueAxis *>(view.chartView()->chart()->axes(Qt::Vertical, nullptr).front());
    ASSERT_NE(left, nullptr);
    EXPECT_GE(left->max(), 640) << "the throughput axis is unchanged (k records/s)";
    EXPECT_LT(left->max(), 1000);
    QLineSeries *line = view.overlayLine("latency_p99_s (dashed, right axis)");
    ASSERT_NE(line, nullptr);
    EXPECT_TRUE(line->attachedAxes().contains(right));
    EXPECT_FALSE(line->attachedAxes().contains(left));
    EXPECT_EQ(right->labelsColor(), line->pen().color()) << "the axis reads as its line";
    for (const QColor &mark : {trendLineColor(), trendContractColor(), trendBaselineColor(),
                               trendVerdictColor(Verdict::Regression), trendVerdictColor(Verdict::Improvement),
                               trendVerdictColor(Verdict::Changed)})
        EXPECT_NE(line->pen().color(), mark) << "the dashed overlay is no mark's colour";
    const auto *legend = view.findChild<ElidingLabel *>("legendOverlay");
    ASSERT_NE(legend, nullptr);
    EXPECT_TRUE(legend->isVisible());
    EXPECT_EQ(legend->fullText(), "latency_p99_s (dashed, right axis)");
    EXPECT_EQ(legend->text(), legend->fullText()) << "the entry has the room to read whole";
    EXPECT_TRUE(view.grab().save(artifact("trends-metric-overlay.png")));

    // Plotting the p99 itself: the overlay goes, and with it the right axis and the entry.
    view.metricCombo()->setCurrentIndex(view.metricCombo()->findText("latency_p99_s"));
    ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "latency_p99_s" && view.pointCount() == 30; }));
    EXPECT_TRUE(view.overlayNames().isEmpty());
    EXPECT_EQ(overlay->findText("latency_p99_s (right axis)"), -1);
    EXPECT_GT(overlay->findText("records_per_s (right axis)"), 0);
    EXPECT_EQ(view.overlayPointCount(), 0);
    EXPECT_TRUE(view.overlayAxes().isEmpty());
    EXPECT_FALSE(legend->isVisible());
}

// Four overlays at once, in a 1024 px window: a scenario and three metrics, each in a colour of
// its own; the two latencies share one axis in ms, bytes/s has its own; with four drawn the
// combo offers no fifth, and removing one frees its place without a gap in the legend.
TEST_F(TrendsOverlayTest, SeveralAtOnceEachInAColourOfItsOwn)
{
    addStep8(true);
    TrendsView view(m_storePath);
    view.resize(800, 640);
    view.show();
    view.openSeries("nightly/pipeline/produce/step-16-detail", "records_per_s", {});
    ASSERT_TRUE(waitUntil([&] {
        return view.plottedScenario() == "nightly/pipeline/produce/step-16-detail" && view.pointCount() == 30;
    }));
    QComboBox *overlay = view.overlayCombo();
    for (const QString entry : {"nightly/pipeline/produce/step-16-step8", "latency_p99_s (right axis)",
                                "latency_p50_s (right axis)", "bytes_per_s (right axis)"}) {
        const int index = overlay->findText(entry);
        ASSERT_GT(index, 0) << entry.toStdString();
        overlay->setCurrentIndex(index);
    }
    ASSERT_TRUE(waitUntil([&] { return view.overlayPointCount() == 4 * 30; }));
    const QStringList names = view.overlayNames();
    ASSERT_EQ(names.size(), 4);
    QSet<QRgb> colours{trendLineColor().rgb(), trendContractColor().rgb(), trendBaselineColor().rgb(),
                       trendVerdictColor(Verdict::Regression).rgb(), trendVerdictColor(Verdict::Improvement).rgb(),
                       trendVerdictColor(Verdict::Changed).rgb()};
    for (const QString &name : names) {
        EXPECT_EQ(view.overlayPointCount(name), 30) << name.toStdString();
        EXPECT_TRUE(view.overlayLine(name)->pointsVisible()) << "a month of runs, a marker each";
        colours.insert(view.overlayLine(name)->pen().color().rgb());
    }
    EXPECT_EQ(colours.size(), 6 + 4) << "no overlay repeats a colour, its own or a mark's";

    const QList<QValueAxis *> axes = view.overlayAxes();
    ASSERT_EQ(axes.size(), 2) << "one right axis per unit";
    QStringList titles;
    for (QValueAxis *axis : axes)
        titles << axis->titleText();
    titles.sort();
    EXPECT_EQ(titles, (QStringList{"bytes_per_s (MiB/s)", "ms"}));
    QLineSeries *p99 = view.overlayLine("latency_p99_s (dashed, right axis)");
    QLineSeries *p50 = view.overlayLine("latency_p50_s (dashed, right axis)");
    ASSERT_TRUE(p99 && p50);
    QValueAxis *ms = axes[0]->titleText() == "ms" ? axes[0] : axes[1];
    EXPECT_TRUE(p99->attachedAxes().contains(ms) && p50->attachedAxes().contains(ms));
    EXPECT_LE(ms->min(), 4);
    EXPECT_GE(ms->max(), 50);

    EXPECT_FALSE(overlay->isEnabled()) << "four are drawn";
    EXPECT_TRUE(overlay->toolTip().contains("remove one"));
    EXPECT_EQ(shownEntries(view), 4);
    EXPECT_TRUE(view.grab().save(artifact("trends-four-overlays.png")));

    QToolButton *remove = removeButton(view, names.front());
    ASSERT_NE(remove, nullptr);
    remove->click();
    EXPECT_EQ(view.overlayNames(), names.mid(1));
    EXPECT_EQ(shownEntries(view), 3);
    EXPECT_TRUE(overlay->isEnabled());
    EXPECT_EQ(view.overlayAxes().size(), 2);
    view.clearOverlays();
    EXPECT_EQ(view.overlayPointCount(), 0);
    EXPECT_TRUE(view.overlayAxes().isEmpty());
}
