// The window over a real store: the Library lists every run, Trends plots a series and shows
// the clicked run, imports report in the banner, the sample runs come and go.
#include "importers/samples.h"
#include "model/store/store.h"
#include "ui/mainwindow.h"
#include "ui/formatting.h"
#include "ui/messagebanner.h"
#include "ui/models/runsfilterproxymodel.h"
#include "ui/models/runstablemodel.h"
#include "ui/storewriter.h"
#include "ui/views/libraryview.h"
#include "ui/views/rundetailpanel.h"
#include "ui/views/trendsview.h"
#include "ui/backgroundpool.h"
#include "ui/widgets/documentationwindow.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QUrl>
#include <QChart>
#include <QChartView>
#include <QScatterSeries>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextFrame>
#include <QTest>
#include <QMenu>
#include <QMessageBox>
#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>

#include <algorithm>
#include <memory>

using namespace plimsoll;
using plimsoll::test::nightlyRun;
using plimsoll::test::waitUntil;
using plimsoll::test::clickButtonNamed;

namespace {

// Commits of the synthetic nightly series; two share the prefix "c0ffee".
const char *const kNightlyCommits[] = {"c0ffee1111", "c0ffee2222", "d00d003333", "beef004444",
                                       "fade005555", "0ddba11666"};

class MainWindowTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        // Window settings go to the temporary directory, never to the user's.
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_dir.filePath(QStringLiteral("settings")));
        m_storePath = m_dir.filePath(QStringLiteral("store.plimsoll"));
    }

    void TearDown() override
    {
        m_window.reset();
        // Background readers hold their own connections; let them end before the files go.
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }

    // Samples plus a nightly series of one scenario, so a trend has more than one point.
    int64_t populateStore()
    {
        Store store(m_storePath.toStdString());
        installSamples(store);
        std::vector<RunRecord> runs;
        const double rates[] = {612000, 640500, 598000, 655000, 661200, 642352};
        for (int i = 0; i < 6; ++i)
            runs.push_back(nightlyRun(i + 1, kNightlyCommits[i], rates[i]));
        SourceRecord source{"test:nightly", "plimsoll-trend", "sha-nightly", "test", "1",
                            "2026-09-07T00:00:00Z", false};
        store.importSource(source, runs);
        return store.runCount();
    }

    int64_t storeRunCount() const { return Store(m_storePath.toStdString()).runCount(); }

    MainWindow &openWindow(bool installSamples)
    {
        m_window = std::make_unique<MainWindow>(m_storePath);
        m_window->resize(1280, 780);
        m_window->show();
        m_window->start(installSamples);
        return *m_window;
    }

    static bool saveGrab(QWidget &widget, const QString &name)
    {
        QDir().mkpath(QStringLiteral(PLIMSOLL_ARTIFACT_DIR));
        return widget.grab().save(QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/") + name);
    }

    QTemporaryDir m_dir;
    QString m_storePath;
    std::unique_ptr<MainWindow> m_window;
};

} // namespace

