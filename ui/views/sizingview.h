#pragma once
// Sizing: the target and its constraints as fields and sliders; the deployment, the
// utilization of each component, the caveats that qualify the numbers, the broker count by
// each model (the one taken chosen by the user or by the engine's rule) and the reasoning
// recompute as they change. The rate reads as on the command line (RateField).
//
// Threading: the models are fitted once in the background from the runs in the store that
// carry what they learn from (readSizingRuns), again after the store changes. A recompute is
// arithmetic on them — measured well under a millisecond (Sizing.RecomputeIsWellUnderAMillisecond;
// the view shows its own timing) — so it runs on the UI thread, on every change.

#include "model/scaling/evidence.h"
#include "model/sizing/sizing.h"
#include "ui/views/storeview.h"
#include "ui/views/viewwidgets.h"

#include <QStringList>

class QSplitter;

#include <memory>
#include <set>
#include <string>

namespace plimsoll {

class LatestTask;
class RateField;

class SizingView : public StoreView
{
    Q_OBJECT
public:
    // Its sidebar entry, menu item and settings key, known before the view is built.
    static ViewIdentity identity();
    explicit SizingView(const QString &storePath, QWidget *parent = nullptr);
    ~SizingView() override;

    void reload() override;

    RateField *rateField() const { return m_rate; }
    QComboBox *brokerModelCombo() const { return m_brokerModel; } // auto, fitted, cpu, rule
    QLineEdit *keyPatternEdit() const { return m_keyPattern; }
    QTableWidget *brokerModelsTable() const { return m_brokerTable; }
    QLabel *brokerWhyLabel() const { return m_brokerWhy; }
    QLabel *caveatsLabel() const { return m_caveats; }
    // What qualifies the numbers: the sizing's warnings, weak fits, models that disagree.
    const QStringList &caveats() const { return m_caveatList; }
    QLabel *evidenceLabel() const { return m_evidenceLabel; }
    QComboBox *samplesCombo() const { return m_samples; } // auto, include, exclude
    // Opens the run chooser (EvidenceDialog) over the view; returns at once.
    void chooseRuns();
    QSlider *rateSlider() const { return m_rateSlider; } // k records/s
    QSlider *headroomSlider() const { return m_headroom; }
    QCheckBox *nodeLossCheck() const { return m_nodeLoss; }
    // The consume side (the CLI's --consumer-groups, --consume-rate, --consume-from,
    // --tiered-reads, --consume-margin, --fetch-p99).
    QSpinBox *consumerGroupsSpin() const { return m_consumerGroups; }
    RateField *consumeRateField() const { return m_consumeRate; }
    QComboBox *consumeFromCombo() const { return m_consumeFrom; } // tail, backlog
    QCheckBox *tieredReadsCheck() const { return m_tieredReads; }
    QSpinBox *consumeMarginSpin() const { return m_consumeMargin; } // percent
    QSpinBox *fetchP99Spin() const { return m_fetchP99; }           // ms, 0: the seed's limit
    QCheckBox *tieredCheck() const { return m_tiered; }
    QTableWidget *resultTable() const { return m_table; }
    QTextBrowser *reasoningPanel() const { return m_reasoning; }
    QSplitter *resultSplit() const { return m_resultSplit; }
    const SizingResult &result() const { return m_result; }
    bool modelsReady() const { return m_sizer != nullptr; }
    // The text of a result row by its key ("brokers", "shards", ...), or empty.
    QString resultText(const QString &key) const;
    // Whose runs that row rests on, as its Evidence column says ("sample runs", "your runs", ...).
    QString resultEvidence(const QString &key) const;
    // Utilization bar of a component (0–100, percent of the resource), −1 when absent.
    int utilizationPercent(const QString &component) const;
    double lastRecomputeMs() const { return m_lastMs; }

    SizingInputs inputs() const;
    // Puts `in` into the fields (a saved sizing loaded back); the sizing recomputes once.
    void setInputs(const SizingInputs &in);
    // The runs the models are fitted from (model/scaling/evidence.h): the CLI's --run and filter.
    const EvidenceSelection &evidenceSelection() const { return m_evidence; }
    // Refits from `selection` in the background (modelsLoaded follows).
    void setEvidenceSelection(const EvidenceSelection &selection);
    // What the last fit rested on: its runs and the note on the sample runs.
    const Evidence &evidence() const { return m_lastEvidence; }

signals:
    void modelsLoaded();
    void recomputed();

private:
    void recompute();
    void showCaveats();
    void showBrokerModels();
    // keepScroll: the same sizing shown again (a run list opened); else a new one, from its top.
    void showReasoning(bool keepScroll = false);
    void showBars();
    void keyPatternEdited();
    void showEvidence();
    void addConsumeRows(QFormLayout *form);
    void setConsumeInputs(const SizingInputs &in);
    void fillConsumeInputs(SizingInputs &in) const;
    void enableConsumeInputs();
    bool tieredReadsApply() const; // --tiered-reads can apply: groups reading a backlog, offload on

    RateField *m_rate = nullptr;
    QSlider *m_rateSlider = nullptr;
    QSpinBox *m_recordSize = nullptr;
    QDoubleSpinBox *m_compression = nullptr;
    QSpinBox *m_retention = nullptr;
    QSpinBox *m_replication = nullptr;
    QDoubleSpinBox *m_p99 = nullptr;
    QSlider *m_headroom = nullptr;
    QLabel *m_headroomLabel = nullptr;
    QCheckBox *m_nodeLoss = nullptr;
    QCheckBox *m_flex = nullptr;
    QCheckBox *m_tiered = nullptr;
    QComboBox *m_brokerModel = nullptr;
    QLineEdit *m_keyPattern = nullptr;
    QDoubleSpinBox *m_skewTarget = nullptr;
    QLabel *m_keyPatternError = nullptr;
    std::string m_goodKeyPattern;
    QSpinBox *m_localRetention = nullptr;
    QSpinBox *m_consumerGroups = nullptr;
    RateField *m_consumeRate = nullptr;
    QComboBox *m_consumeFrom = nullptr;
    QCheckBox *m_tieredReads = nullptr;
    QSpinBox *m_consumeMargin = nullptr;
    QSpinBox *m_fetchP99 = nullptr;
    QTableWidget *m_table = nullptr;
    QVBoxLayout *m_bars = nullptr;
    QWidget *m_barsBox = nullptr;
    QSplitter *m_resultSplit = nullptr; // the table above, the reasoning below
    QTextBrowser *m_reasoning = nullptr;
    QLabel *m_caveats = nullptr;
    QStringList m_caveatList;
    QTableWidget *m_brokerTable = nullptr;
    QLabel *m_brokerWhy = nullptr;
    std::set<std::string> m_expandedRuns; // reasoning lines whose run keys are listed
    QLabel *m_status = nullptr;
    LatestTask *m_loader = nullptr;
    std::unique_ptr<Sizer> m_sizer;
    EvidenceSelection m_evidence;
    QLabel *m_evidenceLabel = nullptr;
    QComboBox *m_samples = nullptr;
    Evidence m_lastEvidence;
    bool m_settingInputs = false;
    SizingResult m_result;
    double m_lastMs = 0;
};

} // namespace plimsoll
