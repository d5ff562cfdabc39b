#include "ui/mainwindow.h"

#include "ui/latesttask.h"
#include "ui/importpreviewdialog.h"

#include "ui/messagebanner.h"
#include "ui/storewriter.h"
#include "ui/views/benchview.h"
#include "ui/views/changesview.h"
#include "ui/views/libraryview.h"
#include "ui/views/trendsview.h"
#include "ui/views/compareview.h"
#include "ui/views/scalingview.h"
#include "ui/views/sizingview.h"
#include "ui/views/placementview.h"
#include "ui/views/latencybudgetview.h"
#include "ui/report/reportdialog.h"
#include "ui/widgets/documentationwindow.h"
#include "ui/widgets/elidinglabel.h"
#include "ui/widgets/viewframe.h"

#include <plimsoll/version.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QMenu>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace plimsoll {

namespace {

// How long a removed run can be brought back before the store forgets it.
constexpr int kUndoRemovalMs = 10000;

QStringList localFiles(const QMimeData *mime)
{
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl &url : mime->urls()) {
        if (url.isLocalFile())
            files << url.toLocalFile();
    }
    return files;
}

} // namespace

MainWindow::MainWindow(const QString &storePath, QWidget *parent)
    : QMainWindow(parent), m_storePath(storePath)
{
    setObjectName(QStringLiteral("mainWindow"));
    // The platform appends the application display name ("… — Plimsoll").
    setWindowTitle(storeTitle(storePath));
    setAcceptDrops(true);
    // A first start opens at a comfortable size, never larger than the screen it opens on.
    QSize size(1200, 760);
    if (const QScreen *onScreen = screen())
        size = size.boundedTo(onScreen->availableSize());
    resize(size);

    m_writer = new StoreWriter(storePath, this);
    m_banner = new MessageBanner(this);

    m_sidebar = new QListWidget(this);
    m_sidebar->setObjectName(QStringLiteral("viewSidebar"));
    m_sidebar->setIconSize(QSize(24, 24));
    m_sidebar->setFixedWidth(150);
    m_sidebar->setSpacing(2);
    m_stack = new QStackedWidget(this);
    m_stack->setObjectName(QStringLiteral("viewStack"));

    auto *body = new QHBoxLayout;
    body->setContentsMargins(0, 0, 0, 0);
    body->addWidget(m_sidebar);
    body->addWidget(m_stack, 1);
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(m_banner);
    layout->addLayout(body, 1);
    setCentralWidget(central);

    // A deep store path elides (its whole text in the tooltip) rather than widening the window.
    m_pathLabel = new ElidingLabel(QDir::toNativeSeparators(storePath), this);
    m_pathLabel->setObjectName(QStringLiteral("storePathLabel"));
    m_runCountLabel = new QLabel(this);
    m_runCountLabel->setObjectName(QStringLiteral("runCountLabel"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("importProgress"));
    m_progress->setMaximumWidth(200);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_accessLabel = new QLabel(this);
    m_accessLabel->setObjectName(QStringLiteral("storeAccessLabel"));
    m_accessLabel->hide();
    m_probe = new LatestTask(this);
    m_changePoll = new QTimer(this);
    m_changePoll->setInterval(kChangePollMilliseconds);
    connect(m_changePoll, &QTimer::timeout, this, &MainWindow::probeStore);
    statusBar()->addWidget(m_pathLabel, 1);
    statusBar()->addPermanentWidget(m_accessLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_runCountLabel);

    createMenus();

    // The views, in sidebar order. Adding a view is one line here.
    addView<LibraryView>([this](LibraryView *library) {
        library->addToolAction(m_removeSamplesAction);
        connect(library, &LibraryView::countChanged, m_runCountLabel, &QLabel::setText);
        connect(library, &LibraryView::removalConfirmed, this, &MainWindow::scheduleRemoval);
        connect(library, &LibraryView::compareRequested, this, [this](const QStringList &runKeys) {
            auto *compare = viewOf<CompareView>();
            showView(compare->key());
            compare->setRuns(runKeys);
        });
        connect(library, &LibraryView::labelsRequested, this, &MainWindow::writeRunLabels);
    });
    addView<TrendsView>();
    addView<ChangesView>([this](ChangesView *changes) {
        connect(changes, &ChangesView::openSeries, this,
                [this](const QString &scenario, const QString &metric, const QString &runKey) {
                    TrendsView *trends = trendsView();
                    showView(trends->key());
                    trends->openSeries(scenario, metric, runKey);
                });
    });
    addView<CompareView>();
    addView<BenchView>();
    addView<ScalingView>();
    addView<SizingView>();
    addView<PlacementView>();
    addView<LatencyBudgetView>();
    m_library = viewOf<LibraryView>();
    updateWriteActions();
    m_removalTimer = new QTimer(this);
    m_removalTimer->setSingleShot(true);
    m_removalTimer->setInterval(kUndoRemovalMs);
    connect(m_removalTimer, &QTimer::timeout, this, &MainWindow::removePendingRuns);
    connect(m_sidebar, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        buildView(static_cast<size_t>(row));
        m_stack->setCurrentIndex(row);
        m_viewActions->actions().at(row)->setChecked(true);
    });

    connect(m_writer, &StoreWriter::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        m_progress->setRange(0, 0); // busy indicator until a write reports its own progress
        updateWriteActions();
    });
    connect(m_writer, &StoreWriter::progressChanged, this, [this](int value, int maximum) {
        m_progress->setRange(0, maximum);
        m_progress->setValue(value);
    });
    connect(m_writer, &StoreWriter::storeReady, this, [this](const ImportBatchSummary &samples) {
        if (samples.failed())
            m_banner->showMessage(MessageBanner::Kind::Error, samples.message());
        else if (samples.imported > 0)
            m_banner->showMessage(MessageBanner::Kind::Info,
                                  tr("Installed the sample runs: %1 runs, %2 scenarios. "
                                     "Remove them with File ▸ Remove Sample Runs.")
                                      .arg(samples.runs)
                                      .arg(samples.scenarios));
        reloadViews();
        probeStore();
        if (m_changePoll->interval() > 0)
            m_changePoll->start();
    });
    connect(m_writer, &StoreWriter::importFinished, this, &MainWindow::showImportSummary);
    connect(m_writer, &StoreWriter::samplesRemoved, this, [this](qint64 runs) {
        const QString text =
            runs == 1 ? tr("Removed 1 sample run.") : tr("Removed %1 sample runs.").arg(runs);
        m_banner->showMessage(MessageBanner::Kind::Info, text);
        reloadViews();
    });
    connect(m_writer, &StoreWriter::runsRemoved, this, [this](qint64 runs) {
        // The undo had its time; the banner says what was done if nothing replaced it since.
        if (!m_banner->actionText().isEmpty() || m_banner->text().startsWith(tr("Removing")))
            m_banner->showMessage(MessageBanner::Kind::Info, runs == 1
                                                                 ? tr("Removed 1 run.")
                                                                 : tr("Removed %1 runs.").arg(runs));
        reloadViews();
    });
    connect(m_writer, &StoreWriter::writeFailed, this, [this](const QString &message) {
        m_banner->showMessage(MessageBanner::Kind::Error, message);
        reloadViews();
    });
    connect(m_writer, &StoreWriter::labelsWritten, this, [this](const RunSummary &run) {
        m_library->showLabels(run);
        const QString key = QString::fromStdString(run.runKey);
        m_banner->showMessage(MessageBanner::Kind::Info,
                              run.name.empty() ? tr("Run %1 has no name now.").arg(key)
                                               : tr("Run %1 is named “%2”.").arg(key, QString::fromStdString(run.name)));
        // The pickers and charts of the other views name it so when next shown.
        for (StoreView *view : builtViews())
            if (view != m_library)
                view->reloadWhenShown();
    });
    // Each write of ours ends with the store's state as it left it: the probe compares with
    // that, so only a write by someone else says "written elsewhere".
    connect(m_writer, &StoreWriter::wrote, this, [this](const QString &token) {
        ++m_ownWrites;
        m_changeToken = token;
    });

    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::registerView(ViewIdentity identity, std::function<StoreView *()> make)
{
    const int index = static_cast<int>(m_views.size());
    // A view that needs more room than the window has scrolls, instead of forcing the window
    // past a small screen; where there is room it fills the page and no scroll bar shows.
    auto *page = new QScrollArea(m_stack);
    page->setObjectName(QStringLiteral("viewPage_") + identity.key);
    page->setFrameShape(QFrame::NoFrame);
    page->setWidgetResizable(true);
    page->setFocusPolicy(Qt::NoFocus); // Tab goes from the sidebar into the view's own fields
    m_stack->addWidget(page);
    const QIcon icon = style()->standardIcon(identity.icon);
    auto *item = new QListWidgetItem(icon, identity.title, m_sidebar);
    item->setData(Qt::UserRole, identity.key);
    item->setSizeHint(QSize(0, 36));

    auto *action = m_viewMenu->addAction(icon, identity.title);
    action->setObjectName(QStringLiteral("viewAction_") + identity.key);
    action->setCheckable(true);
    if (index < 9)
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + index)));
    m_viewActions->addAction(action);
    connect(action, &QAction::triggered, this, [this, index] { m_sidebar->setCurrentRow(index); });
    m_views.push_back({std::move(identity), std::move(make), nullptr, page});
    if (index == 0) {
        m_sidebar->setCurrentRow(0);
        action->setChecked(true);
    }
}

