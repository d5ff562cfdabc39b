#pragma once
// The rows of a run comparison: one per metric of every compatible scenario, then one per
// fitted USL parameter of every compatible ramp. Incompatible scenarios have no rows here (they
// carry no delta); IncompatibleTableModel lists their differing keys.
//
// Verdicts colour their cell, and their tooltip says why (the corrected p-value; a throughput
// not comparable at different offered rates; a resource that follows throughput per record).
// SortRole gives numbers as numbers.

#include "model/trends/runcomparison.h"

#include "ui/models/titledtablemodel.h"

class QColor;

namespace plimsoll {

// The background a verdict's cell is shown on (none for unchanged and the like).
QColor verdictColor(Verdict v);

class ComparisonTableModel : public TitledTableModel
{
    Q_OBJECT
public:
    enum Column { Scenario, Metric, Baseline, Current, Delta, DeltaPercent, NoiseBand, Verdict, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int VerdictRole = Qt::UserRole + 2; // the verdict word, e.g. "regression"

    explicit ComparisonTableModel(QObject *parent = nullptr);
    void setComparison(const RunComparison &comparison);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString scenario;
        QString metric;
        std::string metricKey; // for formatting: a catalog name, or empty for USL parameters
        double baseline = 0;
        double current = 0;
        std::optional<double> deltaPercent;
        std::optional<double> noiseBand;
        // A USL parameter's bootstrap interval, shown beside its value ("—" when none).
        QString baselineCi, currentCi;
        bool parameter = false;
        plimsoll::Verdict verdict = plimsoll::Verdict::Unchanged;
        QString why; // the verdict's tooltip

    };
    std::vector<Row> m_rows;
};

class IncompatibleTableModel : public TitledTableModel
{
    Q_OBJECT
public:
    enum Column { Scenario, Key, Baseline, Current, ColumnCount };
    explicit IncompatibleTableModel(QObject *parent = nullptr);
    void setComparison(const RunComparison &comparison);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString scenario;
        QString key;
        QString baseline;
        QString current;
    };
    std::vector<Row> m_rows;
};

} // namespace plimsoll
