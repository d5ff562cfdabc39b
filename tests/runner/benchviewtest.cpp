// The Bench view offscreen against the real broker of tests/services: Start, live chart
// from the worker's snapshots, the final verdict, and a screenshot for people to look at.
#include "model/store/store.h"
#include "runner/scriptedarchive.h"
#include "ui/views/benchview.h"
#include "servicesenv.h"

#include <gtest/gtest.h>

#include <QChartView>
#include <QTableWidget>
#include <QFile>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

namespace plimsoll {
namespace {

TEST(BenchViewRealBroker, RunsRoundTripShowsLiveChartAndVerdict)
{
    test::ServicesEnv env;
    ASSERT_NO_FATAL_FAILURE(test::ServicesEnv::load(env));
    QTemporaryDir dir;
    BenchView view(dir.filePath("store.db"));
    view.resize(1200, 640);
    view.show();
    view.setBootstrapServers(QString::fromStdString(env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP")));
    view.setRecords(40000);
    view.findChild<QLineEdit *>()->setFocus();
    // A fixed rate so the run lasts a few intervals and the chart has a shape.
    for (auto *edit : view.findChildren<QLineEdit *>())
        if (edit->text() == "unlimited")
            edit->setText("10000");
    QSignalSpy finished(&view, &BenchView::benchFinished);
    view.findChild<QPushButton *>("benchStart")->click();
    EXPECT_TRUE(view.running());
    // The UI thread is never blocked: the event loop keeps turning while the run goes on.
    ASSERT_TRUE(finished.wait(90000)) << "the bench did not finish";
    const auto result = finished.at(0).at(0).value<BenchResult>();
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_FALSE(result.partial);
    const auto *summary = view.findChild<QPlainTextEdit *>("benchSummary");
    EXPECT_TRUE(summary->toPlainText().contains("result: ok")) << summary->toPlainText().toStdString();
    EXPECT_TRUE(summary->toPlainText().contains("stored as run plimsoll-bench-"));
    EXPECT_TRUE(summary->toPlainText().contains("missing 0"));
    auto *chart = view.findChild<QChartView *>("benchChart");
    ASSERT_NE(chart, nullptr);
    const auto series = chart->chart()->series();
    ASSERT_FALSE(series.isEmpty());
    EXPECT_GE(static_cast<QLineSeries *>(series.first())->count(), 3);
    EXPECT_FALSE(view.running());
    const QString png = QString(PLIMSOLL_ARTIFACT_DIR) + "/bench-view.png";
    EXPECT_TRUE(view.grab().save(png));
}

// `view` shown at 1024×700, aimed at the test broker, its agents this build's plimsoll.
void showForAFleet(BenchView &view)
{
    test::ServicesEnv env;
    ASSERT_NO_FATAL_FAILURE(test::ServicesEnv::load(env));
    view.setAgentExecutable(PLIMSOLL_BINARY);
    view.resize(1024, 700);
    view.show();
    view.setBootstrapServers(QString::fromStdString(env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP")));
}

// Agents from the form: a local fleet whose result shows every agent's share beside the
// merged figures, and an impossible fleet refused before anything starts.
TEST(BenchViewRealBroker, AFleetFromTheFormShowsEachAgentsRate)
{
    QTemporaryDir dir;
    BenchView view(dir.filePath("store.db"));
    ASSERT_NO_FATAL_FAILURE(showForAFleet(view));
    view.setRecords(9000);
    for (auto *edit : view.findChildren<QLineEdit *>())
        if (edit->text() == "unlimited")
            edit->setText("4500");
    auto *agents = qobject_cast<QSpinBox *>(view.field("benchAgents"));
    ASSERT_NE(agents, nullptr);
    // Fewer partitions than agents: refused with the CLI's words, nothing started.
    agents->setValue(3);
    for (auto *spin : view.findChildren<QSpinBox *>())
        if (spin->value() == 16)
            spin->setValue(2);
    view.findChild<QPushButton *>("benchStart")->click();
    EXPECT_FALSE(view.running());
    EXPECT_EQ(view.statusText(), "--partitions 2 is fewer than --agents 3: each agent reads partitions of its own");
    for (auto *spin : view.findChildren<QSpinBox *>())
        if (spin->value() == 2 && spin != agents)
            spin->setValue(6);
    QSignalSpy finished(&view, &BenchView::benchFinished);
    view.findChild<QPushButton *>("benchStart")->click();
    ASSERT_TRUE(view.running()) << view.statusText().toStdString();
    EXPECT_TRUE(view.statusText().startsWith("Running 3 agents against")) << view.statusText().toStdString();
    ASSERT_TRUE(finished.wait(120000)) << "the fleet did not finish";
    const auto result = finished.at(0).at(0).value<BenchResult>();
    ASSERT_EQ(result.exitCode, 0) << (result.errors.empty() ? std::string() : result.errors.front());
    ASSERT_EQ(result.scenarios.size(), 1u);
    EXPECT_EQ(result.scenarios[0].metrics.at("roundtrip.matched"), 9000);
    EXPECT_TRUE(view.statusText().contains("from 3 agents")) << view.statusText().toStdString();
    const auto *table = view.findChild<QTableWidget *>("benchStepTable");
    ASSERT_EQ(table->rowCount(), 3);
    EXPECT_EQ(table->horizontalHeaderItem(0)->text(), "Agent");
    for (int row = 0; row < 3; ++row) {
        EXPECT_EQ(table->item(row, 0)->text(), QString("agent %1").arg(row));
        EXPECT_EQ(table->item(row, 3)->text(), "ok");
        EXPECT_TRUE(table->item(row, 1)->text().endsWith(" rec/s")) << table->item(row, 1)->text().toStdString();
    }
    const auto *summary = view.findChild<QPlainTextEdit *>("benchSummary");
    EXPECT_TRUE(summary->toPlainText().contains("stored as run plimsoll-bench-"));
    Store store(dir.filePath("store.db").toStdString());
    const auto stored = store.run("plimsoll-bench-" + result.runId);
    ASSERT_TRUE(stored.has_value());
    bool perAgent = false;
    for (const auto &metric : stored->record.scenarios.at(0).metrics)
        perAgent |= metric.name == "agents.2.records_per_s";
    EXPECT_TRUE(perAgent) << "the store keeps every agent's rate";
    EXPECT_TRUE(view.grab().save(QString(PLIMSOLL_ARTIFACT_DIR) + "/bench-view-fleet.png"));
}

// Ramp of agents: the steps typed run as a fleet ramp, one local fleet a step, each step's row
// named for its agents with its verdict.
TEST(BenchViewRealBroker, ARampOfAgentsRunsAFleetPerStep)
{
    QTemporaryDir dir;
    BenchView view(dir.filePath("store.db"));
    ASSERT_NO_FATAL_FAILURE(showForAFleet(view));
    view.findChild<QComboBox *>("benchWorkload")->setCurrentText(QStringLiteral("ramp"));
    auto *rampOf = view.findChild<QComboBox *>("benchRampOf");
    rampOf->setCurrentIndex(rampOf->findData(QStringLiteral("agents")));
    ASSERT_GE(rampOf->currentIndex(), 0);
    view.findChild<QLineEdit *>("benchSteps")->setText(QStringLiteral("1,2"));
    view.findChild<QLineEdit *>("benchDuration")->setText(QStringLiteral("2s"));
    view.findChild<QLineEdit *>("benchWarmup")->setText(QStringLiteral("500ms"));
    view.findChild<QCheckBox *>("benchContinue")->setChecked(true);
    for (auto *edit : view.findChildren<QLineEdit *>())
        if (edit->text() == "unlimited")
            edit->setText("400");
    // Agents on the Clients row as well: the steps say how many, so it is refused, not ignored.
    auto *agents = qobject_cast<QSpinBox *>(view.field("benchAgents"));
    agents->setValue(2);
    view.findChild<QPushButton *>("benchStart")->click();
    EXPECT_FALSE(view.running());
    EXPECT_EQ(view.statusText(), "--agents-steps and --agents exclude each other: the steps say how many agents run");
    agents->setValue(1);
    QSignalSpy finished(&view, &BenchView::benchFinished);
    view.findChild<QPushButton *>("benchStart")->click();
    ASSERT_TRUE(view.running()) << view.statusText().toStdString();
    ASSERT_TRUE(finished.wait(120000)) << "the fleet ramp did not finish";
    const auto result = finished.at(0).at(0).value<BenchResult>();
    ASSERT_EQ(result.exitCode, 0) << (result.errors.empty() ? std::string() : result.errors.front());
    ASSERT_EQ(result.scenarios.size(), 2u);
    EXPECT_EQ(result.scenarios[1].topology.agents, 2);
    EXPECT_NEAR(result.scenarios[1].metrics.at("records_per_s"), 800, 200) << "each agent offers the form's rate";
    EXPECT_TRUE(view.statusText().contains("2 step(s)")) << view.statusText().toStdString();
    const auto *table = view.findChild<QTableWidget *>("benchStepTable");
    ASSERT_EQ(table->rowCount(), 2);
    EXPECT_EQ(table->horizontalHeaderItem(0)->text(), "Step");
    EXPECT_EQ(table->item(0, 0)->text(), "bench/ramp/agents-1");
    EXPECT_EQ(table->item(1, 0)->text(), "bench/ramp/agents-2");
    EXPECT_TRUE(table->item(1, 1)->text().endsWith(" rec/s")) << table->item(1, 1)->text().toStdString();
    Store store(dir.filePath("store.db").toStdString());
    const auto stored = store.run("plimsoll-bench-" + result.runId);
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->record.scenarios.at(1).topology.agents, 2) << "the store keeps the step's agents";
    EXPECT_TRUE(view.grab().save(QString(PLIMSOLL_ARTIFACT_DIR) + "/bench-view-fleet-ramp.png"));
}

TEST(BenchViewRealBroker, RampFillsTheStepTableWithVerdicts)
{
    QTemporaryDir dir;
    BenchView view(dir.filePath("store.db"));
    view.resize(1200, 720);
    view.show();
    // The embedded mock cluster, chosen with its switch: the table's plumbing, not a broker's
    // numbers. Each step's window from the form's Duration, every step run.
    auto *embedded = view.findChild<QCheckBox *>("benchEmbedded");
    ASSERT_NE(embedded, nullptr);
    embedded->setChecked(true);
    EXPECT_FALSE(view.findChild<QLineEdit *>("benchBootstrap")->isEnabled());
    view.findChild<QComboBox *>("benchWorkload")->setCurrentText(QStringLiteral("ramp"));
    view.findChild<QLineEdit *>("benchSteps")->setText(QStringLiteral("1,2"));
    // A duration outside its domain is refused before anything starts, named as the CLI names it.
    view.findChild<QLineEdit *>("benchDuration")->setText(QStringLiteral("0s"));
    view.findChild<QPushButton *>("benchStart")->click();
    EXPECT_FALSE(view.running());
    EXPECT_TRUE(view.statusText().contains("--duration")) << view.statusText().toStdString();
    view.findChild<QLineEdit *>("benchDuration")->setText(QStringLiteral("3s"));
    view.findChild<QCheckBox *>("benchContinue")->setChecked(true);
    QSignalSpy finished(&view, &BenchView::benchFinished);
    view.findChild<QPushButton *>("benchStart")->click();
    ASSERT_TRUE(finished.wait(120000)) << "the ramp did not finish";
    EXPECT_EQ(finished.at(0).at(0).value<BenchResult>().bootstrapServers, "embedded");
    // The status says what the ramp found, not a bare "ok".
    EXPECT_TRUE(view.statusText().contains("2 step(s)")) << view.statusText().toStdString();
    auto *table = view.findChild<QTableWidget *>("benchStepTable");
    ASSERT_NE(table, nullptr);
    ASSERT_GE(table->rowCount(), 1);
    EXPECT_TRUE(table->item(0, 0)->text().contains("step")) << table->item(0, 0)->text().toStdString();
    EXPECT_NE(table->item(0, 1)->text(), "0 rec/s"); // each step measured over its window
    const QString saturated = table->item(0, 3)->text();
    EXPECT_TRUE(saturated == "yes" || saturated == "no");
    if (saturated == "yes") {
        EXPECT_FALSE(table->item(0, 4)->text().isEmpty()); // a saturated step names why
    }
    EXPECT_TRUE(view.grab().save(QString(PLIMSOLL_ARTIFACT_DIR) + "/bench-view-ramp.png"));
}

TEST(BenchViewRealBroker, StopInterruptsTheRunAndSaysSoWithoutCallingRecordsMissing)
{
    // The embedded mock cluster: Stop's path through the engine, not a broker's numbers.
    QTemporaryDir dir;
    BenchView view(dir.filePath("store.db"));
    view.show();
    view.setBootstrapServers(QStringLiteral("embedded"));
    view.setRecords(100000);
    for (auto *edit : view.findChildren<QLineEdit *>())
        if (edit->text() == "unlimited")
            edit->setText("3k"); // as the CLI reads it, 3,000 records/s: about 33 s, Stop lands mid-run
    QSignalSpy finished(&view, &BenchView::benchFinished);
    view.findChild<QPushButton *>("benchStart")->click();
    auto *chart = view.findChild<QChartView *>("benchChart");
    ASSERT_NE(chart, nullptr);
    const auto *throughput = static_cast<QLineSeries *>(chart->chart()->series().first());
    ASSERT_TRUE(QTest::qWaitFor([&] { return throughput->count() >= 1; }, 60000)) << "no live interval";
    view.findChild<QPushButton *>("benchStop")->click();
    ASSERT_TRUE(finished.wait(30000)) << "the run did not stop";
    const auto result = finished.at(0).at(0).value<BenchResult>();
    EXPECT_EQ(result.status(), "interrupted");
    EXPECT_TRUE(result.partial);
    const QString status = view.findChild<QLabel *>("benchStatus")->text();
    EXPECT_TRUE(status.contains("interrupted")) << status.toStdString();
    EXPECT_FALSE(status.contains("FAILED")) << status.toStdString();
    const QString summary = view.findChild<QPlainTextEdit *>("benchSummary")->toPlainText();
    EXPECT_TRUE(summary.contains("result: INTERRUPTED (partial result kept)")) << summary.toStdString();
    EXPECT_TRUE(summary.contains("acknowledged, not consumed")) << summary.toStdString();
    EXPECT_FALSE(summary.contains("missing")) << summary.toStdString();
}

TEST(BenchViewRealBroker, AClientConfigLibrdkafkaCannotUseIsRefusedBeforeStarting)
{
    QTemporaryDir dir;
    QFile props(dir.filePath("client.properties"));
    ASSERT_TRUE(props.open(QIODevice::WriteOnly));
    props.write("security.protocol=SSL\nssl.truststore.location=/etc/trust.jks\nssl.truststore.type=JKS\n");
    props.close();
    BenchView view(dir.filePath("store.db"));
    view.show();
    view.setBootstrapServers(QStringLiteral("embedded"));
    view.findChild<QLineEdit *>("benchCommandConfig")->setText(props.fileName());
    view.findChild<QPushButton *>("benchStart")->click();
    EXPECT_FALSE(view.running());
    const QString status = view.findChild<QLabel *>("benchStatus")->text();
    EXPECT_TRUE(status.contains("JKS")) << status.toStdString();
}


// The consume ramp from the form: consumers per step over a backlog the run preloads, the
// same request `plimsoll bench ramp --ramp consumers --backlog N` makes.
TEST(BenchViewRealBroker, ConsumeRampFromTheFormReadsItsBacklogAtEveryStep)
{
    QTemporaryDir dir;
    BenchView view(dir.filePath("store.db"));
    view.resize(1200, 720);
    view.show();
    view.findChild<QCheckBox *>("benchEmbedded")->setChecked(true);
    view.findChild<QComboBox *>("benchWorkload")->setCurrentText(QStringLiteral("ramp"));
    auto *rampOf = view.findChild<QComboBox *>("benchRampOf");
    ASSERT_NE(rampOf, nullptr);
    auto *backlog = view.findChild<QLineEdit *>("benchBacklog");
    ASSERT_NE(backlog, nullptr);
    EXPECT_FALSE(backlog->isEnabled()) << "a producer ramp has no backlog";
    rampOf->setCurrentIndex(rampOf->findData(QStringLiteral("consumers")));
    EXPECT_TRUE(backlog->isEnabled());
    EXPECT_EQ(view.findChild<QLineEdit *>("benchP99Limit")->text(), QStringLiteral("500ms"))
        << "the fetch p99 limit's default";
    // Tiered: the limit becomes the page's 5 s, and the remote reads need the brokers' metrics.
    auto *tiered = view.findChild<QCheckBox *>("benchTiered");
    ASSERT_NE(tiered, nullptr);
    EXPECT_TRUE(tiered->isEnabled());
    EXPECT_FALSE(view.findChild<QLineEdit *>("benchS3GetMetric")->isEnabled());
    tiered->setChecked(true);
    EXPECT_EQ(view.findChild<QLineEdit *>("benchP99Limit")->text(), QStringLiteral("5s"));
    EXPECT_TRUE(view.findChild<QLineEdit *>("benchS3GetMetric")->isEnabled());
    backlog->setText(QStringLiteral("20000"));
    view.findChild<QPushButton *>("benchStart")->click();
    EXPECT_FALSE(view.running());
    EXPECT_TRUE(view.statusText().contains("--broker-metrics")) << view.statusText().toStdString();
    tiered->setChecked(false);
    EXPECT_EQ(view.findChild<QLineEdit *>("benchP99Limit")->text(), QStringLiteral("500ms"));
    // A backlog outside its domain is refused as the CLI refuses it.
    backlog->setText(QStringLiteral("0"));
    view.findChild<QPushButton *>("benchStart")->click();
    EXPECT_FALSE(view.running());
    EXPECT_TRUE(view.statusText().contains("--backlog")) << view.statusText().toStdString();

    backlog->setText(QStringLiteral("20000"));
    view.findChild<QLineEdit *>("benchSteps")->setText(QStringLiteral("1,2"));
    view.findChild<QLineEdit *>("benchDuration")->setText(QStringLiteral("2s"));
    view.findChild<QCheckBox *>("benchContinue")->setChecked(true);
    QSignalSpy finished(&view, &BenchView::benchFinished);
    view.findChild<QPushButton *>("benchStart")->click();
    ASSERT_TRUE(finished.wait(120000)) << "the consume ramp did not finish";
    const BenchResult result = finished.at(0).at(0).value<BenchResult>();
    bool consumeSteps = false;
    for (const auto &s : result.scenarios)
        consumeSteps = consumeSteps || s.name.rfind("pipeline/consume/step-", 0) == 0;
    EXPECT_TRUE(consumeSteps) << "the steps are consume steps";
    auto *table = view.findChild<QTableWidget *>("benchStepTable");
    ASSERT_NE(table, nullptr);
    EXPECT_GE(table->rowCount(), 1);
}

// The offload record from the form (`bench offload` in the window): the brokers' metrics URL
// from the collectors' page, the drain of a scripted broker (10 MiB/s until the archive lag is
// zero) measured, said in a line and stored as pipeline/offload; without a URL it is refused
// with the option's name before anything runs.
TEST(BenchViewOffload, TheOffloadRecordFromTheFormIsMeasuredSaidAndStored)
{
    // 15 MiB drained over 1.5 s: the form's one-second polls see it between two of them, so the
    // drain's wall-clock (to the first zero-lag poll) is about 2 s whatever the scheduling.
    test::Script script;
    script.drainS = 1.5;
    test::ScriptedArchive archive(script);
    QTemporaryDir dir;
    BenchView view(dir.filePath("store.db"));
    view.resize(1200, 720);
    view.show();
    view.findChild<QComboBox *>("benchWorkload")->setCurrentText(QStringLiteral("offload"));
    auto *tabs = view.findChild<QTabWidget *>("benchFormTabs");
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->currentIndex(), 1) << "the page with the broker metrics is shown";
    auto *streams = view.findChild<QSpinBox *>("benchArchiveStreams");
    ASSERT_NE(streams, nullptr);
    EXPECT_EQ(streams->text(), "not stated") << "no stream count unless the user states one";
    view.findChild<QPushButton *>("benchStart")->click();
    EXPECT_FALSE(view.running());
    EXPECT_TRUE(view.statusText().contains("--broker-metrics")) << view.statusText().toStdString();

    view.findChild<QLineEdit *>("benchBrokerMetrics")->setText(QString::fromStdString(archive.url()));
    QSignalSpy finished(&view, &BenchView::benchFinished);
    view.findChild<QPushButton *>("benchStart")->click();
    EXPECT_TRUE(view.running());
    EXPECT_TRUE(view.statusText().startsWith("Recording the offload")) << view.statusText().toStdString();
    // While it drains: the first poll on the chart, in the status line and the progress bar.
    const auto *firstSeries = static_cast<QLineSeries *>(
        view.findChild<QChartView *>("benchChart")->chart()->series().at(0));
    ASSERT_TRUE(QTest::qWaitFor([&] { return firstSeries->count() >= 1 || !view.running(); }, 30000));
    if (view.running()) {
        EXPECT_TRUE(view.statusText().startsWith("pipeline/offload (drain): archived "))
            << view.statusText().toStdString();
        EXPECT_TRUE(view.statusText().contains(" segments/s, archive lag ")) << view.statusText().toStdString();
        const int progress = view.findChild<QProgressBar *>()->value();
        EXPECT_GT(progress, 0) << "the lag has fallen since the baseline";
        EXPECT_LT(progress, 1000);
    }
    ASSERT_TRUE(finished.wait(60000)) << "the offload record did not finish";
    const auto result = finished.at(0).at(0).value<BenchResult>();
    ASSERT_EQ(result.exitCode, 0) << view.statusText().toStdString();
    ASSERT_EQ(result.scenarios.size(), 1u);
    EXPECT_EQ(result.scenarios[0].name, "pipeline/offload");
    EXPECT_FALSE(result.scenarios[0].topology.partitions.has_value())
        << "the topic's Partitions field is not the archive's streams";
    const auto &metrics = result.scenarios[0].metrics;
    EXPECT_NEAR(metrics.at("offload.archived_bytes"), 15 * test::kMiB, 1.5 * test::kMiB);
    EXPECT_GE(metrics.at("offload.drain_s"), 1.5);
    EXPECT_LE(metrics.at("offload.drain_s"), 2.9);
    EXPECT_NEAR(metrics.at("bytes_per_s"), metrics.at("offload.archived_bytes") / metrics.at("offload.drain_s"), 1);
    // The live chart plotted each poll: archived MiB/s on the left, the lag falling on the right;
    // the latency lines it has no values for are out of the chart and its legend.
    auto *chart = view.findChild<QChartView *>("benchChart")->chart();
    EXPECT_EQ(chart->title(), "Live archive rate and lag (per poll)");
    QStringList visible;
    for (QAbstractSeries *series : chart->series())
        if (series->isVisible())
            visible << series->name();
    EXPECT_EQ(visible, (QStringList{"archived MiB/s", "archive lag"}));
    const auto *archived = static_cast<QLineSeries *>(chart->series().at(0));
    const auto *lag = static_cast<QLineSeries *>(chart->series().at(1));
    ASSERT_GE(archived->count(), 2) << "a point a poll";
    EXPECT_NEAR(archived->at(0).y(), 10, 2) << "10 MiB/s during the first second";
    EXPECT_GT(lag->at(0).y(), 0);
    EXPECT_EQ(lag->at(lag->count() - 1).y(), 0);
    const QString status = view.statusText();
    EXPECT_TRUE(status.startsWith("Finished: archived ")) << status.toStdString();
    EXPECT_TRUE(status.contains(QRegularExpression(R"(\([0-9.]+ segments/s\), drained in )"))) << status.toStdString();
    EXPECT_FALSE(status.contains("FAILED")) << status.toStdString();
    const QString summary = view.findChild<QPlainTextEdit *>("benchSummary")->toPlainText();
    EXPECT_TRUE(summary.contains("stored as run ")) << summary.toStdString();
    const Store store(dir.filePath("store.db").toStdString());
    EXPECT_EQ(store.series("pipeline/offload", "bytes_per_s").size(), 1u);
    EXPECT_TRUE(view.grab().save(QString(PLIMSOLL_ARTIFACT_DIR) + "/bench-view-offload.png"));
}

} // namespace
} // namespace plimsoll
