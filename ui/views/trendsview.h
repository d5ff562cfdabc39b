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
// metric reloads the series. A long series (years of nightly runs) is drawn as at most
// kMaxDrawnTrendPoints points chosen off the UI thread (LTTB with the extremes kept), as a line
// without a marker per point, so a redraw costs the same whatever the history; clicks and hovers
// pick among the drawn points, within a few pixels of the pointer (a contract line over a point
// does not take its click).
//
// Beside the chart: a legend of its marks, and the list of change points and contract changes
// (TrendChangesTableModel); clicking a row selects its point. A date range (all, the last 30 or
// 90 days up to the latest run, or From/To) narrows the time axis, the drawn points, the marks
// and the list, from the series in memory: the store is not read again; so does a target, when
// the scenario's runs measured several.

#include "model/trends/trendannotations.h"
#include "ui/views/storeview.h"
#include "ui/views/viewwidgets.h"

#include <QLineF>

#include <array>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace plimsoll {

class LatestTask;
class TrendChangesTableModel;

class TrendsView : public StoreView
{
    Q_OBJECT
public:
    // Its sidebar entry, menu item and settings key, known before the view is built.
    static ViewIdentity identity();
    explicit TrendsView(const QString &storePath, QWidget *parent = nullptr);

    void reload() override;

