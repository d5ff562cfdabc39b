#include "ui/models/comparisontablemodel.h"

#include "ui/formatting.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <cmath>

namespace plimsoll {

QColor verdictColor(Verdict v)
{
    switch (v) {
    case Verdict::Regression:
        return QColor(0xf8, 0xd0, 0xd0);
    case Verdict::Improvement:
        return QColor(0xd2, 0xf0, 0xd2);
    case Verdict::Incompatible:
        return QColor(0xfc, 0xe8, 0xc0);
    case Verdict::Changed:
        return QColor(0xe4, 0xe4, 0xf4);
    case Verdict::NotComparable:
    case Verdict::FollowsThroughput:
    case Verdict::Unchanged:
        break;
    }
    return {};
}

namespace {

// A plain number for reading: thousands grouped, four significant digits, and a power of ten
// written out only where a decimal would need more than three leading zeros (a κ of 2e-5).
QString number(double v)
{
    if (std::isinf(v))
        return QStringLiteral("∞");
    if (std::isnan(v))
        return QStringLiteral("—");
    const double a = std::abs(v);
    if (a >= 1000)
        return QLocale().toString(v, 'f', 0);
    if (a == 0 || a >= 1e-3)
        return QLocale().toString(v, 'g', 4);
    return powerOfTenText(v);
}

QString valueText(const std::string &metric, double v)
{
    return metric.empty() ? number(v) : displayMetric(metric, v);
}

QString intervalText(const std::string &metric, const UslInterval &ci)
{
    if (std::isnan(ci.lo) || std::isnan(ci.hi))
        return QStringLiteral("no interval");
    return QStringLiteral("%1 – %2").arg(valueText(metric, ci.lo), valueText(metric, ci.hi));
}

const char *parameterSymbol(const std::string &name)
{
    if (name == "lambda")
        return "λ";
    if (name == "sigma")
        return "σ";
    if (name == "kappa")
        return "κ";
    return "N*";
}

} // namespace

ComparisonTableModel::ComparisonTableModel(QObject *parent)
    : TitledTableModel({tr("Scenario"), tr("Metric"), tr("Baseline"), tr("Current"), tr("Δ"),
                        tr("Δ %"), tr("Noise band"), tr("Verdict")},
                       parent)
{
}

void ComparisonTableModel::setComparison(const RunComparison &comparison)
{
    beginResetModel();
    m_rows.clear();
    for (const ScenarioComparison &s : comparison.scenarios) {
        for (const MetricComparison &m : s.metrics) {
            QString why = m.adjustedPValue
                              ? tr("p = %1, Holm-corrected over %2 metrics (α %3)")
                                    .arg(QString::number(*m.adjustedPValue, 'g', 2))
                                    .arg(comparison.tested)
                                    .arg(comparison.options.alpha)
                              : tr("fewer than two earlier runs: judged by the %1 % floor alone")
                                    .arg(comparison.options.minRelativeBand * 100);
            if (!m.note.empty())
                why = QString::fromStdString(m.note) + QStringLiteral("\n") + why;
            m_rows.push_back({QString::fromStdString(s.scenario), QString::fromStdString(m.metric), m.metric,
                              m.baseline, m.current, m.deltaPercent, m.noiseBand, {}, {}, false, m.verdict, why});
        }
    }
    for (const RampComparison &r : comparison.ramps) {
        const QString ramp = QStringLiteral("%1* (USL over %2)")
                                 .arg(QString::fromStdString(r.family), QString::fromStdString(r.factor));
        for (const ParameterComparison &p : r.parameters) {
            std::optional<double> pct;
            if (p.baseline != 0 && std::isfinite(p.baseline) && std::isfinite(p.current))
                pct = (p.current - p.baseline) / std::abs(p.baseline) * 100;
            // λ is a throughput per unit, in the fitted metric's unit; σ, κ and N* are plain.
            const std::string unit = p.name == "lambda" ? r.metric : std::string();
            Row row{ramp, QString::fromUtf8(parameterSymbol(p.name)), unit, p.baseline, p.current, pct,
                    std::nullopt, intervalText(unit, p.baselineCi), intervalText(unit, p.currentCi), true,
                    p.verdict, tr("a change when the bootstrap intervals of the two fits are disjoint")};
            m_rows.push_back(std::move(row));
        }
    }
    endResetModel();
}

int ComparisonTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QVariant ComparisonTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row &r = m_rows[static_cast<size_t>(index.row())];
    const double delta = r.current - r.baseline;
    if (role == VerdictRole)
        return QString::fromLatin1(toString(r.verdict));
    if (role == Qt::BackgroundRole && index.column() == Verdict) {
        const QColor c = verdictColor(r.verdict);
        return c.isValid() ? QVariant(QBrush(c)) : QVariant();
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Baseline && index.column() <= NoiseBand)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (index.column()) {
        case Baseline:
            return r.baseline;
        case Current:
            return r.current;
        case Delta:
            return delta;
        case DeltaPercent:
            return r.deltaPercent ? QVariant(*r.deltaPercent) : QVariant();
        case NoiseBand:
            return r.noiseBand ? QVariant(*r.noiseBand) : QVariant();
        default:
            break;
        }
        role = Qt::DisplayRole;
    }
    if (role == Qt::ToolTipRole && r.parameter && (index.column() == Baseline || index.column() == Current))
        return tr("95 % bootstrap interval: %1").arg(index.column() == Baseline ? r.baselineCi : r.currentCi);
    if (role == Qt::ToolTipRole && r.parameter && index.column() == NoiseBand)
        return tr("A USL parameter has no noise band: it changed when its bootstrap intervals are disjoint");
    if (role == Qt::ToolTipRole && index.column() == Verdict)
        return r.why;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Scenario:
        return r.scenario;
    case Metric:
        return r.metric;
    case Baseline:
        return r.parameter ? QStringLiteral("%1 (%2)").arg(valueText(r.metricKey, r.baseline), r.baselineCi)
                           : valueText(r.metricKey, r.baseline);
    case Current:
        return r.parameter ? QStringLiteral("%1 (%2)").arg(valueText(r.metricKey, r.current), r.currentCi)
                           : valueText(r.metricKey, r.current);
    case Delta:
        if (!std::isfinite(delta))
            return QStringLiteral("—");
        return (delta > 0 ? QStringLiteral("+") : QString()) + valueText(r.metricKey, delta);
    case DeltaPercent:
        return r.deltaPercent ? QString::asprintf("%+.2f %%", *r.deltaPercent) : QStringLiteral("—");
    case NoiseBand:
        return r.noiseBand ? QStringLiteral("± ") + valueText(r.metricKey, *r.noiseBand) : QStringLiteral("—");
    case Verdict:
        return QString::fromLatin1(toString(r.verdict)).replace(QLatin1Char('_'), QLatin1Char(' '));
    default:
        return {};
    }
}