StoreView *MainWindow::buildView(size_t index)
{
    ViewSlot &slot = m_views[index];
    if (slot.view)
        return slot.view;
    StoreView *view = slot.make();
    slot.view = view;
    // A view's own write (a saved sizing, a contract choice, a bench run stored): the other views
    // read again when shown, and the next probe takes the store as it is then, so the window's
    // own write is never announced as one made elsewhere.
    const auto ownWrite = [this, view] {
        ++m_ownWrites;
        m_changeToken.clear();
        for (const ViewSlot &other : m_views)
            if (other.view && other.view != view)
                other.view->reloadWhenShown();
    };
    connect(view, &StoreView::sharedSettingsChanged, this, ownWrite);
    connect(view, &StoreView::storeWritten, this, ownWrite);
    connect(view, &StoreView::loadFailed, this, [this](const QString &message) {
        m_banner->showMessage(MessageBanner::Kind::Error,
                              tr("Cannot read the store: %1").arg(message));
    });
    auto *frame = new ViewFrame(view);
    slot.page->setWidget(frame);
    // Not yet shown, so it reads when it is (now, when its page is on screen).
    if (m_viewsRead)
        view->reloadWhenShown();
    if (slot.page->isVisible())
        frame->show();
    return view;
}

StoreView *MainWindow::view(const QString &key)
{
    for (size_t i = 0; i < m_views.size(); ++i)
        if (m_views[i].identity.key == key)
            return buildView(i);
    return nullptr;
}

