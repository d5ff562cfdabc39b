#pragma once
// The runs of a comparison side by side (model/trends/runscomparison.h): a row per scenario of
// the baseline and metric, a column of values per run and, beside each run but the baseline, its
// delta against the baseline with that pair's verdict (coloured; the tooltip says why). Runs are
// headed by letter — A, B, C, in the order compared — and the header's tooltip names the run.
//
// The percentiles of a tool's quantile family ("publish.quantile.99.9", hundreds of them) have no
// row here: the Latency spectrum draws them. SortRole gives numbers as numbers, ValueRole a
// value column's number (SI units) for whoever reads the table.

#include "model/trends/runscomparison.h"

#include <QAbstractTableModel>

namespace plimsoll {

class SideBySideTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Scenario, Metric, FirstRunColumn };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int ValueRole = Qt::UserRole + 2;   // a value's or delta's number, SI units or %
    static constexpr int VerdictRole = Qt::UserRole + 3; // the verdict word of a delta column

    explicit SideBySideTableModel(QObject *parent = nullptr);
    void setComparison(const RunsComparison &comparison);
    const RunsComparison &comparison() const { return m_comparison; }

    // "A", "B", …: a run's letter, in the order compared.
    static QString runLetter(std::size_t run);
    // The column of a run's values, and of its delta (-1 for the baseline's).
    int valueColumn(std::size_t run) const;
    int deltaColumn(std::size_t run) const;
    // The comparison's row shown on a row of this table.
    const ComparedRow &rowAt(int row) const { return *m_rows[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Which run and whether its delta a column shows; run -1 for Scenario and Metric.
    std::pair<int, bool> columnRun(int column) const;

    RunsComparison m_comparison;
    std::vector<const ComparedRow *> m_rows;
};

} // namespace plimsoll
