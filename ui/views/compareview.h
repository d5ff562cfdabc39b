#pragma once
// Compare: two runs side by side. Each metric of each scenario both runs measured gets its
// delta, the noise band of its series' recent history and a verdict; ramps get their USL
// parameters compared. Scenarios whose tuning contract differs are listed apart with the
// differing keys and no delta — and a differing key can be left out of its scenario family's
// contract from here (kept in the store, shared with `plimsoll contract`).
//
// The run pickers list the newest runs a page at a time (more as the list is scrolled), and a
// search field beside each finds any run of the store by part of its key, scenario, commit,
// tool or target. Comparing reads only the two runs and the recent history of their scenarios
// (model/trends/comparisonhistory.h), never the whole store. The run pages, the searches, the history
// read and the comparison (with its USL fits) run in the background; the latest request wins.

#include "model/trends/runcomparison.h"
#include "ui/views/storeview.h"
#include "ui/views/viewwidgets.h"

namespace plimsoll {

class ComparisonTableModel;
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
    // Deltas | Latency spectrum: the two runs' percentiles overlaid, scenario by scenario
    // (ui/charts/runcharts.h), each line named "baseline · …" or "current · …".
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
    void showSpectrumOf(const RunRecord &baseline, const RunRecord &current);
    void showComparison(const RunComparison &comparison);
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
    RunRecord m_overlaid; // both runs' shared scenarios, renamed by side, for the spectrum
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
