#include "ui/models/trendchangestablemodel.h"

#include "ui/charts/trendmarkstyle.h"
#include "ui/formatting.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace plimsoll {

void TrendChangesTableModel::setSeries(std::shared_ptr<const AnnotatedSeries> series,
                                       const std::function<bool(int)> &shown)
{
    beginResetModel();
    m_series = std::move(series);
    m_rows.clear();
    if (m_series) {
        const AnnotatedSeries &a = *m_series;
        for (const int point : a.changePoints)
            m_rows.push_back({point, LevelChange, -1});
        for (const int point : a.outliers)
            m_rows.push_back({point, Outlier, -1});
        for (const int point : a.noiseChanges)
            m_rows.push_back({point, NoiseChange, -1});
        for (std::size_t d = 0; d < a.drifts.size(); ++d)
            m_rows.push_back({a.drifts[d].from, Drift, int(d)});
        for (const int point : a.newBaselines)
            m_rows.push_back({point, NewBaseline, -1});
        if (shown)
            std::erase_if(m_rows, [&shown](const Row &r) { return !shown(r.point); });
        // Newest first; at one point, in the order above.
        std::stable_sort(m_rows.begin(), m_rows.end(), [](const Row &x, const Row &y) { return x.point > y.point; });
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

plimsoll::Verdict TrendChangesTableModel::verdictOf(const Row &row) const
{
    const PointMark &mark = m_series->marks[std::size_t(row.point)];
    switch (row.kind) {
    case Outlier:
        return mark.outlierVerdict;
    case NoiseChange: // noisier is worse whatever the metric's direction
        return mark.noiseRatio > 1 ? plimsoll::Verdict::Regression : plimsoll::Verdict::Changed;
    case Drift:
        return m_series->drifts[std::size_t(row.drift)].verdict;
    default:
        return mark.verdict;
    }
}

QString TrendChangesTableModel::verdictText(const Row &row) const
{
    if (row.kind == NewBaseline)
        return tr("new baseline");
    switch (verdictOf(row)) {
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
    switch (row.kind) {
    case LevelChange:
        return QString::asprintf("%+.1f %%", mark.forwardChangePercent);
    case Outlier:
        return std::isfinite(mark.outlierSigmas)
                   ? tr("outlier %1 (%2 σ of noise)")
                         .arg(QString::asprintf("%+.1f %%", mark.outlierPercent),
                              QString::asprintf("%+.1f", mark.outlierSigmas))
                   : tr("outlier %1 (beside runs without noise)").arg(QString::asprintf("%+.1f %%", mark.outlierPercent));
    case NoiseChange:
        return tr("noise ×%1").arg(QString::number(mark.noiseRatio, 'g', 2));
    case Drift: {
        const DriftSpan &d = m_series->drifts[std::size_t(row.drift)];
        return tr("drift %1 over %2 runs").arg(QString::asprintf("%+.1f %%", d.changePercent())).arg(d.to - d.from + 1);
    }
    case NewBaseline:
        break;
    }
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
    if (role == KindRole)
        return int(row.kind);
    const bool pValued = row.kind == LevelChange || row.kind == NoiseChange;
    const double pValue = row.kind == NoiseChange ? mark.noisePValue : mark.pValue;
    const double percent = row.kind == LevelChange ? mark.forwardChangePercent
                           : row.kind == Outlier   ? mark.outlierPercent
                           : row.kind == Drift     ? m_series->drifts[std::size_t(row.drift)].changePercent()
                                                   : 0.0;
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
            return pValued ? QString::number(pValue, 'g', 2) : QStringLiteral("—");
        default:
            return {};
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case Time:
            return point.timeMs;
        case Change:
            return percent;
        case PValue:
            return pValued ? pValue : 1.0;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::DecorationRole && index.column() == Verdict)
        return row.kind == NewBaseline ? trendContractColor() : trendVerdictColor(verdictOf(row));
    if (role == Qt::TextAlignmentRole && index.column() == PValue && pValued)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::TextAlignmentRole && index.column() == Change && row.kind == LevelChange)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

} // namespace plimsoll
