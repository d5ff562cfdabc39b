// The modelling views over a store holding the sample runs: Sizing shows the seed's 600k row
// and recomputes live; Scaling fits the produce ramp and marks its saturated step; Placement
// and Latency budget show what their models say. Each saves a PNG for a person to look at.
#include "importers/samples.h"
#include "model/scaling/ramppoints.h"
#include "model/sizing/sizing.h"
#include "model/store/store.h"
#include "ui/charts/serieslegend.h"
#include "ui/views/latencybudgetview.h"
#include "ui/views/placementview.h"
#include "ui/views/scalingview.h"
#include "ui/views/sizingview.h"
#include "ui/widgets/evidencedialog.h"
#include "ui/widgets/ratefield.h"
#include "sizingtestsupport.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>
#include <QSplitter>

#include <QCheckBox>
#include <QChartView>
#include <QValueAxis>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QListWidget>
#include <QSlider>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QProcess>
#include <QScrollBar>
#include <QThread>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

using namespace plimsoll;
using plimsoll::test::waitUntil;

using plimsoll::test::cliJson;
using plimsoll::test::cliSize;
using plimsoll::test::artifactDir;
using plimsoll::test::savePng;

namespace {

class SizingViews : public plimsoll::test::SampleStoreTest
{
};

} // namespace

TEST_F(SizingViews, SizingShowsTheSeedRowAndRecomputesLive)
{
    SizingView view(m_path);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.modelsReady() && view.result().ok; }));
    // The defaults: 600k records/s of 700 B, 60 s retention — the seed's measured row.
    EXPECT_EQ(view.resultText("brokers"), "3");
    EXPECT_EQ(view.resultText("shards"), "24");
    EXPECT_EQ(view.resultText("redis_nodes"), "3");
    EXPECT_EQ(view.resultText("partitions"), "96");
    EXPECT_EQ(view.resultText("bottleneck"), "Redis shard CPU");
    EXPECT_EQ(view.utilizationPercent("Redis shard CPU"), 86);
    EXPECT_EQ(view.utilizationPercent("broker CPU"), 74);
    // Each reasoning line counts its runs; the count opens their keys.
    const QString reasoning = view.reasoningPanel()->toPlainText();
    EXPECT_TRUE(reasoning.contains(QStringLiteral("1 run"))) << reasoning.toStdString();
    EXPECT_FALSE(reasoning.contains("sample:korvet-pipeline-produce-2026-08-11")) << reasoning.toStdString();
    QString shardsTip;
    for (int row = 0; row < view.resultTable()->rowCount(); ++row)
        if (view.resultTable()->item(row, 0)->data(Qt::UserRole) == QStringLiteral("shards"))
            shardsTip = view.resultTable()->item(row, 1)->toolTip();
    EXPECT_TRUE(shardsTip.contains(QStringLiteral("From 1 run:\nsample:korvet-pipeline-produce-2026-08-11")))
        << shardsTip.toStdString();
    emit view.reasoningPanel()->anchorClicked(QUrl(QStringLiteral("runs:shards")));
    EXPECT_TRUE(view.reasoningPanel()->toPlainText().contains("sample:korvet-pipeline-produce-2026-08-11"));
    // The table and the reasoning share the column across a splitter the reader can move.
    ASSERT_NE(view.resultSplit(), nullptr);
    EXPECT_EQ(view.resultSplit()->count(), 2);
    EXPECT_EQ(view.resultSplit()->widget(0), view.resultTable());
    EXPECT_TRUE(view.resultSplit()->widget(1)->isAncestorOf(view.reasoningPanel()));
    // Opening a run list keeps the reader's place; a new target's reasoning starts at its top.
    view.resize(1000, 500);
    view.show();
    QScrollBar *scroll = view.reasoningPanel()->verticalScrollBar();
    ASSERT_TRUE(waitUntil([&] { return scroll->maximum() > 0; }));
    const int place = std::min(scroll->maximum(), 20);
    scroll->setValue(place);
    emit view.reasoningPanel()->anchorClicked(QUrl(QStringLiteral("runs:shards")));
    EXPECT_EQ(scroll->value(), place) << "the same sizing, the run list closed: the place kept";
    view.rateField()->setText(QStringLiteral("500k"));
    EXPECT_EQ(scroll->value(), 0) << "another target's reasoning from its first line";
    view.rateField()->setText(QStringLiteral("600k"));
    // A recompute with the partition search cached (as after the first keystroke): the best
    // of ten, since other builds share this machine's cores.
    double best = 1e9;
    for (int retention = 50; retention < 60; ++retention) {
        view.findChild<QSpinBox *>(QStringLiteral("retentionSpin"))->setValue(retention);
        best = std::min(best, view.lastRecomputeMs());
    }
    view.findChild<QSpinBox *>(QStringLiteral("retentionSpin"))->setValue(60);
    EXPECT_LT(best, 1.0);
    savePng(&view, QStringLiteral("sizing-600k.png"));

    view.rateField()->setText(QStringLiteral("150k"));
    EXPECT_EQ(view.resultText("brokers"), "1"); // recomputed synchronously, no reload
    EXPECT_EQ(view.resultText("shards"), "6");
    view.rateField()->setText(QStringLiteral("400k"));
    EXPECT_EQ(view.resultText("brokers"), "2");
    EXPECT_EQ(view.resultText("shards"), "18");
    view.nodeLossCheck()->setChecked(true);
    EXPECT_EQ(view.resultText("brokers"), "3");
    EXPECT_EQ(view.resultText("redis_nodes"), "4");
    view.headroomSlider()->setValue(30);
    // 520k ÷ 26.2k per shard = 20, up to a multiple of the 3 nodes that carry load (the
    // fourth is the spare).
    EXPECT_EQ(view.result().shards, 21);
    savePng(&view, QStringLiteral("sizing-400k-headroom.png"));
}

