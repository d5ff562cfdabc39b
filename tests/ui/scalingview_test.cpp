// The Scaling view's Across runs mode over separate runs, one result file per broker count: the
// λ, σ and κ it shows are those `plimsoll fit --x brokers --json` prints for the same runs, by
// filter and by runs picked by hand; a sweep refused because one run was tuned differently fits
// once the user leaves the differing key out, and is refused again when they put it back.
#include "support/brokersweep.h"
#include "importers/samples.h"
#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/formatting.h"
#include "ui/views/scalingview.h"
#include "ui/views/sweeppanel.h"
#include "ui/widgets/runselectionwidget.h"
#include "sizingtestsupport.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QSignalSpy>
#include <QTabBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QThreadPool>

#include <nlohmann/json.hpp>

using namespace plimsoll;
using plimsoll::test::waitUntil;

namespace {

using plimsoll::test::brokerRun;
constexpr double kLambda = plimsoll::test::kSweepLambda, kSigma = plimsoll::test::kSweepSigma;
double usl(double n) { return plimsoll::test::sweepUsl(n); }

class ScalingAcrossRuns : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("store.plimsoll"));
        importRun(brokerRun(1, usl(1) * 1.012, "2026-09-01"));
        importRun(brokerRun(2, usl(2) * 0.985, "2026-09-02"));
        importRun(brokerRun(4, usl(4) * 1.010, "2026-09-03"));
        importRun(brokerRun(8, usl(8) * 0.992, "2026-09-04"));
    }
    void TearDown() override
    {
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }
    // Each run its own source, as separate result files are imported.
    void importRun(const RunRecord &run) const
    {
        Store store(m_path.toStdString());
        const SourceRecord source{"file:/results/" + run.runKey + ".json", "korvet-bench", "sha-" + run.runKey,
                                  "test", "1", "2026-09-10T00:00:00Z", false};
        EXPECT_EQ(store.importSource(source, {run}).runs, 1);
    }
    // `plimsoll fit ... --json` on the store, as a user runs it.
    nlohmann::json cliFit(const QStringList &args) const
    {
        return plimsoll::test::cliJson(m_path, QStringLiteral("fit"), args);
    }
    QTemporaryDir m_dir;
    QString m_path;
};

// Waits for the panel's fit of `selection` (EvidenceSelection::describe()): earlier choices'
// results may still be in flight.
bool fitOf(const SweepPanel &panel, const std::string &selection)
{
    return waitUntil([&] {
        return panel.result().selection == selection && !panel.parametersLabel()->text().isEmpty();
    });
}

// What the panel shows for λ, σ and κ, computed from the CLI's numbers with the view's units.
void expectSameParameters(const SweepPanel &panel, const nlohmann::json &cli)
{
    const UslFit &fit = panel.result().fit.usl;
    ASSERT_TRUE(fit.ok) << panel.result().error;
    EXPECT_DOUBLE_EQ(fit.params.lambda, cli["lambda"].get<double>());
    EXPECT_DOUBLE_EQ(fit.params.sigma, cli["sigma"].get<double>());
    EXPECT_DOUBLE_EQ(fit.params.kappa, cli["kappa"].get<double>());
    EXPECT_DOUBLE_EQ(fit.sigmaCi.lo, cli["ci"]["sigma"][0].get<double>());
    EXPECT_DOUBLE_EQ(fit.sigmaCi.hi, cli["ci"]["sigma"][1].get<double>());
    const QString text = panel.parametersLabel()->text();
    auto rate = [](const nlohmann::json &v) { return displayMetric("records_per_s", v.get<double>()); };
    const QString lambda = QStringLiteral("λ %1 per broker [%2, %3]")
                               .arg(rate(cli["lambda"]), rate(cli["ci"]["lambda"][0]), rate(cli["ci"]["lambda"][1]));
    const QString sigma = QStringLiteral("σ %1 [%2, %3]")
                              .arg(plainNumber(cli["sigma"].get<double>()),
                                   plainNumber(cli["ci"]["sigma"][0].get<double>()),
                                   plainNumber(cli["ci"]["sigma"][1].get<double>()));
    EXPECT_TRUE(text.contains(lambda)) << text.toStdString() << " lacks " << lambda.toStdString();
    EXPECT_TRUE(text.contains(
        QStringLiteral("95 % intervals from %1 bootstrap refits").arg(cli["ci"]["resamples"].get<int>())))
        << text.toStdString();
    EXPECT_TRUE(text.contains(sigma)) << text.toStdString() << " lacks " << sigma.toStdString();
    // Units, never exponents or NaN.
    EXPECT_FALSE(text.contains(QStringLiteral("e+"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("nan"), Qt::CaseInsensitive)) << text.toStdString();
}

} // namespace

