// Compare over a real store: run pickers that search, verdict rows, the incompatible section
// with its keys and undo, parity with `plimsoll compare`. Screenshots go to PLIMSOLL_ARTIFACT_DIR.
#include "model/store/sharedsettings.h"
#include "model/trends/comparisonhistory.h"
#include "model/trends/runcomparison.h"
#include "model/store/store.h"
#include "model/trends/trendhistory.h"
#include "ui/formatting.h"
#include "ui/models/comparisontablemodel.h"
#include "ui/models/runpickerlistmodel.h"
#include "ui/models/trendchangestablemodel.h"
#include "ui/views/compareview.h"
#include "ui/widgets/elidingcombobox.h"
#include "ui/views/trendsview.h"
#include "ui/backgroundpool.h"
#include "sizingtestsupport.h"
#include "nightlystoretest.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCompleter>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QLabel>
#include <QComboBox>
#include <QDateEdit>
#include <QDateTimeAxis>
#include <QHeaderView>
#include <QLineSeries>
#include <QMouseEvent>
#include <QToolTip>
#include <QValueAxis>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThreadPool>

#include <map>

#include <nlohmann/json.hpp>

using namespace plimsoll;
using plimsoll::test::nightlyRun;
using plimsoll::test::waitUntil;

namespace {

using CompareViewTest = plimsoll::test::NightlyStoreTest;

// The verdict of a metric's row in the delta table, or empty when there is no such row.
QString verdictOf(const QTableView *table, const QString &metric)
{
    const QAbstractItemModel *m = table->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, ComparisonTableModel::Metric).data().toString() == metric)
            return m->index(r, ComparisonTableModel::Verdict).data(ComparisonTableModel::VerdictRole).toString();
    return {};
}

// Runs of another scenario, older than the nightlies: "soak-000" (2026-06-01) onwards, an hour
// apart, each with a throughput of its own.
std::vector<RunRecord> soakRuns(int count)
{
    std::vector<RunRecord> runs;
    const QDateTime first(QDate(2026, 6, 1), QTime(0, 0), Qt::UTC);
    for (int i = 0; i < count; ++i) {
        RunRecord r = nightlyRun(1, "50a4" + std::to_string(i), 300000 + 10 * i);
        r.runKey = QStringLiteral("soak-%1").arg(i, 3, 10, QLatin1Char('0')).toStdString();
        r.timestamp = first.addSecs(3600 * i).toString(Qt::ISODate).toStdString();
        r.scenarios[0].name = "soak/offload/consume";
        runs.push_back(r);
    }
    return runs;
}

// What the search finds, as the completer lists it: run keys, newest first.
QStringList foundKeys(const QCompleter *completer)
{
    QStringList keys;
    const QAbstractItemModel *m = completer->completionModel();
    for (int r = 0; r < m->rowCount(); ++r)
        keys << m->index(r, 0).data(RunPickerListModel::RunKeyRole).toString();
    return keys;
}

// Types `text` into a picker's search field as a user does and waits for what the store found.
bool typeSearch(CompareView &view, QLineEdit *field, const QString &text)
{
    QSignalSpy found(&view, &CompareView::searchFinished);
    QApplication::setActiveWindow(&view);
    field->setFocus();
    field->clear();
    QTest::keyClicks(field, text);
    return found.wait(5000);
}

} // namespace

