#include "ui/views/placementview.h"
#include "ui/charts/chartexport.h"

#include "ui/charts/placementchart.h"
#include "ui/latesttask.h"

#include "model/store/store.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSignalBlocker>
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
    m_loadCombo = new QComboBox(this);
    m_loadCombo->setObjectName(QStringLiteral("loadCombo"));
    m_loadCombo->addItem(tr("none"));
    m_loadCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_loadCombo->setToolTip(tr("A stored ramp step's per-partition produce rates (from Korvet's high "
                               "watermarks), laid on these shards beside the counts: the placement "
                               "model checked against the running system"));
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
    auto *loadRow = new QHBoxLayout;
    loadRow->addWidget(new QLabel(tr("Measured load"), this));
    loadRow->addWidget(m_loadCombo);
    loadRow->addStretch();

    m_chart = new PlacementChart;
    m_chartView = new QChartView(m_chart, this);
    enableChartExport(m_chartView, QStringLiteral("placement"));
    m_chartView->setObjectName(QStringLiteral("placementChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 240);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("placementSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(inputs);
    layout->addLayout(loadRow);
    layout->addWidget(m_chartView, 1);
    layout->addWidget(m_summary);

    for (QSpinBox *s : {m_shards, m_partitions, m_brokers})
        connect(s, &QSpinBox::valueChanged, this, &PlacementView::recompute);
    connect(m_topic, &QLineEdit::textChanged, this, &PlacementView::recompute);
    connect(m_keyPattern, &QLineEdit::textChanged, this, &PlacementView::recompute);
    connect(m_loadCombo, &QComboBox::currentIndexChanged, this, &PlacementView::takeLoad);
    recompute();
}


void PlacementView::reload()
{
    const std::string path = storePath().toStdString();
    struct Read
    {
        MeasuredConfiguration measured;
        std::vector<MeasuredPartitionLoad> loads;
    };
    m_loader->start(
        [path] {
            // The configuration whose skew the sizing's per-shard capacity carries.
            // Every run, the sample runs by the sizing's rule: as `plimsoll placement` reads it.
            const Store store(path);
            return Read{readMeasuredConfiguration(store), readPartitionLoads(store)};
        },
        [this](const Read &read) {
            m_measured = read.measured;
            // The chosen load stays chosen when the store still has it.
            const MeasuredPartitionLoad *chosen = chosenLoad();
            const std::string keep = chosen ? chosen->runKey + "\n" + chosen->scenario : std::string();
            m_loads = read.loads;
            const QSignalBlocker block(m_loadCombo);
            m_loadCombo->clear();
            m_loadCombo->addItem(m_loads.empty() ? tr("none stored (a ramp against a Korvet records them)") : tr("none"));
            int index = 0;
            for (const MeasuredPartitionLoad &l : m_loads) {
                m_loadCombo->addItem(tr("%1 · %2 · %3 partitions, %4 records/s")
                                         .arg(QString::fromStdString(l.runKey), QString::fromStdString(l.scenario))
                                         .arg(l.rates.size())
                                         .arg(QLocale().toString(l.total(), 'f', 0)));
                if (l.runKey + "\n" + l.scenario == keep)
                    index = m_loadCombo->count() - 1;
            }
            m_loadCombo->setCurrentIndex(index);
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

const MeasuredPartitionLoad *PlacementView::chosenLoad() const
{
    const int i = m_loadCombo->currentIndex() - 1;
    return i >= 0 && i < int(m_loads.size()) ? &m_loads[std::size_t(i)] : nullptr;
}

void PlacementView::takeLoad(int)
{
    // The run's own partitions and topic: the keys its partitions hashed to (as --load takes them).
    if (const MeasuredPartitionLoad *load = chosenLoad()) {
        const QSignalBlocker blockPartitions(m_partitions), blockTopic(m_topic);
        m_partitions->setValue(int(load->rates.size()));
        if (!load->topic.empty())
            m_topic->setText(QString::fromStdString(load->topic));
    }
    recompute();
}

void PlacementView::recompute()
{
    const PlacementRequest request = this->request();
    m_comparison.reset();
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
    const MeasuredPartitionLoad *load = chosenLoad();
    QString loadText;
    if (load && m_result.ok) {
        std::string error;
        m_comparison = compareLoad(m_result, *load, error);
        if (!m_comparison)
            loadText = tr("\nMeasured load: %1: set Partitions to %2.")
                           .arg(QString::fromStdString(error))
                           .arg(load->rates.size());
        else
            loadText = tr("\nMeasured at %1 · %2: %3 records/s; shards max/mean %4 measured, %5 predicted from "
                          "partition counts (partitions max/mean %6).")
                           .arg(QString::fromStdString(load->runKey), QString::fromStdString(load->scenario),
                                QLocale().toString(m_comparison->total, 'f', 0))
                           .arg(m_comparison->measuredSkew, 0, 'f', 2)
                           .arg(m_comparison->predictedSkew, 0, 'f', 2)
                           .arg(m_comparison->partitionSkew, 0, 'f', 2);
    }
    m_chart->showPlacement(m_result, m_comparison ? &*m_comparison : nullptr);
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
                                          QString::fromStdString(m_plan.reason)) +
                       loadText);
}

} // namespace plimsoll