TEST_F(MainWindowTest, LibraryListsEveryRunAndShowsTheSelectedOne)
{
    const int64_t expected = populateStore();
    ASSERT_GT(expected, 6);
    MainWindow &window = openWindow(false);
    LibraryView *library = window.libraryView();
    QAbstractItemModelTester modelTester(library->runsModel(),
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester proxyTester(library->runsProxy(),
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);

    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == expected; }))
        << "rows: " << library->runsModel()->rowCount() << ", store: " << expected;
    EXPECT_EQ(library->runsProxy()->rowCount(), expected);
    EXPECT_EQ(window.findChild<QLabel *>(QStringLiteral("runCountLabel"))->text(),
              QStringLiteral("%1 runs").arg(expected));

    // Newest first: the last nightly run is on top.
    QSignalSpy shown(library, &LibraryView::runDetailShown);
    library->selectRow(0);
    ASSERT_TRUE(shown.wait(10000));
    EXPECT_EQ(library->detailPanel()->fieldText(QStringLiteral("runKey")), "nightly-2026-09-06");
    EXPECT_EQ(library->detailPanel()->fieldText(QStringLiteral("commit")), "0ddba11666");
    EXPECT_EQ(library->detailPanel()->scenarioCount(), 1);

    // Typing a commit prefix narrows the table without a reload.
    library->setCommitFilter(QStringLiteral("C0FFEE"));
    EXPECT_EQ(library->runsProxy()->rowCount(), 2);
    EXPECT_EQ(library->runsModel()->rowCount(), expected);
    library->setCommitFilter(QString());

    // The search asks the store: scenario names, run keys, commits, tools and targets, in any
    // case, and the status bar says how many of the store's runs it found.
    QLabel *count = window.findChild<QLabel *>(QStringLiteral("runCountLabel"));
    QSignalSpy loaded(library, &LibraryView::runsLoaded);
    library->setSearchText(QStringLiteral("nightly/pipeline"));
    ASSERT_TRUE(loaded.wait(10000));
    EXPECT_EQ(library->runsModel()->rowCount(), 6);
    EXPECT_EQ(count->text(), QStringLiteral("6 of %1 runs").arg(expected));
    library->setSearchText(QStringLiteral("0DDBA11"));
    ASSERT_TRUE(loaded.wait(10000));
    ASSERT_EQ(library->runsModel()->rowCount(), 1);
    EXPECT_EQ(library->runsModel()->index(0, RunsTableModel::RunKeyColumn).data().toString(),
              QStringLiteral("nightly-2026-09-06"));
    EXPECT_EQ(count->text(), QStringLiteral("1 of %1 runs").arg(expected));
    library->setSearchText(QStringLiteral("NIGHTLY-2026-09-0"));
    ASSERT_TRUE(loaded.wait(10000));
    EXPECT_EQ(library->runsModel()->rowCount(), 6);
    library->setSearchText(QString());
    ASSERT_TRUE(loaded.wait(10000));
    EXPECT_EQ(library->runsModel()->rowCount(), expected);
    EXPECT_EQ(count->text(), QStringLiteral("%1 runs").arg(expected));

    library->selectRow(0);
    ASSERT_TRUE(waitUntil([&] {
        return library->detailPanel()->fieldText(QStringLiteral("runKey")) == "nightly-2026-09-06";
    }));
    EXPECT_TRUE(saveGrab(window, QStringLiteral("mainwindow-library.png")));
}