    QComboBox *scenarioCombo() const { return m_scenarioCombo; }
    QComboBox *metricCombo() const { return m_metricCombo; }
    QChartView *chartView() const { return m_chartView; }
    QTableView *changeList() const { return m_changeList; }
    QWidget *legend() const { return m_legend; }
    // Above the list: "Changes: 1 regression, 1 new baseline" or that there are none shown.
    QString changeSummaryText() const;
    QComboBox *rangeCombo() const { return m_rangeCombo; }
    // "All targets" and each target of the series; shown only when there are several.
    QComboBox *targetCombo() const { return m_targetCombo; }
    // Each load of the series (its offered rate and load factors, AnnotatedSeries::loads) and
    // "All loads"; shown only when there are several. A sweep's steps are loads: one is shown at
    // a time (at first the latest run's), so the chart never reads a sweep as a history.
    QComboBox *loadCombo() const { return m_loadCombo; }
    // "Add overlay…", then every other scenario and every other metric of the plotted scenario
    // not drawn yet. Choosing an entry draws it dashed over the plotted series and returns the
    // combo to "Add overlay…": a scenario's series of the same metric on the left axis (a ramp's
    // steps, or a product against another, side by side), another metric of this scenario on a
    // right-hand axis in its own unit (throughput beside p99, say; metrics of one unit share an
    // axis). At most kMaxTrendOverlays at once, each in a colour of its own, each with a legend
    // entry whose button removes it. They follow the plotted choice: a scenario overlay shows
    // that scenario's series of the plotted metric, a metric overlay that metric of the plotted
    // scenario, and one that no longer applies (it became the plotted series, the scenario lacks
    // the metric) goes.
    QComboBox *overlayCombo() const { return m_overlayCombo; }
    static constexpr int kMaxTrendOverlays = 4;
    // A marker per point reads well for a few weeks of runs; Qt Charts makes each scatter marker
    // a graphics item of its own, so a few thousand of them cost seconds to create and hundreds
    // of milliseconds per redraw. Past this many drawn points the line alone shows a series.
    static constexpr std::size_t kMaxMarkedPoints = 250;
    // Draws the overlay of entry `key` ("s:<scenario>" or "m:<metric>", the combo's data); false
    // when it is drawn already, not offered, or kMaxTrendOverlays are.
    bool addOverlay(const QString &key);
    void removeOverlay(const QString &key);
    void clearOverlays();
    // The overlays drawn, in their legend's order, as their legend names them.
    QStringList overlayNames() const;
    // The line of the overlay named `name` (overlayNames()), or null.
    QLineSeries *overlayLine(const QString &name) const;
    // Points drawn (chart values) of every overlay, or of the one named `name`.
    int overlayPointCount(const QString &name = {}) const;
    // The right-hand axes of the metric overlays drawn, one per unit.
    QList<QValueAxis *> overlayAxes() const;
    // Narrows the chart to runs from the start of day `from` to the end of day `to` (local
    // dates, as the From/To fields show them); resetRange() shows every run again.
    void setDateRange(const QDate &from, const QDate &to);
    void resetRange();
    // Points of the series (one per run that measured the metric); at most
    // kMaxDrawnTrendPoints of them are drawn (drawnIndexes()).
    int pointCount() const;
    const std::vector<ChartPoint> &points() const { return m_series->points; }
    // Indices into points() of the points drawn: within the date range, thinned to at most
    // kMaxDrawnTrendPoints (plus the extremes).
    const std::vector<std::size_t> &drawnIndexes() const { return m_drawn; }
    // The choice the drawn series belongs to (the combos may be ahead while it loads).
    QString plottedScenario() const { return QString::fromStdString(m_series->scenario); }
    QString plottedMetric() const { return QString::fromStdString(m_series->metric); }
    // For tests and accessibility: the text shown for a field of the selected point
    // ("runKey", "timestamp", "value", "commit", "imageDigest", "tuning").
    QString pointDetailText(const QString &field) const;
    // Indexes into points() of the change points and of the runs that started a new contract.
    std::vector<int> changePointIndexes() const;
    std::vector<int> newBaselineIndexes() const;
    std::vector<int> outlierIndexes() const;
    std::vector<int> noiseChangeIndexes() const;
    // The drifts drawn now, as the chart's sloped lines: (first time, first value, last time,
    // last value) in the chart's units.
    std::vector<QLineF> drawnDrifts() const;
    const std::vector<PointMark> &marks() const { return m_series->marks; }
    QString baselineRunKey() const { return m_baselineKey; }
    // The run deltas are shown against; empty clears it.
    void setBaselineRun(const QString &runKey);
    // Shows the series of `metric` in `scenario` (the metric kept when empty) and, once it has
    // loaded, selects the point of `runKey` (the date range widened when it is outside it):
    // how the Changes view opens a row.
    void openSeries(const QString &scenario, const QString &metric, const QString &runKey);

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
    // newer choice whose series is still loading. Shared, never copied on the UI thread.
    using LoadedSeries = std::shared_ptr<const AnnotatedSeries>;
    void showSeries(LoadedSeries series);
    void showEmptyChart(const QString &title);
    void setTimeRange(qint64 firstMs, qint64 lastMs);
    // Draws the series within the date range: line, value axis, marks, the list of changes.
    void showRange();
    void applyPreset();
    bool inRange(double timeMs) const { return timeMs >= m_fromMs && timeMs <= m_toMs; }
    // Whether point i is shown: inside the date range, of the chosen target.
    bool shown(std::size_t i) const
    {
        return inRange(m_series->points[i].timeMs) &&
               (m_target < 0 || m_series->points[i].target == m_target) &&
               (m_load < 0 || m_series->loadOfContract[std::size_t(m_series->marks[i].contract)] == m_load);
    }
    void refillTargets();
    void refillLoads(); // chooses the latest run's load when the series has several
    // The overlays: a fixed set of slots, each with its loader, line and legend entry, so a
    // colour belongs to a slot and never repeats within the chart.
    struct OverlaySlot
    {
        QString key; // empty: free
        LatestTask *loader = nullptr;
        LoadedSeries series; // as read for the key and the plotted choice, never null
        QLineSeries *line = nullptr;
        QWidget *entry = nullptr; // in the legend, with its remove button
    };
    void makeOverlays(QHBoxLayout *choices); // the combo at the end of `choices`, the lines
    void makeOverlayAxes();
    void refillOverlays();
    void loadOverlays(); // re-reads every overlay for the plotted choice
    void loadOverlay(OverlaySlot &slot);
    void clearSlot(OverlaySlot &slot);
    // A slot's points inside the range, in chart values (empty until its read for the plotted
    // choice lands), and the factor its values are drawn with.
    QList<QPointF> overlayPoints(const OverlaySlot &slot, double factor) const;
    bool isMetricOverlay(const OverlaySlot &slot) const;
    // Draws every overlay: scenario ones on the left axis (widening [yMin, yMax]), metric ones
    // on right axes grouped by unit.
    void drawOverlays(double &yMin, double &yMax);
    void showOverlayEntry(OverlaySlot &slot);
    QWidget *makeLegend();
    QLayout *makeRangeRow();
    QTableView *makeChangeList();
    void summarizeChanges();
    bool eventFilter(QObject *watched, QEvent *event) override;
    QString hoverText(size_t index) const;
    void clearPointDetail();
    void drawMarks();
    QString baselineDeltaText(size_t index) const;
    // Index of the point of the drawn series nearest to a chart value, in screen space, and that
    // distance in pixels.
    int drawnPointNear(const QPointF &chartValue, double *pixels = nullptr) const;
    int drawnPointAt(const QPoint &viewportPos) const;
    // Zoom on the time axis, as the date range: a drag across the chart keeps the days it
    // spans, the wheel narrows or widens the days around the pointer, a double-click resets.
    double timeAt(int viewportX) const; // ms since the epoch under a viewport x
    void zoomTime(double fromMs, double toMs);
    bool zoomEvent(QEvent *event);
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
    LoadedSeries m_series; // what is drawn, never null
    std::array<OverlaySlot, kMaxTrendOverlays> m_overlays;
    QComboBox *m_overlayCombo = nullptr;
    std::array<QValueAxis *, kMaxTrendOverlays> m_overlayAxes{}; // right: metric overlays' units
    QWidget *m_overlayLegend = nullptr; // the legend's row of overlay entries, hidden without one
    QScatterSeries *m_regressions = nullptr;
    QScatterSeries *m_improvements = nullptr;
    QScatterSeries *m_neutralChanges = nullptr;
    QScatterSeries *m_outliers = nullptr; // rings around the runs left out as outliers
    QScatterSeries *m_noiseMarks = nullptr; // hollow diamonds where a series' noise changes
    std::vector<QLineSeries *> m_driftLines; // sloped, one per drift: its fitted line
    QLineSeries *m_baselineLevel = nullptr;   // horizontal, at the baseline run's value
    std::vector<QLineSeries *> m_contractLines; // vertical, one per new contract
    QPushButton *m_useAsBaseline = nullptr;
    QWidget *m_legend = nullptr;
    QTableView *m_changeList = nullptr;
    TrendChangesTableModel *m_changes = nullptr;
    QLabel *m_changeSummary = nullptr; // the list's counts, or that it is empty
    QComboBox *m_rangeCombo = nullptr;
    QDateEdit *m_fromEdit = nullptr;
    QDateEdit *m_toEdit = nullptr;
    QPushButton *m_resetRange = nullptr;
    QComboBox *m_targetCombo = nullptr;
    QWidget *m_targetLabel = nullptr;
    int m_target = -1; // index into the series' targets, -1 for all
    QComboBox *m_loadCombo = nullptr;
    QWidget *m_loadLabel = nullptr;
    int m_load = -1; // index into the series' loads, -1 for all
    std::vector<std::size_t> m_drawn; // indices of the points on the line
    double m_fromMs = -std::numeric_limits<double>::infinity();
    double m_toMs = std::numeric_limits<double>::infinity();
    QString m_baselineKey;
    double m_displayFactor = 1; // chart y = stored SI value * factor
    bool m_syncingList = false; // selecting the list's row of a point picked on the chart
    int m_selected = -1;
    // What openSeries asked for, applied as the scenarios, metrics and series arrive.
    QString m_pendingScenario, m_pendingMetric, m_pendingRun;
    QRubberBand *m_zoomBand = nullptr;
    int m_dragFromX = -1; // viewport x where a drag to zoom started, -1 when none
    int m_baseline = -1; // index of the baseline run's point, -1 when not in this series
};

} // namespace plimsoll
