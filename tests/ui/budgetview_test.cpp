// The Latency budget view over the sample runs and an OpenMessaging Benchmark run whose windows
// are all zero (imported as a user imports it): the empty run is named under the chart and
// left out of the picks and the lines, the logarithmic p99 axis never sees its zero, and the
// chart keeps following its configuration check boxes.
#include "importers/importservice.h"
#include "model/store/store.h"
#include "ui/charts/serieslegend.h"
#include "ui/views/latencybudgetview.h"
#include "sizingtestsupport.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QChartView>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QLogValueAxis>
#include <QSignalSpy>
#include <QTableWidget>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace plimsoll;
using plimsoll::test::cliJson;
using plimsoll::test::savePng;
using plimsoll::test::waitUntil;

namespace {

constexpr const char *kEmptyWorkload = "1 topic / 16 partitions / 1kb / 4 producers";

class BudgetView : public plimsoll::test::SampleStoreTest
{
protected:
    void SetUp() override
    {
        SampleStoreTest::SetUp();
        nlohmann::json zeros = nlohmann::json::array();
        for (int i = 0; i < 6; ++i)
            zeros.push_back(0.0);
        const nlohmann::json doc = {{"workload", kEmptyWorkload},
                                    {"driver", "Kafka"},
                                    {"publishRate", zeros},
                                    {"publishLatency99pct", zeros},
                                    {"aggregatedPublishLatency50pct", 0.0},
                                    {"aggregatedPublishLatency99pct", 0.0},
                                    {"aggregatedPublishLatencyQuantiles", nlohmann::json::object()}};
        Store store(m_path.toStdString());
        const SourceReport report = ImportService(store).importBytes(
            "omb-all-zero.json", QByteArray::fromStdString(doc.dump()), ImportRequest{});
        ASSERT_EQ(report.status, "imported") << report.errorText;
    }

    // Pixels of the chart drawn in `colour` (within a little of it: antialiased lines blend).
    static int pixelsOf(QChartView *view, const QColor &colour)
    {
        const QImage image = view->grab().toImage();
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                n += std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) +
                         std::abs(c.blue() - colour.blue()) <
                     24;
            }
        return n;
    }
};

} // namespace

TEST_F(BudgetView, AnEmptyRunIsListedAndTheChartFollowsItsCheckBoxes)
{
    LatencyBudgetView view(m_path);
    QSignalSpy loaded(&view, &LatencyBudgetView::pointsLoaded);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return loaded.count() > 0; }));
    view.resize(1024, 700);
    view.show();
    QTest::qWait(50);

    // Named under the chart with its run and why; the chart's title counts it.
    const QLabel *leftOut = view.leftOutLabel();
    ASSERT_TRUE(leftOut->isVisible());
    EXPECT_TRUE(leftOut->text().contains(QString::fromUtf8(kEmptyWorkload))) << leftOut->text().toStdString();
    EXPECT_TRUE(leftOut->text().contains(QStringLiteral("measured nothing: throughput 0/s and p99 0")))
        << leftOut->text().toStdString();
    EXPECT_TRUE(view.chartView()->chart()->title().contains(QStringLiteral("1 left out: measured nothing")))
        << view.chartView()->chart()->title().toStdString();

    // No line for it; the logarithmic axis spans positive, finite values only.
    for (QAbstractSeries *s : view.chartView()->chart()->series())
        EXPECT_FALSE(s->name().contains(QStringLiteral("16 partitions"))) << s->name().toStdString();
    const QLogValueAxis *x = view.p99Axis();
    EXPECT_GT(x->min(), 0);
    EXPECT_TRUE(std::isfinite(x->max()));
    EXPECT_GT(x->max(), x->min());

    // Its configuration's row says there is no pick and why; the same as `plimsoll budget`.
    int emptyRow = -1;
    for (int row = 0; row < view.table()->rowCount(); ++row)
        if (view.table()->item(row, 1)->text().startsWith(QStringLiteral("1 topic / 16 partitions")))
            emptyRow = row;
    ASSERT_GE(emptyRow, 0);
    EXPECT_EQ(view.table()->item(emptyRow, 2)->text(),
              QStringLiteral("no pick: its only point measured nothing: throughput 0/s and p99 0 (empty windows)"));
    const nlohmann::json cli = cliJson(m_path, QStringLiteral("budget"), {QStringLiteral("--p99"), QStringLiteral("25ms")});
    ASSERT_EQ(cli["left_out"].size(), 1u);
    EXPECT_TRUE(leftOut->text().contains(QString::fromStdString(cli["left_out"][0]["run"].get<std::string>())));
    EXPECT_EQ(view.result().leftOutPoints, 1);

    // A configuration's line is drawn, hidden by its check box and drawn again: the chart
    // follows the box every time.
    SeriesLegend *legend = view.legend();
    auto *line = qobject_cast<QLineSeries *>(view.chartView()->chart()->series().at(1));
    ASSERT_NE(line, nullptr);
    ASSERT_EQ(legend->item(1)->text(), line->name());
    const int drawn = pixelsOf(view.chartView(), line->color());
    EXPECT_GT(drawn, 20) << "the line of " << line->name().toStdString() << " is not drawn";
    for (int round = 0; round < 2; ++round) {
        legend->item(1)->setCheckState(Qt::Unchecked);
        QTest::qWait(20);
        EXPECT_FALSE(line->isVisible());
        EXPECT_LT(pixelsOf(view.chartView(), line->color()), drawn / 4) << "still drawn, round " << round;
        legend->item(1)->setCheckState(Qt::Checked);
        QTest::qWait(20);
        EXPECT_TRUE(line->isVisible());
        EXPECT_GE(pixelsOf(view.chartView(), line->color()), drawn * 3 / 4) << "not drawn again, round " << round;
    }
    savePng(&view, QStringLiteral("latency-budget-left-out-1024x700.png"), {1024, 700});
}