TEST_F(MainWindowTest, TrendsPlotsTheSeriesAndShowsTheClickedRun)
{
    populateStore();
    MainWindow &window = openWindow(false);
    ASSERT_TRUE(window.showView(QStringLiteral("trends")));
    EXPECT_EQ(window.currentViewKey(), "trends");
    TrendsView *trends = window.trendsView();
    ASSERT_TRUE(waitUntil([&] { return trends->scenarioCombo()->count() > 0; }));

    const std::string scenario = "nightly/pipeline/produce/step-16";
    const int index = trends->scenarioCombo()->findText(QString::fromStdString(scenario));
    ASSERT_GE(index, 0);
    trends->scenarioCombo()->setCurrentIndex(index);
    ASSERT_TRUE(waitUntil([&] {
        return trends->metricCombo()->findText(QStringLiteral("records_per_s")) >= 0;
    }));
    trends->metricCombo()->setCurrentIndex(
        trends->metricCombo()->findText(QStringLiteral("records_per_s")));
    const auto expected = Store(m_storePath.toStdString()).series(scenario, "records_per_s");
    ASSERT_EQ(expected.size(), 6u);
    ASSERT_TRUE(waitUntil([&] {
        return trends->plottedScenario() == QString::fromStdString(scenario) &&
               trends->plottedMetric() == "records_per_s" && trends->pointCount() == 6;
    })) << "points: " << trends->pointCount();

    // What QScatterSeries::clicked delivers: a value near a point's position.
    QSignalSpy selected(trends, &TrendsView::pointSelected);
    QScatterSeries *points = nullptr;
    for (QAbstractSeries *series : trends->chartView()->chart()->series()) {
        if (series->objectName() == "trendPoints")
            points = qobject_cast<QScatterSeries *>(series);
    }
    ASSERT_NE(points, nullptr);
    ASSERT_EQ(points->count(), 6);
    const QPointF nearThird = points->at(2) + QPointF(60000, points->at(2).y() * 0.001);
    trends->selectPointNear(nearThird);
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(trends->pointDetailText(QStringLiteral("runKey")),
              qtext(expected[2].runKey));
    EXPECT_EQ(trends->pointDetailText(QStringLiteral("commit")),
              qtext(expected[2].commit));
    EXPECT_EQ(trends->pointDetailText(QStringLiteral("imageDigest")),
              qtext(expected[2].imageDigest));
    EXPECT_TRUE(trends->pointDetailText(QStringLiteral("tuning")).contains("linger.ms=5"));

    trends->selectPoint(5);
    EXPECT_EQ(trends->pointDetailText(QStringLiteral("runKey")), "nightly-2026-09-06");
    EXPECT_EQ(trends->pointDetailText(QStringLiteral("value")), "642,352 rec/s");
    EXPECT_TRUE(saveGrab(window, QStringLiteral("mainwindow-trends.png")));

    // A sample scenario has one run: its single point is still drawn.
    const auto names = Store(m_storePath.toStdString()).scenarioNames();
    const auto sample = std::find_if(names.begin(), names.end(),
                                     [](const std::string &n) { return n.find("nightly") != 0; });
    ASSERT_NE(sample, names.end());
    trends->scenarioCombo()->setCurrentText(QString::fromStdString(*sample));
    ASSERT_TRUE(waitUntil([&] {
        return trends->plottedScenario() == QString::fromStdString(*sample) &&
               trends->pointCount() >= 1;
    }));
    EXPECT_TRUE(saveGrab(window, QStringLiteral("mainwindow-trends-single.png")));
}

