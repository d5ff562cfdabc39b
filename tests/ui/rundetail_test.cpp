// The run detail's step table, as a user reads it: a row per scenario, the load factors and
// metrics as columns with units, values formatted; Copy puts tab-separated SI values on the
// clipboard and Save CSV writes the file `plimsoll export --format steps` writes. Its charts:
// each scenario's latency spectrum overlaid, and the per-window series chosen.
#include "export/steptable.h"
#include "ui/backgroundpool.h"
#include "ui/charts/runcharts.h"
#include "ui/formatting.h"
#include "ui/charts/serieslegend.h"
#include "ui/views/rundetailpanel.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QLineSeries>
#include <QValueAxis>
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
    EXPECT_TRUE(panel.stepStatus()->text().startsWith(QStringLiteral("Cannot write ") + dir.filePath(QStringLiteral("missing/steps.csv")) + QStringLiteral(": ")))
        << panel.stepStatus()->text().toStdString();
    EXPECT_TRUE(panel.stepStatus()->text().contains(QStringLiteral("No such file or directory")))
        << panel.stepStatus()->text().toStdString();
    backgroundPool()->waitForDone();
}

namespace {

// An OMB-like run: two workloads with the store's percentiles and a tool's quantile map, and a
// per-window publish rate.
RunRecord percentileRun()
{
    RunRecord run;
    run.runKey = "omb/two-workloads";
    for (int i = 0; i < 2; ++i) {
        ScenarioRecord s;
        s.name = "omb/workload-" + std::to_string(i + 1);
        const double k = 1 + i;
        s.metrics = {{"latency_p50_s", 0.002 * k},          {"latency_p99_s", 0.010 * k},
                     {"latency_p999_s", 0.040 * k},         {"publish.quantile.50.0", 0.0021 * k},
                     {"publish.quantile.99.9", 0.041 * k},  {"records_per_s", 1000 * k}};
        s.series.push_back({"records_per_s", {{10, 990 * k}, {20, 1010 * k}, {30, 1000 * k}}});
        run.scenarios.push_back(s);
    }
    return run;
}

} // namespace

TEST(RunCharts, SpectrumFamiliesAndPointsComeFromThePercentileMetrics)
{
    const RunRecord run = percentileRun();
    EXPECT_EQ(spectrumFamilies(run), (std::vector<std::string>{"latency", "publish"}));
    const std::vector<SpectrumPoint> latency = latencySpectrum(run.scenarios[1], "latency");
    ASSERT_EQ(latency.size(), 3u);
    EXPECT_DOUBLE_EQ(latency[0].percentile, 0.5);
    EXPECT_DOUBLE_EQ(latency[2].percentile, 0.999);
    EXPECT_DOUBLE_EQ(latency[2].seconds, 0.080);
    const std::vector<SpectrumPoint> publish = latencySpectrum(run.scenarios[0], "publish");
    ASSERT_EQ(publish.size(), 2u);
    EXPECT_DOUBLE_EQ(publish[1].percentile, 0.999);
}

TEST(RunDetailPanel, ChartsShowEveryScenariosSpectrumAndTheChosenSeries)
{
    RunDetailPanel panel;
    panel.resize(1000, 500);
    panel.show();
    RunDetail detail;
    detail.record = percentileRun();
    panel.showRun(detail);
    EXPECT_EQ(panel.tabs()->tabText(2), QStringLiteral("Charts"));
    panel.tabs()->setCurrentIndex(2);

    QChart *spectrum = panel.spectrumChart();
    ASSERT_EQ(spectrum->series().size(), 2);
    auto *second = qobject_cast<QLineSeries *>(spectrum->series()[1]);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->name(), QStringLiteral("omb/workload-2"));
    ASSERT_EQ(second->count(), 3);
    // x = 1/(1−p): p50 at 2, p99.9 at 1000; y in the axis' unit (ms here).
    EXPECT_NEAR(second->at(0).x(), 2, 1e-9);
    EXPECT_NEAR(second->at(2).x(), 1000, 1e-6);
    EXPECT_NEAR(second->at(2).y(), 80, 1e-9);
    const auto *y = qobject_cast<QValueAxis *>(spectrum->axes(Qt::Vertical).value(0));
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->titleText(), QStringLiteral("ms"));
    // Two workloads: the list beside the chart names them whole, each in its line's colour (the
    // chart's own legend squeezed long names to their swatches).
    SeriesLegend *legend = panel.spectrumLegend();
    ASSERT_TRUE(legend->isVisible());
    ASSERT_EQ(legend->count(), 2);
    EXPECT_EQ(legend->item(1)->text(), QStringLiteral("omb/workload-2"));
    EXPECT_GE(legend->visualItemRect(legend->item(1)).width(),
              legend->fontMetrics().horizontalAdvance(QStringLiteral("omb/workload-2")));
    EXPECT_FALSE(spectrum->legend()->isVisible());
    EXPECT_NE(second->color(), qobject_cast<QLineSeries *>(spectrum->series()[0])->color());

    panel.spectrumFamilyCombo()->setCurrentText(QStringLiteral("publish"));
    ASSERT_EQ(spectrum->series().size(), 2);
    EXPECT_EQ(qobject_cast<QLineSeries *>(spectrum->series()[0])->count(), 2);

    ASSERT_EQ(panel.windowSeriesCombo()->count(), 2);
    EXPECT_EQ(panel.windowSeriesCombo()->itemText(1),
              QStringLiteral("omb/workload-2 — ") + displayMetricName("records_per_s"));
    panel.windowSeriesCombo()->setCurrentIndex(1);
    QChart *series = panel.windowSeriesChart();
    ASSERT_EQ(series->series().size(), 1);
    auto *rate = qobject_cast<QLineSeries *>(series->series()[0]);
    ASSERT_EQ(rate->count(), 3);
    EXPECT_NEAR(rate->at(1).x(), 20, 1e-9);

    // A run without percentiles or series says so instead of drawing empty axes.
    RunDetail bare;
    bare.record.runKey = "bare";
    bare.record.scenarios.push_back({});
    panel.showRun(bare);
    EXPECT_TRUE(spectrum->series().isEmpty());
    EXPECT_EQ(spectrum->title(), QStringLiteral("This run states no latency percentiles"));
    EXPECT_EQ(series->title(), QStringLiteral("This run keeps no per-window series"));
}
