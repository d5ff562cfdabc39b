#pragma once
// The runs of the store as a table. Rows are immutable RunSummary values loaded off the UI
// thread; setResults() replaces them all at once (a model reset), so the model never touches
// the store itself and is only used from the UI thread.

#include "model/store.h"

#include <QAbstractTableModel>

#include <vector>

namespace plimsoll {

class RunsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, RunKeyColumn, ToolColumn, TargetColumn, CommitColumn,
                  ScenariosColumn, SampleColumn, ColumnCount };
    enum Role {
        // Numbers as numbers, times as QDateTime (UTC), text as full text: what sorting and
        // filtering compare, while DisplayRole shows abbreviated, localized text.
        SortRole = Qt::UserRole + 1,
        RunIdRole, // qint64 store id of the row's run, the same in every column
        RunKeyRole,
    };

    explicit RunsTableModel(QObject *parent = nullptr);

    void setResults(std::vector<RunSummary> runs);
    const RunSummary &runAt(int row) const { return m_runs.at(static_cast<size_t>(row)); }
    // Row of the run with this store id, -1 when it is not loaded.
    int rowOfRun(qint64 runId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<RunSummary> m_runs;
};

} // namespace plimsoll
