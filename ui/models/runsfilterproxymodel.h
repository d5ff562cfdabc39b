#pragma once
// Filters and sorts the runs table in memory: commit prefix, a local-date range, and the runs
// whose removal is pending (hidden until it is carried out, shown again on undo).
//
// The search filter is deliberately not here: which scenarios a run has is not part of a
// RunSummary, so the Library view asks the store for it instead
// (Store::runs(RunFilter{textContains}) in its background loader) and this proxy only
// narrows what was loaded. Used from the UI thread only.

#include <QDate>
#include <QSet>
#include <QSortFilterProxyModel>

namespace plimsoll {

class RunsFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RunsFilterProxyModel(QObject *parent = nullptr);

    // Case-insensitive prefix of the full commit hash; empty accepts every run.
    void setCommitPrefix(const QString &prefix);
    // Inclusive local dates; an invalid date leaves that side open.
    void setDateRange(const QDate &from, const QDate &to);

    QString commitPrefix() const { return m_commitPrefix; }
    // Whether any in-memory filter narrows the rows (pending removals do not count).
    bool isFiltering() const { return !m_commitPrefix.isEmpty() || m_from.isValid() || m_to.isValid(); }

    void setHiddenRuns(const QSet<qint64> &runIds);
    const QSet<qint64> &hiddenRuns() const { return m_hidden; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_commitPrefix;
    QDate m_from;
    QDate m_to;
    QSet<qint64> m_hidden;
};

} // namespace plimsoll
