#pragma once
// Library: every run in the store, filtered by scenario, commit and date, with the selected
// run's details beside the table.
//
// The scenario filter is applied by the store (a background Store::runs(RunFilter) query,
// debounced while typing) because a RunSummary does not carry its scenario names; the commit
// and date filters narrow the loaded rows in RunsFilterProxyModel without touching the store.

#include "ui/views/storeview.h"

class QDateEdit;
class QLineEdit;
class QTableView;
class QTimer;
class QToolBar;

namespace plimsoll {

class LatestTask;
class RunDetailPanel;
class RunsFilterProxyModel;
class RunsTableModel;

class LibraryView : public StoreView
{
    Q_OBJECT
public:
    explicit LibraryView(const QString &storePath, QWidget *parent = nullptr);

    QString key() const override { return QStringLiteral("library"); }
    QString title() const override { return tr("Library"); }
    QIcon icon() const override;
    void reload() override;

    // Puts a window action (e.g. "Remove Sample Runs") in the view's tool row.
    void addToolAction(QAction *action);

    RunsTableModel *runsModel() const { return m_model; }
    RunsFilterProxyModel *runsProxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    RunDetailPanel *detailPanel() const { return m_detail; }
    // Total runs in the store at the last load, whatever the filters.
    qint64 storeRunCount() const { return m_storeRunCount; }

    void setScenarioFilter(const QString &text);
    void setCommitFilter(const QString &text);
    void selectRow(int proxyRow);

signals:
    // The table now holds `rows` runs (before the in-memory filters) of `total` in the store.
    void runsLoaded(int rows, qint64 total);
    void runDetailShown(const QString &runKey);

private:
    void applyDateFilter();
    void showSelectedRun();

    QLineEdit *m_scenarioFilter = nullptr;
    QLineEdit *m_commitFilter = nullptr;
    QDateEdit *m_from = nullptr;
    QDateEdit *m_to = nullptr;
    QToolBar *m_tools = nullptr;
    QTableView *m_table = nullptr;
    RunDetailPanel *m_detail = nullptr;
    RunsTableModel *m_model = nullptr;
    RunsFilterProxyModel *m_proxy = nullptr;
    QTimer *m_scenarioDebounce = nullptr;
    LatestTask *m_runsLoader = nullptr;
    LatestTask *m_detailLoader = nullptr;
    qint64 m_storeRunCount = 0;
};

} // namespace plimsoll
