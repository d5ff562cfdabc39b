#pragma once
// Trends: one metric of one scenario over time, one point per run, with the clicked run's
// identity (run key, commit, image digest, tuning) beside the chart. Change points are drawn
// as larger points coloured by verdict (red regression, green improvement, grey neutral);
// a run where the tuning contract changed gets a dashed vertical line (a new baseline, not a
// change). Hovering a point shows its run; a clicked run can be made the baseline, after which
// the detail shows the selected run's delta against it (or why there is none).
//
// Scenario names, metric names and the series are each read in the background with the
// latest request winning; changing the scenario reloads its metric names, changing the
// metric reloads the series.

#include "model/store.h"
#include "ui/views/trendannotations.h"
#include "ui/views/storeview.h"

#include <string>
#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QDateTimeAxis;
class QFormLayout;
class QLabel;
class QPushButton;
class QLineSeries;
class QPointF;
class QScatterSeries;
class QValueAxis;

namespace plimsoll {

class LatestTask;

class TrendsView : public StoreView
{
    Q_OBJECT
public:
    explicit TrendsView(const QString &storePath, QWidget *parent = nullptr);

    QString key() const override { return QStringLiteral("trends"); }
    QString title() const override { return tr("Trends"); }
    QIcon icon() const override;
    void reload() override;

    QComboBox *scenarioCombo() const { return m_scenarioCombo; }
    QComboBox *metricCombo() const { return m_metricCombo; }
    QChartView *chartView() const { return m_chartView; }
    // Points drawn in the chart (one per run that measured the metric).
    int pointCount() const;
    const std::vector<SeriesPoint> &points() const { return m_points; }
    // The choice the drawn series belongs to (the combos may be ahead while it loads).
    QString plottedScenario() const { return QString::fromStdString(m_series.scenario); }
    QString plottedMetric() const { return QString::fromStdString(m_series.metric); }
    // For tests and accessibility: the text shown for a field of the selected point
    // ("runKey", "timestamp", "value", "commit", "imageDigest", "tuning").
    QString pointDetailText(const QString &field) const;
    // Indexes into points() of the change points and of the runs that started a new contract.
    std::vector<int> changePointIndexes() const;
    std::vector<int> newBaselineIndexes() const;
    const std::vector<PointMark> &marks() const { return m_marks; }
    QString baselineRunKey() const { return m_baselineKey; }
    // The run deltas are shown against; empty clears it.
    void setBaselineRun(const QString &runKey);

public slots:
    // Shows the run behind the point at `index` of points(); the scatter series' clicked
    // signal ends here through selectPointNear().
    void selectPoint(int index);
    void selectPointNear(const QPointF &chartValue);

signals:
    void scenariosLoaded(int count);
    void metricsLoaded(int count);
    void seriesLoaded(int points);
    void pointSelected(const QString &runKey);

private:
    void loadMetrics();
    void loadSeries();
    // One series as read, with the choice it was read for: the combos may already show a
    // newer choice whose series is still loading.
    using LoadedSeries = AnnotatedSeries;
    void showSeries(const LoadedSeries &series);
    void showEmptyChart(const QString &title);
    void setTimeRange(qint64 firstMs, qint64 lastMs);
    void clearPointDetail();
    void drawMarks();
    void showHover(const QPointF &point, bool state);
    QString baselineDeltaText(size_t index) const;
    QString pointSummary(size_t index) const;
    QLabel *addDetailField(QFormLayout *form, const QString &field, const QString &label);

    QComboBox *m_scenarioCombo = nullptr;
    QComboBox *m_metricCombo = nullptr;
    QChartView *m_chartView = nullptr;
    QChart *m_chart = nullptr;
    QLineSeries *m_line = nullptr;
    QScatterSeries *m_scatter = nullptr;
    QScatterSeries *m_highlight = nullptr;
    QDateTimeAxis *m_timeAxis = nullptr;
    QValueAxis *m_valueAxis = nullptr;
    QWidget *m_detail = nullptr;
    QLabel *m_detailHint = nullptr;
    LatestTask *m_scenarioLoader = nullptr;
    LatestTask *m_metricLoader = nullptr;
    LatestTask *m_seriesLoader = nullptr;
    LoadedSeries m_series; // what is drawn; its points live in m_points, marks in m_marks
    std::vector<SeriesPoint> m_points;
    std::vector<PointMark> m_marks; // parallel to m_points
    QScatterSeries *m_regressions = nullptr;
    QScatterSeries *m_improvements = nullptr;
    QScatterSeries *m_neutralChanges = nullptr;
    QLineSeries *m_baselineLevel = nullptr;   // horizontal, at the baseline run's value
    std::vector<QLineSeries *> m_contractLines; // vertical, one per new contract
    QPushButton *m_useAsBaseline = nullptr;
    QString m_baselineKey;
    double m_displayFactor = 1; // chart y = stored SI value * factor
    int m_selected = -1;
};

} // namespace plimsoll
