// The window on a small screen: at 1024×700 (a laptop, a projector) it takes the size it is given,
// every view fits in the space beside the sidebar, and nothing a user needs (the Library's
// buttons, its last column, the status bar) lies past the window's edge.
#include "importers/samples.h"
#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/importpreviewdialog.h"
#include "ui/mainwindow.h"
#include "ui/messagebanner.h"
#include "ui/models/runstablemodel.h"
#include "ui/report/reportdialog.h"
#include "ui/views/libraryview.h"
#include "ui/views/storeview.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QScreen>
#include <QScrollArea>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QToolButton>

#include <memory>

using namespace plimsoll;
using plimsoll::test::waitUntil;

// Readable sizes in failure messages.
void PrintTo(const QSize &size, std::ostream *os)
{
    *os << size.width() << "×" << size.height();
}

namespace {

const QSize kSmallScreen(1024, 700);
const QSize kLargeScreen(1600, 1000);

// The smallest size a layout gives this widget, as QLayout computes it: its minimumSize where one
// is set, else its minimumSizeHint, unless its size policy lets it shrink past the hint.
QSize effectiveMinimum(const QWidget *widget)
{
    const QSize hint = widget->minimumSizeHint();
    const QSize set = widget->minimumSize();
    const QSizePolicy policy = widget->sizePolicy();
    int width = set.width() > 0 ? set.width() : hint.width();
    int height = set.height() > 0 ? set.height() : hint.height();
    if (set.width() <= 0 && policy.horizontalPolicy() == QSizePolicy::Ignored)
        width = 0;
    if (set.height() <= 0 && policy.verticalPolicy() == QSizePolicy::Ignored)
        height = 0;
    return {std::max(width, 0), std::max(height, 0)};
}

QString describe(const QWidget *widget)
{
    QString name = QString::fromLatin1(widget->metaObject()->className());
    if (!widget->objectName().isEmpty())
        name += QLatin1Char('#') + widget->objectName();
    if (const auto *label = qobject_cast<const QLabel *>(widget))
        name += QStringLiteral(" \"%1\"").arg(label->text().left(40));
    return name;
}

// Every widget under `root` whose minimum is wider or taller than `limit`, one per line with its
// minimum: what a failure names so the culprit can be found without a debugger. Pages of a stack
// that are not on screen count too (a stack is as large as its largest page).
QString oversizedWidgets(const QWidget *root, QSize limit)
{
    QString lines;
    const auto widgets = root->findChildren<QWidget *>();
    for (const QWidget *widget : widgets) {
        if (widget->isWindow())
            continue;
        const QSize minimum = effectiveMinimum(widget);
        if (minimum.width() > limit.width() || minimum.height() > limit.height())
            lines += QStringLiteral("  %1: minimum %2×%3%4\n")
                         .arg(describe(widget))
                         .arg(minimum.width())
                         .arg(minimum.height())
                         .arg(widget->isHidden() ? QStringLiteral(" (hidden)") : QString());
    }
    return lines;
}

// The widget's rectangle in the window's coordinates.
QRect rectInWindow(const QWidget *widget, const QWidget *window)
{
    return QRect(widget->mapTo(window, QPoint(0, 0)), widget->size());
}

// Lets the views' background reads finish and their results arrive (a view may read twice: its
// runs, then what it computes from the one chosen).
void settle()
{
    for (int round = 0; round < 3; ++round) {
        waitUntil([] { return backgroundPool()->activeThreadCount() == 0; });
        QTest::qWait(60);
    }
}

// Views whose own controls need more than 1024×700 leaves them (the Scaling view's row of
// choices, the Sizing view's form above its tables): the window scrolls them instead of growing.
const QStringList kViewsThatScroll = {QStringLiteral("sizing")};

class WindowSizeTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           m_dir.filePath(QStringLiteral("settings")));
        m_storePath = m_dir.filePath(QStringLiteral("store.plimsoll"));
    }

    void TearDown() override
    {
        m_window.reset();
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }

    void createStore()
    {
        QDir().mkpath(QFileInfo(m_storePath).path());
        Store store(m_storePath.toStdString());
        installSamples(store);
        m_runCount = store.runCount();
    }

    // The window on the sample store with every view visited once (each has read what it
    // shows), back on the Library and resized as a window manager would.
    MainWindow &openWindow(QSize size)
    {
        createStore();
        m_window = std::make_unique<MainWindow>(m_storePath);
        m_window->show();
        m_window->start(false);
        LibraryView *library = m_window->libraryView();
        EXPECT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == m_runCount; }));
        for (const QString &key : m_window->viewKeys()) {
            m_window->showView(key);
            settle();
        }
        m_window->showView(QStringLiteral("library"));
        m_window->resize(size);
        settle();
        return *m_window;
    }

    QStackedWidget *viewStack() const
    {
        return m_window->findChild<QStackedWidget *>(QStringLiteral("viewStack"));
    }

    static void saveGrab(QWidget &widget, const QString &name)
    {
        QDir().mkpath(QStringLiteral(PLIMSOLL_ARTIFACT_DIR));
        widget.grab().save(QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/") + name);
    }

    QTemporaryDir m_dir;
    QString m_storePath;
    int64_t m_runCount = 0;
    std::unique_ptr<MainWindow> m_window;
};

} // namespace