TEST_F(MainWindowTest, BrokenImportShowsTheFailureAndChangesNothing)
{
    const int64_t expected = populateStore();
    MainWindow &window = openWindow(false);
    LibraryView *library = window.libraryView();
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == expected; }));

    const QString broken = m_dir.filePath(QStringLiteral("broken-trend.jsonl"));
    QFile file(broken);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "plimsoll-trend/1", "run_key": "x", "timestamp": "yesterday", )"
               R"("tool": "t", "target": "korvet", "scenario": "s", "metrics": {}})"
               "\n");
    file.close();

    QSignalSpy finished(window.storeWriter(), &StoreWriter::importFinished);
    QSignalSpy reloaded(library, &LibraryView::runsLoaded);
    // Dropped onto the window, as a file manager would.
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(broken)});
    QDragEnterEvent enter(QPoint(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    ASSERT_TRUE(finished.wait(15000));
    const MessageBanner *banner = window.banner();
    EXPECT_TRUE(banner->isVisible());
    EXPECT_EQ(banner->kind(), MessageBanner::Kind::Error);
    EXPECT_TRUE(banner->text().startsWith("Failed to import")) << banner->text().toStdString();
    EXPECT_TRUE(banner->text().contains("broken-trend.jsonl")) << banner->text().toStdString();
    EXPECT_TRUE(banner->text().contains("line 1")) << banner->text().toStdString();

    ASSERT_TRUE(reloaded.wait(10000));
    EXPECT_EQ(library->runsModel()->rowCount(), expected);
    EXPECT_EQ(storeRunCount(), expected);
    EXPECT_TRUE(saveGrab(window, QStringLiteral("mainwindow-import-failed.png")));
}

TEST_F(MainWindowTest, NewStoreIsSeededThenImportsAndSampleRemovalReload)
{
    MainWindow &window = openWindow(true);
    LibraryView *library = window.libraryView();
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() > 0; }));
    const int64_t samples = storeRunCount();
    EXPECT_EQ(library->runsModel()->rowCount(), samples);
    EXPECT_TRUE(window.banner()->text().startsWith("Installed the sample runs"));

    // A non-sample copy of a bundled file, under run keys of its own.
    QFile sampleFile(QStringLiteral(":/samples/single-shard.jsonl"));
    ASSERT_TRUE(sampleFile.open(QIODevice::ReadOnly));
    QByteArray bytes = sampleFile.readAll();
    bytes.replace("\"sample:", "\"copy:").replace("\"sample\": true", "\"sample\": false");
    const QString copy = m_dir.filePath(QStringLiteral("single-shard-copy.jsonl"));
    QFile out(copy);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(bytes);
    out.close();

    QSignalSpy finished(window.storeWriter(), &StoreWriter::importFinished);
    window.importFiles({copy});
    ASSERT_TRUE(finished.wait(15000));
    const auto summary = finished.takeFirst().at(0).value<ImportBatchSummary>();
    EXPECT_EQ(summary.imported, 1);
    EXPECT_GT(summary.runs, 0);
    EXPECT_TRUE(window.banner()->text().startsWith("Imported 1 file: "))
        << window.banner()->text().toStdString();
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() > samples; }));
    const int64_t imported = library->runsModel()->rowCount() - samples;

    // Asked first: Cancel keeps them.
    window.removeSampleRuns();
    auto *confirm = window.findChild<QMessageBox *>(QStringLiteral("confirmRemoveSamples"));
    ASSERT_NE(confirm, nullptr);
    confirm->button(QMessageBox::Cancel)->click();
    QCoreApplication::processEvents();
    EXPECT_EQ(storeRunCount(), imported + samples);
    window.removeSampleRuns();
    confirm = window.findChild<QMessageBox *>(QStringLiteral("confirmRemoveSamples"));
    ASSERT_NE(confirm, nullptr);
    clickButtonNamed(*confirm, QStringLiteral("Remove"));
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == imported; }));
    EXPECT_EQ(storeRunCount(), imported);
    EXPECT_EQ(window.banner()->text(), QStringLiteral("Removed %1 sample runs.").arg(samples));

    // And they can be installed again from the window.
    QSignalSpy reinstalled(window.storeWriter(), &StoreWriter::importFinished);
    window.findChild<QAction *>(QStringLiteral("installSamplesAction"))->trigger();
    ASSERT_TRUE(reinstalled.wait(15000));
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == imported + samples; }));
    EXPECT_EQ(storeRunCount(), imported + samples);
}

TEST_F(MainWindowTest, RemovingARunAsksHidesItAndCanBeUndoneUntilItLapses)
{
    const int64_t expected = populateStore();
    MainWindow &window = openWindow(false);
    LibraryView *library = window.libraryView();
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == expected; }));
    QLabel *count = window.findChild<QLabel *>(QStringLiteral("runCountLabel"));
    const QString key = library->runsProxy()->index(0, 0).data(RunsTableModel::RunKeyRole).toString();

    const auto confirmRemoval = [&] {
        library->requestRemoval(0);
        auto *confirm = library->findChild<QMessageBox *>(QStringLiteral("confirmRemoveRun"));
        ASSERT_NE(confirm, nullptr);
        EXPECT_TRUE(confirm->text().contains(key)) << confirm->text().toStdString();
        clickButtonNamed(*confirm, QStringLiteral("Remove"));
    };
    confirmRemoval();
    // Hidden at once, still in the store while the undo is offered.
    EXPECT_EQ(library->runsProxy()->rowCount(), expected - 1);
    EXPECT_EQ(count->text(), QStringLiteral("%1 runs").arg(expected - 1));
    EXPECT_EQ(storeRunCount(), expected);
    EXPECT_EQ(window.banner()->text(), QStringLiteral("Removing the run %1.").arg(key));
    ASSERT_EQ(window.banner()->actionText(), QStringLiteral("Undo"));
    window.banner()->triggerAction();
    EXPECT_EQ(library->runsProxy()->rowCount(), expected);
    EXPECT_EQ(window.banner()->text(), QStringLiteral("Kept the run %1.").arg(key));
    EXPECT_EQ(storeRunCount(), expected);

    // Confirmed and not undone: removed from the store (closing the window does not wait for
    // the undo to lapse).
    confirmRemoval();
    QSignalSpy removed(window.storeWriter(), &StoreWriter::runsRemoved);
    window.removePendingRuns();
    ASSERT_TRUE(removed.wait(10000));
    EXPECT_EQ(removed.takeFirst().at(0).toLongLong(), 1);
    EXPECT_EQ(storeRunCount(), expected - 1);
    EXPECT_FALSE(Store(m_storePath.toStdString()).run(key.toStdString()).has_value());
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == expected - 1; }));
    EXPECT_EQ(count->text(), QStringLiteral("%1 runs").arg(expected - 1));
    EXPECT_EQ(window.banner()->text(), QStringLiteral("Removed 1 run."));
}