// Typing part of a run's key or of one of its scenarios' names lists the matching runs of the
// store, newest first; picking one compares it.
TEST_F(CompareViewTest, PickerFindsARunByPartOfItsKeyOrScenario)
{
    Store(m_storePath.toStdString())
        .importSource({"test:soak", "plimsoll-trend", "sha-soak", "test", "1", "2026-10-01T00:00:00Z", false},
                      soakRuns(3));
    CompareView view(m_storePath);
    QAbstractItemModelTester runs(view.runList(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester found(view.baselineCompleter()->model(),
                                   QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.resize(1100, 640);
    view.show();
    view.reload();
    view.setRuns("nightly-2026-09-29", "nightly-2026-09-30");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-30"; }));

    ASSERT_TRUE(typeSearch(view, view.currentSearch(), "09-2"));
    EXPECT_EQ(foundKeys(view.currentCompleter()),
              QStringList({"nightly-2026-09-29", "nightly-2026-09-28", "nightly-2026-09-27", "nightly-2026-09-26",
                           "nightly-2026-09-25", "nightly-2026-09-24", "nightly-2026-09-23", "nightly-2026-09-22",
                           "nightly-2026-09-21", "nightly-2026-09-20"}));

    // By scenario, without case: only the soak runs have "Offload".
    ASSERT_TRUE(typeSearch(view, view.baselineSearch(), "Offload"));
    EXPECT_EQ(foundKeys(view.baselineCompleter()), QStringList({"soak-002", "soak-001", "soak-000"}));
    QAbstractItemView *popup = view.baselineCompleter()->popup();
    ASSERT_TRUE(waitUntil([&] { return popup->isVisible(); }));
    const QModelIndex second = popup->model()->index(1, 0);
    EXPECT_TRUE(second.data().toString().startsWith("soak-001  (")) << second.data().toString().toStdString();
    QTest::mouseClick(popup->viewport(), Qt::LeftButton, {}, popup->visualRect(second).center());

    ASSERT_TRUE(waitUntil([&] { return view.comparison().baseline.runKey == "soak-001"; }));
    EXPECT_EQ(view.baselineCombo()->currentData(RunPickerListModel::RunKeyRole).toString(), "soak-001");
    EXPECT_EQ(view.baselineSearch()->text(), "soak-001");
    EXPECT_EQ(view.comparison().current.runKey, "nightly-2026-09-30");
    // One scenario each, named apart: compared by position, and the view says so.
    EXPECT_TRUE(view.comparison().onlyInBaseline.empty());
    EXPECT_EQ(view.comparison().scenarios.front().currentScenario, "nightly/pipeline/produce/step-16");
    EXPECT_TRUE(view.alignmentLabel()->text().startsWith("Scenarios aligned by position (one scenario each)"))
        << view.alignmentLabel()->text().toStdString();

    // Nothing matches: nothing listed, the comparison stays.
    ASSERT_TRUE(typeSearch(view, view.baselineSearch(), "no-such-run"));
    EXPECT_TRUE(foundKeys(view.baselineCompleter()).isEmpty());
    EXPECT_EQ(view.comparison().baseline.runKey, "soak-001");
}

// A store of more runs than a page: the pickers list the newest page, the next as the list is
// scrolled to its end, and a run far beyond them is found, listed in its place and compared.
TEST_F(CompareViewTest, PickersListThePagesReadAndFindRunsBeyondThem)
{
    const int soak = 2 * CompareView::kPageRuns + 20;
    Store(m_storePath.toStdString())
        .importSource({"test:soak", "plimsoll-trend", "sha-soak", "test", "1", "2026-10-01T00:00:00Z", false},
                      soakRuns(soak));
    CompareView view(m_storePath);
    view.resize(1100, 640);
    view.show();
    view.reload();
    view.setRuns("nightly-2026-09-29", "nightly-2026-09-30");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-30"; }));
    QComboBox *combo = view.baselineCombo();
    EXPECT_EQ(combo->count(), CompareView::kPageRuns);
    EXPECT_EQ(combo->itemData(0, RunPickerListModel::RunKeyRole).toString(), "nightly-2026-09-30");

    // What the list's view asks for when scrolled to its end.
    ASSERT_TRUE(view.runList()->canFetchMore({}));
    view.runList()->fetchMore({});
    ASSERT_TRUE(waitUntil([&] { return combo->count() == 2 * CompareView::kPageRuns; })) << combo->count();
    // Newest first across the pages: the soak runs follow the nightlies an hour apart.
    for (int i = 1; i < combo->count(); ++i)
        ASSERT_GT(view.runList()->runAt(i - 1).timestamp, view.runList()->runAt(i).timestamp) << i;

    ASSERT_TRUE(typeSearch(view, view.baselineSearch(), "soak-000"));
    ASSERT_EQ(foundKeys(view.baselineCompleter()), QStringList{"soak-000"});
    QAbstractItemView *popup = view.baselineCompleter()->popup();
    ASSERT_TRUE(waitUntil([&] { return popup->isVisible(); }));
    QTest::mouseClick(popup->viewport(), Qt::LeftButton, {},
                      popup->visualRect(popup->model()->index(0, 0)).center());
    ASSERT_TRUE(waitUntil([&] { return view.comparison().baseline.runKey == "soak-000"; }));
    // Listed last (the oldest run), the pages still continuing where they stopped.
    EXPECT_EQ(combo->count(), 2 * CompareView::kPageRuns + 1);
    EXPECT_EQ(combo->currentIndex(), combo->count() - 1);
    ASSERT_TRUE(view.runList()->canFetchMore({}));
    view.runList()->fetchMore({});
    ASSERT_TRUE(waitUntil([&] { return view.runList()->isComplete(); }));
    EXPECT_EQ(combo->count(), 30 + soak);
    EXPECT_EQ(combo->currentData(RunPickerListModel::RunKeyRole).toString(), "soak-000");

    // Asked for by key (another view's "compare with…"), a run not listed yet is read and chosen.
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return combo->count() == CompareView::kPageRuns + 1; })) << combo->count();
    view.setRuns("soak-005", "soak-006");
    ASSERT_TRUE(waitUntil([&] {
        return view.comparison().baseline.runKey == "soak-005" && view.comparison().current.runKey == "soak-006";
    }));
}