TEST_F(SizingViews, ScalingFitsTheProduceRamp)
{
    ScalingView view(m_path);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.fit().ok && view.points().size() == 7; }));
    EXPECT_EQ(view.runCombo()->currentText(), "sample:korvet-pipeline-produce-2026-08-11");
    EXPECT_EQ(view.prefixCombo()->currentText(), "pipeline/produce/");
    EXPECT_EQ(view.factorCombo()->currentText(), "producers");
    EXPECT_EQ(view.metricCombo()->currentText(), "records_per_s");
    EXPECT_GT(view.fit().r2, 0.99);
    EXPECT_GT(view.fit().nStar, 12);
    ASSERT_GE(view.saturation().firstSaturated, 0);
    EXPECT_EQ(view.saturation().bottleneck, "Redis shard CPU");
    const QString summary = view.summaryLabel()->text();
    // The page's ramp still rises at 16 producers: its N* is past the last step, and said so.
    EXPECT_FALSE(view.fit().peakMeasured());
    EXPECT_TRUE(summary.contains(QStringLiteral("N*: not reached in the measured range: N* = %1 is extrapolated")
                                     .arg(view.fit().nStar, 0, 'f', 1)))
        << summary.toStdString();
    EXPECT_TRUE(summary.contains("pipeline/produce/step-16")) << summary.toStdString();
    // The residuals on round steps symmetric about zero, their unit in the title (a short
    // chart's vertical axis title elided to "k recor…" before).
    QChart *residuals = view.residualView()->chart();
    EXPECT_EQ(residuals->title(), QStringLiteral("Residuals (measured − fitted, k records/s)"));
    for (QAbstractAxis *a : residuals->axes(Qt::Vertical)) {
        auto *axis = qobject_cast<QValueAxis *>(a);
        ASSERT_NE(axis, nullptr);
        EXPECT_EQ(axis->min(), -axis->max());
        EXPECT_EQ(axis->max(), std::round(axis->max())) << axis->max(); // 10, not 7.755
        EXPECT_TRUE(axis->titleText().isEmpty());
    }
    savePng(&view, QStringLiteral("scaling-produce-ramp.png"));
}

