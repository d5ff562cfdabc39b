#pragma once
// The runs of the store as a table. Rows are immutable RunSummary values loaded off the UI
// thread; setResults() replaces them all at once (a model reset), so the model never touches
// the store itself and is only used from the UI thread.
//
// Incremental: a store of years of history arrives a page at a time. Until the last page
// (`complete`), canFetchMore() is true and fetchMore() asks for the next one (moreRequested),
// which the view reads in the background and hands to appendResults(). Rows stay in the order
// the store gave them; the last row is where the next page starts.

#include "model/store/store.h"

#include "ui/models/titledtablemodel.h"
#include <QDateTime>

#include <vector>

namespace plimsoll {

class RunsTableModel : public TitledTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, NameColumn, RunKeyColumn, TagsColumn, ToolColumn, TargetColumn, CommitColumn,
                  ScenariosColumn, SampleColumn, ColumnCount };
    enum Role {
        // Numbers as numbers, times as QDateTime (UTC), text as full text: what sorting and
        // filtering compare, while DisplayRole shows abbreviated, localized text.
        SortRole = Qt::UserRole + 1,
        RunIdRole, // qint64 store id of the row's run, the same in every column
        RunKeyRole,
    };

    explicit RunsTableModel(QObject *parent = nullptr);

    void setResults(std::vector<RunSummary> runs, bool complete = true);
    void appendResults(std::vector<RunSummary> runs, bool complete);
    // False while the store has rows beyond those loaded.
    bool isComplete() const { return m_complete; }
    const RunSummary &runAt(int row) const { return m_runs.at(static_cast<size_t>(row)); }
    // Whether any loaded run has tags (the view shows the Tags column only then).
    bool anyTags() const;
    // Row of the run with this store id, -1 when it is not loaded.
    int rowOfRun(qint64 runId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    // The Name cell is editable: an edit is asked for (renameRequested), never made here; the
    // row shows the new name once the store has it and the view reads it again.
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    // The row's run with these labels, as the store now has them (after a rename written).
    void setLabels(qint64 runId, const std::string &name, const std::vector<std::string> &tags);
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    // The view wants the page after the last row (once until appendResults or setResults).
    void moreRequested();
    // The user edited the run's Name cell to `name` (possibly empty: remove the name).
    void renameRequested(qint64 runId, const QString &name);

private:
    std::vector<RunSummary> m_runs;
    std::vector<QDateTime> m_times; // parsed once per row: sorting compares them often
    bool m_complete = true;
    bool m_requested = false;
};

} // namespace plimsoll
