#pragma once
// Placement: where a topic's partitions land on Redis shards (CRC16 slots over even slot
// ranges), as bars of partitions per shard, with the skew and the recommended partition count.
//
// Threading: placement is a few thousand CRC16 sums with no store access, so it runs on the UI
// thread as the inputs change; reload() has nothing to read.

#include "model/placement.h"
#include "ui/views/storeview.h"

class QBarSet;
class QBarSeries;
class QBarCategoryAxis;
class QChart;
class QChartView;
class QLabel;
class QLineEdit;
class QSpinBox;
class QValueAxis;

namespace plimsoll {

class PlacementChart;

class PlacementView : public StoreView
{
    Q_OBJECT
public:
    explicit PlacementView(const QString &storePath, QWidget *parent = nullptr);

    QString key() const override { return QStringLiteral("placement"); }
    QString title() const override { return tr("Placement"); }
    QIcon icon() const override;
    void reload() override {}

    QSpinBox *shardsSpin() const { return m_shards; }
    QSpinBox *partitionsSpin() const { return m_partitions; }
    QChartView *chartView() const { return m_chartView; }
    QLabel *summaryLabel() const { return m_summary; }
    const PlacementResult &placement() const { return m_result; }

private:
    void recompute();

    QSpinBox *m_shards = nullptr;
    QSpinBox *m_partitions = nullptr;
    QSpinBox *m_brokers = nullptr;
    QLineEdit *m_topic = nullptr;
    PlacementChart *m_chart = nullptr;
    QChartView *m_chartView = nullptr;
    QLabel *m_summary = nullptr;
    PlacementResult m_result;
};

} // namespace plimsoll
