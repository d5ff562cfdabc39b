#pragma once
// "Runs to size from": the run selection (RunSelectionWidget: every run, a filter, or runs
// picked by hand, and whether the sample runs take part) in a dialog, with the store's runs to
// pick from and a count of what the choice selects. It edits an EvidenceSelection
// (model/scaling/evidence.h), the value the CLI's --run, --scenario, --tool, --target, --since, --until
// and --samples fill.
//
// Threading: the run list and the filter's count are read on the background pool (LatestTask);
// the dialog only shows them.

#include "model/scaling/evidence.h"
#include "model/store/store.h"

#include <QDialog>

#include <functional>

#include <vector>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace plimsoll {

class LatestTask;
class RunSelectionWidget;

// "Samples: auto / included / left out" (the CLI's --samples), as the Sizing view and the report
// dialog offer it beside "Choose runs…": `changed` is called with the choice a user makes.
QComboBox *newSamplesCombo(QWidget *parent, const QString &objectName, SampleRuns current,
                        std::function<void(SampleRuns)> changed);

class EvidenceDialog : public QDialog
{
    Q_OBJECT
public:
    enum Mode { Every, Filter, Picked };

    EvidenceDialog(const QString &storePath, const EvidenceSelection &initial, QWidget *parent = nullptr);
    ~EvidenceDialog() override;

    // The selection as the fields state it (meaningful when isValid()).
    EvidenceSelection selection() const;
    bool isValid() const;

    // For tests and keyboard users: the parts a user works with.
    void setMode(Mode mode);
    RunSelectionWidget *selectionWidget() const { return m_selection; }
    QListWidget *runList() const; // checkable, the run key in Qt::UserRole
    QLineEdit *filterField(const char *name) const; // "scenario", "tool", "target", "since", "until"
    QLabel *countLabel() const { return m_count; }
    bool runsListed() const { return m_loaded; }
    // Checks the run of this key in the list (false when it is not listed).
    bool checkRun(const std::string &key, bool checked = true);

signals:
    void runListLoaded();
    void countUpdated();

private:
    void loadRuns();
    void updateState();

    QString m_storePath;
    EvidenceSelection m_initial;
    RunSelectionWidget *m_selection = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    LatestTask *m_listTask = nullptr;
    LatestTask *m_countTask = nullptr;
    std::vector<RunSummary> m_runs;
    int64_t m_storeRuns = 0;    // every run in the store (the list may hold fewer)
    int64_t m_storeSamples = 0;
    bool m_loaded = false;
};

} // namespace plimsoll
