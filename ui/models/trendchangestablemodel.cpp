#include "ui/models/trendchangestablemodel.h"

#include "ui/charts/trendmarkstyle.h"
#include "ui/formatting.h"

#include <QStringList>

#include <algorithm>

namespace plimsoll {

void TrendChangesTableModel::setSeries(std::shared_ptr<const AnnotatedSeries> series,
                                       const std::function<bool(int)> &shown)
{
    beginResetModel();
    m_series = std::move(series);
    m_rows.clear();
    if (m_series) {
        // Both index lists ascend; merged newest first, a point's change-point row before its
        // contract row.
        const std::vector<int> &changes = m_series->changePoints;
        const std::vector<int> &contracts = m_series->newBaselines;
        m_rows.reserve(changes.size() + contracts.size());
        auto c = changes.rbegin();
        auto b = contracts.rbegin();
        while (c != changes.rend() || b != contracts.rend()) {
            const bool takeChange = b == contracts.rend() || (c != changes.rend() && *c >= *b);
            const int point = takeChange ? *c++ : *b++;
            if (!shown || shown(point))
                m_rows.push_back({point, !takeChange});
        }
    }
    endResetModel();
}

int TrendChangesTableModel::rowOfPoint(int index) const
{
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        if (m_rows[r].point == index)
            return int(r);
    return -1;
}

TrendChangesTableModel::TrendChangesTableModel(QObject *parent)
    : TitledTableModel({tr("Time"), tr("Run"), tr("Verdict"), tr("Change"), tr("p-value")}, parent)
{
}

int TrendChangesTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QString TrendChangesTableModel::verdictText(const Row &row) const
{
    if (row.contractChange)
        return tr("new baseline");
    switch (m_series->marks[std::size_t(row.point)].verdict) {
    case plimsoll::Verdict::Regression:
        return tr("regression");
    case plimsoll::Verdict::Improvement:
        return tr("improvement");
    default:
        return tr("neutral");
    }
}

QString TrendChangesTableModel::changeText(const Row &row) const
{
    const PointMark &mark = m_series->marks[std::size_t(row.point)];
    if (!row.contractChange)
        return QString::asprintf("%+.1f %%", mark.forwardChangePercent);
    QStringList keys;
    for (const ContractDifference &d : mark.differences)
        keys << QString::fromStdString(d.key);
    return tr("contract changed: %1").arg(keys.join(QStringLiteral(", ")));
}

QVariant TrendChangesTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    const ChartPoint &point = m_series->points[std::size_t(row.point)];
    const PointMark &mark = m_series->marks[std::size_t(row.point)];
    if (role == PointRole)
        return row.point;
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Time:
            return displayTimestamp(point.timestamp);
        case Run:
            return qtext(point.runKey);
        case Verdict:
            return verdictText(row);
        case Change:
            return changeText(row);
        case PValue:
            return row.contractChange ? QStringLiteral("—") : QString::number(mark.pValue, 'g', 2);
        default:
            return {};
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case Time:
            return point.timeMs;
        case Change:
            return row.contractChange ? 0.0 : mark.forwardChangePercent;
        case PValue:
            return row.contractChange ? 1.0 : mark.pValue;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::DecorationRole && index.column() == Verdict)
        return row.contractChange ? trendContractColor() : trendVerdictColor(mark.verdict);
    if (role == Qt::TextAlignmentRole && (index.column() == Change || index.column() == PValue) &&
        !row.contractChange)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

} // namespace plimsoll
