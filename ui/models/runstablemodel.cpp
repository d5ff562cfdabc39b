#include "ui/models/runstablemodel.h"

#include "ui/formatting.h"

#include <QStringList>

#include <algorithm>

namespace plimsoll {

RunsTableModel::RunsTableModel(QObject *parent)
    : TitledTableModel({tr("Time"), tr("Name"), tr("Run key"), tr("Tags"), tr("Tool"), tr("Target"),
                        tr("Commit"), tr("Scenarios"), tr("Sample")},
                       parent)
{
}

namespace {

QString tagsText(const std::vector<std::string> &tags)
{
    QStringList list;
    for (const std::string &t : tags)
        list << QString::fromStdString(t);
    return list.join(QLatin1Char(' '));
}

std::vector<QDateTime> parsedTimes(const std::vector<RunSummary> &runs)
{
    std::vector<QDateTime> times;
    times.reserve(runs.size());
    for (const RunSummary &run : runs)
        times.push_back(parseStoredTimestamp(run.timestamp));
    return times;
}

} // namespace

void RunsTableModel::setResults(std::vector<RunSummary> runs, bool complete)
{
    beginResetModel();
    m_times = parsedTimes(runs);
    m_runs = std::move(runs);
    m_complete = complete;
    m_requested = false;
    endResetModel();
}

void RunsTableModel::appendResults(std::vector<RunSummary> runs, bool complete)
{
    m_complete = complete;
    m_requested = false;
    if (runs.empty())
        return;
    const int first = rowCount();
    std::vector<QDateTime> times = parsedTimes(runs);
    beginInsertRows({}, first, first + static_cast<int>(runs.size()) - 1);
    m_runs.insert(m_runs.end(), std::make_move_iterator(runs.begin()),
                  std::make_move_iterator(runs.end()));
    m_times.insert(m_times.end(), times.begin(), times.end());
    endInsertRows();
}

bool RunsTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_complete;
}

void RunsTableModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || m_complete || m_requested)
        return;
    m_requested = true;
    emit moreRequested();
}

bool RunsTableModel::anyTags() const
{
    return std::any_of(m_runs.begin(), m_runs.end(), [](const RunSummary &r) { return !r.tags.empty(); });
}

int RunsTableModel::rowOfRun(qint64 runId) const
{
    for (size_t row = 0; row < m_runs.size(); ++row) {
        if (m_runs[row].id == runId)
            return static_cast<int>(row);
    }
    return -1;
}

Qt::ItemFlags RunsTableModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = TitledTableModel::flags(index);
    if (index.isValid() && index.column() == NameColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

bool RunsTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid) || index.column() != NameColumn)
        return false;
    const RunSummary &run = m_runs[static_cast<size_t>(index.row())];
    const QString name = value.toString();
    if (name == QString::fromStdString(run.name))
        return false;
    emit renameRequested(run.id, name);
    return false; // shown once written
}

void RunsTableModel::setLabels(qint64 runId, const std::string &name, const std::vector<std::string> &tags)
{
    const int row = rowOfRun(runId);
    if (row < 0)
        return;
    m_runs[static_cast<size_t>(row)].name = name;
    m_runs[static_cast<size_t>(row)].tags = tags;
    emit dataChanged(index(row, NameColumn), index(row, TagsColumn));
}

int RunsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

QVariant RunsTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RunSummary &run = m_runs[static_cast<size_t>(index.row())];
    switch (role) {
    case RunIdRole:
        return QVariant::fromValue<qint64>(run.id);
    case RunKeyRole:
        return QString::fromStdString(run.runKey);
    case Qt::EditRole:
        if (index.column() == NameColumn)
            return QString::fromStdString(run.name);
        return data(index, Qt::DisplayRole);
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return displayTimestamp(run.timestamp);
        case NameColumn:
            return QString::fromStdString(run.name);
        case RunKeyColumn:
            return QString::fromStdString(run.runKey);
        case TagsColumn:
            return tagsText(run.tags);
        case ToolColumn:
            return run.toolVersion.empty()
                       ? QString::fromStdString(run.tool)
                       : QStringLiteral("%1 %2").arg(QString::fromStdString(run.tool),
                                                     QString::fromStdString(run.toolVersion));
        case TargetColumn:
            return QString::fromStdString(run.target);
        case CommitColumn:
            return shortCommit(run.commit);
        case ScenariosColumn:
            return QVariant::fromValue<qint64>(run.scenarioCount);
        case SampleColumn:
            return run.sample ? tr("sample") : QString();
        }
        break;
    case SortRole:
        switch (index.column()) {
        case TimeColumn:
            return m_times[static_cast<size_t>(index.row())];
        case ScenariosColumn:
            return QVariant::fromValue<qint64>(run.scenarioCount);
        case SampleColumn:
            return run.sample;
        case CommitColumn:
            return QString::fromStdString(run.commit);
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::ToolTipRole:
        switch (index.column()) {
        case TimeColumn:
            return QString::fromStdString(run.timestamp);
        case CommitColumn:
            return QString::fromStdString(run.commit);
        case RunKeyColumn:
            return QString::fromStdString(run.sourceUri);
        case NameColumn:
            return run.name.empty() ? tr("Double-click or F2 to name this run") : QString::fromStdString(run.name);
        case ToolColumn:
        case TagsColumn:
        case TargetColumn:
            return data(index, Qt::DisplayRole); // the whole text of a column cut to fit
        }
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == ScenariosColumn)
            return QVariant::fromValue<int>(Qt::AlignRight | Qt::AlignVCenter);
        break;
    }
    return {};
}

} // namespace plimsoll
