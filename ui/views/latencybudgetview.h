#pragma once
// Latency budget: throughput against p99 for each configuration of every sweep in the store,
// a budget line moved by a slider (or its spin box), and the best qualifying point of each
// configuration with its Little's law check.
//
// Threading: the points are read in the background; the selection is a pass over them on the
// UI thread as the budget moves (no store access, no fit).

#include "model/latencybudget.h"
#include "model/ramppoints.h"
#include "ui/views/storeview.h"

#include <vector>

class QChart;
class QChartView;
class QDoubleSpinBox;
class QLineSeries;
class QLogValueAxis;
class QSlider;
class QTableWidget;
class QValueAxis;

namespace plimsoll {

class LatestTask;

class LatencyBudgetView : public StoreView
{
    Q_OBJECT
public:
    explicit LatencyBudgetView(const QString &storePath, QWidget *parent = nullptr);

    QString key() const override { return QStringLiteral("latency-budget"); }
    QString title() const override { return tr("Latency budget"); }
    QIcon icon() const override;
    void reload() override;

    QDoubleSpinBox *budgetSpin() const { return m_budget; } // ms
    QSlider *budgetSlider() const { return m_slider; }
    QTableWidget *table() const { return m_table; }
    QChartView *chartView() const { return m_chartView; }
    const BudgetResult &result() const { return m_result; }

signals:
    void pointsLoaded(int count);

private:
    struct Loaded
    {
        std::vector<LatencyPoint> points;
        std::vector<LatencyPointOrigin> origins;
    };
    void showPoints(const Loaded &loaded);
    void select();

    QDoubleSpinBox *m_budget = nullptr;
    QSlider *m_slider = nullptr;
    QChart *m_chart = nullptr;
    QChartView *m_chartView = nullptr;
    QLogValueAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
    QLineSeries *m_budgetLine = nullptr;
    QTableWidget *m_table = nullptr;
    LatestTask *m_loader = nullptr;
    Loaded m_loaded;
    BudgetResult m_result;
    double m_maxThroughput = 1;
};

} // namespace plimsoll
