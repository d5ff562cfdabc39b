// Compare of several runs in the window: three redis-benchmark runs at 10, 50 and 100 clients
// selected in the Library and opened with "Compare These"; the side-by-side table, the
// alignment line, the spectra and bars read as `plimsoll compare` of the same runs reports them;
// with nothing chosen, the view says how to choose. Screenshots go to PLIMSOLL_ARTIFACT_DIR.
#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/mainwindow.h"
#include "ui/models/runsfilterproxymodel.h"
#include "ui/models/sidebysidetablemodel.h"
#include "ui/views/compareview.h"
#include "ui/views/libraryview.h"
#include "sizingtestsupport.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>

#include <set>

using namespace plimsoll;
using plimsoll::test::waitUntil;

namespace {

// redis-benchmark's SET and GET at `clients` clients: throughput and latency grow with them.
RunRecord redisRun(int clients, int hour)
{
    RunRecord r;
    r.runKey = "redis-benchmark:c" + std::to_string(clients);
    r.timestamp = "2026-11-20T1" + std::to_string(hour) + ":00:00Z";
    r.tool = "redis-benchmark";
    r.toolVersion = "7.2";
    r.target = "redis";
    for (const char *command : {"SET", "GET"}) {
        ScenarioRecord s;
        s.name = std::string("redis-benchmark/") + command + "/c-" + std::to_string(clients);
        s.topology.clients = clients;
        s.topology.connections = clients;
        const double get = command[0] == 'G' ? 1.1 : 1.0;
        s.metrics = {{"records_per_s", 2000.0 * clients * get + 80000},
                     {"latency_p50_s", 0.00001 * clients},
                     {"latency_p99_s", 0.00003 * clients},
                     {"latency_p999_s", 0.00005 * clients}};
        r.scenarios.push_back(s);
    }
    return r;
}

class CompareManyUi : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        m_storePath = m_dir.filePath(QStringLiteral("store.plimsoll"));
        Store(m_storePath.toStdString())
            .importSource({"test:redis", "redis-benchmark", "sha-redis", "test", "1", "2026-11-21T00:00:00Z", false},
                          {redisRun(10, 1), redisRun(50, 2), redisRun(100, 3)});
    }
    void TearDown() override
    {
        m_window.reset();
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }

    QTemporaryDir m_dir;
    QString m_storePath;
    std::unique_ptr<MainWindow> m_window;
};

// The table's text for a run's column on the row of (scenario, metric).
QString cellText(const QTableView *table, const QString &scenario, const QString &metric, int column)
{
    const QAbstractItemModel *m = table->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, SideBySideTableModel::Scenario).data().toString() == scenario &&
            m->index(r, SideBySideTableModel::Metric).data().toString() == metric)
            return m->index(r, column).data().toString();
    return {};
}

} // namespace

