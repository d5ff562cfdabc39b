#pragma once
// Library: every run in the store, found by a search over run key, name, tags, commit, tool,
// target, scenario names and the source file's name and path, narrowed by commit prefix and
// date, with the selected run's details beside the table and a context menu on each run
// (details, rename, tags, copy the key, remove). A run's name is edited in its Name cell
// (double-click or F2) or by Rename…, its tags by Tags…: the view asks (labelsRequested) and the
// window writes it off the UI thread through StoreWriter, as `plimsoll name` and `plimsoll tag`.
// Several runs may be selected (Ctrl or Shift and click): "Compare these", in the tool row and
// the context menu, opens Compare on them, the first in the table's order the baseline.
//
// The search is applied by the store (a background Store::runs(RunFilter{textContains})
// query, debounced while typing) because a RunSummary does not carry its scenario names; the
// commit and date filters narrow the loaded rows in RunsFilterProxyModel without touching the
// store. Removing a run asks first, then hides it (hideRuns) while the window offers an undo;
// the window carries the removal out.
//
// Rows come a page at a time (RunPage, kLibraryPageSize runs), in the order of the table's sort
// column, so the first rows show at once whatever the size of the store. The next page is read
// in the background when the table needs rows — scrolled to the end, or the filters leave the
// last loaded row in sight — and sorting by another column while pages remain reads again in
// that order.

#include "model/store/runlabels.h"
#include "model/store/store.h"
#include "ui/views/storeview.h"
#include "ui/views/viewwidgets.h"

#include <functional>

namespace plimsoll {

// Runs per page of the Library: more than a screen holds, few enough to read in milliseconds.
inline constexpr int kLibraryPageSize = 1000;

class LatestTask;
class RunDetailPanel;
class RunsFilterProxyModel;
class RunsTableModel;

class LibraryView : public StoreView
{
    Q_OBJECT
public:
    // Its sidebar entry, menu item and settings key, known before the view is built.
    static ViewIdentity identity();
    explicit LibraryView(const QString &storePath, QWidget *parent = nullptr);

    void reload() override;

    // Puts a window action (e.g. "Remove Sample Runs") in the view's tool row.
    void addToolAction(QAction *action);

    RunsTableModel *runsModel() const { return m_model; }
    RunsFilterProxyModel *runsProxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    RunDetailPanel *detailPanel() const { return m_detail; }
    // Total runs in the store at the last load, whatever the filters.
    qint64 storeRunCount() const { return m_storeRunCount; }

    // The selected runs' keys, in the table's order.
    QStringList selectedRunKeys() const;
    QAction *compareTheseAction() const { return m_compareThese; }

    void setSearchText(const QString &text);
    void setCommitFilter(const QString &text);
    void selectRow(int proxyRow);

    // "5 runs", or "1 of 5 runs" while a search or filter narrows them ("1,000+ of …" while
    // pages remain unread).
    QString countText() const;

    // Asks whether to remove the run on this row of the table; on yes emits removalConfirmed.
    void requestRemoval(int proxyRow);
    // Why no run may be removed here ("This store is read-only for user X."): the context
    // menu's Remove Run is then disabled and says so. Empty: runs may be removed.
    void setRemovalRefused(const QString &why) { m_removalRefused = why; }
    // Asks for a new name of the run on this row (Rename…), or its tags (Tags…); on OK emits
    // labelsRequested. An empty name removes the run's name.
    void requestRename(int proxyRow);
    void requestTags(int proxyRow);
    // Asks for the text of `column` of a run (its %1 in `label` the run's key) and emits the
    // request `request` makes of it.
    void askLabel(int proxyRow, int column, const QString &objectName, const QString &title, const QString &label,
                  const std::function<RunLabelRequest(qint64, const QString &)> &request);
    // The run's labels as written (StoreWriter::labelsWritten): shown at once in its row and
    // its details.
    void showLabels(const RunSummary &run);

    // Runs hidden from the table (a removal waiting for its undo to lapse), or shown again.
    void hideRuns(const QList<qint64> &runIds);
    void showRuns(const QList<qint64> &runIds);

signals:
    // The table now holds `rows` runs (before the in-memory filters) of `total` in the store:
    // after each reload, and after each further page.
    void runsLoaded(int rows, qint64 total);
    void runDetailShown(const QString &runKey);
    void countChanged(const QString &text);
    void removalConfirmed(qint64 runId, const QString &runKey);
    // "Compare these" on two or more selected runs: their keys, the baseline first.
    void compareRequested(const QStringList &runKeys);
    // A new name or tags for a run (by id), as `plimsoll name` / `plimsoll tag` would take them.
    void labelsRequested(const plimsoll::RunLabelRequest &request);

private:
    void applyDateFilter();
    void showSelectedRun();
    void fetchNextPage();
    // Reads on while the last loaded row would be in sight (as QAbstractItemView does when rows
    // arrive), so filters that hide every loaded row still find the runs further on.
    void fetchWhileLastRowInSight();
    void showContextMenu(const QPoint &position);
    void updateCount();
    // The Tags column is shown while a loaded run has tags: a small window keeps its room for
    // the run key, tool and target until tags are used (Tags… in a run's context menu).
    void showTagsColumnWhenUsed();
    // Column widths from their contents, each at most a share of the table so that one long
    // tool string cannot push the other columns out of sight (the full text is its tooltip);
    // where they still overflow the table, the text columns give way, widest first, so every
    // column is in sight. Again on every resize, until the user sizes a column by hand.
    void fitColumns();
    bool eventFilter(QObject *watched, QEvent *event) override;
    // The search field's placeholder: what it searches, or "Search runs…" where that is cut off.
    QString searchHint() const;

    QLineEdit *m_search = nullptr;
    QLineEdit *m_commitFilter = nullptr;
    QDateEdit *m_from = nullptr;
    QDateEdit *m_to = nullptr;
    QToolBar *m_tools = nullptr;
    QAction *m_compareThese = nullptr;
    QTableView *m_table = nullptr;
    RunDetailPanel *m_detail = nullptr;
    RunsTableModel *m_model = nullptr;
    RunsFilterProxyModel *m_proxy = nullptr;
    QTimer *m_searchDebounce = nullptr;
    LatestTask *m_runsLoader = nullptr;
    LatestTask *m_pageLoader = nullptr;
    LatestTask *m_detailLoader = nullptr;
    qint64 m_storeRunCount = 0;
    RunFilter m_filter; // of the rows loaded, which further pages continue
    RunPage m_page;
    bool m_fetching = false;  // a page is being read
    bool m_reloading = false; // a first page is being read
    bool m_fittingColumns = false;  // the widths being set are ours, not the user's
    bool m_userSizedColumns = false; // the user dragged a column: keep their widths
    QString m_removalRefused;
};

} // namespace plimsoll