TEST_F(ScalingAcrossRuns, ABrokerSweepShowsTheNumbersTheCliFits)
{
    ScalingView view(m_path);
    view.resize(1200, 900);
    view.reload();
    view.modeBar()->setCurrentIndex(ScalingView::AcrossRuns); // as a click on the tab
    SweepPanel *panel = view.sweepPanel();
    ASSERT_TRUE(waitUntil([&] { return panel->runSelection()->runList()->count() == 4; }));
    EXPECT_EQ(panel->factorCombo()->currentText(), "brokers");
    EXPECT_EQ(panel->metricCombo()->currentText(), "records_per_s");

    // By filter: the runs of one tool, as --tool selects them.
    RunSelectionWidget *selection = panel->runSelection();
    selection->modeCombo()->setCurrentIndex(selection->modeCombo()->findText("Runs by filter"));
    selection->toolEdit()->setText(QStringLiteral("korvet-bench"));
    emit selection->toolEdit()->editingFinished();
    ASSERT_TRUE(fitOf(*panel, "runs of tool 'korvet-bench'"));
    const nlohmann::json cli = cliFit({"--tool", "korvet-bench", "--x", "brokers"});
    expectSameParameters(*panel, cli);
    // σ is recovered within the interval shown.
    EXPECT_TRUE(panel->result().fit.usl.sigmaCi.contains(kSigma));
    // Every point names its run and scenario, in the table and when hovered on the chart.
    ASSERT_EQ(panel->pointsTable()->rowCount(), 4);
    for (int row = 0; row < 4; ++row)
        EXPECT_EQ(panel->pointsTable()->item(row, 3)->text().toStdString(), cli["data"][row]["run"]);
    EXPECT_EQ(panel->pointsTable()->item(3, 4)->text(), "produce/brokers-8");
    EXPECT_EQ(panel->pointsTable()->item(3, 0)->text(), "8");
    EXPECT_TRUE(panel->pointToolTip(0).startsWith("brokers-1-2026-09-01 / produce/brokers-1"))
        << panel->pointToolTip(0).toStdString();
    const QString summary = panel->summaryLabel()->text();
    EXPECT_TRUE(summary.contains("p99 against brokers: 1 → 4 ms · 2 → 8 ms · 4 → 16 ms · 8 → 32 ms"))
        << summary.toStdString();
    EXPECT_TRUE(summary.contains("tuning.linger.ms=5")) << summary.toStdString();
    EXPECT_TRUE(summary.contains("no key differs among the points")) << summary.toStdString();
    EXPECT_TRUE(summary.contains("Knee: none — 4 of 4 points state no offered rate")) << summary.toStdString();
    EXPECT_TRUE(summary.contains("Evidence: runs of tool 'korvet-bench', 4 runs read")) << summary.toStdString();
    EXPECT_TRUE(panel->contractKeysBox()->isHidden());

    // Picked by hand: three of the four, as --run three times.
    selection->modeCombo()->setCurrentIndex(selection->modeCombo()->findText("Runs picked by hand"));
    selection->setPicked({"brokers-1-2026-09-01", "brokers-2-2026-09-02", "brokers-8-2026-09-04"});
    ASSERT_TRUE(fitOf(*panel, "3 runs picked by hand"));
    const nlohmann::json picked = cliFit({"--run", "brokers-1-2026-09-01", "--run", "brokers-2-2026-09-02",
                                          "--run", "brokers-8-2026-09-04", "--x", "brokers"});
    expectSameParameters(*panel, picked);
    EXPECT_EQ(panel->pointsTable()->rowCount(), 3);
    EXPECT_NE(panel->result().fit.usl.params.lambda, cli["lambda"].get<double>());

    // Nothing picked: said, and no fit.
    selection->setPicked({});
    EXPECT_EQ(selection->problemLabel()->text(), "No run picked: check the runs to take part");
    EXPECT_EQ(panel->parametersLabel()->text(), "No run picked: check the runs to take part");
}

