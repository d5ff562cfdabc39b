// The charts' axes as a user reads them: whole partitions per shard on whole-numbered ticks.
#include "importers/importers.h"
#include "model/sizing/placement.h"
#include "support/tempdir.h"
#include "ui/charts/runcharts.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/chartpalette.h"
#include "ui/charts/niceaxis.h"
#include "ui/charts/placementchart.h"
#include "ui/charts/scalingchart.h"
#include "runner/benchengine.h"
#include "ui/mainwindow.h"
#include "ui/views/benchview.h"
#include "ui/views/latencybudgetview.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QImage>
#include <QCheckBox>
#include <QFile>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTabWidget>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <cmath>
#include <set>
#include <vector>

using namespace plimsoll;

TEST(Charts, PlacementTicksAreWholeNumbersEvenlyApart)
{
    // 13 partitions on the hottest shard: 0..14 in 11 ticks would label 0, 1, 2, 4, 5, 7 …
    for (const int top : {1, 2, 7, 13, 14, 37, 96, 828, 4000}) {
        SCOPED_TRACE(top);
        const IntegerTicks t = integerTicks(top);
        ASSERT_GE(t.top, top);
        ASSERT_GE(t.count, 2);
        ASSERT_LE(t.count, 11);
        const int step = t.top / (t.count - 1);
        EXPECT_EQ(step * (t.count - 1), t.top); // every tick on a whole number
        const int mantissa = [&] {
            int s = step;
            while (s % 10 == 0)
                s /= 10;
            return s;
        }();
        EXPECT_TRUE(mantissa == 1 || mantissa == 2 || mantissa == 5) << step;
        EXPECT_LT(t.top - step, top); // no empty step above the data
    }

    PlacementChart chart;
    const PlacementResult placement = Placement::clusterCreate(24, kKorvetStreamKeyPattern).place("logs", 96);
    ASSERT_TRUE(placement.ok);
    chart.showPlacement(placement);
    const auto axes = chart.axes(Qt::Vertical);
    ASSERT_EQ(axes.size(), 1);
    const auto *y = qobject_cast<QValueAxis *>(axes.first());
    ASSERT_NE(y, nullptr);
    const double step = (y->max() - y->min()) / (y->tickCount() - 1);
    EXPECT_DOUBLE_EQ(step, std::round(step));
    EXPECT_GE(y->max(), placement.maxPerShard);
}

TEST(Charts, SeriesColoursNeverRepeatWithinAChartAndAreNotTheHighlight)
{
    std::set<QRgb> seen;
    for (int i = 0; i < 40; ++i) {
        const QColor c = seriesColor(i);
        EXPECT_TRUE(seen.insert(c.rgb()).second) << "series " << i << " repeats " << c.name().toStdString();
        EXPECT_NE(c.rgb(), highlightColor().rgb()) << i;
        // The palette itself: far enough apart to tell (sum of channel differences).
        for (int j = 0; i < 12 && j < i; ++j) {
            const QColor o = seriesColor(j);
            const int distance = std::abs(c.red() - o.red()) + std::abs(c.green() - o.green()) +
                                 std::abs(c.blue() - o.blue());
            EXPECT_GT(distance, 40) << i << " vs " << j;
        }
    }
}

namespace {

// The labels a value axis prints, one per tick, as QValueAxis formats them.
std::vector<QString> tickLabels(const QValueAxis &axis)
{
    std::vector<QString> labels;
    const QByteArray format = axis.labelFormat().toLatin1();
    for (int i = 0; i < axis.tickCount(); ++i) {
        const double value = axis.min() + i * (axis.max() - axis.min()) / (axis.tickCount() - 1);
        labels.push_back(QString::asprintf(format.constData(), value));
    }
    return labels;
}

} // namespace

