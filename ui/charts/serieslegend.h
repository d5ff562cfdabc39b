#pragma once
// A chart's legend as a list beside it: one row per series with its colour, the whole name
// (wrapped, never elided) and a check box that shows or hides the series. A QChart legend lays
// its markers out in one column or one row and cuts off or elides what does not fit; a sweep
// store with a dozen configurations needs every name readable at 1024×700, scrolling when
// there are more than the height holds.
//
// Threading: GUI thread only, as the chart it lists.

#include <QListWidget>

class QAbstractSeries;

namespace plimsoll {

class SeriesLegend : public QListWidget
{
    Q_OBJECT
public:
    explicit SeriesLegend(QWidget *parent = nullptr);

    // Lists `series` in this order; the rows' check boxes follow and set their visibility.
    // The series must outlive the list or be replaced by another setSeries() before they go.
    void setSeries(const QList<QAbstractSeries *> &series);

    QSize sizeHint() const override;

private:
    QList<QAbstractSeries *> m_series;
};

} // namespace plimsoll