// A run chosen before a reload may be gone from the store by the time it is read (the window
// removed the sample runs while the views were reloading after an import). The reload makes
// that read stale: it must not surface as "Cannot read the store: no run ...".
TEST_F(SizingViews, ScalingReloadDropsTheLoadOfARunRemovedMeanwhile)
{
    ScalingView view(m_path);
    QSignalSpy runsLoaded(&view, &ScalingView::runsLoaded);
    QSignalSpy failed(&view, &StoreView::loadFailed);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.fit().ok; }));
    const QString gone = view.runCombo()->currentText();
    ASSERT_FALSE(gone.isEmpty());
    EXPECT_EQ(Store(m_path.toStdString()).removeRun(gone.toStdString()), 1);

    // The view reads the removed run (a user choosing it again), and the store changes before
    // that read is back.
    const int index = view.runCombo()->currentIndex();
    view.runCombo()->setCurrentIndex(-1);
    view.runCombo()->setCurrentIndex(index);
    // Let that read fail in the background; without the event loop its outcome is not yet
    // delivered when the reload starts.
    QThread::msleep(300);
    runsLoaded.clear();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return runsLoaded.count() > 0; }));
    EXPECT_EQ(view.runCombo()->findText(gone), -1);
    QTest::qWait(500); // time for the stale read to come back, were it still delivered
    EXPECT_EQ(failed.count(), 0) << (failed.isEmpty() ? std::string()
                                                      : failed.first().at(0).toString().toStdString());
}

TEST_F(SizingViews, PlacementAndLatencyBudget)
{
    PlacementView placement(m_path);
    EXPECT_EQ(placement.placement().partitions, 96);
    EXPECT_EQ(placement.placement().shards.size(), 24u);
    EXPECT_TRUE(placement.summaryLabel()->text().contains("skew 2.25"));
    savePng(&placement, QStringLiteral("placement-96-on-24.png"));

    LatencyBudgetView budget(m_path);
    budget.reload();
    ASSERT_TRUE(waitUntil([&] { return budget.table()->rowCount() > 0; }));
    budget.budgetSpin()->setValue(30);
    const BudgetSelection *ramp = nullptr;
    for (const auto &s : budget.result().perConfiguration)
        if (s.configuration == "pipeline/produce")
            ramp = &s;
    ASSERT_NE(ramp, nullptr);
    ASSERT_TRUE(ramp->found);
    EXPECT_EQ(ramp->best.point.throughput, 528756);
    budget.budgetSlider()->setValue(budget.budgetSlider()->maximum());
    EXPECT_NEAR(budget.budgetSpin()->value(), 10000, 1);
    budget.budgetSpin()->setValue(60);
    savePng(&budget, QStringLiteral("latency-budget-60ms.png"));
}

