#pragma once
// The details of one run: identity, provenance, tuning and its scenarios with topology and
// metrics. Shows a RunDetail it is given; loading it is the Library view's job.
//
// Two tabs beside the identity: Scenarios (a tree of each scenario's topology and metrics) and
// Step table (export/steptable.h: a row per scenario, a column per load factor and metric,
// formatted with units), which copies as tab-separated SI values and saves as the CSV that
// `plimsoll export --format steps` writes; the file is written off the UI thread; and Charts
// (ui/charts/runcharts.h): the latency percentile spectrum of every scenario overlaid, and any
// per-window series the run keeps.

#include "export/steptable.h"
#include "model/store/store.h"
#include "ui/views/viewwidgets.h"

#include <QFutureWatcher>
#include <QWidget>

namespace plimsoll {

class SeriesLegend;

class RunDetailPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RunDetailPanel(QWidget *parent = nullptr);

    void showRun(const RunDetail &detail);
    void showPlaceholder(const QString &text);
    void clear() { showPlaceholder(tr("Select a run to see its details.")); }

    // For tests and accessibility: the text currently shown for a field ("commit", ...).
    QString fieldText(const QString &field) const;
    int scenarioCount() const;
    QTabWidget *tabs() const { return m_tabs; }
    QTableWidget *stepTableWidget() const { return m_stepTable; }
    const StepTable &stepTable() const { return m_steps; }
    // The step table as the clipboard gets it, and its CSV written to `path` in the background
    // (the status line beside the buttons says when it is saved, or why not).
    void copyStepTable() const;
    void saveStepTable(const QString &path);
    QLabel *stepStatus() const { return m_stepStatus; }
    QComboBox *spectrumFamilyCombo() const { return m_family; }
    QComboBox *windowSeriesCombo() const { return m_windowSeries; }
    QChart *spectrumChart() const { return m_spectrum; }
    // The spectrum's lines by name, beside the chart (shown with two lines or more).
    SeriesLegend *spectrumLegend() const { return m_spectrumLegend; }
    QChart *windowSeriesChart() const { return m_seriesChart; }

signals:
    void stepTableSaved(const QString &path, const QString &error);

private:
    QLabel *addField(const QString &field, const QString &label);
    QWidget *createStepTab();
    QWidget *createChartsTab();
    void fillStepTable();
    void fillCharts();
    void drawSpectrum();
    void showSeriesAt(int index);

    QLabel *m_heading = nullptr;
    QWidget *m_fields = nullptr;
    QScrollArea *m_fieldsScroll = nullptr;
    QTreeWidget *m_scenarios = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_stepTable = nullptr;
    QLabel *m_stepStatus = nullptr;
    StepTable m_steps;
    RunRecord m_run; // what the charts draw from
    QComboBox *m_family = nullptr;
    QComboBox *m_windowSeries = nullptr;
    QChart *m_spectrum = nullptr;
    SeriesLegend *m_spectrumLegend = nullptr;
    QChart *m_seriesChart = nullptr;
    std::string m_runKey;
    QFutureWatcher<QString> m_stepWriter;
};

} // namespace plimsoll