TEST_F(WindowSizeTest, TakesASmallScreenSize)
{
    MainWindow &window = openWindow(kSmallScreen);
    // The room beside the sidebar and between the menus and the status bar, at 1024×700.
    const QSize chrome = window.size() - viewStack()->size();
    const QSize room = kSmallScreen - chrome;
    EXPECT_LE(window.width(), kSmallScreen.width())
        << "wider than the room beside the sidebar:\n"
        << oversizedWidgets(&window, {room.width(), QWIDGETSIZE_MAX}).toStdString();
    EXPECT_LE(window.height(), kSmallScreen.height())
        << "taller than the room between menus and status bar:\n"
        << oversizedWidgets(&window, {QWIDGETSIZE_MAX, room.height()}).toStdString();
    EXPECT_LE(window.minimumSizeHint().width(), kSmallScreen.width());
    EXPECT_LE(window.minimumSizeHint().height(), kSmallScreen.height());
    saveGrab(window, QStringLiteral("window-1024x700-library.png"));
}

TEST_F(WindowSizeTest, EveryViewFitsBesideTheSidebarAtASmallSize)
{
    MainWindow &window = openWindow(kSmallScreen);
    ASSERT_EQ(window.size(), kSmallScreen);
    const QSize room = viewStack()->size();
    for (const QString &viewKey : window.viewKeys()) {
        const std::string key = viewKey.toStdString();
        SCOPED_TRACE(key);
        ASSERT_TRUE(window.showView(viewKey));
        settle();
        StoreView *view = window.view(viewKey);
        ASSERT_NE(view, nullptr);
        auto *page = window.findChild<QScrollArea *>(QStringLiteral("viewPage_") + view->key());
        ASSERT_NE(page, nullptr);
        // Whatever the view needs is reachable: the page is inside the window and gives the view
        // at least its minimum, scrolling where the window is smaller.
        EXPECT_TRUE(window.rect().contains(rectInWindow(page, &window)));
        const QSize minimum = view->minimumSizeHint();
        EXPECT_GE(view->width(), minimum.width());
        EXPECT_GE(view->height(), minimum.height());
        // Nor squeezed below what its wrapped lines need at the width it has (a form's field
        // drawn over by the line under it).
        if (QLayout *layout = view->layout(); layout && layout->hasHeightForWidth()) {
            EXPECT_GE(view->height(), layout->totalMinimumHeightForWidth(view->width()));
        }
        if (!kViewsThatScroll.contains(view->key())) {
            EXPECT_LE(minimum.width(), room.width())
                << oversizedWidgets(view, {room.width(), QWIDGETSIZE_MAX}).toStdString();
            EXPECT_LE(minimum.height(), room.height())
                << oversizedWidgets(view, {QWIDGETSIZE_MAX, room.height()}).toStdString();
            EXPECT_FALSE(page->horizontalScrollBar()->isVisible()) << key << " scrolls sideways";
            EXPECT_FALSE(page->verticalScrollBar()->isVisible()) << key << " scrolls";
        }
        saveGrab(window, QStringLiteral("window-1024x700-%1.png").arg(view->key()));
    }
}