// The target reads as `plimsoll size --rate` reads it, and sizes as the CLI sizes: one test for
// both front ends, on the same store.
TEST_F(SizingViews, TargetRateReadsAndSizesAsTheCommandLine)
{
    SizingView view(m_path);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.modelsReady() && view.result().ok; }));
    RateField *rate = view.rateField();
    for (const char *text : {"1.2M", "650k", "40MB/s"}) {
        rate->setText(QString::fromLatin1(text));
        ASSERT_TRUE(rate->isValid()) << text << ": " << rate->error().toStdString();
        ASSERT_TRUE(view.result().ok) << view.result().error;
        const nlohmann::json cli = cliSize(m_path, {QStringLiteral("--rate"), QString::fromLatin1(text)});
        ASSERT_TRUE(cli.is_object()) << text;
        EXPECT_DOUBLE_EQ(view.result().rate, cli["rate"].get<double>()) << text;
        for (const char *key : {"brokers", "shards", "partitions", "redis_nodes"})
            EXPECT_EQ(view.resultText(QString::fromLatin1(key)),
                      QString::number(cli[key].get<int>()))
                << text << " " << key;
    }
    rate->setText(QStringLiteral("40MB/s"));
    EXPECT_EQ(rate->feedbackLabel()->text().toStdString().substr(0, 14), "41,943,040 B/s");

    rate->setText(QStringLiteral("1.2M"));
    EXPECT_EQ(rate->feedbackLabel()->text(), QStringLiteral("1,200,000 records/s"));
    EXPECT_EQ(view.result().rate, 1200000);
    EXPECT_EQ(view.rateSlider()->value(), 1200);
    // Twice the measured peak: said where the numbers are, with by how much.
    const QString caveats = view.caveatsLabel()->text();
    EXPECT_TRUE(view.caveatsLabel()->isVisibleTo(&view));
    EXPECT_TRUE(caveats.contains(QStringLiteral("1.2M records/s is 1.9× the largest measured 642.4k records/s")))
        << caveats.toStdString();
    savePng(&view, QStringLiteral("sizing-1.2M-1024x700.png"), {1024, 700});

    // A bare number is records/s, as on the command line: 1.2, not 1,200.
    rate->setText(QStringLiteral("1.2"));
    EXPECT_EQ(rate->feedbackLabel()->text(), QStringLiteral("1.2 records/s"));
    EXPECT_DOUBLE_EQ(view.result().rate, 1.2);
    EXPECT_EQ(view.resultText("brokers"), "1");
    EXPECT_FALSE(view.caveatsLabel()->text().contains(QStringLiteral("largest measured")));

    // Text that is no rate says so under the field; the sizing stays the last good one.
    rate->setText(QStringLiteral("650k"));
    EXPECT_TRUE(view.caveatsLabel()->text().contains(QStringLiteral("650k records/s is 2 % above the largest measured")))
        << view.caveatsLabel()->text().toStdString();
    const QString brokers = view.resultText("brokers"), shards = view.resultText("shards");
    rate->setText(QStringLiteral("abc"));
    EXPECT_FALSE(rate->isValid());
    EXPECT_TRUE(rate->feedbackLabel()->text().contains(QStringLiteral("'abc' is not a rate")))
        << rate->feedbackLabel()->text().toStdString();
    EXPECT_EQ(view.result().rate, 650000);
    savePng(&view, QStringLiteral("sizing-bad-rate-1024x700.png"), {1024, 700});
    EXPECT_EQ(view.resultText("brokers"), brokers);
    EXPECT_EQ(view.resultText("shards"), shards);
    rate->setText(QStringLiteral("0"));
    EXPECT_TRUE(rate->feedbackLabel()->text().contains(QStringLiteral("rate must be greater than 0 records/s")))
        << rate->feedbackLabel()->text().toStdString();
    EXPECT_EQ(view.result().rate, 650000);
}

// The broker count by each model side by side, the one taken and why; the user's choice and
// the stream-key pattern size as --broker-model and --key-pattern do.
TEST_F(SizingViews, BrokerModelsSideBySideAndChosen)
{
    SizingView view(m_path);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.modelsReady() && view.result().ok; }));
    view.rateField()->setText(QStringLiteral("1.2M"));
    QTableWidget *models = view.brokerModelsTable();
    ASSERT_EQ(models->rowCount(), 3);
    QMap<QString, QString> units;
    QString taken;
    for (int row = 0; row < 3; ++row) {
        const QString model = models->item(row, 0)->data(Qt::UserRole).toString();
        units[model] = models->item(row, 1)->text();
        if (models->item(row, 0)->text().startsWith(QStringLiteral("✔")))
            taken = model;
    }
    EXPECT_EQ(units.keys(), (QStringList{"cpu", "fitted", "rule"}));
    EXPECT_EQ(units["rule"], "6"); // +1 broker per ~200k
    EXPECT_EQ(taken, QString::fromStdString(view.result().brokerChoice.taken));
    EXPECT_EQ(view.resultText("brokers"), units[taken]);
    EXPECT_TRUE(view.brokerWhyLabel()->text().contains(QStringLiteral("The sizing took <b>") + taken))
        << view.brokerWhyLabel()->text().toStdString();
    ASSERT_NE(units[taken], units["rule"]); // else choosing the rule would show nothing
    EXPECT_TRUE(view.caveatsLabel()->text().contains(QStringLiteral("the broker models disagree")))
        << view.caveatsLabel()->text().toStdString();

    view.brokerModelCombo()->setCurrentIndex(view.brokerModelCombo()->findData(QStringLiteral("rule")));
    EXPECT_EQ(view.resultText("brokers"), "6");
    EXPECT_TRUE(view.brokerWhyLabel()->text().contains(QStringLiteral("The sizing took <b>rule</b>")));
    const nlohmann::json rule =
        cliSize(m_path, {"--rate", "1.2M", "--broker-model", "rule", "--key-pattern", "k:{topic}:{partition}"});
    ASSERT_TRUE(rule.is_object());
    EXPECT_EQ(rule["brokers"], 6);

    view.keyPatternEdit()->setText(QStringLiteral("k:{topic}:{partition}"));
    EXPECT_EQ(view.resultText("partitions"), QString::number(rule["partitions"].get<int>()));
    EXPECT_DOUBLE_EQ(view.result().partitionSkew, rule["partition_skew"].get<double>());
    EXPECT_TRUE(QString::fromStdString(view.result().line("memory_per_shard_bytes")->reasoning)
                    .contains(QStringLiteral("k:{topic}:{partition}")));
    // Without {partition} every partition is one key: refused where it is typed.
    view.keyPatternEdit()->setText(QStringLiteral("k:{topic}"));
    EXPECT_TRUE(view.findChild<QLabel *>(QStringLiteral("keyPatternError"))->isVisibleTo(&view));
    EXPECT_EQ(view.resultText("partitions"), QString::number(rule["partitions"].get<int>()));
}

