#pragma once
// The Trends view's list of findings: one row per change point of the plotted series (time, run,
// verdict, change in % as the chart's marks compute it, p-value), per outlier (its size in σ of
// noise), per noise change (the ratio of spreads, its p-value), per drift (at its first run: its
// change over its runs) and per run that started a new tuning contract (a new baseline, with the
// keys that changed), newest first. Rows cover the points the view shows (its date range and
// target); a point that is two of these has a row for each.
//
// The verdict cell carries the colour of its mark on the chart (DecorationRole); PointRole gives
// the row's index into the series' points, SortRole numbers as numbers.

#include "model/trends/trendannotations.h"

#include "ui/models/titledtablemodel.h"

#include <functional>
#include <memory>

namespace plimsoll {

class TrendChangesTableModel : public TitledTableModel
{
    Q_OBJECT
public:
    enum Column { Time, Run, Verdict, Change, PValue, ColumnCount };
    static constexpr int PointRole = Qt::UserRole + 1;
    static constexpr int SortRole = Qt::UserRole + 2;
    static constexpr int KindRole = Qt::UserRole + 3; // a Kind, as int
    enum Kind { LevelChange, Outlier, NoiseChange, Drift, NewBaseline };

    explicit TrendChangesTableModel(QObject *parent = nullptr);
    // `shown(i)` says whether point i is inside what the view shows.
    void setSeries(std::shared_ptr<const AnnotatedSeries> series,
                   const std::function<bool(int)> &shown);
    // The row of point `index` (its change-point row first), or -1.
    int rowOfPoint(int index) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        int point = -1;
        Kind kind = LevelChange;
        int drift = -1; // index into AnnotatedSeries::drifts, for a Drift row
    };
    plimsoll::Verdict verdictOf(const Row &row) const;
    QString verdictText(const Row &row) const;
    QString changeText(const Row &row) const;

    std::shared_ptr<const AnnotatedSeries> m_series;
    std::vector<Row> m_rows;
};

} // namespace plimsoll
