#pragma once
// Compare: runs side by side. The baseline and the current run are chosen in the pickers; more
// runs join them from the Library's "Compare these" (setRuns with a list). Scenarios are aligned
// by name, else by the load factor that differs, else by position (model/trends/scenarioalignment.h),
// and the view says how. Side by side: a row per metric, a column per run with its delta against
// the baseline and that pair's verdict; Latency spectrum: every run's percentiles overlaid;
// Throughput and p99: bars of each run per aligned scenario. Baseline vs current: each metric
// of each scenario the two measured gets its delta, the noise band of its series' recent history
// and a verdict; ramps get their USL parameters compared. Scenarios whose tuning contract differs are listed apart with the
// differing keys and no delta — and a differing key can be left out of its scenario family's
// contract from here (kept in the store, shared with `plimsoll contract`).
//
// The run pickers list the newest runs a page at a time (more as the list is scrolled), and a
// search field beside each finds any run of the store by part of its key, scenario, commit,
// tool or target. Comparing reads only the two runs and the recent history of their scenarios
// (model/trends/comparisonhistory.h), never the whole store. The run pages, the searches, the history
// read and the comparison (with its USL fits) run in the background; the latest request wins.

#include "model/trends/runcomparison.h"
#include "model/trends/runscomparison.h"
#include "ui/views/storeview.h"
#include "ui/views/viewwidgets.h"

#include <QHash>
#include <QStringList>

namespace plimsoll {

class ComparisonTableModel;
class SideBySideTableModel;
class IncompatibleTableModel;
class LatestTask;
class RunPickerListModel;
struct RunSummary;

class CompareView : public StoreView
{
    Q_OBJECT
public:
    // Its sidebar entry, menu item and settings key, known before the view is built.
    static ViewIdentity identity();
    explicit CompareView(const QString &storePath, QWidget *parent = nullptr);

    void reload() override;

    // Chooses the two runs by run key (for tests and for "compare with…" from other views).
    void setRuns(const QString &baselineKey, const QString &currentKey);
    // Chooses any number of runs: the first is the baseline, the second the current run, the
    // rest join them (the Library's "Compare these").
    void setRuns(const QStringList &runKeys);
    // The runs beyond the baseline and the current run, in the order compared.
    QStringList extraRuns() const { return m_extra; }
    QComboBox *baselineCombo() const { return m_baselineCombo; }
    QComboBox *currentCombo() const { return m_currentCombo; }
    // The search fields beside the pickers and their completers (results a page of the store).
    QLineEdit *baselineSearch() const { return m_baseline.search; }
    QLineEdit *currentSearch() const { return m_current.search; }
    QCompleter *baselineCompleter() const { return m_baseline.completer; }
    QCompleter *currentCompleter() const { return m_current.completer; }
    RunPickerListModel *runList() const { return m_runs; }
    QTableView *deltaTable() const { return m_deltaTable; }
    QTableView *incompatibleTable() const { return m_incompatibleTable; }
    QPushButton *leaveKeyOutButton() const { return m_leaveOut; }
    QPushButton *undoButton() const { return m_undo; } // shown after a key was left out
    QLabel *undoLabel() const { return m_undoText; }
    QString summaryText() const;
    const RunComparison &comparison() const { return m_comparison; }
    // Every run compared: the table a reader reads, and how scenarios were aligned.
    const RunsComparison &runsComparison() const { return m_runsComparison; }
    QTableView *sideBySideTable() const { return m_sideTable; }
    SideBySideTableModel *sideBySideModel() const { return m_sideBySide; }
    QLabel *alignmentLabel() const { return m_alignment; }
    QLabel *runLegend() const { return m_runLegend; }
    QChart *throughputChart() const { return m_throughput; }
    QChart *p99Chart() const { return m_p99; }
    // Side by side | Latency spectrum | Throughput and p99 | Baseline vs current. The spectrum
    // overlays every run's percentiles, scenario by scenario (ui/charts/runcharts.h), each line
    // named "baseline · …", "current · …" (two runs) or by its run's letter ("C · …").
    QTabWidget *resultTabs() const { return m_tabs; }
    QChart *spectrumChart() const { return m_spectrum; }
    QComboBox *spectrumFamilyCombo() const { return m_family; }