IncompatibleTableModel::IncompatibleTableModel(QObject *parent)
    : TitledTableModel({tr("Scenario"), tr("Differing key"), tr("Baseline"), tr("Current")}, parent)
{
}

void IncompatibleTableModel::setComparison(const RunComparison &comparison)
{
    beginResetModel();
    m_rows.clear();
    auto add = [this](const QString &what, const std::vector<ContractDifference> &diffs) {
        for (const ContractDifference &d : diffs)
            m_rows.push_back({what, QString::fromStdString(d.key),
                              d.baseline ? QString::fromStdString(*d.baseline) : tr("(unset)"),
                              d.current ? QString::fromStdString(*d.current) : tr("(unset)")});
    };
    for (const ScenarioComparison &s : comparison.scenarios)
        if (!s.compatible)
            add(QString::fromStdString(s.scenario), s.differences);
    for (const RampComparison &r : comparison.ramps)
        if (!r.compatible)
            add(QStringLiteral("%1* (USL)").arg(QString::fromStdString(r.family)), r.differences);
    endResetModel();
}

int IncompatibleTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QVariant IncompatibleTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || role != Qt::DisplayRole)
        return {};
    const Row &r = m_rows[static_cast<size_t>(index.row())];
    switch (index.column()) {
    case Scenario:
        return r.scenario;
    case Key:
        return r.key;
    case Baseline:
        return r.baseline;
    case Current:
        return r.current;
    default:
        return {};
    }
}

} // namespace plimsoll