TEST_F(MainWindowTest, SelectedViewIsRestored)
{
    {
        MainWindow &window = openWindow(false);
        window.showView(QStringLiteral("trends"));
        window.close();
        m_window.reset();
    }
    MainWindow &window = openWindow(false);
    EXPECT_EQ(window.currentViewKey(), "trends");
    // The sidebar lists the views, Library first; the restored one is built and on screen.
    ASSERT_FALSE(window.viewKeys().empty());
    EXPECT_EQ(window.viewKeys().first(), "library");
    StoreView *trends = window.view(QStringLiteral("trends"));
    ASSERT_NE(trends, nullptr);
    EXPECT_TRUE(trends->isVisible());
}

TEST(Documentation, APagesTitleIsItsFirstHeadingOutsideCodeFences)
{
    EXPECT_EQ(documentationTitle(QStringLiteral("```sh\n# a comment\n```\n# The `Trends` view\n## Using it\n"),
                                 QStringLiteral("x.md")),
              QStringLiteral("The Trends view"));
    EXPECT_EQ(documentationTitle(QStringLiteral("no heading\n"), QStringLiteral("x.md")), QStringLiteral("x.md"));
}

// GitHub reads `\|` in a table cell as a pipe inside the cell; so does the window, rather than
// showing the backslash (Qt's renderer keeps it).
TEST(Documentation, EscapedPipesInTablesAreShownAsPipes)
{
    const QString table = QStringLiteral("| command | what |\n|---|---|\n| `plimsoll samples install\\|remove` | samples |\n\n"
                                         "```sh\necho a \\| b\n```\n");
    const QString display = markdownForDisplay(table);
    EXPECT_FALSE(display.contains(QStringLiteral("install\\|remove")));
    EXPECT_TRUE(display.contains(QStringLiteral("echo a \\| b"))) << "a code block is left as written";
}