TEST_F(WindowSizeTest, LibraryButtonsColumnsAndStatusBarStayInsideASmallWindow)
{
    MainWindow &window = openWindow(kSmallScreen);
    ASSERT_TRUE(window.showView(QStringLiteral("library")));
    settle();
    const QRect inside = window.rect();

    auto *removeSamples = window.findChild<QAction *>(QStringLiteral("removeSamplesAction"));
    ASSERT_NE(removeSamples, nullptr);
    QToolButton *removeButton = nullptr;
    for (QToolButton *button : window.libraryView()->findChildren<QToolButton *>())
        if (button->defaultAction() == removeSamples && button->isVisible())
            removeButton = button;
    ASSERT_NE(removeButton, nullptr) << "no visible Remove Sample Runs button in the Library";
    EXPECT_TRUE(inside.contains(rectInWindow(removeButton, &window)))
        << "Remove Sample Runs ends at x " << rectInWindow(removeButton, &window).right()
        << " in a window " << inside.width() << " wide";

    // Every column is in sight without scrolling sideways: the long run keys and tool names
    // give way (elided, whole in their tooltips), the Sample column is not past the edge.
    auto *table = window.libraryView()->findChild<QTableView *>(QStringLiteral("runsTable"));
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(inside.contains(rectInWindow(table, &window)));
    const int sample = RunsTableModel::SampleColumn;
    const int sampleRight = table->columnViewportPosition(sample) + table->columnWidth(sample);
    EXPECT_LE(sampleRight, table->viewport()->width()) << "the Sample column is out of sight";
    EXPECT_GE(table->columnWidth(sample), table->horizontalHeader()->sectionSizeHint(sample));
    EXPECT_EQ(table->horizontalScrollBar()->maximum(), 0);
    // The squeezed columns still show a readable part of their text.
    for (int column : {int(RunsTableModel::RunKeyColumn), int(RunsTableModel::ToolColumn)})
        EXPECT_GE(table->columnWidth(column), table->fontMetrics().averageCharWidth() * 8);

    // The search field's hint is not cut off mid-word; what it searches is in its tooltip.
    auto *search = window.libraryView()->findChild<QLineEdit *>(QStringLiteral("searchField"));
    ASSERT_NE(search, nullptr);
    EXPECT_LE(search->fontMetrics().horizontalAdvance(search->placeholderText()),
              search->width() - 20)
        << search->placeholderText().toStdString() << " in " << search->width() << " px";
    EXPECT_TRUE(search->toolTip().contains(QStringLiteral("commit")));

    auto *count = window.findChild<QLabel *>(QStringLiteral("runCountLabel"));
    ASSERT_NE(count, nullptr);
    EXPECT_EQ(count->text(), QStringLiteral("%1 runs").arg(m_runCount));
    EXPECT_TRUE(count->isVisible());
    EXPECT_TRUE(inside.contains(rectInWindow(count, &window)));
    EXPECT_TRUE(inside.contains(rectInWindow(window.statusBar(), &window)));
}

TEST_F(WindowSizeTest, ALongStorePathElidesInTheStatusBar)
{
    // A store some directories deep, its path far wider than the window.
    QString deep = m_dir.path();
    for (int i = 0; i < 12; ++i)
        deep += QStringLiteral("/team-benchmarks-archive-%1").arg(i);
    m_storePath = deep + QStringLiteral("/nightly.plimsoll");
    MainWindow &window = openWindow(kSmallScreen);
    EXPECT_EQ(window.size(), kSmallScreen);

    auto *path = window.findChild<QLabel *>(QStringLiteral("storePathLabel"));
    ASSERT_NE(path, nullptr);
    const QString full = QDir::toNativeSeparators(m_storePath);
    EXPECT_TRUE(window.rect().contains(rectInWindow(path, &window)));
    EXPECT_NE(path->text(), full);
    EXPECT_TRUE(path->text().contains(QChar(0x2026))) << path->text().toStdString();
    EXPECT_TRUE(path->text().endsWith(QStringLiteral("nightly.plimsoll")))
        << "the file name stays readable: " << path->text().toStdString();
    EXPECT_EQ(path->toolTip(), full);
    auto *count = window.findChild<QLabel *>(QStringLiteral("runCountLabel"));
    EXPECT_TRUE(window.rect().contains(rectInWindow(count, &window)));
}

