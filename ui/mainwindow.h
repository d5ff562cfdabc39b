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

#include <QMainWindow>
#include <QStringList>

#include <vector>

class QActionGroup;
class QLabel;
class QTimer;
class QListWidget;
class QMenu;
class QProgressBar;
class QSettings;
class QStackedWidget;

namespace plimsoll {

class DocumentationWindow;
class ElidingLabel;
class ImportPreviewDialog;
class LatestTask;
class LibraryView;
class MessageBanner;
class StoreView;
class StoreWriter;
class TrendsView;
struct ImportBatchSummary;

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
    LibraryView *libraryView() const { return m_library; }
    TrendsView *trendsView() const { return m_trends; }
    MessageBanner *banner() const { return m_banner; }
    StoreWriter *storeWriter() const { return m_writer; }
    const std::vector<StoreView *> &views() const { return m_views; }

    QString currentViewKey() const;
    // Shows the view with this key (e.g. "trends"); false when there is none.
    bool showView(const QString &key);
    // Help > Documentation (F1): one window, raised again when already open, at the section
    // whose title contains `section` when one is given.
    DocumentationWindow *showDocumentation(const QString &section = {});

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
    template <typename View> View *addView(View *view)
    {
        registerView(view);
        return view;
    }
    void registerView(StoreView *view);
    void createMenus();
    void chooseImportFiles();
    void chooseImportUrl();
    void reloadViews();
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
    QString m_changeToken; // as the last probe read it; empty: not read since our own write
    QString m_readOnlyReason; // as the last probe read it; empty: this user may write
    QProgressBar *m_progress = nullptr;
    std::vector<StoreView *> m_views;
    LibraryView *m_library = nullptr;
    TrendsView *m_trends = nullptr;
};

} // namespace plimsoll
