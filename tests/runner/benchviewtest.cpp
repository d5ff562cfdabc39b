// The Bench view offscreen against the real broker of tests/services: Start, live chart
// from the worker's snapshots, the final verdict, and a screenshot for people to look at.
#include "ui/views/benchview.h"
#include "servicesenv.h"

#include <gtest/gtest.h>

#include <QChartView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

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

} // namespace
} // namespace plimsoll