// Help > Documentation ships the manual: every page it lists is today's file in docs/, every page
// of the manual is listed, and the developer's pages and the README are not part of it.
TEST(Documentation, TheShippedManualIsTodaysDocs)
{
    const QDir docs(QStringLiteral(PLIMSOLL_DOCS_DIR));
    const auto pages = shippedDocumentation();
    ASSERT_EQ(pages.size(), size_t(documentationPagePaths().size())) << "a listed page is missing from the build";
    for (const DocumentationPage &page : pages) {
        QFile file(docs.filePath(page.path));
        ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << page.path.toStdString();
        EXPECT_EQ(page.markdown, QString::fromUtf8(file.readAll())) << page.path.toStdString();
        EXPECT_NE(page.title, page.path) << page.path.toStdString() << " has no \"#\" title";
        // A user's manual: nothing about building or testing Plimsoll itself.
        for (const char *developer : {"make test", "ctest "})
            EXPECT_FALSE(page.markdown.contains(QLatin1String(developer))) << page.path.toStdString() << ": " << developer;
    }
    QStringList manual;
    for (const QString &folder : {QString(), QStringLiteral("window/")})
        for (const QString &name : QDir(docs.filePath(folder)).entryList({QStringLiteral("*.md")}, QDir::Files))
            manual << folder + name;
    manual.removeAll(QStringLiteral("design.md"));
    manual.removeAll(QStringLiteral("reliability.md"));
    for (const QString &path : manual)
        EXPECT_TRUE(documentationPagePaths().contains(path)) << path.toStdString() << " is not shown by Help";
    EXPECT_FALSE(QFile::exists(QStringLiteral(":/docs/README.md")));
    EXPECT_FALSE(QFile::exists(QStringLiteral(":/docs/design.md")));
}

TEST_F(MainWindowTest, HelpOpensTheManualAtTheViewsPageAndSearchesIt)
{
    populateStore();
    MainWindow &window = openWindow(false);
    auto *action = window.findChild<QAction *>(QStringLiteral("documentationAction"));
    ASSERT_NE(action, nullptr);
    EXPECT_EQ(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
    // F1 on a view: that view's page.
    ASSERT_TRUE(window.showView(QStringLiteral("trends")));
    action->trigger();
    auto *docs = window.findChild<DocumentationWindow *>();
    ASSERT_NE(docs, nullptr);
    EXPECT_TRUE(docs->isVisible());
    EXPECT_EQ(docs->currentPage(), QStringLiteral("window/trends.md"));
    EXPECT_TRUE(docs->textView()->toPlainText().startsWith(QStringLiteral("The Trends view")));
    for (const QString &key : window.viewKeys()) {
        ASSERT_TRUE(window.showView(key));
        action->trigger();
        EXPECT_EQ(docs->currentPage(), documentationPageForView(key)) << "F1 on " << key.toStdString();
    }
    QListWidget *list = docs->sectionList();
    EXPECT_EQ(list->item(0)->text(), QStringLiteral("The Plimsoll manual"));
    // Every title reads whole in the list: long ones wrap, none runs past its edge.
    docs->resize(1024, 700);
    QApplication::processEvents();
    for (int row = 0; row < list->count(); ++row)
        EXPECT_LE(list->visualItemRect(list->item(row)).right(), list->viewport()->width())
            << list->item(row)->text().toStdString();

    // Tables render as tables, with no escaped pipe left in them.
    ASSERT_TRUE(docs->showPage(QStringLiteral("command-line.md")));
    const QString text = docs->textView()->toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("plimsoll samples install|remove [--json]")));
    EXPECT_FALSE(text.contains(QStringLiteral("\\|")));
    EXPECT_NE(docs->textView()->document()->rootFrame()->childFrames().size(), 0) << "no table was laid out";
    EXPECT_TRUE(saveGrab(*docs, QStringLiteral("documentation-1024x700-command-line.png")));

    // A link to another page opens it.
    ASSERT_TRUE(docs->showPage(QStringLiteral("window/index.md")));
    emit docs->textView()->anchorClicked(QUrl(QStringLiteral("../samples.md")));
    EXPECT_EQ(docs->currentPage(), QStringLiteral("samples.md"));

    // Help > About the Sample Runs: the same window, at the samples' page.
    ASSERT_TRUE(docs->showPage(QStringLiteral("index.md")));
    window.findChild<QAction *>(QStringLiteral("sampleRunsHelpAction"))->trigger();
    EXPECT_EQ(window.findChildren<DocumentationWindow *>().size(), 1);
    EXPECT_EQ(list->currentItem()->text(), QStringLiteral("The sample runs"));
    EXPECT_TRUE(docs->textView()->toPlainText().contains(QStringLiteral("sample"), Qt::CaseInsensitive));

    // Search keeps the pages that mention every word, and says when none does.
    docs->searchField()->setText(QStringLiteral("--fail-on-regression"));
    int shown = 0;
    for (int row = 0; row < list->count(); ++row)
        shown += !list->item(row)->isHidden();
    EXPECT_GT(shown, 0);
    EXPECT_LT(shown, list->count());
    EXPECT_FALSE(list->currentItem()->isHidden());
    EXPECT_TRUE(docs->textView()->toPlainText().contains(QStringLiteral("--fail-on-regression")));
    docs->searchField()->setText(QStringLiteral("zzzz-nowhere"));
    EXPECT_EQ(docs->textView()->toPlainText(), QStringLiteral("No page mentions \"zzzz-nowhere\"."));
    docs->searchField()->clear();
    shown = 0;
    for (int row = 0; row < list->count(); ++row)
        shown += !list->item(row)->isHidden();
    EXPECT_EQ(shown, list->count());

    // A view's page shows its screenshot, no wider than the text.
    ASSERT_TRUE(docs->showPage(QStringLiteral("window/sizing.md")));
    bool image = false;
    for (QTextBlock block = docs->textView()->document()->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isImageFormat()) {
                image = true;
                EXPECT_LE(it.fragment().charFormat().toImageFormat().width(), docs->textView()->viewport()->width());
            }
    EXPECT_TRUE(image) << "the Sizing page shows no screenshot";
    EXPECT_TRUE(saveGrab(*docs, QStringLiteral("documentation-1024x700-sizing.png")));
    docs->resize(1600, 1000);
    QApplication::processEvents();
    EXPECT_TRUE(saveGrab(*docs, QStringLiteral("documentation-1600x1000-sizing.png")));

    // Esc closes it.
    docs->activateWindow();
    QTest::keyClick(docs->textView(), Qt::Key_Escape);
    EXPECT_FALSE(docs->isVisible());
}

