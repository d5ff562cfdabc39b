#pragma once
// Placement: where a topic's partitions land on Redis shards (CRC16 slots over even slot
// ranges), as bars of partitions per shard, with the skew and the recommended partition count.
//
// The recommendation is the sizing's own partition model (planPartitions): its skew target is
// the skew of the configuration the store's ramp measured, read by reload().
//
// Threading: placement is a few thousand CRC16 sums, so it runs on the UI thread as the inputs
// change; reload() reads the measured configuration in the background (LatestTask).

#include "model/sizing/placementrequest.h"
#include "ui/views/storeview.h"
#include "ui/views/viewwidgets.h"

namespace plimsoll {

class LatestTask;
class PlacementChart;

class PlacementView : public StoreView
{
    Q_OBJECT
public:
    // Its sidebar entry, menu item and settings key, known before the view is built.
    static ViewIdentity identity();
    explicit PlacementView(const QString &storePath, QWidget *parent = nullptr);

    void reload() override;

    // What the view shows: the placement of the inputs, and the recommended partition count.
    const PlacementResult &placement() const { return m_result; }
    const PartitionPlan &recommendation() const { return m_plan; }

    QSpinBox *shardsSpin() const { return m_shards; }
    QSpinBox *partitionsSpin() const { return m_partitions; }
    QChartView *chartView() const { return m_chartView; }
    QLabel *summaryLabel() const { return m_summary; }
    QLineEdit *keyPatternEdit() const { return m_keyPattern; }
    QSpinBox *brokersSpin() const { return m_brokers; }
    QLineEdit *topicEdit() const { return m_topic; }
    // The stored ramps' measured partition loads (as `placement --load RUN`), "none" first;
    // choosing one takes its partitions and topic and lays its load on the shards.
    QComboBox *loadCombo() const { return m_loadCombo; }
    // The chosen load laid on the placement; nullopt without one or when it does not fit.
    const std::optional<PlacementLoadComparison> &measuredLoad() const { return m_comparison; }
    // What the widgets ask for: the request `plimsoll placement` makes from its options.
    PlacementRequest request() const;

signals:
    void measuredLoaded();

private:
    void recompute();
    void takeLoad(int index);
    const MeasuredPartitionLoad *chosenLoad() const;

    QSpinBox *m_shards = nullptr;
    QSpinBox *m_partitions = nullptr;
    QSpinBox *m_brokers = nullptr;
    QLineEdit *m_topic = nullptr;
    QLineEdit *m_keyPattern = nullptr;
    LatestTask *m_loader = nullptr;
    MeasuredConfiguration m_measured;
    QComboBox *m_loadCombo = nullptr;
    std::vector<MeasuredPartitionLoad> m_loads;
    std::optional<PlacementLoadComparison> m_comparison;
    PartitionPlan m_plan;
    PlacementChart *m_chart = nullptr;
    QChartView *m_chartView = nullptr;
    QLabel *m_summary = nullptr;
    PlacementResult m_result;
};

} // namespace plimsoll