TEST_F(WindowSizeTest, TakesALargeScreenSizeAndShowsAShortPathWhole)
{
    MainWindow &window = openWindow(kLargeScreen);
    EXPECT_EQ(window.size(), kLargeScreen);
    EXPECT_GT(viewStack()->width(), kLargeScreen.width() - 200);
    auto *path = window.findChild<QLabel *>(QStringLiteral("storePathLabel"));
    ASSERT_NE(path, nullptr);
    EXPECT_EQ(path->text(), QDir::toNativeSeparators(m_storePath));
    // Where there is room the search field says what it searches.
    auto *search = window.libraryView()->findChild<QLineEdit *>(QStringLiteral("searchField"));
    ASSERT_NE(search, nullptr);
    EXPECT_TRUE(search->placeholderText().contains(QStringLiteral("commit")))
        << search->placeholderText().toStdString();
    saveGrab(window, QStringLiteral("window-1600x1000-library.png"));
}

TEST_F(WindowSizeTest, OpensNoLargerThanItsScreen)
{
    createStore();
    m_window = std::make_unique<MainWindow>(m_storePath);
    m_window->show();
    m_window->start(false);
    ASSERT_NE(m_window->screen(), nullptr);
    const QSize screen = m_window->screen()->availableSize();
    EXPECT_LE(m_window->width(), screen.width()) << "screen " << screen.width() << " wide";
    EXPECT_LE(m_window->height(), screen.height()) << "screen " << screen.height() << " tall";
}

TEST_F(WindowSizeTest, ARunsLongDetailScrollsInsteadOfLosingItsLastLines)
{
    {
        // A run imported from deep in a team's archive, with a long tuning contract.
        createStore();
        Store store(m_storePath.toStdString());
        RunRecord run = plimsoll::test::nightlyRun(1, "c0ffee1111", 640000);
        run.provenance = "nightly pipeline on the shared benchmark cluster, three brokers and "
                         "twenty-four shards, after the Redis upgrade of the week before";
        for (int i = 0; i < 12; ++i)
            run.tuning["producer.setting." + std::to_string(i)] = 1000 + i;
        QString uri = QStringLiteral("/srv/benchmarks/team archive");
        for (int i = 0; i < 8; ++i)
            uri += QStringLiteral("/results of week %1").arg(i);
        uri += QStringLiteral("/nightly.jsonl");
        SourceRecord source{uri.toStdString(), "plimsoll-trend", "sha-long", "test", "1",
                            "2026-09-07T00:00:00Z", false};
        store.importSource(source, {run});
        m_runCount = store.runCount();
    }
    m_window = std::make_unique<MainWindow>(m_storePath);
    m_window->show();
    m_window->start(false);
    LibraryView *library = m_window->libraryView();
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == m_runCount; }));
    m_window->resize(kSmallScreen);
    settle();
    QSignalSpy shown(library, &LibraryView::runDetailShown);
    library->selectRow(0); // newest first: the nightly run
    ASSERT_TRUE(shown.wait(10000));
    ASSERT_EQ(shown.first().first().toString(), QStringLiteral("nightly-2026-09-01"));
    settle();

    auto *fields = library->findChild<QScrollArea *>(QStringLiteral("runDetailFields"));
    ASSERT_NE(fields, nullptr);
    auto *sourceLabel = library->findChild<QLabel *>(QStringLiteral("runDetail_source"));
    ASSERT_NE(sourceLabel, nullptr);
    EXPECT_TRUE(sourceLabel->text().endsWith(QStringLiteral("nightly.jsonl (plimsoll-trend)")));
    // The source's lines are all there to scroll to, none cut off below the panel.
    fields->ensureWidgetVisible(sourceLabel, 0, 0);
    const QRect inViewport(sourceLabel->mapTo(fields->viewport(), QPoint(0, 0)), sourceLabel->size());
    EXPECT_TRUE(fields->viewport()->rect().contains(inViewport))
        << "source at y " << inViewport.y() << ".." << inViewport.bottom() << " in a viewport "
        << fields->viewport()->height() << " tall";
    EXPECT_GE(sourceLabel->height(), sourceLabel->heightForWidth(sourceLabel->width()));
    EXPECT_TRUE(m_window->rect().contains(rectInWindow(fields, m_window.get())));
    saveGrab(*m_window, QStringLiteral("window-1024x700-library-detail.png"));
}

