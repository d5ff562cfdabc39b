#include "ui/views/sizingview.h"

#include "model/ramppoints.h"
#include "model/store.h"
#include "ui/latesttask.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace plimsoll {

SizingView::SizingView(const QString &storePath, QWidget *parent) : StoreView(storePath, parent)
{
    setObjectName(QStringLiteral("sizingView"));
    m_loader = new LatestTask(this);

    auto spin = [this](const char *name, int lo, int hi, int value, const QString &suffix) {
        auto *s = new QSpinBox(this);
        s->setObjectName(QLatin1String(name));
        s->setRange(lo, hi);
        s->setValue(value);
        s->setSuffix(suffix);
        return s;
    };
    m_rate = new QDoubleSpinBox(this);
    m_rate->setObjectName(QStringLiteral("rateSpin"));
    m_rate->setRange(1, 20000);
    m_rate->setDecimals(0);
    m_rate->setSingleStep(10);
    m_rate->setValue(600);
    m_rate->setSuffix(tr(" k records/s"));
    m_rateSlider = new QSlider(Qt::Horizontal, this);
    m_rateSlider->setObjectName(QStringLiteral("rateSlider"));
    m_rateSlider->setRange(10, 2000); // k records/s; the spin box goes further
    m_rateSlider->setValue(600);
    m_recordSize = spin("recordSizeSpin", 1, 10 * 1024 * 1024, 700, tr(" B"));
    m_compression = new QDoubleSpinBox(this);
    m_compression->setObjectName(QStringLiteral("compressionSpin"));
    m_compression->setRange(1, 100);
    m_compression->setDecimals(1);
    m_compression->setValue(1);
    m_compression->setSuffix(QStringLiteral(" : 1"));
    m_retention = spin("retentionSpin", 1, 30 * 24 * 3600, 60, tr(" s"));
    m_replication = spin("replicationSpin", 1, 3, 2, QString());
    m_p99 = new QDoubleSpinBox(this);
    m_p99->setObjectName(QStringLiteral("p99Spin"));
    m_p99->setRange(1, 10000);
    m_p99->setDecimals(0);
    m_p99->setValue(250);
    m_p99->setSuffix(tr(" ms"));
    m_headroom = new QSlider(Qt::Horizontal, this);
    m_headroom->setObjectName(QStringLiteral("headroomSlider"));
    m_headroom->setRange(0, 100);
    m_headroomLabel = new QLabel(this);
    m_nodeLoss = new QCheckBox(tr("Survive losing one node"), this);
    m_nodeLoss->setObjectName(QStringLiteral("nodeLossCheck"));
    m_flex = new QCheckBox(tr("Redis Flex"), this);
    m_flex->setObjectName(QStringLiteral("flexCheck"));
    m_tiered = new QCheckBox(tr("Tiered offload, local retention"), this);
    m_tiered->setObjectName(QStringLiteral("tieredCheck"));
    m_localRetention = spin("localRetentionSpin", 1, 24 * 3600, 60, tr(" s"));
    m_localRetention->setEnabled(false);

    auto *form = new QFormLayout;
    auto *rateRow = new QHBoxLayout;
    rateRow->addWidget(m_rate);
    rateRow->addWidget(m_rateSlider, 1);
    form->addRow(tr("Target ingest"), rateRow);
    form->addRow(tr("Record size"), m_recordSize);
    form->addRow(tr("Compression"), m_compression);
    form->addRow(tr("Retention"), m_retention);
    form->addRow(tr("Replication"), m_replication);
    form->addRow(tr("p99 budget"), m_p99);
    auto *headroomRow = new QHBoxLayout;
    headroomRow->addWidget(m_headroom, 1);
    headroomRow->addWidget(m_headroomLabel);
    form->addRow(tr("Headroom"), headroomRow);
    form->addRow(QString(), m_nodeLoss);
    form->addRow(QString(), m_flex);
    auto *tieredRow = new QHBoxLayout;
    tieredRow->addWidget(m_tiered);
    tieredRow->addWidget(m_localRetention);
    form->addRow(QString(), tieredRow);
    auto *inputs = new QGroupBox(tr("Target"), this);
    inputs->setLayout(form);

    m_table = new QTableWidget(0, 2, this);
    m_table->setObjectName(QStringLiteral("sizingTable"));
    m_table->setHorizontalHeaderLabels({tr("Quantity"), tr("Value")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);

    m_barsBox = new QGroupBox(tr("Utilization at the target"), this);
    m_bars = new QVBoxLayout(m_barsBox);

    m_reasoning = new QTextBrowser(this);
    m_reasoning->setObjectName(QStringLiteral("reasoningPanel"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("sizingStatus"));
    m_status->setWordWrap(true);

    auto *left = new QVBoxLayout;
    left->addWidget(inputs);
    left->addWidget(m_barsBox);
    left->addStretch();
    auto *right = new QVBoxLayout;
    right->addWidget(m_table, 3);
    right->addWidget(new QLabel(tr("Reasoning"), this));
    right->addWidget(m_reasoning, 2);
    auto *body = new QHBoxLayout;
    body->addLayout(left, 2);
    body->addLayout(right, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addWidget(m_status);

    connect(m_rateSlider, &QSlider::valueChanged, m_rate, [this](int v) {
        if (int(std::lround(m_rate->value())) != v)
            m_rate->setValue(v);
    });
    connect(m_rate, &QDoubleSpinBox::valueChanged, m_rateSlider, [this](double v) {
        const QSignalBlocker block(m_rateSlider);
        m_rateSlider->setValue(int(std::lround(v)));
    });
    connect(m_tiered, &QCheckBox::toggled, m_localRetention, &QWidget::setEnabled);
    for (QSpinBox *s : {m_recordSize, m_retention, m_replication, m_localRetention})
        connect(s, &QSpinBox::valueChanged, this, &SizingView::recompute);
    for (QDoubleSpinBox *s : {m_rate, m_compression, m_p99})
        connect(s, &QDoubleSpinBox::valueChanged, this, &SizingView::recompute);
    connect(m_headroom, &QSlider::valueChanged, this, &SizingView::recompute);
    for (QCheckBox *c : {m_nodeLoss, m_flex, m_tiered})
        connect(c, &QCheckBox::toggled, this, &SizingView::recompute);
    m_headroomLabel->setText(QStringLiteral("0 %"));
    m_status->setText(tr("Fitting the models to the runs in the store…"));
}

SizingView::~SizingView() = default;

QIcon SizingView::icon() const
{
    return style()->standardIcon(QStyle::SP_ComputerIcon);
}

void SizingView::reload()
{
    const std::string path = storePath().toStdString();
    m_loader->start(
        [path] {
            // Only the runs the models learn from, read in one pass: a store of years of
            // nightly history holds far more runs than steps to fit.
            return std::make_shared<const SizingModels>(
                fitSizingModels(readSizingRuns(Store(path))));
        },
        [this](const std::shared_ptr<const SizingModels> &models) {
            m_sizer = std::make_unique<Sizer>(*models);
            emit modelsLoaded();
            recompute();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

SizingInputs SizingView::inputs() const
{
    SizingInputs in;
    in.rate = m_rate->value() * 1000;
    in.recordBytes = m_recordSize->value();
    in.compressionRatio = m_compression->value();
    in.retentionS = m_retention->value();
    in.replication = m_replication->value();
    in.p99Budget = m_p99->value() / 1000;
    in.headroom = m_headroom->value() / 100.0;
    in.tolerateNodeLoss = m_nodeLoss->isChecked();
    in.flex = m_flex->isChecked();
    in.tiered = m_tiered->isChecked();
    in.localRetentionS = m_localRetention->value();
    return in;
}

QString SizingView::resultText(const QString &key) const
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, 0)->data(Qt::UserRole).toString() == key)
            return m_table->item(row, 1)->text();
    return {};
}

int SizingView::utilizationPercent(const QString &component) const
{
    for (auto *bar : m_barsBox->findChildren<QProgressBar *>())
        if (bar->property("component").toString() == component && !bar->isHidden())
            return bar->value();
    return -1;
}

void SizingView::recompute()
{
    m_headroomLabel->setText(QStringLiteral("%1 %").arg(m_headroom->value()));
    if (!m_sizer)
        return;
    QElapsedTimer timer;
    timer.start();
    m_result = m_sizer->size(inputs());
    m_lastMs = double(timer.nsecsElapsed()) / 1e6;

    m_table->setRowCount(0);
    if (!m_result.ok) {
        m_status->setText(QString::fromStdString(m_result.error));
        m_reasoning->clear();
        for (auto *bar : m_barsBox->findChildren<QProgressBar *>())
            bar->hide();
        emit recomputed();
        return;
    }
    QString html;
    for (const SizingLine &l : m_result.lines) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto *label = new QTableWidgetItem(QString::fromStdString(l.label));
        label->setData(Qt::UserRole, QString::fromStdString(l.key));
        auto *value = new QTableWidgetItem(QString::fromStdString(l.display));
        value->setToolTip(QString::fromStdString(l.reasoning));
        if (l.key == "bottleneck" || l.key == "brokers" || l.key == "shards") {
            QFont bold = value->font();
            bold.setBold(true);
            value->setFont(bold);
        }
        m_table->setItem(row, 0, label);
        m_table->setItem(row, 1, value);
        QString runs;
        for (const std::string &k : l.runKeys)
            runs += (runs.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(k);
        html += QStringLiteral("<p><b>%1: %2</b> — %3%4</p>")
                    .arg(QString::fromStdString(l.label).toHtmlEscaped(),
                         QString::fromStdString(l.display).toHtmlEscaped(),
                         QString::fromStdString(l.reasoning).toHtmlEscaped(),
                         runs.isEmpty() ? QString()
                                        : QStringLiteral(" <i>(from %1)</i>").arg(runs.toHtmlEscaped()));
    }
    for (const std::string &w : m_result.warnings)
        html += QStringLiteral("<p style='color:#b35900'>⚠ %1</p>")
                    .arg(QString::fromStdString(w).toHtmlEscaped());
    m_table->resizeColumnToContents(0);
    m_reasoning->setHtml(html);

    // One bar per component, kept across recomputes so the panel does not flicker.
    const auto bars = m_barsBox->findChildren<QProgressBar *>();
    for (auto *bar : bars)
        bar->hide();
    for (const ComponentLoad &load : m_result.loads) {
        const QString name = QString::fromStdString(load.component);
        QProgressBar *bar = nullptr;
        for (auto *b : bars)
            if (b->property("component").toString() == name)
                bar = b;
        if (!bar) {
            bar = new QProgressBar(m_barsBox);
            bar->setProperty("component", name);
            bar->setObjectName(QStringLiteral("utilization_") + name);
            bar->setRange(0, 100);
            m_bars->addWidget(bar);
        }
        const int percent = int(std::lround(std::min(load.utilization, 1.0) * 100));
        bar->setValue(percent);
        bar->setFormat(tr("%1: %2 % (limit %3 %)")
                           .arg(name)
                           .arg(std::lround(load.utilization * 100))
                           .arg(std::lround(load.limit * 100)));
        // Past the limit reads red, near it amber: the bar alone tells the bottleneck.
        const double share = load.utilization / load.limit;
        const char *color = share > 1 ? "#d62728" : share > 0.85 ? "#ff7f0e" : "#2ca02c";
        bar->setStyleSheet(QStringLiteral("QProgressBar::chunk { background: %1; }").arg(QLatin1String(color)));
        bar->setToolTip(name == QString::fromStdString(m_result.bottleneck) ? tr("the bottleneck")
                                                                            : QString());
        bar->show();
    }
    m_status->setText(tr("Bottleneck: %1 · recomputed in %2 ms from the fitted models")
                          .arg(QString::fromStdString(m_result.bottleneck))
                          .arg(m_lastMs, 0, 'f', 3));
    emit recomputed();
}

} // namespace plimsoll
