#pragma once
// "Choose the runs": which runs a sizing (or a fit) rests on — every run, the runs a filter
// selects (scenario, tool, target, since, until) or runs picked by hand from the store's list —
// and whether the sample runs take part. It edits an EvidenceSelection (model/evidence.h), the
// same value the CLI's --run, --scenario, --tool, --target, --since, --until and --samples fill.
//
// Threading: the run list and the filter's count are read on the background pool (LatestTask);
// the dialog only shows them.

#include "model/evidence.h"
#include "model/store.h"

#include <QDialog>

#include <vector>

class QButtonGroup;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QTableWidget;
class QWidget;

namespace plimsoll {

class LatestTask;

class EvidenceDialog : public QDialog
{
    Q_OBJECT
public:
    enum Mode { Every = 0, Filter = 1, Picked = 2 };

    EvidenceDialog(const QString &storePath, const EvidenceSelection &initial, QWidget *parent = nullptr);
    ~EvidenceDialog() override;

    // The selection as the fields state it (meaningful when isValid()).
    EvidenceSelection selection() const;
    bool isValid() const;

    // For tests and keyboard users: the parts a user works with.
    void setMode(Mode mode);
    QTableWidget *runTable() const { return m_table; } // column 0 checkable, run key in its text
    QLineEdit *filterField(const char *name) const;     // "scenario", "tool", "target", "since", "until"
    QComboBox *samplesCombo() const { return m_samples; }
    QLabel *countLabel() const { return m_count; }
    bool runsListed() const { return m_loaded; }
    // Checks the run of this key in the list (false when it is not listed).
    bool checkRun(const std::string &key, bool checked = true);

signals:
    void runListLoaded();
    void countUpdated();

private:
    void loadRuns();
    void fillTable();
    void updateState();
    void countFilter();

    QString m_storePath;
    EvidenceSelection m_initial;
    QButtonGroup *m_modes = nullptr;
    QWidget *m_filterBox = nullptr;
    QWidget *m_pickBox = nullptr;
    QLineEdit *m_scenario = nullptr;
    QLineEdit *m_tool = nullptr;
    QLineEdit *m_target = nullptr;
    QLineEdit *m_since = nullptr;
    QLineEdit *m_until = nullptr;
    QLineEdit *m_search = nullptr;
    QTableWidget *m_table = nullptr;
    QComboBox *m_samples = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    LatestTask *m_listTask = nullptr;
    LatestTask *m_countTask = nullptr;
    std::vector<RunSummary> m_runs;
    bool m_loaded = false;
};

} // namespace plimsoll