TEST_F(WindowSizeTest, TheReportDialogFitsASmallScreenWithItsStatusReadable)
{
    MainWindow &window = openWindow(kSmallScreen);
    auto *action = window.findChild<QAction *>(QStringLiteral("exportReportAction"));
    ASSERT_NE(action, nullptr);
    action->trigger();
    ReportDialog *dialog = nullptr;
    ASSERT_TRUE(waitUntil([&] { return (dialog = window.findChild<ReportDialog *>()) != nullptr; }));
    ASSERT_TRUE(waitUntil([&] { return dialog->ready() && dialog->pageCount() > 0; }, 60000));
    // What a 700 px screen leaves a dialog under a title bar.
    const QSize small(kSmallScreen.width() - 300, kSmallScreen.height() - 40);
    EXPECT_LE(dialog->minimumSizeHint().width(), small.width());
    EXPECT_LE(dialog->minimumSizeHint().height(), small.height());
    dialog->resize(small);
    settle();
    EXPECT_EQ(dialog->size(), small);
    QLabel *status = dialog->statusLabel();
    auto *preview = dialog->findChild<QScrollArea *>(QStringLiteral("reportPreview"));
    ASSERT_NE(preview, nullptr);
    // The status lies below the preview, all its lines shown, not under the preview's edge.
    EXPECT_GE(status->y(), preview->geometry().bottom()) << status->text().toStdString();
    EXPECT_GE(status->height(), status->heightForWidth(status->width()));
    EXPECT_TRUE(dialog->rect().contains(status->geometry()));
    saveGrab(*dialog, QStringLiteral("report-dialog-small.png"));
    dialog->close();
}

TEST_F(WindowSizeTest, AnErrorNamingALongPathKeepsTheWindowOnScreen)
{
    MainWindow &window = openWindow(kSmallScreen);
    QString path = QStringLiteral("/srv/benchmarks");
    for (int i = 0; i < 10; ++i)
        path += QStringLiteral("/nightly_results_of_the_shared_cluster_%1").arg(i);
    const QString message =
        QStringLiteral("Failed to import %1/results.json: line 12: field 'timestamp': is not an "
                       "ISO-8601 time").arg(path);
    window.banner()->showMessage(MessageBanner::Kind::Error, message);
    settle();
    window.resize(kSmallScreen);
    settle();
    EXPECT_EQ(window.size(), kSmallScreen);
    EXPECT_TRUE(window.banner()->isVisible());
    EXPECT_TRUE(window.rect().contains(rectInWindow(window.banner(), &window)));
    auto *text = window.banner()->findChild<QLabel *>(QStringLiteral("messageBannerText"));
    ASSERT_NE(text, nullptr);
    EXPECT_EQ(text->text(), message);
    // The path breaks after its slashes: every line of it inside the banner.
    EXPECT_GE(text->height(), text->heightForWidth(text->width()));
    saveGrab(window, QStringLiteral("window-1024x700-long-error.png"));
}

