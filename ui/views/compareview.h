#pragma once
// Compare: two runs side by side. Each metric of each scenario both runs measured gets its
// delta, the noise band of its series' recent history and a verdict; ramps get their USL
// parameters compared. Scenarios whose tuning contract differs are listed apart with the
// differing keys and no delta — and a differing key can be left out of its scenario family's
// contract from here (saved beside the store, shared with `plimsoll contract`).
//
// The run list, the history load and the comparison (with its USL fits) run in the background;
// the latest request wins.

#include "model/runcomparison.h"
#include "ui/views/storeview.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace plimsoll {

class ComparisonTableModel;
class IncompatibleTableModel;
class LatestTask;

class CompareView : public StoreView
{
    Q_OBJECT
public:
    explicit CompareView(const QString &storePath, QWidget *parent = nullptr);

    QString key() const override { return QStringLiteral("compare"); }
    QString title() const override { return tr("Compare"); }
    QIcon icon() const override;
    void reload() override;

    // Chooses the two runs by run key (for tests and for "compare with…" from other views).
    void setRuns(const QString &baselineKey, const QString &currentKey);
    QComboBox *baselineCombo() const { return m_baselineCombo; }
    QComboBox *currentCombo() const { return m_currentCombo; }
    QTableView *deltaTable() const { return m_deltaTable; }
    QTableView *incompatibleTable() const { return m_incompatibleTable; }
    QPushButton *leaveKeyOutButton() const { return m_leaveOut; }
    QPushButton *undoButton() const { return m_undo; } // shown after a key was left out
    QLabel *undoLabel() const { return m_undoText; }
    QString summaryText() const;
    const RunComparison &comparison() const { return m_comparison; }

signals:
    void runsLoaded(int count);
    void comparisonReady();

private:
    void compare();
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
    LatestTask *m_runLoader = nullptr;
    LatestTask *m_comparer = nullptr;
    LatestTask *m_policyWriter = nullptr;
    RunComparison m_comparison;
    QString m_wantedBaseline;
    QString m_wantedCurrent;
};

} // namespace plimsoll
