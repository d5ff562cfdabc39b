#include "ui/views/placementview.h"

#include "ui/charts/placementchart.h"
#include "ui/latesttask.h"

#include "model/store/store.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStyle>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace plimsoll {

ViewIdentity PlacementView::identity()
{
    return {QStringLiteral("placement"), tr("Placement"), QStyle::SP_DirIcon};
}

PlacementView::PlacementView(const QString &storePath, QWidget *parent)
    : StoreView(storePath, identity(), parent)
{
    setObjectName(QStringLiteral("placementView"));
    // The fields take what `plimsoll placement` takes (the domains of model/sizing/placement.h); they
    // open on the sample ramp's configuration, 96 partitions of a topic on 24 shards, 3 brokers.
    auto spin = [this](const char *name, const Domain &domain, int value) {
        auto *s = new QSpinBox(this);
        s->setObjectName(QLatin1String(name));
        s->setRange(int(domain.lo), int(domain.hi));
        s->setValue(value);
        return s;
    };
    const PlacementRequest defaults;
    m_shards = spin("shardsSpin", kPlacementShards, 24);
    m_partitions = spin("partitionsSpin", kPlacementPartitions, 96);
    m_brokers = spin("brokersSpin", kPlacementBrokers, 3);
    m_topic = new QLineEdit(QString::fromStdString(defaults.topic), this);
    m_topic->setObjectName(QStringLiteral("topicEdit"));
    m_keyPattern = new QLineEdit(QString::fromStdString(defaults.keyPattern), this);
    m_keyPattern->setObjectName(QStringLiteral("keyPatternEdit"));
    m_keyPattern->setToolTip(tr("The stream key of a partition: {topic} and {partition} are "
                                "replaced; a {hash tag} pins keys to one slot"));
    m_keyPattern->setMinimumWidth(240);
    m_loader = new LatestTask(this);
    auto *inputs = new QHBoxLayout;
    for (auto [label, w] : {std::pair<QString, QWidget *>{tr("Topic"), m_topic},
                            {tr("Shards"), m_shards},
                            {tr("Partitions"), m_partitions},
                            {tr("Brokers"), m_brokers},
                            {tr("Stream key"), m_keyPattern}}) {
        inputs->addWidget(new QLabel(label, this));
        inputs->addWidget(w);
        inputs->addSpacing(4);
    }
    inputs->addStretch();

    m_chart = new PlacementChart;
    m_chartView = new QChartView(m_chart, this);
    m_chartView->setObjectName(QStringLiteral("placementChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 240);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("placementSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(inputs);
    layout->addWidget(m_chartView, 1);
    layout->addWidget(m_summary);

    for (QSpinBox *s : {m_shards, m_partitions, m_brokers})
        connect(s, &QSpinBox::valueChanged, this, &PlacementView::recompute);
    connect(m_topic, &QLineEdit::textChanged, this, &PlacementView::recompute);
    connect(m_keyPattern, &QLineEdit::textChanged, this, &PlacementView::recompute);
    recompute();
}


void PlacementView::reload()
{
    const std::string path = storePath().toStdString();
    m_loader->start(
        [path] {
            // The configuration whose skew the sizing's per-shard capacity carries.
            // Every run, the sample runs by the sizing's rule: as `plimsoll placement` reads it.
            return readMeasuredConfiguration(Store(path));
        },
        [this](const MeasuredConfiguration &measured) {
            m_measured = measured;
            recompute();
            emit measuredLoaded();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

PlacementRequest PlacementView::request() const
{
    PlacementRequest request;
    request.shards = m_shards->value();
    request.partitions = m_partitions->value();
    request.brokers = m_brokers->value();
    request.topic = m_topic->text().toStdString();
    request.keyPattern = m_keyPattern->text().toStdString();
    return request;
}

void PlacementView::recompute()
{
    const PlacementRequest request = this->request();
    if (const auto problem = request.validate()) {
        m_result = {};
        m_result.error = problem->message;
        m_chart->showPlacement(m_result);
        m_summary->setText(problem->field == PlacementRequest::Problem::KeyPattern
                               ? tr("The stream key %1.").arg(QString::fromStdString(problem->message))
                               : QString::fromStdString(problem->message));
        return;
    }
    const PlacementAnswer answer = planPlacement(request, m_measured);
    m_result = answer.placement;
    m_plan = answer.recommended;
    m_chart->showPlacement(m_result);
    if (!m_result.ok) {
        m_summary->setText(QString::fromStdString(m_result.error));
        return;
    }
    m_chart->setTitle(tr("%1 partitions of '%2' on %3 shards")
                          .arg(m_result.partitions)
                          .arg(m_topic->text())
                          .arg(m_shards->value()));
    QString empty;
    if (!m_result.emptyShards.empty())
        empty = tr(" · %1 empty shards").arg(m_result.emptyShards.size());
    // Every partition on one shard is said first, where the eye lands.
    const QString warning = answer.warning.empty()
                                ? QString()
                                : QStringLiteral("⚠ ") + QString::fromStdString(answer.warning) + QStringLiteral("\n");
    m_summary->setText(warning + tr("Mean %1 per shard, max %2, min %3: max/mean skew %4%5 (red: the "
                                    "hottest shards; %6).\nRecommended (as the sizing picks): %7")
                                     .arg(m_result.mean, 0, 'f', 2)
                                     .arg(m_result.maxPerShard)
                                     .arg(m_result.minPerShard)
                                     .arg(m_result.maxSkew, 0, 'f', 2)
                                     .arg(empty, QString::fromStdString(answer.split),
                                          QString::fromStdString(m_plan.reason)));
}

} // namespace plimsoll