// Redis Flex sized without a Flex measurement shows no Flex figure and no bar at 0 %, but what
// to measure.
TEST_F(SizingViews, FlexWithoutAMeasurementShowsNoFlexFigure)
{
    {
        SizingView measured(m_path);
        measured.reload();
        ASSERT_TRUE(waitUntil([&] { return measured.modelsReady() && measured.result().ok; }));
        measured.findChild<QCheckBox *>(QStringLiteral("flexCheck"))->setChecked(true);
        EXPECT_GT(measured.utilizationPercent("Redis Flex write rate"), 0);
        EXPECT_FALSE(measured.resultText("flex_ram_bytes").isEmpty());
    }
    ASSERT_EQ(Store(m_path.toStdString()).removeRun("sample:korvet-redis-flex"), 1);
    SizingView view(m_path);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.modelsReady() && view.result().ok; }));
    view.findChild<QCheckBox *>(QStringLiteral("flexCheck"))->setChecked(true);
    ASSERT_TRUE(view.result().ok) << view.result().error;
    EXPECT_EQ(view.utilizationPercent("Redis Flex write rate"), -1);
    EXPECT_TRUE(view.resultText("flex_ram_bytes").isEmpty());
    EXPECT_TRUE(view.resultText("flex_databases").isEmpty());
    const QString caveats = view.caveatsLabel()->text();
    EXPECT_TRUE(caveats.contains(QStringLiteral("no Flex measurement"))) << caveats.toStdString();
    EXPECT_TRUE(caveats.contains(QStringLiteral("Measure a Flex database"))) << caveats.toStdString();
    savePng(&view, QStringLiteral("sizing-flex-unmeasured-1024x700.png"), {1024, 700});
}