// Comparing reads the two runs and the recent runs of their scenarios only: another scenario's
// runs stay unread, and the comparison is the one the whole history gives.
TEST_F(CompareViewTest, ComparingReadsOnlyTheChosenRunsSeries)
{
    Store store(m_storePath.toStdString());
    store.importSource({"test:soak", "plimsoll-trend", "sha-soak", "test", "1", "2026-10-01T00:00:00Z", false},
                       soakRuns(300));
    const TrendHistory whole = TrendHistory::load(store);
    ASSERT_EQ(whole.runs().size(), 330u);
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"nightly-2026-09-28", "nightly-2026-09-29"},
        {"nightly-2026-09-20", "nightly-2026-09-21"},
        {"nightly-2026-09-29", "nightly-2026-09-30"},
        {"nightly-2026-09-05", "nightly-2026-09-25"}};
    for (const auto &[b, c] : pairs) {
        SCOPED_TRACE(b + " vs " + c);
        const TrendHistory read = comparisonHistory(store, b, c);
        // Every nightly up to the current run, each with its nightly scenario only.
        const int day = std::stoi(c.substr(c.size() - 2));
        ASSERT_EQ(read.runs().size(), size_t(day));
        for (const RunRecord &r : read.runs()) {
            EXPECT_EQ(r.runKey.rfind("nightly-", 0), 0u) << r.runKey;
            EXPECT_LE(r.timestamp, read.findRun(c)->timestamp);
            ASSERT_EQ(r.scenarios.size(), 1u);
        }
        const RunComparison expected = compareRuns(whole, b, c, {});
        const RunComparison got = compareRuns(read, b, c, {});
        ASSERT_EQ(got.scenarios.size(), expected.scenarios.size());
        EXPECT_EQ(got.tested, expected.tested);
        for (size_t s = 0; s < got.scenarios.size(); ++s) {
            ASSERT_EQ(got.scenarios[s].metrics.size(), expected.scenarios[s].metrics.size());
            EXPECT_EQ(got.scenarios[s].compatible, expected.scenarios[s].compatible);
            for (size_t m = 0; m < got.scenarios[s].metrics.size(); ++m) {
                const MetricComparison &g = got.scenarios[s].metrics[m], &e = expected.scenarios[s].metrics[m];
                EXPECT_EQ(g.metric, e.metric);
                EXPECT_EQ(g.verdict, e.verdict) << g.metric;
                EXPECT_EQ(g.historyPoints, e.historyPoints) << g.metric;
                EXPECT_DOUBLE_EQ(g.noiseBand, e.noiseBand) << g.metric;
                EXPECT_EQ(g.adjustedPValue, e.adjustedPValue) << g.metric;
            }
        }
    }
    // However long the series, at most the newest runs of it before the current one are read.
    const TrendHistory bounded = comparisonHistory(store, "nightly-2026-09-28", "nightly-2026-09-29", 5);
    EXPECT_EQ(bounded.runs().size(), 5u);
    EXPECT_EQ(bounded.runs().front().runKey, "nightly-2026-09-25");
    EXPECT_THROW(comparisonHistory(store, "nightly-2026-09-28", "no-such-run"), std::invalid_argument);
}

