#pragma once
// Which runs an operation rests on, chosen as the CLI chooses them: every run, the runs a filter
// selects (scenario, tool, target, since, until — the CLI's --scenario, --tool, --target,
// --since, --until), or runs picked by hand from a checkable list (--run, repeated) — and
// whether the sample runs take part (--samples auto|include|exclude). selection() is the
// EvidenceSelection the CLI's parseRunSelection() would build from the same choices.
//
// The widget reads nothing: the owner fills the list (setRuns) from a background read.

#include "model/scaling/evidence.h"
#include "model/store/store.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QTimer;
class QWidget;

namespace plimsoll {

class RunSelectionWidget : public QWidget
{
    Q_OBJECT
public:
    enum Mode { EveryRun, Filter, PickedByHand };

    explicit RunSelectionWidget(QWidget *parent = nullptr);

    // The runs offered for picking; runs checked before stay checked while they are offered.
    void setRuns(const std::vector<RunSummary> &runs);
    // The selection as chosen, since/until normalized; when a time does not parse, the
    // selection without it and problem() says why.
    EvidenceSelection selection() const;
    // What is wrong with the choice ("Since: 'last week' is not an ISO-8601 date or time";
    // "No run picked"), empty when it can be used.
    QString problem() const;

    void setMode(Mode mode);
    Mode mode() const;
    void setSamples(SampleRuns samples);
    // Checks exactly the runs of `keys` that are offered.
    void setPicked(const std::vector<std::string> &keys);

    QComboBox *modeCombo() const { return m_mode; }
    QComboBox *samplesCombo() const { return m_samples; }
    QLineEdit *scenarioEdit() const { return m_scenario; }
    QLineEdit *toolEdit() const { return m_tool; }
    QLineEdit *targetEdit() const { return m_target; }
    QLineEdit *sinceEdit() const { return m_since; }
    QLineEdit *untilEdit() const { return m_until; }
    QListWidget *runList() const { return m_list; }
    QLabel *problemLabel() const { return m_problem; }

signals:
    // The choice changed: a mode, a check, the samples, or filter text that stopped changing
    // for a moment (typing does not start a read per keystroke).
    void selectionChanged();

private:
    void showMode();
    void changed();

    QComboBox *m_mode = nullptr;
    QComboBox *m_samples = nullptr;
    QWidget *m_filter = nullptr;
    QLineEdit *m_scenario = nullptr, *m_tool = nullptr, *m_target = nullptr;
    QLineEdit *m_since = nullptr, *m_until = nullptr;
    QListWidget *m_list = nullptr;
    QLabel *m_problem = nullptr;
    QTimer *m_typing = nullptr;
};

} // namespace plimsoll