// The consume fields reach the sizing as the CLI's options do: over a store with a consume
// ramp (tests/data/consume-ramp.jsonl), the view and `plimsoll size` give the same deployment for
// the same groups, rate, read path, margin and fetch budget; a field that cannot apply (no
// group, remote reads of the tail) is disabled and not sent.
TEST(SizingViewConsume, TheConsumeFieldsReachTheResultAsTheOptionsDo)
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("own.db"));
    QProcess import;
    import.start(QStringLiteral(PLIMSOLL_BINARY),
                 {QStringLiteral("--db"), db, QStringLiteral("import"),
                  QStringLiteral(PLIMSOLL_TEST_DATA_DIR "/consume-ramp.jsonl")});
    ASSERT_TRUE(import.waitForFinished(60000));
    ASSERT_EQ(import.exitCode(), 0) << import.readAllStandardError().toStdString();

    SizingView view(db);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.modelsReady(); }));
    view.rateField()->setText(QStringLiteral("300k"));
    ASSERT_TRUE(view.result().ok) << view.result().error;
    EXPECT_EQ(view.resultText(QStringLiteral("consume_rate")), QString());

    struct Case
    {
        std::function<void()> set;
        QStringList options;
    };
    const Case cases[] = {
        {[&] { view.consumerGroupsSpin()->setValue(3); }, {"--consumer-groups", "3"}},
        {[&] {
             view.consumerGroupsSpin()->setValue(1);
             view.consumeFromCombo()->setCurrentIndex(view.consumeFromCombo()->findData(QStringLiteral("backlog")));
             view.consumeRateField()->setText(QStringLiteral("900k"));
         },
         {"--consumer-groups", "1", "--consume-from", "backlog", "--consume-rate", "900k"}},
        {[&] { view.fetchP99Spin()->setValue(50); },
         {"--consumer-groups", "1", "--consume-from", "backlog", "--consume-rate", "900k", "--fetch-p99", "50ms"}},
        {[&] {
             view.fetchP99Spin()->setValue(0);
             view.tieredCheck()->setChecked(true);
             view.tieredReadsCheck()->setChecked(true);
             view.consumeMarginSpin()->setValue(40);
         },
         {"--consumer-groups", "1", "--consume-from", "backlog", "--consume-rate", "900k", "--tiered",
          "--tiered-reads", "--consume-margin", "40%"}},
    };
    for (const Case &c : cases) {
        c.set();
        const std::string what = c.options.join(' ').toStdString();
        ASSERT_TRUE(view.result().ok) << what << ": " << view.result().error;
        const nlohmann::json cli = cliSize(db, QStringList{QStringLiteral("--rate"), QStringLiteral("300k")} + c.options);
        ASSERT_TRUE(cli.is_object()) << what;
        for (const char *key : {"brokers", "shards", "redis_nodes"})
            EXPECT_EQ(view.resultText(QString::fromLatin1(key)), QString::number(cli[key].get<int>())) << what << " " << key;
        EXPECT_EQ(view.result().consumeRate, cli["consume"]["records_per_s"].get<double>()) << what;
        EXPECT_EQ(view.result().consumeMargin, cli["consume"]["margin"].get<double>()) << what;
        EXPECT_EQ(view.result().bottleneck, cli["bottleneck"].get<std::string>()) << what;
        EXPECT_EQ(view.resultText(QStringLiteral("consume_side")).toStdString(),
                  (*std::find_if(cli["lines"].begin(), cli["lines"].end(),
                                 [](const nlohmann::json &l) { return l["key"] == "consume_side"; }))["display"]
                      .get<std::string>())
            << what;
    }
    EXPECT_EQ(view.resultText(QStringLiteral("consume_side")), QStringLiteral("unmeasured, 40% margin"));
    savePng(&view, QStringLiteral("sizing-consumers-1024x700.png"), {1024, 700});

    // Remote-tier reads need a backlog: reading the tail, the box is disabled and not sent, so
    // the view never builds what `size` refuses (--tiered-reads of the tail).
    // (A group reading the tail reads at most the target: 200k of the 300k.)
    view.consumeRateField()->setText(QStringLiteral("200k"));
    view.consumeFromCombo()->setCurrentIndex(view.consumeFromCombo()->findData(QStringLiteral("tail")));
    EXPECT_FALSE(view.tieredReadsCheck()->isEnabled());
    EXPECT_FALSE(view.inputs().tieredReads);
    ASSERT_TRUE(view.result().ok) << view.result().error;
    // No group reads: every consume field is disabled, and the sizing is the produce side's.
    view.consumerGroupsSpin()->setValue(0);
    for (QWidget *field : std::initializer_list<QWidget *>{view.consumeRateField(), view.consumeFromCombo(),
                                                           view.tieredReadsCheck(), view.consumeMarginSpin(),
                                                           view.fetchP99Spin()})
        EXPECT_FALSE(field->isEnabled()) << field->objectName().toStdString();
    ASSERT_TRUE(view.result().ok) << view.result().error;
    EXPECT_EQ(view.result().consumeRate, 0);
    EXPECT_EQ(view.resultText(QStringLiteral("consume_side")), QString());

    // What a saved sizing brings back lands in the same fields.
    SizingInputs saved = view.inputs();
    saved.consumeFrom = ConsumeFrom::Backlog;
    saved.consumerGroups = 4;
    saved.consumeMargin = 0.2;
    view.setInputs(saved);
    EXPECT_EQ(view.inputs(), saved);
    EXPECT_EQ(view.consumerGroupsSpin()->value(), 4);
    EXPECT_EQ(view.consumeMarginSpin()->value(), 20);
}
