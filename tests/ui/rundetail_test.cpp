// The run detail's step table, as a user reads it: a row per scenario, the load factors and
// metrics as columns with units, values formatted; Copy puts tab-separated SI values on the
// clipboard and Save CSV writes the file `plimsoll export --format steps` writes.
#include "export/steptable.h"
#include "ui/backgroundpool.h"
#include "ui/formatting.h"
#include "ui/views/rundetailpanel.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace plimsoll;

namespace {

RunDetail rampRun()
{
    RunDetail d;
    d.record.runKey = "nightly/ramp-1";
    d.record.timestamp = "2026-11-30T02:00:00Z";
    const double rates[] = {74506, 150043, 221000};
    for (int i = 0; i < 3; ++i) {
        ScenarioRecord s;
        s.name = "pipeline/produce/step-" + std::to_string(i + 1);
        s.kind = "ramp-step";
        s.topology.producers = int64_t(1) << i;
        s.topology.brokers = 3;
        s.metrics.push_back({"records_per_s", rates[i]});
        s.metrics.push_back({"latency_p99_s", 0.0054 + 0.001 * i});
        if (i == 2)
            s.metrics.push_back({"broker_cpu_avg", 0.5});
        d.record.scenarios.push_back(s);
    }
    return d;
}

} // namespace

TEST(StepTable, ARowPerScenarioFactorsThenMetricsWithUnits)
{
    const StepTable t = stepTable(rampRun().record);
    ASSERT_EQ(t.rows.size(), 3u);
    std::vector<std::string> names;
    for (const auto &c : t.columns)
        names.push_back(c.name);
    // The factor the steps differ in, the metrics as first met, then what every step shares.
    EXPECT_EQ(names, (std::vector<std::string>{"producers", "records_per_s", "latency_p99_s",
                                               "broker_cpu_avg", "brokers"}));
    EXPECT_EQ(t.columns[1].unit, "records/s");
    EXPECT_EQ(t.columns[2].unit, "s");
    EXPECT_FALSE(t.rows[0].cells[3].has_value()); // only the last step measured CPU
    EXPECT_EQ(stepTableText(t).substr(0, stepTableText(t).find('\n')),
              "scenario,producers,records_per_s (records/s),latency_p99_s (s),broker_cpu_avg (fraction),brokers");
    EXPECT_NE(stepTableText(t).find("\npipeline/produce/step-1,1,74506,0.0054000000000000003,,3\n"),
              std::string::npos)
        << stepTableText(t);
}

TEST(RunDetailPanel, StepTableShowsFormattedCellsCopiesAndSaves)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    RunDetailPanel panel;
    panel.resize(1000, 400);
    panel.show();
    const RunDetail run = rampRun();
    panel.showRun(run);
    QTabWidget *tabs = panel.tabs();
    EXPECT_EQ(tabs->tabText(1), QStringLiteral("Step table"));
    tabs->setCurrentIndex(1);
    QTableWidget *table = panel.stepTableWidget();
    ASSERT_EQ(table->rowCount(), 3);
    ASSERT_EQ(table->columnCount(), 6);
    EXPECT_EQ(table->horizontalHeaderItem(0)->text(), QStringLiteral("Scenario"));
    EXPECT_EQ(table->horizontalHeaderItem(2)->text(), displayMetricName("records_per_s"));
    EXPECT_EQ(table->item(1, 0)->text(), QStringLiteral("pipeline/produce/step-2"));
    EXPECT_EQ(table->horizontalHeaderItem(1)->text(), QStringLiteral("producers"));
    EXPECT_EQ(table->item(1, 1)->text(), QStringLiteral("2"));
    EXPECT_EQ(table->item(1, 2)->text(), displayMetric("records_per_s", 150043));
    EXPECT_EQ(table->item(0, 4)->text(), QStringLiteral("—"));
    EXPECT_EQ(table->item(0, 5)->text(), QStringLiteral("3"));
    EXPECT_EQ(table->item(2, 4)->text(), displayMetric("broker_cpu_avg", 0.5));

    panel.copyStepTable();
    EXPECT_EQ(QApplication::clipboard()->text().toStdString(), stepTableText(panel.stepTable(), '\t'));

    const QString path = dir.filePath(QStringLiteral("steps.csv"));
    QSignalSpy saved(&panel, &RunDetailPanel::stepTableSaved);
    panel.saveStepTable(path);
    ASSERT_TRUE(saved.wait(10000));
    EXPECT_TRUE(saved.at(0).at(1).toString().isEmpty()) << saved.at(0).at(1).toString().toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll().toStdString(), stepTableText(stepTable(run.record)));
    EXPECT_TRUE(panel.stepStatus()->text().startsWith(QStringLiteral("Saved ")));

    // A directory that does not exist: the status says why, nothing is claimed saved.
    panel.saveStepTable(dir.filePath(QStringLiteral("missing/steps.csv")));
    ASSERT_TRUE(saved.wait(10000));
    EXPECT_FALSE(saved.at(1).at(1).toString().isEmpty());
    EXPECT_TRUE(panel.stepStatus()->text().startsWith(QStringLiteral("Cannot save "))) << panel.stepStatus()->text().toStdString();
    backgroundPool()->waitForDone();
}