TEST(Charts, NiceAxesLabelEveryTickWithItsOwnExactValue)
{
    // The Bench chart's rates, seconds and milliseconds: 21976 / 16482 … and 1, 1, 1, 0, 0 before.
    for (const double most : {0.004, 0.3, 1.0, 2.4, 7.0, 10.0, 61.0, 1000.0, 21976.0, 642352.0,
                              1.2e6, 9.99e7}) {
        SCOPED_TRACE(most);
        QValueAxis axis;
        setNiceAxis(&axis, most);
        EXPECT_EQ(axis.min(), 0);
        EXPECT_GE(axis.max(), most);
        EXPECT_LE(axis.max(), most * 2.5) << "an axis far taller than its data";
        ASSERT_GE(axis.tickCount(), 2);
        EXPECT_LE(axis.tickCount(), 7);
        const std::vector<QString> labels = tickLabels(axis);
        const std::set<QString> distinct(labels.begin(), labels.end());
        EXPECT_EQ(distinct.size(), labels.size()) << labels.front().toStdString() << " … "
                                                  << labels.back().toStdString();
        const double step = (axis.max() - axis.min()) / (axis.tickCount() - 1);
        for (size_t i = 0; i < labels.size(); ++i)
            EXPECT_NEAR(labels[i].toDouble(), i * step, step * 1e-6) << labels[i].toStdString();
    }
    QValueAxis empty;
    setNiceAxis(&empty, std::nan(""));
    EXPECT_EQ(empty.max(), 1);
}

TEST(Charts, AnIdleBenchChartHasDistinctWholeTicks)
{
    BenchView view(QStringLiteral("/nonexistent/store.plimsoll"));
    auto *chartView = view.findChild<QChartView *>(QStringLiteral("benchChart"));
    ASSERT_NE(chartView, nullptr);
    const auto axes = chartView->chart()->axes();
    ASSERT_EQ(axes.size(), 3);
    for (QAbstractAxis *abstract : axes) {
        auto *axis = qobject_cast<QValueAxis *>(abstract);
        ASSERT_NE(axis, nullptr);
        SCOPED_TRACE(axis->titleText().toStdString());
        const std::vector<QString> labels = tickLabels(*axis);
        const std::set<QString> distinct(labels.begin(), labels.end());
        EXPECT_EQ(distinct.size(), labels.size());
        EXPECT_GE(axis->max(), 10);
        for (const QString &label : labels)
            EXPECT_FALSE(label.contains(QLatin1Char('.'))) << label.toStdString();
    }
}

namespace {

// The text the legend draws beside each marker, as on screen (elided when it did not fit).
std::vector<QString> legendTexts(QChartView *view)
{
    std::vector<QString> texts;
    QLegend *legend = view->chart()->legend();
    for (QGraphicsItem *item : view->scene()->items(Qt::AscendingOrder))
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && legend->isAncestorOf(text))
            texts.push_back(text->toPlainText());
    return texts;
}

} // namespace