TEST_F(WindowSizeTest, TabFromTheSidebarLandsInTheViewsOwnFields)
{
    MainWindow &window = openWindow(kSmallScreen);
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    auto *sidebar = window.findChild<QWidget *>(QStringLiteral("viewSidebar"));
    ASSERT_NE(sidebar, nullptr);
    for (const QString &key : {QStringLiteral("library"), QStringLiteral("placement")}) {
        SCOPED_TRACE(key.toStdString());
        ASSERT_TRUE(window.showView(key));
        settle();
        sidebar->setFocus();
        ASSERT_TRUE(waitUntil([&] { return sidebar->hasFocus(); }, 2000));
        QTest::keyClick(sidebar, Qt::Key_Tab);
        QWidget *focused = QApplication::focusWidget();
        ASSERT_NE(focused, nullptr);
        // Not an invisible scroll frame around the view: one of the view's own fields.
        StoreView *view = window.view(key);
        ASSERT_NE(view, nullptr);
        EXPECT_TRUE(view->isAncestorOf(focused))
            << "focus on " << focused->metaObject()->className() << " "
            << focused->objectName().toStdString();
    }
}

TEST_F(WindowSizeTest, TheImportPreviewFitsASmallScreen)
{
    MainWindow &window = openWindow(kSmallScreen);
    ImportPreviewDialog *dialog = nullptr;
    QObject::connect(&window, &MainWindow::importPreviewOpened,
                     [&](ImportPreviewDialog *opened) { dialog = opened; });
    const QString data = QStringLiteral(PLIMSOLL_TEST_DATA_DIR);
    window.previewAndImport({data + QStringLiteral("/korvet-result.json"),
                             data + QStringLiteral("/korvet-result-bad-timestamp.json"),
                             data + QStringLiteral("/trend-records.jsonl")});
    ASSERT_NE(dialog, nullptr);
    ASSERT_TRUE(waitUntil([&] { return dialog->previewReady(); }, 30000));
    settle();
    const QSize room(kSmallScreen.width(), kSmallScreen.height() - 40);
    EXPECT_LE(dialog->width(), room.width());
    EXPECT_LE(dialog->height(), room.height());
    EXPECT_LE(dialog->minimumSizeHint().width(), room.width())
        << oversizedWidgets(dialog, {room.width(), QWIDGETSIZE_MAX}).toStdString();
    EXPECT_LE(dialog->minimumSizeHint().height(), room.height())
        << oversizedWidgets(dialog, {QWIDGETSIZE_MAX, room.height()}).toStdString();
    saveGrab(*dialog, QStringLiteral("import-preview-1024x700.png"));
    dialog->reject();
}

TEST_F(WindowSizeTest, ASizeSavedOnALargerScreenOpensWithinThisOne)
{
    MainWindow &first = openWindow(kLargeScreen); // the last session's window, on a large screen
    ASSERT_EQ(first.size(), kLargeScreen);
    first.close(); // saves its geometry
    m_window.reset();
    settle();

    m_window = std::make_unique<MainWindow>(m_storePath);
    m_window->show();
    m_window->start(false);
    settle();
    const QSize screen = m_window->screen()->availableSize();
    ASSERT_LT(screen.width(), kLargeScreen.width()) << "the test screen is smaller than the saved size";
    EXPECT_LE(m_window->width(), screen.width());
    EXPECT_LE(m_window->height(), screen.height());
}

// The Sizing view is taller than a 700 px window and scrolls; saving the sizing does not wait for
// a scroll: Save sizing… and Saved sizings… are in sight on the page as it opens.
TEST_F(WindowSizeTest, SavingASizingNeedsNoScrollAtASmallSize)
{
    MainWindow &window = openWindow(kSmallScreen);
    ASSERT_TRUE(window.showView(QStringLiteral("sizing")));
    settle();
    auto *page = window.findChild<QScrollArea *>(QStringLiteral("viewPage_sizing"));
    ASSERT_NE(page, nullptr);
    ASSERT_EQ(page->verticalScrollBar()->value(), 0);
    for (const char *name : {"saveSizingButton", "savedSizingsButton"}) {
        SCOPED_TRACE(name);
        auto *button = page->findChild<QPushButton *>(QString::fromLatin1(name));
        ASSERT_NE(button, nullptr);
        const QRect inViewport(button->mapTo(page->viewport(), QPoint(0, 0)), button->size());
        EXPECT_TRUE(page->viewport()->rect().contains(inViewport))
            << "at y " << inViewport.y() << ".." << inViewport.bottom() << " in a viewport "
            << page->viewport()->height() << " tall";
    }
}
