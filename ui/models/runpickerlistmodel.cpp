#include "ui/models/runpickerlistmodel.h"

#include "model/store/runlabels.h"
#include "ui/formatting.h"

#include <algorithm>

namespace plimsoll {

namespace {

// The store's page order: newest first, the later id first among runs of one time.
bool newerThan(const RunSummary &a, const RunSummary &b)
{
    return a.timestamp != b.timestamp ? a.timestamp > b.timestamp : a.id > b.id;
}

} // namespace

RunPickerListModel::RunPickerListModel(QObject *parent) : QAbstractListModel(parent) {}

QString RunPickerListModel::label(const RunSummary &run)
{
    return QStringLiteral("%1  (%2)").arg(QString::fromStdString(runTitle(run.name, run.runKey)),
                                          displayTimestamp(run.timestamp));
}

void RunPickerListModel::setResults(std::vector<RunSummary> runs, bool complete)
{
    beginResetModel();
    m_runs = std::move(runs);
    m_cursor = m_runs.empty() ? std::nullopt : std::optional<RunSummary>(m_runs.back());
    m_complete = complete;
    m_requested = false;
    endResetModel();
}

void RunPickerListModel::appendResults(std::vector<RunSummary> runs, bool complete)
{
    if (!runs.empty())
        m_cursor = runs.back();
    m_complete = complete;
    m_requested = false;
    // Runs inserted ahead of their page are older than every run read before: most of a page
    // goes before them in one block, the rest one by one.
    for (RunSummary &run : runs)
        insertRun(run);
}

int RunPickerListModel::insertRun(const RunSummary &run)
{
    if (const int row = rowOfKey(QString::fromStdString(run.runKey)); row >= 0)
        return row;
    const auto at = std::upper_bound(m_runs.begin(), m_runs.end(), run, newerThan);
    const int row = static_cast<int>(at - m_runs.begin());
    beginInsertRows({}, row, row);
    m_runs.insert(at, run);
    endInsertRows();
    return row;
}

int RunPickerListModel::rowOfKey(const QString &runKey) const
{
    const std::string key = runKey.toStdString();
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].runKey == key)
            return static_cast<int>(i);
    return -1;
}

int RunPickerListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

QVariant RunPickerListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const RunSummary &r = runAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return label(r);
    case RunKeyRole:
        return QString::fromStdString(r.runKey);
    case Qt::ToolTipRole:
        return tr("%1\n%2 · target %3 · %4 %5 · %n scenario(s)", nullptr, int(r.scenarioCount))
            .arg(QString::fromStdString(r.runKey), displayTimestamp(r.timestamp),
                 r.target.empty() ? QStringLiteral("—") : QString::fromStdString(r.target),
                 QString::fromStdString(r.tool), QString::fromStdString(r.toolVersion));
    default:
        return {};
    }
}

bool RunPickerListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_complete && !m_requested;
}

void RunPickerListModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_requested = true;
    emit moreRequested();
}

} // namespace plimsoll
