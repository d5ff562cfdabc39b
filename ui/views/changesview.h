#pragma once
// Changes: the regression dashboard. Every change point of every series in the store, and
// every new baseline (a tuning-contract change), in one table: time, the verdict, the change in
// percent, scenario, metric, target, the p-value, the run and its commit. A filter keeps
// the rows mentioning what is typed, a verdict choice keeps regressions or improvements only,
// and opening a row (double-click, Enter) shows its series in Trends with the run selected.
//
// It is `plimsoll changes` with its default request (model/trends/trendchanges.h), read and
// examined in the background (LatestTask): the same change points as the command prints.

#include "model/trends/trendchanges.h"
#include "ui/views/storeview.h"
#include "ui/views/viewwidgets.h"

class QSortFilterProxyModel;
class QStandardItemModel;

namespace plimsoll {

class LatestTask;

class ChangesView : public StoreView
{
    Q_OBJECT
public:
    // The verdict and the change first: what a reader scans for.
    enum Column { Time, Verdict, Change, Scenario, Metric, Target, PValue, Run, Commit, ColumnCount };
    enum class Show { All, Regressions, Improvements };

    // Its sidebar entry, menu item and settings key, known before the view is built.
    static ViewIdentity identity();
    explicit ChangesView(const QString &storePath, QWidget *parent = nullptr);

    void reload() override;

    // What the view shows: the report it read, and the rows the filters leave.
    const ChangesReport &report() const { return m_report; }
    int shownRows() const;
    QString summaryText() const;
    void setFilterText(const QString &text);
    void setShown(Show show);
    // The row's series in Trends: emits openSeries for the row at `row` of the table as shown.
    void openRow(int row);

    QTableView *table() const { return m_table; }

signals:
    void loaded(int rows);
    void openSeries(const QString &scenario, const QString &metric, const QString &runKey);

private:
    void showReport(const ChangesReport &report);
    void addChangeRows(const SeriesChanges &series);
    void addBaselineRows(const BaselineChange &change);
    void addLoadRows(const LoadSteps &steps);
    void refilter();

    LatestTask *m_loader = nullptr;
    ChangesReport m_report;
    QStandardItemModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QLineEdit *m_filter = nullptr;
    QComboBox *m_show = nullptr;
    QLabel *m_summary = nullptr;
};

} // namespace plimsoll
