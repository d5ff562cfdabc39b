#pragma once
// The Plimsoll window: a sidebar of views over one store, an inline banner for outcomes, the
// import progress in the status bar.
//
// Threading contract: everything here runs on the UI thread and never opens the store on it.
// Writes go through StoreWriter (queued, background); each view reads in the background with
// its own Store connection. After any write the Library reloads and every other view reloads
// when it is next shown (StoreView::reloadWhenShown). Writes by others (another window, a CI
// job on a team store) are noticed by a light probe of the store every few seconds, in the
// background, which also tells the status bar whether this store is read-only here.

#include "ui/views/storeview.h"

#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <vector>

class QActionGroup;
class QLabel;
class QTimer;
class QListWidget;
class QMenu;
class QProgressBar;
class QScrollArea;
class QSettings;
class QStackedWidget;

namespace plimsoll {

class DocumentationWindow;
class ElidingLabel;
class ImportPreviewDialog;
class LatestTask;
class LibraryView;
class MessageBanner;
class StoreWriter;
class TrendsView;
struct ImportBatchSummary;
struct RunLabelRequest;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(const QString &storePath, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens (creates, migrates) the store in the background, installing the bundled samples
    // first when asked, then loads the Library and the view on screen (the others when shown).
    // Call once, after construction.
    void start(bool installSamples);

    const QString &storePath() const { return m_storePath; }
    // The views are built when first shown (or asked for here): the window opens on the Library
    // without paying for the eight others. The Library is built with the window.
    LibraryView *libraryView() const { return m_library; }
    TrendsView *trendsView();
    // The view with this key, built now if it was not yet; nullptr when there is none.
    StoreView *view(const QString &key);
    // Every view's key, in sidebar order.
    QStringList viewKeys() const;
    // The views built so far, in sidebar order.
    std::vector<StoreView *> builtViews() const;
    MessageBanner *banner() const { return m_banner; }
    StoreWriter *storeWriter() const { return m_writer; }

    QString currentViewKey() const;
    // Shows the view with this key (e.g. "trends"); false when there is none.
    bool showView(const QString &key);
    // Help > Documentation (F1): the manual in one window, raised again when already open, at
    // `page` (relative to docs/: "samples.md") when one is given, else at the page of the view
    // shown ("window/trends.md").
    DocumentationWindow *showDocumentation(const QString &page = {});

    // File > Open Store…: another store in a window of its own (the CLI's --db in the
    // window); the store already open here, or in another window, is raised instead. Returns
    // the window that shows it. Every store opened is remembered (Open Recent, newest first).
    MainWindow *openStore(const QString &path);
    static QStringList recentStores();
    // The window's title for a store: a file by its name, a team store by its database and
    // server ("plimsoll on db.example.com:5432").
    static QString storeTitle(const QString &location);
    // How often the store is probed for writes by others (milliseconds; 0 stops it).
    void setChangePollInterval(int milliseconds);
    // The status bar's note of what this window may do with the store ("read-only for user
    // plimsoll_reader"; empty when it may write).
    QLabel *accessLabel() const { return m_accessLabel; }
    // File > Open Team Store…: `uri` checked (a postgresql:// URI without a password) before a
    // window opens on it; the refusal is said in this window's banner. Returns the window or
    // nullptr.
    MainWindow *openTeamStore(const QString &uri);

public slots:
    // Dry-runs the sources in a preview dialog; Import commits the readable ones.
    void previewAndImport(const QStringList &sources, bool insecure = false);
    void importFiles(const QStringList &paths);
    // Asks first; the samples can be installed again (installSampleRuns).
    void removeSampleRuns();
    void installSampleRuns();
    // Carries out a removal waiting for its undo to lapse (at once, e.g. before closing).
    void removePendingRuns();

signals:
    // A store write finished and the views were asked to reload.
    void storeChanged();
    // A probe found runs or shared settings written by someone else; the views read again.
    void storeChangedElsewhere();
    // The import preview is about to show (tests drive it through this).
    void importPreviewOpened(plimsoll::ImportPreviewDialog *dialog);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    // A sidebar entry whose view is built by `make` when first shown.
    struct ViewSlot
    {
        ViewIdentity identity;
        std::function<StoreView *()> make;
        StoreView *view = nullptr;
        QScrollArea *page = nullptr;
    };
    // Adds a view in sidebar order; `connectView` wires it to the window once it is built.
    template <typename View> void addView(std::function<void(View *)> connectView = {})
    {
        registerView(View::identity(), [this, connectView]() -> StoreView * {
            auto *view = new View(m_storePath, this);
            if (connectView)
                connectView(view);
            return view;
        });
    }
    template <typename View> View *viewOf() { return static_cast<View *>(view(View::identity().key)); }
    void registerView(ViewIdentity identity, std::function<StoreView *()> make);
    StoreView *buildView(size_t index);
    void createMenus();
    void chooseImportFiles();
    void chooseImportUrl();
    void reloadViews();
    // A rename or tags asked in the Library, written through StoreWriter.
    void writeRunLabels(const plimsoll::RunLabelRequest &request);
    void showImportSummary(const ImportBatchSummary &summary);
    void showAbout();
    void chooseStore();
    void chooseTeamStore();
    void probeStore();
    void fillRecentMenu();
    static void rememberStore(const QString &path);
    static QSettings windowSettings();
    // How often a window probes its store for writes by others: MAX(id) and COUNT(*) of the runs
    // and the size of the shared settings, in the background, soon enough that a CI job's
    // nightly import shows within seconds.
    static constexpr int kChangePollMilliseconds = 5000;
    void restoreSettings();
    void saveSettings() const;
    // A run the user confirmed removing: hidden now, removed when the undo lapses.
    void scheduleRemoval(qint64 runId, const QString &runKey);
    void undoRemoval();
    // The actions that write to the store (Import, Import URL, Remove/Install Sample Runs, the
    // Library's Remove Run): enabled while no write of ours is under way and the store may be
    // written by this user; on a read-only store each says why in its tooltip.
    void updateWriteActions();

    QString m_storePath;
    StoreWriter *m_writer = nullptr;
    MessageBanner *m_banner = nullptr;
    QListWidget *m_sidebar = nullptr;
    QStackedWidget *m_stack = nullptr;
    QMenu *m_viewMenu = nullptr;
    QActionGroup *m_viewActions = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_importUrlAction = nullptr;
    QAction *m_removeSamplesAction = nullptr;
    QAction *m_installSamplesAction = nullptr;
    DocumentationWindow *m_documentation = nullptr;
    QMenu *m_recentMenu = nullptr;
    QTimer *m_removalTimer = nullptr;
    QList<qint64> m_pendingRemoval;
    QStringList m_pendingRemovalKeys;
    ElidingLabel *m_pathLabel = nullptr;
    QLabel *m_runCountLabel = nullptr;
    QLabel *m_accessLabel = nullptr;
    QTimer *m_changePoll = nullptr;
    LatestTask *m_probe = nullptr;
    QString m_changeToken; // as the last probe (or our own last write) read it; empty: not read since our own write
    // Writes of this window so far: a probe that began before one of them was answered with
    // the store of before that write, and is not compared.
    quint64 m_ownWrites = 0;
    QString m_readOnlyReason; // as the last probe read it; empty: this user may write
    QProgressBar *m_progress = nullptr;
    std::vector<ViewSlot> m_views;
    // The views have been asked to read (the store is ready, or could not be prepared): a view
    // built from now on reads when shown.
    bool m_viewsRead = false;
    LibraryView *m_library = nullptr;
};

} // namespace plimsoll
