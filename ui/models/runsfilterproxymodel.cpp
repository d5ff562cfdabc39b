#include "ui/models/runsfilterproxymodel.h"

#include "ui/models/runstablemodel.h"

#include <QDateTime>

namespace plimsoll {

RunsFilterProxyModel::RunsFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(RunsTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void RunsFilterProxyModel::setCommitPrefix(const QString &prefix)
{
    const QString trimmed = prefix.trimmed();
    if (trimmed == m_commitPrefix)
        return;
    m_commitPrefix = trimmed;
    invalidateRowsFilter();
}

void RunsFilterProxyModel::setDateRange(const QDate &from, const QDate &to)
{
    if (from == m_from && to == m_to)
        return;
    m_from = from;
    m_to = to;
    invalidateRowsFilter();
}

void RunsFilterProxyModel::setHiddenRuns(const QSet<qint64> &runIds)
{
    if (runIds == m_hidden)
        return;
    m_hidden = runIds;
    invalidateRowsFilter();
}

bool RunsFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *source = sourceModel();
    if (!m_hidden.isEmpty() &&
        m_hidden.contains(source->index(sourceRow, 0, sourceParent)
                              .data(RunsTableModel::RunIdRole)
                              .toLongLong()))
        return false;
    if (!m_commitPrefix.isEmpty()) {
        const QString commit =
            source->index(sourceRow, RunsTableModel::CommitColumn, sourceParent)
                .data(RunsTableModel::SortRole)
                .toString();
        if (!commit.startsWith(m_commitPrefix, Qt::CaseInsensitive))
            return false;
    }
    if (m_from.isValid() || m_to.isValid()) {
        const QDateTime time = source->index(sourceRow, RunsTableModel::TimeColumn, sourceParent)
                                   .data(RunsTableModel::SortRole)
                                   .toDateTime();
        // A run without a readable time cannot be placed in a range, so a range excludes it.
        if (!time.isValid())
            return false;
        const QDate day = time.toLocalTime().date();
        if (m_from.isValid() && day < m_from)
            return false;
        if (m_to.isValid() && day > m_to)
            return false;
    }
    return true;
}

} // namespace plimsoll