TEST_F(CompareViewTest, VerdictRowsAndIncompatibleKeys)
{
    CompareView view(m_storePath);
    QAbstractItemModelTester deltas(view.deltaTable()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester diffs(view.incompatibleTable()->model(),
                                   QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.resize(1100, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.baselineCombo()->count() == 30; }));

    view.setRuns("nightly-2026-09-28", "nightly-2026-09-29");
    ASSERT_TRUE(waitUntil([&] {
        return view.comparison().current.runKey == "nightly-2026-09-29" &&
               view.comparison().baseline.runKey == "nightly-2026-09-28";
    }));
    EXPECT_EQ(view.deltaTable()->model()->rowCount(), 2);
    EXPECT_EQ(verdictOf(view.deltaTable(), "latency_p99_s"), "regression");
    EXPECT_EQ(verdictOf(view.deltaTable(), "records_per_s"), "unchanged");
    EXPECT_EQ(view.incompatibleTable()->model()->rowCount(), 0);
    EXPECT_TRUE(view.summaryText().startsWith("1 regression(s)")) << view.summaryText().toStdString();

    // Throughput dropped 12.5 % between night 20 and night 21: a regression beyond the noise.
    view.setRuns("nightly-2026-09-20", "nightly-2026-09-21");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-21"; }));
    EXPECT_EQ(verdictOf(view.deltaTable(), "records_per_s"), "regression");

    // The retuned night: no delta rows at all, the differing key listed with both values.
    view.setRuns("nightly-2026-09-29", "nightly-2026-09-30");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-30"; }));
    EXPECT_EQ(view.deltaTable()->model()->rowCount(), 0);
    const QAbstractItemModel *inc = view.incompatibleTable()->model();
    ASSERT_EQ(inc->rowCount(), 1);
    EXPECT_EQ(inc->index(0, IncompatibleTableModel::Key).data().toString(), "tuning.batch.size");
    EXPECT_EQ(inc->index(0, IncompatibleTableModel::Baseline).data().toString(), "16384");
    EXPECT_EQ(inc->index(0, IncompatibleTableModel::Current).data().toString(), "65536");
    EXPECT_TRUE(view.grab().save(artifact("compare-incompatible.png")));

    view.setRuns("nightly-2026-09-28", "nightly-2026-09-29");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-29"; }));
    QTest::qWait(50);
    EXPECT_TRUE(view.grab().save(artifact("compare-view.png")));
}