TEST_F(CompareManyUi, LibrarySelectionOfThreeRunsComparesThemAsTheCommandLineDoes)
{
    m_window = std::make_unique<MainWindow>(m_storePath);
    m_window->resize(1280, 780);
    m_window->show();
    m_window->start(false);
    LibraryView *library = m_window->libraryView();
    ASSERT_TRUE(waitUntil([&] { return library->runsProxy()->rowCount() == 3; }));
    QAction *compareThese = library->compareTheseAction();
    EXPECT_FALSE(compareThese->isEnabled()) << "nothing selected yet";

    // Ctrl-click three runs: newest first in the Library, so the 100-client run is the baseline.
    QTableView *runs = library->table();
    runs->selectionModel()->clearSelection();
    for (int row = 0; row < 3; ++row)
        runs->selectionModel()->select(runs->model()->index(row, 0),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
    ASSERT_TRUE(compareThese->isEnabled());
    const QStringList keys = library->selectedRunKeys();
    ASSERT_EQ(keys, QStringList({"redis-benchmark:c100", "redis-benchmark:c50", "redis-benchmark:c10"}));
    compareThese->trigger();

    auto *compare = m_window->findChild<CompareView *>();
    ASSERT_NE(compare, nullptr);
    ASSERT_TRUE(waitUntil([&] { return compare->runsComparison().runs.size() == 3; }, 20000));
    EXPECT_TRUE(compare->isVisibleTo(m_window.get()));
    EXPECT_EQ(compare->alignmentLabel()->text(), QStringLiteral("Scenarios aligned by clients: 100 ↔ 50 ↔ 10."));
    EXPECT_EQ(compare->resultTabs()->currentIndex(), 0);
    EXPECT_EQ(compare->resultTabs()->tabText(0), QStringLiteral("Side by side"));

    // What the user reads: a column per run, the 100-client run the baseline.
    const QTableView *table = compare->sideBySideTable();
    const SideBySideTableModel *model = compare->sideBySideModel();
    QStringList headers;
    for (int c = 0; c < table->model()->columnCount(); ++c)
        headers << table->model()->headerData(c, Qt::Horizontal).toString();
    EXPECT_EQ(headers, QStringList({"Scenario", "Metric", "A (baseline)", "B", "Δ B", "C", "Δ C"}));
    const QString set = QStringLiteral("redis-benchmark/SET/c-100");
    EXPECT_EQ(cellText(table, set, "records_per_s", model->valueColumn(0)), QStringLiteral("280,000 rec/s"));
    EXPECT_EQ(cellText(table, set, "records_per_s", model->valueColumn(2)), QStringLiteral("100,000 rec/s"));
    // 100,000 against 280,000: −64.3 %, a regression beyond the 1 % floor.
    EXPECT_EQ(cellText(table, set, "records_per_s", model->deltaColumn(2)), QStringLiteral("-64.3 % regression"));
    EXPECT_EQ(cellText(table, set, "latency_p99_s", model->valueColumn(1)), QStringLiteral("1.5 ms"));

    // Parity: `plimsoll compare A B C --json` on the same store gives the same rows, values and verdicts.
    const nlohmann::json cli = plimsoll::test::cliJson(m_storePath, QStringLiteral("compare"), keys);
    EXPECT_EQ(QString::fromStdString(cli["alignment"]["text"]), compare->alignmentLabel()->text());
    ASSERT_EQ(static_cast<int>(cli["table"].size()), model->rowCount());
    for (int r = 0; r < model->rowCount(); ++r) {
        const ComparedRow &row = model->rowAt(r);
        const nlohmann::json &line = cli["table"][static_cast<std::size_t>(r)];
        SCOPED_TRACE(row.scenario + " " + row.metric);
        EXPECT_EQ(row.scenario, line["scenario"]);
        EXPECT_EQ(row.metric, line["metric"]);
        for (std::size_t i = 0; i < 3; ++i) {
            const QModelIndex value = model->index(r, model->valueColumn(i));
            EXPECT_DOUBLE_EQ(value.data(SideBySideTableModel::ValueRole).toDouble(),
                             line["cells"][i]["value"].get<double>());
            EXPECT_EQ(line["cells"][i]["run_key"], keys[static_cast<int>(i)].toStdString());
            if (i == 0)
                continue;
            const QModelIndex delta = model->index(r, model->deltaColumn(i));
            EXPECT_EQ(delta.data(SideBySideTableModel::VerdictRole).toString().toStdString(),
                      line["cells"][i]["verdict"].get<std::string>());
            EXPECT_NEAR(delta.data(SideBySideTableModel::ValueRole).toDouble(),
                        line["cells"][i]["delta_percent"].get<double>(), 1e-9);
        }
    }

    // The spectrum overlays all three runs, one colour each; the bars have a set per run.
    compare->resultTabs()->setCurrentIndex(1);
    ASSERT_EQ(compare->spectrumChart()->series().size(), 6); // SET and GET of each run
    std::set<QRgb> spectrumColours;
    for (QAbstractSeries *s : compare->spectrumChart()->series())
        if (s->name().contains(QStringLiteral("/SET/")))
            spectrumColours.insert(qobject_cast<QLineSeries *>(s)->color().rgb());
    EXPECT_EQ(spectrumColours.size(), 3u);
    EXPECT_EQ(compare->spectrumChart()->series().at(2)->name(), QStringLiteral("C · redis-benchmark/SET/c-10"));
    for (QChart *chart : {compare->throughputChart(), compare->p99Chart()}) {
        ASSERT_EQ(chart->series().size(), 1);
        auto *bars = qobject_cast<QBarSeries *>(chart->series().front());
        ASSERT_EQ(bars->count(), 3);
        std::set<QRgb> colours;
        for (QBarSet *b : bars->barSets())
            colours.insert(b->color().rgb());
        EXPECT_EQ(colours.size(), 3u);
        EXPECT_EQ(bars->barSets().at(0)->count(), 2); // SET and GET
    }
    EXPECT_EQ(compare->p99Chart()->title(), QStringLiteral("p99 latency"));
    // Bars per scenario of the baseline, named without the part they all share.
    auto *categories = qobject_cast<QBarCategoryAxis *>(compare->p99Chart()->axes(Qt::Horizontal).front());
    ASSERT_NE(categories, nullptr);
    EXPECT_EQ(categories->categories(), QStringList({"SET/c-100", "GET/c-100"}));
    EXPECT_EQ(compare->p99Chart()->axes(Qt::Vertical).front()->titleText(), QStringLiteral("ms"));
    EXPECT_EQ(compare->throughputChart()->axes(Qt::Vertical).front()->titleText(), QStringLiteral("k records/s"));
    EXPECT_EQ(qobject_cast<QBarSeries *>(compare->throughputChart()->series().front())->barSets().at(0)->label(),
              QStringLiteral("A (baseline)"));
    EXPECT_TRUE(compare->runLegend()->text().contains(QStringLiteral("<b>C</b> redis-benchmark:c10")))
        << compare->runLegend()->text().toStdString();

    // At 1024×700 and 1600×1000 every column shows its whole header and no value reads as a raw float.
    compare->resultTabs()->setCurrentIndex(0);
    const QRegularExpression rawFloat(QStringLiteral("\\d\\.\\d{5,}|e[-+]\\d"));
    for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
        m_window->resize(size);
        QTest::qWait(50);
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            const QString title = table->model()->headerData(c, Qt::Horizontal).toString();
            EXPECT_GE(table->horizontalHeader()->sectionSize(c),
                      table->horizontalHeader()->fontMetrics().horizontalAdvance(title))
                << title.toStdString();
            for (int r = 0; r < table->model()->rowCount(); ++r) {
                const QString text = table->model()->index(r, c).data().toString();
                EXPECT_FALSE(rawFloat.match(text).hasMatch()) << text.toStdString();
                EXPECT_GT(table->horizontalHeader()->sectionSize(c), table->fontMetrics().horizontalAdvance(text))
                    << "cut off: " << text.toStdString();
            }
        }
        for (int tab = 0; tab < 3; ++tab) {
            compare->resultTabs()->setCurrentIndex(tab);
            QTest::qWait(20);
            EXPECT_TRUE(m_window->grab().save(QDir(plimsoll::test::artifactDir())
                                                  .filePath(QStringLiteral("compare-three-runs-%1-%2x%3.png")
                                                                .arg(tab)
                                                                .arg(size.width())
                                                                .arg(size.height()))));
        }
        compare->resultTabs()->setCurrentIndex(0);
    }
}

