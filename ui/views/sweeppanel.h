#pragma once
// Scaling across runs: the points of a sweep — a scenario of each chosen run, one load factor
// varying (brokers, shards, partitions, ..., an offered rate) while the rest of the tuning
// contract agrees — with the Universal Scalability Law fitted to them, its bootstrap band, λ σ κ
// with intervals, the knee of a fixed-rate sweep, p99 against load, the contract the points
// share and the keys left out of it. Each point names its run and scenario (hover, and the
// table). A sweep refused because contracts differ lists each differing key with a checkbox to
// leave it out; unchecking puts it back.
//
// The panel builds a SweepFitRequest from its widgets and runs runSweepFit(), the function
// `plimsoll fit` runs, so both give the same numbers for the same runs.
//
// Threading: the run list and the fit are read and computed in the background (LatestTask), the
// latest choice winning; only drawing happens on the UI thread.

#include "model/scaling/sweepfit.h"
#include "ui/views/viewwidgets.h"

#include <QString>
#include <QWidget>

#include <string>
#include <vector>

namespace plimsoll {

class LatestTask;
class RunSelectionWidget;
class ScalingChart;

class SweepPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SweepPanel(const QString &storePath, QWidget *parent = nullptr);

    // Re-reads the runs offered for picking and fits again.
    void reload();

    // The request as the widgets stand (what the next fit runs).
    SweepFitRequest request() const;
    const SweepFitResult &result() const { return m_result; }
    // Run key and scenario of the point at `index` of result().sweep.points, with its x and y:
    // what hovering the point shows.
    QString pointToolTip(int index) const;

    RunSelectionWidget *runSelection() const { return m_selection; }
    QComboBox *factorCombo() const { return m_factorCombo; }
    QComboBox *metricCombo() const { return m_metricCombo; }
    QLineEdit *prefixEdit() const { return m_prefixEdit; }
    // Shown when a selection holds several workloads: the one to fit.
    QComboBox *workloadCombo() const { return m_workloadCombo; }
    QGroupBox *contractKeysBox() const { return m_keys.box; }
    // The "leave out" checkbox of a contract key, nullptr when the panel shows none for it.
    QCheckBox *leaveOutCheck(const QString &key) const;
    QLabel *parametersLabel() const { return m_parameters; }
    QLabel *summaryLabel() const { return m_summary; }
    QTableWidget *pointsTable() const { return m_table; }
    QChartView *chartView() const { return m_chartView; }
    QChartView *p99View() const { return m_p99.view; }

signals:
    void runsLoaded(int count);
    void fitFinished(bool ok);
    void loadFailed(const QString &message);

private:
    QWidget *buildChoices();
    QWidget *buildCharts();
    void startFit();
    void showResult(const SweepFitResult &result, const SweepFitRequest &request);
    void showFailure(const QString &why);
    void showContractKeys();
    void showPoints();
    void showP99();
    void hovered(const QPointF &point, bool state);

    QString m_storePath;
    RunSelectionWidget *m_selection = nullptr;
    QComboBox *m_factorCombo = nullptr;
    QComboBox *m_metricCombo = nullptr;
    QLineEdit *m_prefixEdit = nullptr;
    QComboBox *m_workloadCombo = nullptr;
    QLabel *m_workloadLabel = nullptr;
    std::vector<int> m_plotted; // the sweep point of each point on the chart, in order
    std::string m_workload; // the workload chosen, empty for any
    void showWorkloads();
    // The tuning-contract keys, each with a box to leave it out of the contract.
    struct
    {
        QGroupBox *box = nullptr;
        QGridLayout *layout = nullptr;
    } m_keys;
    QLabel *m_parameters = nullptr;
    QLabel *m_summary = nullptr;
    QTableWidget *m_table = nullptr;
    QChartView *m_chartView = nullptr;
    ScalingChart *m_chart = nullptr;
    // The p99 against the factor, beside the throughput chart.
    struct
    {
        QChartView *view = nullptr;
        QChart *chart = nullptr;
        QLineSeries *line = nullptr;
        QScatterSeries *points = nullptr;
        QValueAxis *x = nullptr, *y = nullptr;
    } m_p99;
    LatestTask *m_runsLoader = nullptr;
    LatestTask *m_fitter = nullptr;
    std::vector<std::string> m_excluded; // contract keys the user left out
    SweepFitRequest m_shown;             // the request result() answers
    SweepFitResult m_result;
};

} // namespace plimsoll
