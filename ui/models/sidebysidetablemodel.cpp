#include "ui/models/sidebysidetablemodel.h"

#include "ui/formatting.h"
#include "ui/models/comparisontablemodel.h"

#include <QBrush>
#include <QColor>

namespace plimsoll {

SideBySideTableModel::SideBySideTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void SideBySideTableModel::setComparison(const RunsComparison &comparison)
{
    beginResetModel();
    m_comparison = comparison;
    m_rows.clear();
    for (const ComparedRow &row : m_comparison.rows)
        if (row.metric.find(".quantile.") == std::string::npos)
            m_rows.push_back(&row);
    endResetModel();
}

QString SideBySideTableModel::runLetter(std::size_t run)
{
    QString letter(QChar(u'A' + static_cast<char16_t>(run % 26)));
    return run >= 26 ? letter + QString::number(run / 26) : letter;
}

int SideBySideTableModel::valueColumn(std::size_t run) const
{
    // A, then B and Δ B, … (the baseline has no delta column).
    int column = FirstRunColumn;
    for (std::size_t i = 0; i < run; ++i)
        column += i == m_comparison.baseline ? 1 : 2;
    return column;
}

int SideBySideTableModel::deltaColumn(std::size_t run) const
{
    return run == m_comparison.baseline ? -1 : valueColumn(run) + 1;
}

std::pair<int, bool> SideBySideTableModel::columnRun(int column) const
{
    for (std::size_t i = 0; i < m_comparison.runs.size(); ++i) {
        if (column == valueColumn(i))
            return {static_cast<int>(i), false};
        if (column == deltaColumn(i))
            return {static_cast<int>(i), true};
    }
    return {-1, false};
}

int SideBySideTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SideBySideTableModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    const int runs = static_cast<int>(m_comparison.runs.size());
    return FirstRunColumn + (runs == 0 ? 0 : 2 * runs - 1);
}

QVariant SideBySideTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (section == Scenario)
        return role == Qt::DisplayRole ? QVariant(tr("Scenario")) : QVariant();
    if (section == Metric)
        return role == Qt::DisplayRole ? QVariant(tr("Metric")) : QVariant();
    const auto [run, delta] = columnRun(section);
    if (run < 0)
        return {};
    const RunIdentity &id = m_comparison.runs[static_cast<std::size_t>(run)];
    const bool baseline = static_cast<std::size_t>(run) == m_comparison.baseline;
    if (role == Qt::DisplayRole)
        return delta ? tr("Δ %1").arg(runLetter(static_cast<std::size_t>(run)))
                     : (baseline ? tr("%1 (baseline)").arg(runLetter(static_cast<std::size_t>(run)))
                                 : runLetter(static_cast<std::size_t>(run)));
    if (role == Qt::ToolTipRole)
        return (delta ? tr("%1 against the baseline: the change and its verdict\n").arg(runLetter(std::size_t(run)))
                      : QString()) +
               tr("%1 · %2").arg(qtext(id.runKey), displayTimestamp(id.timestamp));
    return {};
}

QVariant SideBySideTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const ComparedRow &row = rowAt(index.row());
    if (index.column() == Scenario || index.column() == Metric) {
        if (role == Qt::DisplayRole || role == SortRole)
            return index.column() == Scenario ? qtext(row.scenario) : displayMetricName(row.metric);
        if (role == Qt::ToolTipRole && index.column() == Scenario) {
            QStringList aligned{qtext(row.scenario)};
            for (std::size_t i = 0; i < row.cells.size(); ++i)
                aligned << tr("%1: %2").arg(runLetter(i), row.cells[i].scenario.empty()
                                                               ? tr("no scenario aligned")
                                                               : qtext(row.cells[i].scenario));
            return aligned.join(QLatin1Char('\n'));
        }
        if (role == Qt::ToolTipRole)
            return qtext(row.metric);
        return {};
    }
    const auto [run, delta] = columnRun(index.column());
    if (run < 0)
        return {};
    const RunCell &cell = row.cells[static_cast<std::size_t>(run)];
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (!delta) {
        if (role == Qt::DisplayRole)
            return cell.value ? displayMetric(row.metric, *cell.value) : QStringLiteral("—");
        if (role == SortRole || role == ValueRole)
            return cell.value ? QVariant(*cell.value) : QVariant();
        if (role == Qt::ToolTipRole && !cell.scenario.empty())
            return qtext(cell.scenario);
        return {};
    }
    if (role == VerdictRole)
        return cell.verdict ? QVariant(QString::fromLatin1(toString(*cell.verdict))) : QVariant();
    if (role == SortRole || role == ValueRole)
        return cell.deltaPercent ? QVariant(*cell.deltaPercent) : QVariant();
    if (role == Qt::BackgroundRole && cell.verdict) {
        const QColor c = verdictColor(*cell.verdict);
        return c.isValid() ? QVariant(QBrush(c)) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        QString why = cell.verdict ? QString::fromLatin1(toString(*cell.verdict)).replace(QLatin1Char('_'), QLatin1Char(' '))
                                   : tr("no verdict");
        if (!cell.note.empty())
            why += QStringLiteral(": ") + qtext(cell.note);
        return why;
    }
    if (role != Qt::DisplayRole)
        return {};
    if (!cell.value)
        return QStringLiteral("—");
    QString text = cell.deltaPercent ? QString::asprintf("%+.1f %%", *cell.deltaPercent) : QStringLiteral("—");
    if (cell.verdict && *cell.verdict != Verdict::Unchanged)
        text += QStringLiteral(" ") + QString::fromLatin1(toString(*cell.verdict)).replace(QLatin1Char('_'), QLatin1Char(' '));
    return text;
}

} // namespace plimsoll