// In the window at 1024×700, where the sidebar takes its share of the width; the form's
// embedded switch reads whole beside it.
TEST(Charts, TheBenchLegendReadsWholeAt1024)
{
    MainWindow window(QStringLiteral("/nonexistent/store.plimsoll"));
    window.resize(1024, 700);
    window.show();
    ASSERT_TRUE(window.showView(QStringLiteral("bench")));
    QTest::qWait(50); // one layout pass, as a user's first look
    auto *chartView = window.findChild<QChartView *>(QStringLiteral("benchChart"));
    ASSERT_NE(chartView, nullptr);
    const std::vector<QString> texts = legendTexts(chartView);
    ASSERT_EQ(texts.size(), 5u);
    const std::set<QString> shown(texts.begin(), texts.end());
    EXPECT_EQ(shown, (std::set<QString>{"records/s", "ack p99", "e2e p99", "ack p50", "e2e p50"}));
    for (const QString &text : texts) // Qt Charts elides with three dots: "acknowledg..."
        EXPECT_FALSE(text.contains(QStringLiteral("...")) || text.contains(QChar(0x2026)))
            << text.toStdString();
    // The units the short names leave out are on the axes and in the legend's tooltip.
    std::set<QString> titles;
    for (QAbstractAxis *axis : chartView->chart()->axes())
        titles.insert(axis->titleText());
    EXPECT_TRUE(titles.count(QStringLiteral("acknowledged records/s")));
    EXPECT_TRUE(titles.count(QStringLiteral("latency p99, p50 (ms)")));
    EXPECT_TRUE(chartView->chart()->legend()->toolTip().contains(QStringLiteral("send to broker")));
    // Five colours: each p50 is a darker tone of its p99, so their markers differ too.
    std::set<QRgb> colours;
    for (QAbstractSeries *series : chartView->chart()->series())
        colours.insert(static_cast<QLineSeries *>(series)->pen().color().rgb());
    EXPECT_EQ(colours.size(), 5u);
    // Every switch of the form reads whole, on either of its pages.
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("benchFormTabs"));
    ASSERT_NE(tabs, nullptr);
    int checked = 0;
    for (int page = 0; page < tabs->count(); ++page) {
        tabs->setCurrentIndex(page);
        QTest::qWait(20);
        for (QCheckBox *box : tabs->widget(page)->findChildren<QCheckBox *>()) {
            EXPECT_GE(box->width(), box->sizeHint().width()) << box->text().toStdString();
            ++checked;
        }
    }
    EXPECT_GE(checked, 2);
    tabs->setCurrentIndex(0);
    EXPECT_TRUE(chartView->grab().save(QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/bench-chart-1024.png")));
    EXPECT_TRUE(window.grab().save(QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/bench-window-1024.png")));
}

// The embedded mock cluster keeps 5 MiB a partition: a run of 6,000 1 KiB records on the one
// partition the form asked for runs on two. The result says so as a setting it could not
// honour (JSON "adjustments", among the warnings in words) and the window's headline names it,
// where the form still reads 1.
TEST(Charts, AnEmbeddedRunsHeadlineNamesThePartitionsItUsedInsteadOfTheFormsCount)
{
    using namespace std::chrono_literals;
    RunConfig c;
    c.workload = Workload::Producer;
    c.bootstrapServers = "embedded";
    c.partitions = 1;
    c.records = 6000;
    c.recordSize = 1024;
    c.timeout = 20s;
    std::atomic<bool> cancel{false};
    const BenchResult result = BenchEngine(c).run(cancel);
    ASSERT_EQ(result.exitCode, 0) << (result.errors.empty() ? "" : result.errors.front());
    ASSERT_EQ(result.adjustments.size(), 1u);
    const BenchAdjustment &a = result.adjustments.front();
    EXPECT_EQ(a.setting, "partitions");
    EXPECT_EQ(a.asked, "1");
    EXPECT_EQ(a.used, "2");
    EXPECT_EQ(result.toJson()["adjustments"][0]["used"], "2");
    EXPECT_NE(std::find(result.warnings.begin(), result.warnings.end(), a.text()), result.warnings.end());
    const QString headline = BenchView::resultHeadline(result);
    EXPECT_TRUE(headline.startsWith(QStringLiteral("Finished: "))) << headline.toStdString();
    EXPECT_TRUE(headline.endsWith(QStringLiteral(
        " partitions: 2 instead of 1 (the embedded mock cluster keeps at most 5 MiB per partition).")))
        << headline.toStdString();
    // The other warnings (the embedded target's own note) stay out of the headline.
    EXPECT_FALSE(headline.contains(QStringLiteral("not a real broker"))) << headline.toStdString();
}

// On a store without a single throughput-and-p99 point the Latency budget chart says so, and
// its throughput axis still reads 0, 0.2 … 1, never 0, 0, 0, 0.
TEST(Charts, AnEmptyLatencyBudgetChartHasDistinctTicks)
{
    QTemporaryDir dir;
    LatencyBudgetView view(dir.filePath(QStringLiteral("empty.plimsoll")));
    QSignalSpy loaded(&view, &LatencyBudgetView::pointsLoaded);
    view.reload();
    ASSERT_TRUE(plimsoll::test::waitUntil([&] { return loaded.count() > 0; }));
    EXPECT_EQ(loaded.first().at(0).toInt(), 0);
    EXPECT_EQ(view.chartView()->chart()->title(), QStringLiteral("No points with throughput and p99 in the store"));
    const auto axes = view.chartView()->chart()->axes(Qt::Vertical);
    ASSERT_EQ(axes.size(), 1);
    const std::vector<QString> labels = tickLabels(*qobject_cast<QValueAxis *>(axes.front()));
    const std::set<QString> distinct(labels.begin(), labels.end());
    EXPECT_EQ(distinct.size(), labels.size());
    EXPECT_GE(labels.size(), 2u);
}

// A run's per-window charts as the corpus's Pulsar run reads (OpenMessaging Benchmark, six
// 10-s windows, the 4th and 5th empty): its publish rate of 0 in those windows is a real
// measurement of nothing and is drawn; its p99 of 0 there is no latency at all, so the p99
// line breaks around them and the title says why, instead of a 0-ms "best" window.
TEST(Charts, AnOmbRunsEmptyWindowsBreakItsLatencyLineButNotItsRate)
{
    PLIMSOLL_REQUIRES_CORPUS();
    QFile file(QString::fromStdString(
        plimsoll::test::corpusPath("omb/luky116__openmessaging-benchmark__100-partition,10-producer,10-consumer.json")));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const ImportResult r = ombImporter().parse(file, ImportOptions{}, Progress{});
    ASSERT_TRUE(r.ok());
    const ScenarioRecord &s = r.runs.at(0).scenarios.at(0);
    const auto seriesNamed = [&s](const std::string &name) {
        for (const SeriesRecord &series : s.series)
            if (series.name == name)
                return series;
        ADD_FAILURE() << "no series " << name;
        return SeriesRecord{};
    };
    QChart chart;
    const SeriesRecord p99 = seriesNamed("latency_p99_s");
    ASSERT_EQ(p99.samples.size(), 6u);
    showWindowSeries(&chart, p99);
    // Windows 1-3 and window 6: two stretches, no point at 0.
    ASSERT_EQ(chart.series().size(), 2);
    int points = 0;
    for (QAbstractSeries *a : chart.series()) {
        for (const QPointF &p : static_cast<QLineSeries *>(a)->points()) {
            EXPECT_GT(p.y(), 0);
            ++points;
        }
    }
    EXPECT_EQ(points, 4);
    EXPECT_EQ(chart.title(), QStringLiteral("2 of 6 windows measured no latency (nothing was sent in them): not drawn"));

    showWindowSeries(&chart, seriesNamed("records_per_s"));
    ASSERT_EQ(chart.series().size(), 1);
    const QList<QPointF> rate = static_cast<QLineSeries *>(chart.series().at(0))->points();
    ASSERT_EQ(rate.size(), 6);
    EXPECT_EQ(rate[3].y(), 0);
    EXPECT_EQ(rate[4].y(), 0);
    EXPECT_TRUE(chart.title().isEmpty());
}

// Every chart leaves the window: a PNG that decodes at the view's size, an SVG, and its points as
// CSV rows equal to what it draws (a time axis as ISO-8601 UTC, the axes' titles as the header);
// a file it cannot write is named, with the system's reason, and nothing half-written is left.
TEST(Charts, AChartSavesAsPngSvgAndItsPointsAsCsv)
{
    auto *chart = new QChart;
    auto *series = new QLineSeries;
    series->setName(QStringLiteral("records/s, main"));
    const qint64 t0 = QDateTime(QDate(2026, 8, 11), QTime(2, 0), Qt::UTC).toMSecsSinceEpoch();
    const std::vector<QPointF> points{{double(t0), 642352}, {double(t0 + 86400000), 597657.5}};
    for (const QPointF &p : points)
        series->append(p);
    chart->addSeries(series);
    auto *x = new QDateTimeAxis;
    x->setTitleText(QStringLiteral("time"));
    auto *y = new QValueAxis;
    y->setTitleText(QStringLiteral("records/s"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    QChartView view(chart);
    view.resize(640, 400);
    enableChartExport(&view, QStringLiteral("trend"));
    EXPECT_EQ(view.contextMenuPolicy(), Qt::CustomContextMenu) << "the export menu opens on a right click";

    EXPECT_EQ(chartDataCsv(chart).toStdString(), "series,time,records/s\n"
                                                 "\"records/s, main\",2026-08-11T02:00:00.000Z,642352\n"
                                                 "\"records/s, main\",2026-08-12T02:00:00.000Z,597657.5\n");
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("trend.png")), svg = dir.filePath(QStringLiteral("trend.svg")),
                  csv = dir.filePath(QStringLiteral("trend.csv"));
    EXPECT_EQ(saveChartPng(&view, png), QString());
    const QImage image(png);
    ASSERT_FALSE(image.isNull()) << "the PNG decodes";
    EXPECT_EQ(image.size(), view.grab().size());
    EXPECT_EQ(saveChartSvg(&view, svg), QString());
    QFile svgFile(svg);
    ASSERT_TRUE(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    EXPECT_TRUE(svgText.contains("<svg")) << svgText.left(200).toStdString();
    EXPECT_TRUE(svgText.contains("records/s")) << "the axis title is in the drawing";
    EXPECT_EQ(saveChartCsv(chart, csv), QString());
    QFile csvFile(csv);
    ASSERT_TRUE(csvFile.open(QIODevice::ReadOnly));
    EXPECT_EQ(QString::fromUtf8(csvFile.readAll()), chartDataCsv(chart));

    const QString missing = dir.filePath(QStringLiteral("no-such-dir/trend.png"));
    const QString error = saveChartPng(&view, missing);
    EXPECT_TRUE(error.startsWith(QStringLiteral("cannot write ") + QDir::toNativeSeparators(missing) + QStringLiteral(": ")))
        << error.toStdString();
    EXPECT_FALSE(QFile::exists(missing));
}

// A chart emptied after a fit (another factor with no steps) names no factor and no unit of the
// fit before it.
TEST(ScalingChartState, MeasuredAndFitApartAndAnEmptiedChartKeepsNoAxisTitleOfTheFitBefore)
{
    plimsoll::ScalingChart chart;
    std::vector<plimsoll::RampPoint> points;
    for (int n = 1; n <= 4; ++n) {
        plimsoll::RampPoint p;
        p.x = n;
        p.y = 1000.0 * n;
        points.push_back(p);
    }
    plimsoll::UslFit fit; // not ok: the points alone
    chart.showFit(points, fit, {}, QStringLiteral("producers"), "records_per_s");
    ASSERT_EQ(chart.xAxis()->titleText(), QStringLiteral("producers"));
    // The measured points and the fit through them are told apart by colour.
    QColor curve;
    for (QAbstractSeries *s : chart.series())
        if (s->name() == QStringLiteral("USL fit") || s->name() == QStringLiteral("linear fit"))
            curve = static_cast<QLineSeries *>(s)->pen().color();
    ASSERT_TRUE(curve.isValid());
    EXPECT_NE(chart.measuredSeries()->color(), curve);
    chart.showEmpty(QStringLiteral("No steps carry this factor and metric"));
    EXPECT_TRUE(chart.xAxis()->titleText().isEmpty()) << chart.xAxis()->titleText().toStdString();
    for (QAbstractAxis *axis : chart.axes(Qt::Vertical))
        EXPECT_TRUE(axis->titleText().isEmpty() || axis->titleText().contains(QLatin1Char('%')))
            << axis->titleText().toStdString();
}