    // Runs a picker lists at first and adds as it is scrolled; matches a search shows.
    static constexpr int kPageRuns = 200;
    static constexpr int kSearchRuns = 50;

signals:
    void runsLoaded(int count); // runs listed in the pickers
    void searchFinished(int matches);
    void comparisonReady();

private:
    // One picker's search: the field, its completer and the results it shows.
    struct Search
    {
        QComboBox *combo = nullptr;
        QLineEdit *search = nullptr;
        QCompleter *completer = nullptr;
        RunPickerListModel *results = nullptr;
        QTimer *debounce = nullptr;
        LatestTask *task = nullptr;
    };
    void setUpSearch(Search &side, QComboBox *combo, const QString &name);
    void search(Search &side);
    void chooseFound(Search &side, const QString &runKey);
    void loadMoreRuns();
    // Selects the wanted runs in the pickers, reading the summaries of runs not listed yet.
    void selectWanted();
    void selectRows(int baselineRow, int currentRow);
    // Compares the chosen pair; `again` even when it is the pair compared last (the contract
    // policies changed).
    void compare(bool again = false);
    QWidget *createSpectrumTab();
    QWidget *createBarsTab();
    // The runs' aligned scenarios overlaid, each line named by its run.
    void showSpectrumOf(const std::vector<RunRecord> &runs, const RunsComparison &comparison);
    void showBars(const RunsComparison &comparison);
    void drawSpectrum();
    void showComparison(const RunComparison &comparison);
    void showRuns(const RunsComparison &comparison);
    // Before any run is chosen: how to choose, in place of a comparison.
    void showHowToChoose();
    void leaveKeyOut();
    // Adds (or, undoing, removes) `key` in the excluded keys of `family`'s contract, off the UI
    // thread, then compares again and tells the other views.
    void writePolicy(const std::string &family, const std::string &key, bool exclude);
    QLabel *identityLabel(const QString &name);

    QComboBox *m_baselineCombo = nullptr;
    QComboBox *m_currentCombo = nullptr;
    QLabel *m_baselineIdentity = nullptr;
    QLabel *m_currentIdentity = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_incompatibleTitle = nullptr;
    QPushButton *m_leaveOut = nullptr;
    QWidget *m_undoBar = nullptr; // "Left K out of F's contract. [Undo]"
    QLabel *m_undoText = nullptr;
    QPushButton *m_undo = nullptr;
    QTableView *m_deltaTable = nullptr;
    QTableView *m_incompatibleTable = nullptr;
    ComparisonTableModel *m_deltas = nullptr;
    IncompatibleTableModel *m_incompatible = nullptr;
    RunPickerListModel *m_runs = nullptr; // both pickers list the same runs
    Search m_baseline;
    Search m_current;
    LatestTask *m_runLoader = nullptr;
    LatestTask *m_pageLoader = nullptr;
    LatestTask *m_locator = nullptr;
    LatestTask *m_comparer = nullptr;
    LatestTask *m_policyWriter = nullptr;
    RunComparison m_comparison;
    RunsComparison m_runsComparison;
    SideBySideTableModel *m_sideBySide = nullptr;
    QTableView *m_sideTable = nullptr;
    QLabel *m_alignment = nullptr;
    QLabel *m_runLegend = nullptr;
    QWidget *m_extraBar = nullptr; // "Also compared: C …, D … [Clear]"
    QLabel *m_extraText = nullptr;
    QChart *m_throughput = nullptr;
    QChart *m_p99 = nullptr;
    QStringList m_extra;
    QStringList m_comparedExtra;
    RunRecord m_overlaid; // the runs' aligned scenarios, renamed by run, for the spectrum
    QHash<QString, std::pair<int, int>> m_spectrumRuns; // a line's name -> its run, its scenario
    QTabWidget *m_tabs = nullptr;
    QChart *m_spectrum = nullptr;
    QComboBox *m_family = nullptr;
    QString m_wantedBaseline;
    QString m_wantedCurrent;
    // The pair last compared: picking the same runs again (a list reordered under them) does
    // not compare again.
    QString m_comparedBaseline;
    QString m_comparedCurrent;
};

} // namespace plimsoll