TrendsView *MainWindow::trendsView()
{
    return viewOf<TrendsView>();
}

QStringList MainWindow::viewKeys() const
{
    QStringList keys;
    for (const ViewSlot &slot : m_views)
        keys << slot.identity.key;
    return keys;
}

std::vector<StoreView *> MainWindow::builtViews() const
{
    std::vector<StoreView *> built;
    for (const ViewSlot &slot : m_views)
        if (slot.view)
            built.push_back(slot.view);
    return built;
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_importAction = file->addAction(tr("&Import…"), this, &MainWindow::chooseImportFiles);
    m_importAction->setObjectName(QStringLiteral("importAction"));
    m_importAction->setShortcut(QKeySequence::Open);
    m_importUrlAction = file->addAction(tr("Import &URL…"), this, &MainWindow::chooseImportUrl);
    m_importUrlAction->setObjectName(QStringLiteral("importUrlAction"));
    file->addSeparator();
    QAction *openStore = file->addAction(tr("&Open Store…"), this, &MainWindow::chooseStore);
    openStore->setObjectName(QStringLiteral("openStoreAction"));
    openStore->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction *openTeam = file->addAction(tr("Open &Team Store…"), this, &MainWindow::chooseTeamStore);
    openTeam->setObjectName(QStringLiteral("openTeamStoreAction"));
    openTeam->setToolTip(tr("A store on a PostgreSQL server, shared by a team"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentStoresMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fillRecentMenu();
    file->addSeparator();
    m_removeSamplesAction =
        file->addAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("Remove Sample Runs"),
                        this, &MainWindow::removeSampleRuns);
    m_removeSamplesAction->setObjectName(QStringLiteral("removeSamplesAction"));
    m_installSamplesAction = file->addAction(tr("Install Sample Runs"), this,
                                             &MainWindow::installSampleRuns);
    m_installSamplesAction->setObjectName(QStringLiteral("installSamplesAction"));
    // The report sizes what the Sizing view shows, from the runs it shows them from; its dialog
    // reads the store off this thread.
    QAction *report = file->addAction(tr("Export &Report…"), this, [this] {
        // A Sizing view not yet shown is built for its inputs (as it would open).
        const SizingView *sizing = viewOf<SizingView>();
        auto *dialog = new ReportDialog(m_storePath, sizing->inputs(), sizing->evidenceSelection(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        dialog->start();
    });
    report->setObjectName(QStringLiteral("exportReportAction"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewActions = new QActionGroup(this);
    m_viewActions->setExclusive(true);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *docs = help->addAction(tr("&Documentation"), this, [this] { showDocumentation(); });
    docs->setObjectName(QStringLiteral("documentationAction"));
    docs->setShortcut(QKeySequence::HelpContents);
    QAction *samples = help->addAction(tr("About the &Sample Runs"), this,
                                       [this] { showDocumentation(QStringLiteral("samples.md")); });
    samples->setObjectName(QStringLiteral("sampleRunsHelpAction"));
    help->addSeparator();
    help->addAction(tr("&About Plimsoll"), this, &MainWindow::showAbout);
}

void MainWindow::start(bool installSamples)
{
    rememberStore(m_storePath);
    m_writer->prepareStore(installSamples);
}

QString MainWindow::currentViewKey() const
{
    const int row = m_stack->currentIndex();
    return row >= 0 ? m_views[static_cast<size_t>(row)].identity.key : QString();
}

bool MainWindow::showView(const QString &key)
{
    for (size_t i = 0; i < m_views.size(); ++i) {
        if (m_views[i].identity.key == key) {
            buildView(i);
            m_sidebar->setCurrentRow(static_cast<int>(i));
            return true;
        }
    }
    return false;
}

void MainWindow::importFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return;
    statusBar()->showMessage(paths.size() == 1
                                 ? tr("Importing %1…").arg(QFileInfo(paths.first()).fileName())
                                 : tr("Importing %1 files…").arg(paths.size()));
    m_writer->importFiles(paths);
}

void MainWindow::removeSampleRuns()
{
    auto *box = new QMessageBox(QMessageBox::Question, tr("Remove sample runs"),
                                tr("Remove the bundled sample runs from the store?"),
                                QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmRemoveSamples"));
    box->setInformativeText(
        tr("Your own runs stay. File ▸ Install Sample Runs brings the samples back."));
    QPushButton *remove = box->addButton(tr("Remove"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, remove](QAbstractButton *button) {
        if (button == remove)
            m_writer->removeSamples();
    });
    box->open();
}

void MainWindow::installSampleRuns()
{
    statusBar()->showMessage(tr("Installing the sample runs…"));
    m_writer->installSamples();
}

void MainWindow::scheduleRemoval(qint64 runId, const QString &runKey)
{
    m_pendingRemoval << runId;
    m_pendingRemovalKeys << runKey;
    m_library->hideRuns({runId});
    const QString text = m_pendingRemoval.size() == 1
                             ? tr("Removing the run %1.").arg(runKey)
                             : tr("Removing %1 runs.").arg(m_pendingRemoval.size());
    m_banner->showMessage(MessageBanner::Kind::Info, text, tr("Undo"), [this] { undoRemoval(); });
    m_removalTimer->start(); // each removal gets the whole time to be undone
}

void MainWindow::undoRemoval()
{
    m_removalTimer->stop();
    m_library->showRuns(m_pendingRemoval);
    const QString text = m_pendingRemoval.size() == 1
                             ? tr("Kept the run %1.").arg(m_pendingRemovalKeys.first())
                             : tr("Kept %1 runs.").arg(m_pendingRemoval.size());
    m_pendingRemoval.clear();
    m_pendingRemovalKeys.clear();
    m_banner->showMessage(MessageBanner::Kind::Info, text);
}

void MainWindow::removePendingRuns()
{
    m_removalTimer->stop();
    if (m_pendingRemoval.isEmpty())
        return;
    m_writer->removeRuns(m_pendingRemoval);
    m_pendingRemoval.clear();
    m_pendingRemovalKeys.clear();
}

void MainWindow::chooseImportFiles()
{
    // Formats are detected by content, so every file is offered by default: a tool's output is
    // as often saved as run.out or with no extension at all.
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Import benchmark results"), QString(),
        tr("All files (*);;Benchmark results (*.json *.jsonl *.csv *.txt *.log *.out *.hgrm *.hlog *.prom)"));
    previewAndImport(files, false);
}

void MainWindow::chooseImportUrl()
{
    const UrlChoice choice = askImportUrl(this);
    if (!choice.url.isEmpty())
        previewAndImport({choice.url}, choice.insecure);
}

void MainWindow::previewAndImport(const QStringList &sources, bool insecure)
{
    if (sources.isEmpty())
        return;
    // Modeless: the dry run reads in the background while the window stays responsive.
    auto *dialog = new ImportPreviewDialog(m_storePath, sources, insecure, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (const auto pair = dialog->pairedScrapes()) {
            statusBar()->showMessage(tr("Importing the pair of scrapes…"));
            m_writer->importScrapePair(pair->first, pair->second);
            return;
        }
        const QStringList importable = dialog->importableSources();
        if (importable.isEmpty())
            return;
        statusBar()->showMessage(tr("Importing %n source(s)…", nullptr, int(importable.size())));
        m_writer->importFiles(importable, dialog->insecure());
    });
    emit importPreviewOpened(dialog);
    dialog->open();
}

void MainWindow::showImportSummary(const ImportBatchSummary &summary)
{
    statusBar()->clearMessage();
    m_banner->showMessage(summary.failed() ? MessageBanner::Kind::Error
                                           : MessageBanner::Kind::Info,
                          summary.message());
    reloadViews();
}

void MainWindow::writeRunLabels(const RunLabelRequest &request)
{
    // Refused at once, on this thread (no store read), as the command line refuses it.
    if (const std::string problem = runLabelProblem(request); !problem.empty()) {
        m_banner->showMessage(MessageBanner::Kind::Error, QString::fromStdString(problem));
        return;
    }
    m_writer->setRunLabels(request);
}

void MainWindow::reloadViews()
{
    // The Library reads at once (the window opens on it and the status bar counts its runs); every
    // other view reads when it is shown, so a view nobody opens costs nothing on a large store
    // (one not built yet reads when it is built and shown).
    m_viewsRead = true;
    for (StoreView *view : builtViews()) {
        if (view == m_library)
            view->reload();
        else
            view->reloadWhenShown();
    }
    m_changeToken.clear(); // our own write: the next probe takes the store as it is then
    emit storeChanged();
}

DocumentationWindow *MainWindow::showDocumentation(const QString &page)
{
    if (!m_documentation)
        m_documentation = new DocumentationWindow(this);
    if (!page.isEmpty())
        m_documentation->showPage(page);
    else if (!m_documentation->showPage(documentationPageForView(currentViewKey())))
        m_documentation->showPage(QStringLiteral("window/index.md"));
    m_documentation->show();
    m_documentation->raise();
    m_documentation->activateWindow();
    return m_documentation;
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About Plimsoll"),
        tr("<h3>Plimsoll %1</h3>"
           "<p>Capacity planner and benchmark dashboard for Kafka-compatible streaming on "
           "Redis.</p><p>Store: %2</p>")
            .arg(QString::fromUtf8(kVersion),
                 QDir::toNativeSeparators(m_storePath).toHtmlEscaped()));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    removePendingRuns();
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (m_readOnlyReason.isEmpty() && !localFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction(); // a read-only store takes no drop: the cursor says so
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList files = localFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    importFiles(files);
}

void MainWindow::restoreSettings()
{
    QSettings settings = windowSettings();
    settings.beginGroup(QStringLiteral("window"));
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    // A size saved on a larger screen (a docked laptop) is cut to this one's.
    if (const QScreen *onScreen = screen()) {
        const QSize room = onScreen->availableSize();
        if (width() > room.width() || height() > room.height())
            resize(size().boundedTo(room));
    }
    restoreState(settings.value(QStringLiteral("state")).toByteArray());
    showView(settings.value(QStringLiteral("view")).toString());
}

void MainWindow::saveSettings() const
{
    QSettings settings = windowSettings();
    settings.beginGroup(QStringLiteral("window"));
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.setValue(QStringLiteral("view"), currentViewKey());
}

} // namespace plimsoll