// The view and `plimsoll compare` make the same request of the same code: for three pairs (a
// regression, an unchanged night, the retuned night), every scenario's status and every metric's
// noise band and verdict are the command line's.
TEST_F(CompareViewTest, ComparesAsTheCommandLineCompares)
{
    CompareView view(m_storePath);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.baselineCombo()->count() == 30; }));
    for (const auto &[base, cur] : {std::pair{"nightly-2026-09-20", "nightly-2026-09-21"},
                                    std::pair{"nightly-2026-09-27", "nightly-2026-09-28"},
                                    std::pair{"nightly-2026-09-29", "nightly-2026-09-30"}}) {
        SCOPED_TRACE(std::string(base) + " → " + cur);
        view.setRuns(QString::fromLatin1(base), QString::fromLatin1(cur));
        ASSERT_TRUE(waitUntil([&] {
            return view.comparison().current.runKey == cur && view.comparison().baseline.runKey == base;
        }));
        const nlohmann::json cli = plimsoll::test::cliJson(
            m_storePath, QStringLiteral("compare"),
            {QStringLiteral("--baseline"), QString::fromLatin1(base), QStringLiteral("--current"), QString::fromLatin1(cur)});
        const RunComparison &shown = view.comparison();
        ASSERT_EQ(shown.scenarios.size(), cli["scenarios"].size());
        for (std::size_t i = 0; i < shown.scenarios.size(); ++i) {
            const ScenarioComparison &s = shown.scenarios[i];
            const nlohmann::json &line = cli["scenarios"][i];
            EXPECT_EQ(s.scenario, line["scenario"]);
            EXPECT_EQ(s.compatible ? "compatible" : "incompatible", line["status"].get<std::string>());
            if (!s.compatible)
                continue;
            ASSERT_EQ(s.metrics.size(), line["metrics"].size());
            for (std::size_t m = 0; m < s.metrics.size(); ++m) {
                SCOPED_TRACE(s.metrics[m].metric);
                EXPECT_EQ(s.metrics[m].metric, line["metrics"][m]["metric"]);
                EXPECT_EQ(toString(s.metrics[m].verdict), line["metrics"][m]["verdict"]);
                EXPECT_DOUBLE_EQ(s.metrics[m].noiseBand, line["metrics"][m]["noise_band"].get<double>());
            }
        }
    }
}

TEST(ComparisonTableModel, ShowsWhyAThroughputIsNotComparableAndCpuFollowsIt)
{
    // Two ramp steps offered 20k and 10k records/s: the verdicts the model gives, as the table shows them.
    auto step = [](const std::string &key, int d, double offered, double achieved, double cpu) {
        RunRecord r = nightlyRun(d, "c" + std::to_string(d), achieved);
        r.runKey = key;
        r.scenarios[0].metrics = {{"records_per_s", achieved},
                                  {"broker_cpu_avg", cpu},
                                  {"ramp.offered_records_per_s", offered}};
        return r;
    };
    const RunComparison c = compareRuns(
        TrendHistory::fromRuns({step("fast", 1, 20000, 19900, 0.40), step("slow", 2, 10000, 9950, 0.20)}), "fast",
        "slow", {});
    ComparisonTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setComparison(c);
    ASSERT_EQ(model.rowCount(), 2);
    std::map<QString, int> rowOf;
    for (int r = 0; r < model.rowCount(); ++r)
        rowOf[model.index(r, ComparisonTableModel::Metric).data().toString()] = r;
    const QModelIndex tp = model.index(rowOf.at("records_per_s"), ComparisonTableModel::Verdict);
    EXPECT_EQ(tp.data().toString(), "not comparable");
    EXPECT_EQ(tp.data(ComparisonTableModel::VerdictRole).toString(), "not_comparable");
    EXPECT_TRUE(tp.data(Qt::ToolTipRole).toString().contains("achieved/offered")) << tp.data(Qt::ToolTipRole).toString().toStdString();
    const QModelIndex cpu = model.index(rowOf.at("broker_cpu_avg"), ComparisonTableModel::Verdict);
    EXPECT_EQ(cpu.data().toString(), "follows throughput");
    EXPECT_TRUE(cpu.data(Qt::ToolTipRole).toString().contains("per record")) << cpu.data(Qt::ToolTipRole).toString().toStdString();
    EXPECT_FALSE(cpu.data(Qt::BackgroundRole).isValid()) << "neither red nor green";
}

