#pragma once
// Runs to choose from, newest first: the run pickers of the Compare view and the results of
// their search. Like RunsTableModel it never touches the store: rows arrive a page at a time
// from a background read (setResults, then appendResults for each page moreRequested asks
// for), so a store of a million runs costs one page, never every run in a list.
//
// A run chosen from elsewhere (a search, "compare with…") is put in its place with insertRun()
// although its page was not read yet; pages read later skip it. Used from the UI thread only.

#include "model/store/store.h"

#include <QAbstractListModel>

#include <optional>
#include <vector>

namespace plimsoll {

class RunPickerListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { RunKeyRole = Qt::UserRole + 1 };

    explicit RunPickerListModel(QObject *parent = nullptr);

    // `runs` in the store's newest-first order; `complete`: no page after them.
    void setResults(std::vector<RunSummary> runs, bool complete);
    void appendResults(std::vector<RunSummary> runs, bool complete);
    // Row of `run`, inserted where it belongs when it is not there yet.
    int insertRun(const RunSummary &run);
    int rowOfKey(const QString &runKey) const;
    const RunSummary &runAt(int row) const { return m_runs.at(static_cast<size_t>(row)); }
    bool isComplete() const { return m_complete; }
    // Where the next page starts: the last run of the pages read (not of runs inserted).
    const std::optional<RunSummary> &cursor() const { return m_cursor; }
    // "nightly-42  (2026-09-28 02:30)", or "before upgrade (nightly-42)  (2026-09-28 02:30)" for a
    // run the user named: what a picker shows for a run.
    static QString label(const RunSummary &run);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    // The list was scrolled to its end: the page after cursor() is wanted (once until the
    // next appendResults or setResults).
    void moreRequested();

private:
    std::vector<RunSummary> m_runs;
    std::optional<RunSummary> m_cursor;
    bool m_complete = true;
    bool m_requested = false;
};

} // namespace plimsoll