TEST_F(ScalingAcrossRuns, ARefusedSweepFitsOnceTheDifferingKeyIsLeftOut)
{
    importRun(brokerRun(6, usl(6), "2026-09-06", /*lingerMs=*/20));
    ScalingView view(m_path);
    view.resize(1200, 900);
    view.setMode(ScalingView::AcrossRuns);
    view.reload();
    SweepPanel *panel = view.sweepPanel();
    view.show();
    ASSERT_TRUE(fitOf(*panel, "every run"));
    EXPECT_TRUE(panel->parametersLabel()->text().startsWith("No fit: the selected points do not share a tuning "
                                                            "contract (5 runs selected)"))
        << panel->parametersLabel()->text().toStdString();
    EXPECT_FALSE(panel->contractKeysBox()->isHidden());
    QCheckBox *linger = panel->leaveOutCheck("tuning.linger.ms");
    ASSERT_NE(linger, nullptr);
    EXPECT_EQ(linger->text(), "Leave out tuning.linger.ms (5, 20)");
    EXPECT_FALSE(linger->isChecked());

    QSignalSpy finished(panel, &SweepPanel::fitFinished);
    linger->click();
    ASSERT_TRUE(waitUntil([&] { return !finished.isEmpty() && panel->result().ok; }));
    EXPECT_EQ(panel->pointsTable()->rowCount(), 5);
    const nlohmann::json cli =
        cliFit({"--tool", "korvet-bench", "--x", "brokers", "--contract-exclude", "tuning.linger.ms"});
    expectSameParameters(*panel, cli);
    EXPECT_TRUE(panel->summaryLabel()->text().contains(
        "Left out of the contract, differing among the points: tuning.linger.ms (5, 20)"))
        << panel->summaryLabel()->text().toStdString();
    // The key stays listed, checked, so putting it back is one click.
    linger = panel->leaveOutCheck("tuning.linger.ms");
    ASSERT_NE(linger, nullptr);
    EXPECT_TRUE(linger->isChecked());
    QTest::qWait(100); // the chart repaints and the new checkbox shows: what a user sees
    EXPECT_TRUE(QDir().mkpath(QStringLiteral(PLIMSOLL_ARTIFACT_DIR)));
    EXPECT_TRUE(view.grab().save(QDir(QStringLiteral(PLIMSOLL_ARTIFACT_DIR)).filePath("scaling-across-runs.png")));

    finished.clear();
    linger->click();
    ASSERT_TRUE(waitUntil([&] { return !finished.isEmpty() && !panel->result().sweep.ok; }));
    EXPECT_FALSE(panel->result().ok);
    ASSERT_NE(panel->leaveOutCheck("tuning.linger.ms"), nullptr);
    EXPECT_FALSE(panel->leaveOutCheck("tuning.linger.ms")->isChecked());
}