// A ramp's USL parameters read as a user reads them: λ in its throughput unit with its interval
// beside it (no 7.733e+04, no interval in the Noise band column), a tiny κ as a power of ten,
// and a fit without an interval says so instead of printing nan.
TEST(ComparisonTableModel, UslParametersShowUnitsAndIntervalsBesideTheirValues)
{
    RunComparison c;
    RampComparison ramp;
    ramp.family = "pipeline/produce/";
    ramp.factor = "producers";
    ramp.metric = "records_per_s";
    ParameterComparison lambda{"lambda", Direction::HigherIsBetter, 77330, 80000, {75100, 79800}, {}, Verdict::Unchanged};
    ParameterComparison kappa{"kappa", Direction::LowerIsBetter, 0.0000211, 0.0000195, {}, {}, Verdict::Unchanged};
    ramp.parameters = {lambda, kappa};
    c.ramps = {ramp};
    ComparisonTableModel model;
    model.setComparison(c);
    ASSERT_EQ(model.rowCount(), 2);
    const QString base = model.index(0, ComparisonTableModel::Baseline).data().toString();
    EXPECT_FALSE(base.contains("e+")) << base.toStdString();
    EXPECT_TRUE(base.startsWith("77,330 rec/s")) << base.toStdString();
    EXPECT_TRUE(base.contains(" – ")) << base.toStdString(); // its interval beside it
    const QString current = model.index(0, ComparisonTableModel::Current).data().toString();
    EXPECT_TRUE(current.endsWith("(no interval)")) << current.toStdString();
    EXPECT_FALSE(current.contains("nan")) << current.toStdString();
    EXPECT_EQ(model.index(0, ComparisonTableModel::NoiseBand).data().toString(), "—");
    EXPECT_EQ(model.index(1, ComparisonTableModel::Baseline).data().toString(), "2.11 × 10⁻⁵ (no interval)");
}

// "Leave key out" can be taken back: the undo bar says what was left out, Undo puts the key
// back in the contract and the runs are incompatible again.
TEST_F(CompareViewTest, LeavingAKeyOutCanBeUndone)
{
    CompareView view(m_storePath);
    view.resize(1100, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.baselineCombo()->count() == 30; }));
    view.setRuns("nightly-2026-09-29", "nightly-2026-09-30");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().current.runKey == "nightly-2026-09-30"; }));
    ASSERT_EQ(view.incompatibleTable()->model()->rowCount(), 1);
    EXPECT_FALSE(view.undoButton()->isVisibleTo(&view));
    view.incompatibleTable()->selectRow(0);
    ASSERT_TRUE(view.leaveKeyOutButton()->isEnabled());
    QSignalSpy changed(&view, &StoreView::sharedSettingsChanged);
    view.leaveKeyOutButton()->click();
    ASSERT_TRUE(waitUntil([&] { return view.incompatibleTable()->model()->rowCount() == 0 && changed.count() == 1; }));
    EXPECT_GT(view.deltaTable()->model()->rowCount(), 0);
    EXPECT_TRUE(view.undoButton()->isVisibleTo(&view));
    EXPECT_TRUE(view.undoLabel()->text().contains("Left tuning.batch.size out of the contract of"))
        << view.undoLabel()->text().toStdString();
    view.undoButton()->click();
    ASSERT_TRUE(waitUntil([&] { return view.incompatibleTable()->model()->rowCount() == 1 && changed.count() == 2; }));
    EXPECT_EQ(view.deltaTable()->model()->rowCount(), 0);
    EXPECT_FALSE(view.undoButton()->isVisibleTo(&view));
    EXPECT_TRUE(loadContractPolicies(Store(m_storePath.toStdString())).forScenario("nightly/pipeline/produce/step-16").excluded.empty());
}