TEST_F(MainWindowTest, OpenStoreShowsAnotherStoreInItsOwnWindowAndRemembersIt)
{
    populateStore();
    const QString other = m_dir.filePath(QStringLiteral("team.plimsoll"));
    {
        Store store(other.toStdString());
        installSamples(store);
    }
    MainWindow &window = openWindow(false);
    ASSERT_NE(window.findChild<QAction *>(QStringLiteral("openStoreAction")), nullptr);
    EXPECT_EQ(MainWindow::recentStores().value(0), QFileInfo(m_storePath).absoluteFilePath());

    MainWindow *second = window.openStore(other);
    ASSERT_NE(second, &window);
    EXPECT_TRUE(second->isVisible());
    EXPECT_EQ(second->storePath(), QFileInfo(other).absoluteFilePath());
    EXPECT_EQ(second->windowTitle(), QStringLiteral("team.plimsoll"));
    // Its Library lists that store's runs, not the first window's.
    const int otherRuns = int(Store(other.toStdString()).runCount());
    ASSERT_NE(otherRuns, int(storeRunCount()));
    ASSERT_TRUE(waitUntil([&] { return second->libraryView()->runsModel()->rowCount() == otherRuns; }));
    EXPECT_EQ(MainWindow::recentStores().value(0), QFileInfo(other).absoluteFilePath());
    EXPECT_EQ(MainWindow::recentStores().value(1), QFileInfo(m_storePath).absoluteFilePath());

    // Opening a store already open raises its window; the recent list offers the other one.
    EXPECT_EQ(window.openStore(other), second);
    auto *recent = window.findChild<QMenu *>(QStringLiteral("recentStoresMenu"));
    ASSERT_NE(recent, nullptr);
    emit recent->aboutToShow();
    QStringList enabled;
    for (QAction *a : recent->actions())
        if (a->isEnabled())
            enabled << a->text();
    EXPECT_EQ(enabled, QStringList{QDir::toNativeSeparators(QFileInfo(other).absoluteFilePath())});
    second->close(); // deletes itself
    QApplication::processEvents();
}
