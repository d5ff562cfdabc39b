#pragma once
// Scaling, in two modes chosen at the top. Within a run: the steps of one ramp (a run, a
// scenario prefix, a load factor, a metric) with the Universal Scalability Law fitted to them —
// the curve, its bootstrap interval band, N*, the first saturated step — the residuals beneath,
// and component CPU on a second axis; the Run list offers the runs with a ramp (two or more
// steps of one scenario family). Across runs: a sweep over separate runs, one per cluster
// configuration (brokers, shards, partitions, ...), fitted as `plimsoll fit` fits it
// (SweepPanel).
//
// Threading: the run list and the chosen run are read in the background; the fit (with its
// bootstrap) runs in the background too, the latest choice winning. Only drawing happens on
// the UI thread.

#include "model/scaling/ramppoints.h"
#include "model/scaling/saturation.h"
#include "model/scaling/usl.h"
#include "ui/views/storeview.h"
#include "ui/views/viewwidgets.h"

#include <memory>
#include <vector>

namespace plimsoll {

class LatestTask;
class ScalingChart;
class SweepPanel;

class ScalingView : public StoreView
{
    Q_OBJECT
public:
    // Its sidebar entry, menu item and settings key, known before the view is built.
    static ViewIdentity identity();
    explicit ScalingView(const QString &storePath, QWidget *parent = nullptr);

    void reload() override;

    enum Mode { WithinRun, AcrossRuns };
    // Switches the mode as the tab at the top does; the panel shown reads the store if stale.
    void setMode(Mode mode);
    Mode mode() const;
    QTabBar *modeBar() const { return m_modeBar; }
    SweepPanel *sweepPanel() const { return m_sweep; }

    QComboBox *runCombo() const { return m_runCombo; }
    QComboBox *prefixCombo() const { return m_prefixCombo; }
    QComboBox *factorCombo() const { return m_factorCombo; }
    QComboBox *metricCombo() const { return m_metricCombo; }
    QChartView *chartView() const { return m_chartView; }
    QChartView *residualView() const { return m_residual.view; }
    QLabel *summaryLabel() const { return m_summary; }
    const UslFit &fit() const { return m_fit; }
    const std::vector<RampPoint> &points() const { return m_points; }
    const SaturationResult &saturation() const { return m_saturation; }

signals:
    void runsLoaded(int count);
    void fitFinished(bool ok);

private:
    struct FitOutcome
    {
        std::vector<RampPoint> points;
        UslFit fit;
        SaturationResult saturation;
    };
    QWidget *buildRampPage();
    void loadRun();
    void refillChoices();
    void startFit();
    void showFit(const FitOutcome &outcome);

    QTabBar *m_modeBar = nullptr;
    QWidget *m_rampPage = nullptr;
    SweepPanel *m_sweep = nullptr;
    bool m_sweepStale = true; // the Across runs panel waits to read until it is shown
    QComboBox *m_runCombo = nullptr;
    QComboBox *m_prefixCombo = nullptr;
    QComboBox *m_factorCombo = nullptr;
    QComboBox *m_metricCombo = nullptr;
    QChartView *m_chartView = nullptr;
    ScalingChart *m_chart = nullptr;
    // The fit's residual per step, below the throughput chart.
    struct
    {
        QChartView *view = nullptr;
        QChart *chart = nullptr;
        QScatterSeries *points = nullptr;
        QValueAxis *x = nullptr, *y = nullptr;
    } m_residual;
    QLabel *m_summary = nullptr;
    LatestTask *m_runsLoader = nullptr;
    LatestTask *m_runLoader = nullptr;
    LatestTask *m_fitter = nullptr;
    std::shared_ptr<const RunRecord> m_run; // the chosen run, as read
    std::vector<RampPoint> m_points;
    UslFit m_fit;
    SaturationResult m_saturation;
};

} // namespace plimsoll