// Beside the sample runs: auto leaves them out and says so, included they are refused with every
// differing key offered; the sample broker finding's two points are too few for a bootstrap, and
// the view says why there is no interval (the CLI prints null).
TEST_F(ScalingAcrossRuns, TheSampleRunsAreLeftOutOrIncludedAndTwoPointsHaveNoInterval)
{
    {
        Store store(m_path.toStdString());
        for (const auto &r : installSamples(store))
            ASSERT_NE(r.status, "failed") << r.uri;
    }
    ScalingView view(m_path);
    view.setMode(ScalingView::AcrossRuns);
    view.reload();
    SweepPanel *panel = view.sweepPanel();
    RunSelectionWidget *selection = panel->runSelection();
    ASSERT_TRUE(waitUntil([&] { return selection->runList()->count() == 10; }));
    // Every run of a store holding the samples beside runs of its own: the samples are left out
    // (auto), and the view says so.
    ASSERT_TRUE(fitOf(*panel, "every run"));
    EXPECT_TRUE(panel->summaryLabel()->text().contains(
        "Evidence: every run, 4 runs read (6 sample runs left out: the selection holds 4 runs of your own "
        "with sizing evidence)"))
        << panel->summaryLabel()->text().toStdString();
    expectSameParameters(*panel, cliFit({"--since", "2000-01-01", "--x", "brokers"}));
    // Included, the samples' workloads join the team's: refused, each workload offered to choose.
    selection->setSamples(SampleRuns::Include);
    ASSERT_TRUE(fitOf(*panel, "every run, sample runs included"));
    EXPECT_FALSE(panel->result().sweep.ok);
    QComboBox *workloads = panel->workloadCombo();
    EXPECT_FALSE(workloads->isHidden());
    EXPECT_TRUE(panel->parametersLabel()->text().startsWith("No fit: the selected points are of "))
        << panel->parametersLabel()->text().toStdString();
    const int team = workloads->findData(QStringLiteral("produce/brokers-*"));
    ASSERT_GE(team, 0);
    EXPECT_EQ(workloads->itemText(team), "produce/brokers-* (4 points)");
    ASSERT_GE(workloads->findData(QStringLiteral("findings/broker-scaling/brokers-*")), 0);
    view.resize(1200, 900);
    view.show();
    QTest::qWait(100);
    EXPECT_TRUE(view.grab().save(
        QDir(QStringLiteral(PLIMSOLL_ARTIFACT_DIR)).filePath("scaling-across-runs-refused.png")));
    // Choosing the team's workload fits it, samples included, as --workload does.
    workloads->setCurrentIndex(team);
    ASSERT_TRUE(waitUntil([&] { return panel->result().ok && panel->result().sweep.workload == "produce/brokers-*"; }));
    expectSameParameters(*panel, cliFit({"--since", "2000-01-01", "--samples", "include", "--x", "brokers",
                                         "--workload", "produce/brokers-*"}));
    workloads->setCurrentIndex(0); // every workload again
    ASSERT_TRUE(waitUntil([&] { return !panel->result().sweep.ok; }));

    selection->setSamples(SampleRuns::Auto);
    selection->modeCombo()->setCurrentIndex(selection->modeCombo()->findText("Runs picked by hand"));
    selection->setPicked({"sample:korvet-broker-scaling"});
    ASSERT_TRUE(fitOf(*panel, "1 run picked by hand"))
        << panel->result().selection << " / " << panel->parametersLabel()->text().toStdString();
    const nlohmann::json cli = cliFit({"--run", "sample:korvet-broker-scaling", "--x", "brokers"});
    // Two broker counts fix λ alone: a linear fit, its words first, σ and κ not shown as fitted.
    EXPECT_EQ(cli["model"], "linear");
    const QString text = panel->parametersLabel()->text();
    EXPECT_TRUE(text.startsWith(QStringLiteral("linear (λ; σ and κ held at 0) over 2 points at 2 distinct brokers: "
                                               "no peak: σ = κ = 0, throughput grows linearly; 2 distinct N fix "
                                               "one parameter: linear")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("\nλ %1 per broker [").arg(displayMetric("records_per_s", cli["lambda"].get<double>()))))
        << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("σ 0"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("nan"), Qt::CaseInsensitive)) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("e+"))) << text.toStdString();

    // Every run with the sample runs left out as asked: the four of the team's own.
    selection->setSamples(SampleRuns::Exclude);
    selection->modeCombo()->setCurrentIndex(selection->modeCombo()->findText("Every run"));
    ASSERT_TRUE(fitOf(*panel, "every run, sample runs left out"));
    EXPECT_TRUE(panel->summaryLabel()->text().contains(
        "Evidence: every run, sample runs left out, 4 runs read (6 sample runs left out as asked)"))
        << panel->summaryLabel()->text().toStdString();
    expectSameParameters(*panel, cliFit({"--since", "2000-01-01", "--samples", "exclude", "--x", "brokers"}));
}