// At the width a 1024 px window leaves each picker, a long run key gives up its middle, never the
// time at its end: the face shows the start of the key and the whole "(date time)", hovering
// shows the whole text, and a picker wide enough shows it all.
TEST_F(CompareViewTest, NarrowPickersKeepTheEndOfARunsText)
{
    Store store(m_storePath.toStdString());
    RunRecord r = nightlyRun(30, "feedbeef", 600000);
    r.runKey = "sample:korvet-remote-archival-with-a-long-nightly-key";
    store.importSource({"test:long", "plimsoll-trend", "sha-long", "test", "1", "2026-10-01T00:00:00Z", false}, {r});
    CompareView view(m_storePath);
    view.resize(820, 640);
    view.show();
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.baselineCombo()->count() == 31; }));
    view.setRuns(QString::fromStdString(r.runKey), "nightly-2026-09-29");
    ASSERT_TRUE(waitUntil([&] { return view.comparison().baseline.runKey == r.runKey; }));
    QTest::qWait(20);

    auto *picker = qobject_cast<ElidingComboBox *>(view.baselineCombo());
    ASSERT_NE(picker, nullptr);
    const QString whole = picker->currentText();
    ASSERT_TRUE(whole.startsWith(QString::fromStdString(r.runKey))) << whole.toStdString();
    const QString shown = picker->shownText();
    EXPECT_TRUE(shown.contains(QChar(0x2026))) << shown.toStdString();
    EXPECT_TRUE(shown.startsWith(QStringLiteral("sample:korvet"))) << shown.toStdString();
    EXPECT_TRUE(shown.endsWith(whole.right(12))) << "the time and its ')' stay: " << shown.toStdString();
    QHelpEvent hover(QEvent::ToolTip, QPoint(10, 10), picker->mapToGlobal(QPoint(10, 10)));
    QApplication::sendEvent(picker, &hover);
    EXPECT_EQ(QToolTip::text(), whole) << "hovering shows the whole text";

    view.resize(1600, 640);
    QTest::qWait(20);
    EXPECT_EQ(picker->shownText(), whole) << "whole where it fits";
}

// The two runs' latency percentiles overlaid, scenario by scenario, beside the deltas.
TEST(CompareSpectrum, OverlaysBothRunsPercentilesForTheScenariosTheyShare)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath("store.plimsoll");
    {
        std::vector<RunRecord> runs;
        for (int d = 1; d <= 2; ++d) {
            RunRecord r = nightlyRun(d, "c0ffee" + std::to_string(d), 600000);
            r.scenarios[0].metrics = {{"records_per_s", 600000.0},
                                      {"latency_p50_s", 0.002 * d},
                                      {"latency_p99_s", 0.010 * d},
                                      {"latency_p999_s", 0.030 * d}};
            runs.push_back(r);
        }
        Store(path.toStdString())
            .importSource({"test:two", "plimsoll-trend", "sha-two", "test", "1", "2026-10-01T00:00:00Z", false}, runs);
    }
    CompareView view(path);
    view.resize(1100, 640);
    view.show();
    view.reload();
    view.setRuns(QString::fromStdString(nightlyRun(1, "x", 1).runKey), QString::fromStdString(nightlyRun(2, "x", 1).runKey));
    ASSERT_TRUE(waitUntil([&] { return view.spectrumChart()->series().size() == 2; }));
    EXPECT_EQ(view.resultTabs()->tabText(1), QStringLiteral("Latency spectrum"));
    EXPECT_EQ(view.spectrumFamilyCombo()->currentText(), QStringLiteral("latency"));
    const QString scenario = QString::fromStdString(nightlyRun(1, "x", 1).scenarios[0].name);
    auto *baseline = qobject_cast<QLineSeries *>(view.spectrumChart()->series()[0]);
    auto *current = qobject_cast<QLineSeries *>(view.spectrumChart()->series()[1]);
    EXPECT_EQ(baseline->name(), QStringLiteral("baseline · ") + scenario);
    EXPECT_EQ(current->name(), QStringLiteral("current · ") + scenario);
    ASSERT_EQ(current->count(), 3);
    // The current run (night 2) is twice as slow at every percentile.
    for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(current->at(i).y(), 2 * baseline->at(i).y(), 1e-9);
    backgroundPool()->waitForDone();
}