TEST_F(CompareManyUi, OpensOnNoRunsAndSaysHowToChoose)
{
    CompareView view(m_storePath);
    view.resize(1024, 700);
    view.show();
    QSignalSpy loaded(&view, &CompareView::runsLoaded);
    view.reload();
    ASSERT_TRUE(loaded.wait(5000));
    QTest::qWait(50);
    EXPECT_EQ(view.baselineCombo()->currentIndex(), -1);
    EXPECT_EQ(view.currentCombo()->currentIndex(), -1);
    EXPECT_TRUE(view.runsComparison().empty());
    EXPECT_TRUE(view.alignmentLabel()->text().contains(QStringLiteral("select two or more in the Library and choose "
                                                                      "<b>Compare these</b>")))
        << view.alignmentLabel()->text().toStdString();
    EXPECT_EQ(view.sideBySideTable()->model()->rowCount(), 0);

    // Two runs picked: compared, the two-run words on the spectrum.
    view.setRuns(QStringLiteral("redis-benchmark:c10"), QStringLiteral("redis-benchmark:c50"));
    ASSERT_TRUE(waitUntil([&] { return view.runsComparison().runs.size() == 2; }));
    EXPECT_EQ(view.alignmentLabel()->text(), QStringLiteral("Scenarios aligned by clients: 10 ↔ 50."));
    EXPECT_EQ(view.spectrumChart()->series().at(1)->name(), QStringLiteral("current · redis-benchmark/SET/c-50"));
    EXPECT_EQ(view.comparison().scenarios.front().currentScenario, "redis-benchmark/SET/c-50");
    backgroundPool()->waitForDone();
}