// Runs at stepped target rates (kafka-producer-perf-test --throughput, a file each): against the
// offered rate the view finds the knee `fit --x offered_rate` finds.
TEST_F(ScalingAcrossRuns, AFixedRateSweepShowsItsKnee)
{
    const double offered[] = {20000, 40000, 60000, 80000}, achieved[] = {20000, 39900, 59900, 65000};
    for (int i = 0; i < 4; ++i) {
        RunRecord run;
        run.runKey = "perf-" + std::to_string(int(offered[i]));
        run.timestamp = "2026-10-0" + std::to_string(i + 1) + "T02:00:00Z";
        run.tool = "kafka-producer-perf-test";
        run.target = "korvet";
        run.tuning = {{"throughput", offered[i]}, {"acks", "1"}};
        ScenarioRecord s;
        s.name = "produce";
        s.kind = "benchmark";
        s.topology.producers = 1;
        s.metrics = {{"records_per_s", achieved[i]}, {"latency_p99_s", 0.010 + i * 0.002}};
        run.scenarios.push_back(s);
        importRun(run);
    }
    ScalingView view(m_path);
    view.setMode(ScalingView::AcrossRuns);
    view.reload();
    SweepPanel *panel = view.sweepPanel();
    RunSelectionWidget *selection = panel->runSelection();
    selection->modeCombo()->setCurrentIndex(selection->modeCombo()->findText("Runs by filter"));
    selection->toolEdit()->setText(QStringLiteral("kafka-producer-perf-test"));
    emit selection->toolEdit()->editingFinished();
    panel->factorCombo()->setCurrentText(QStringLiteral("offered_rate"));
    ASSERT_TRUE(waitUntil([&] {
        return panel->result().selection == "runs of tool 'kafka-producer-perf-test'" &&
               panel->result().sweep.factor == "offered_rate";
    }));
    ASSERT_TRUE(panel->result().ok) << panel->result().error;
    const nlohmann::json cli = cliFit({"--tool", "kafka-producer-perf-test", "--x", "offered_rate"});
    ASSERT_TRUE(cli["knee"].is_object()) << cli["knee_note"];
    EXPECT_EQ(cli["knee"]["capacity"], 59900);
    // Against an offered rate the knee is the answer, in the CLI and the view alike: no slope.
    EXPECT_EQ(cli["answer"], "knee");
    EXPECT_TRUE(cli["lambda"].is_null());
    EXPECT_EQ(panel->result().fit.answer, SweepAnswer::Knee);
    const QString parameters = panel->parametersLabel()->text();
    EXPECT_EQ(parameters.toStdString(), cli["headline"].get<std::string>());
    EXPECT_FALSE(parameters.contains(QStringLiteral("λ"))) << parameters.toStdString();
    const QString summary = panel->summaryLabel()->text();
    EXPECT_TRUE(summary.contains("Knee (shortfall rule) at 80,000 rec/s offered, 65,000 rec/s achieved: "
                                 "capacity 59,900 rec/s, ceiling 65,000 rec/s"))
        << summary.toStdString();
    EXPECT_EQ(panel->pointsTable()->item(0, 0)->text(), "20,000 rec/s");
    EXPECT_EQ(panel->pointsTable()->item(0, 5)->text(), "tuning.throughput");
    EXPECT_EQ(panel->pointsTable()->item(0, 6)->text(), "yes");
}
