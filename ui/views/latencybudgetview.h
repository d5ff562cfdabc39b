#pragma once
// Latency budget: throughput against p99 for each configuration of every sweep in the store,
// a budget line moved by a slider (or its spin box), and the best qualifying point of each
// configuration with its Little's law check.
//
// Threading: the points are read, and grouped into the chart's (downsampled) lines, in the
// background; the selection is a pass over them on the UI thread as the budget moves (no store
// access, no fit) — or, past kSyncSelectionPoints points (a store of years of runs that each
// measured p99), in the background too, the latest budget winning.

#include "model/sizing/budgetrequest.h"
#include "ui/views/storeview.h"
#include "ui/views/viewwidgets.h"

#include <memory>

#include <vector>

namespace plimsoll {

class LatestTask;
class SeriesLegend;

class LatencyBudgetView : public StoreView
{
    Q_OBJECT
public:
    // Its sidebar entry, menu item and settings key, known before the view is built.
    static ViewIdentity identity();
    explicit LatencyBudgetView(const QString &storePath, QWidget *parent = nullptr);

    void reload() override;

    QDoubleSpinBox *budgetSpin() const { return m_budget; } // ms
    QCheckBox *p999Check() const { return m_p999Check; }    // the p99.9 budget applies
    QDoubleSpinBox *p999Spin() const { return m_p999; }     // ms
    QSlider *budgetSlider() const { return m_slider; }
    QTableWidget *table() const { return m_table; }
    // The points left out of the picks and the lines (they measured nothing), each named with
    // its run and reason; hidden when there are none.
    QLabel *leftOutLabel() const { return m_leftOut; }
    // The p99 axis: logarithmic, so it is given positive values only.
    QLogValueAxis *p99Axis() const { return m_x; }
    QChartView *chartView() const { return m_chartView; }
    SeriesLegend *legend() const { return m_legend; }
    const BudgetResult &result() const { return *m_result; }
    // What the widgets ask for: the request `plimsoll budget` makes from its options.
    BudgetRequest request() const;

    // The Little's law column as it reads ("218 in flight vs 190 expected: inconsistent
    // (+15 %)") and its tooltip, which explains the check with the point's own numbers.
    static QString littleText(const BudgetedPoint &point);
    static QString littleToolTip(const BudgetedPoint &point);

signals:
    void pointsLoaded(int count);

private:
    // One line of the chart: a product and configuration, by p99, as drawn (at most a few
    // thousand points however many runs measured it).
    struct Line
    {
        std::string name;
        std::vector<std::pair<double, double>> drawn; // (p99 ms, throughput k/s)
    };
    struct Loaded
    {
        BudgetPoints read;
        std::vector<Line> lines; // the points that measured something (isDegenerate())
        double minMs = 0, maxMs = 0, maxThroughput = 1;
    };
    // Groups the points into the chart's lines (off the UI thread, in the loader).
    static void groupLines(Loaded &loaded);
    void showPoints(std::shared_ptr<const Loaded> loaded);
    void showLeftOut();
    void select();
    void showSelection(std::shared_ptr<const BudgetResult> result);

    QDoubleSpinBox *m_budget = nullptr;
    QCheckBox *m_p999Check = nullptr;
    QDoubleSpinBox *m_p999 = nullptr;
    QSlider *m_slider = nullptr;
    QChart *m_chart = nullptr;
    QChartView *m_chartView = nullptr;
    QLogValueAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
    QLineSeries *m_budgetLine = nullptr;
    SeriesLegend *m_legend = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_leftOut = nullptr;
    LatestTask *m_loader = nullptr;
    LatestTask *m_selector = nullptr;
    std::shared_ptr<const Loaded> m_loaded; // never null; shared with a selection in flight
    std::shared_ptr<const BudgetResult> m_result = std::make_shared<const BudgetResult>();
    double m_maxThroughput = 1;
};

} // namespace plimsoll
