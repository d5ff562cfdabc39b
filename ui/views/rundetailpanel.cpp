#include "ui/views/rundetailpanel.h"

#include "ui/formatting.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace plimsoll {

namespace {

const char *const kFieldProperty = "plimsollField";

QString orDash(const std::string &text)
{
    return text.empty() ? QStringLiteral("—") : QString::fromStdString(text);
}

QString topologyText(const Topology &topology)
{
    const nlohmann::json json = topology.toJson();
    return compactJson(json);
}

} // namespace

RunDetailPanel::RunDetailPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("runDetail"));
    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("runDetailHeading"));
    QFont headingFont = m_heading->font();
    headingFont.setBold(true);
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.15);
    m_heading->setFont(headingFont);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heading->setWordWrap(true);

    m_fields = new QWidget(this);
    auto *form = new QFormLayout(m_fields);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
    addField(QStringLiteral("timestamp"), tr("Time"));
    addField(QStringLiteral("commit"), tr("Commit"));
    addField(QStringLiteral("imageDigest"), tr("Image digest"));
    addField(QStringLiteral("tool"), tr("Tool"));
    addField(QStringLiteral("target"), tr("Target"));
    addField(QStringLiteral("tuning"), tr("Tuning"));
    addField(QStringLiteral("provenance"), tr("Provenance"));
    addField(QStringLiteral("source"), tr("Source"));

    m_scenarios = new QTreeWidget(this);
    m_scenarios->setObjectName(QStringLiteral("runScenarios"));
    m_scenarios->setColumnCount(2);
    m_scenarios->setHeaderLabels({tr("Scenario / metric"), tr("Value")});
    m_scenarios->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_scenarios->header()->setStretchLastSection(true);
    m_scenarios->setAlternatingRowColors(true);

    // Identity on the left, scenarios on the right: the panel sits under the wide runs table.
    // A long source path or tuning wraps to more lines than a small window leaves the panel:
    // the fields scroll rather than lose their last lines.
    m_fieldsScroll = new QScrollArea(this);
    m_fieldsScroll->setObjectName(QStringLiteral("runDetailFields"));
    m_fieldsScroll->setFrameShape(QFrame::NoFrame);
    m_fieldsScroll->setWidgetResizable(true);
    m_fieldsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_fieldsScroll->setWidget(m_fields);
    m_fieldsScroll->setMinimumWidth(320);
    auto *body = new QHBoxLayout;
    body->addWidget(m_fieldsScroll, 2);
    body->addWidget(m_scenarios, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_heading);
    layout->addLayout(body, 1);
    clear();
}

QLabel *RunDetailPanel::addField(const QString &field, const QString &label)
{
    auto *value = new QLabel(m_fields);
    value->setProperty(kFieldProperty, field);
    value->setObjectName(QStringLiteral("runDetail_") + field);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    static_cast<QFormLayout *>(m_fields->layout())->addRow(label + QLatin1Char(':'), value);
    return value;
}

QString RunDetailPanel::fieldText(const QString &field) const
{
    if (field == QLatin1String("runKey"))
        return m_heading->text();
    const auto *label = m_fields->findChild<QLabel *>(QStringLiteral("runDetail_") + field);
    return label ? label->text() : QString();
}

int RunDetailPanel::scenarioCount() const
{
    return m_scenarios->topLevelItemCount();
}

void RunDetailPanel::showPlaceholder(const QString &text)
{
    QFont font = m_heading->font();
    font.setBold(false);
    m_heading->setFont(font);
    m_heading->setText(text);
    m_fieldsScroll->hide();
    m_scenarios->clear();
    m_scenarios->hide();
}

void RunDetailPanel::showRun(const RunDetail &detail)
{
    const RunRecord &run = detail.record;
    auto set = [this](const char *field, const QString &text) {
        m_fields->findChild<QLabel *>(QStringLiteral("runDetail_") + QLatin1String(field))
            ->setText(text);
    };
    QFont font = m_heading->font();
    font.setBold(true);
    m_heading->setFont(font);
    m_heading->setText(QString::fromStdString(run.runKey));
    set("timestamp", QStringLiteral("%1  (%2)").arg(displayTimestamp(run.timestamp),
                                                    QString::fromStdString(run.timestamp)));
    set("commit", orDash(run.commit));
    set("imageDigest", orDash(run.imageDigest));
    set("tool", run.toolVersion.empty()
                    ? orDash(run.tool)
                    : QStringLiteral("%1 %2").arg(orDash(run.tool),
                                                  QString::fromStdString(run.toolVersion)));
    set("target", orDash(run.target));
    set("tuning", compactJson(run.tuning));
    set("provenance", orDash(run.provenance));
    QString source = orDash(detail.source.uri);
    if (!detail.source.format.empty())
        source += QStringLiteral(" (%1)").arg(QString::fromStdString(detail.source.format));
    if (run.sample)
        source += tr(" — sample");
    set("source", source);

    m_scenarios->clear();
    for (const ScenarioRecord &scenario : run.scenarios) {
        auto *item = new QTreeWidgetItem(m_scenarios);
        item->setText(0, QString::fromStdString(scenario.name));
        item->setText(1, QString::fromStdString(scenario.kind));
        const QString topology = topologyText(scenario.topology);
        if (topology != QStringLiteral("—")) {
            auto *child = new QTreeWidgetItem(item);
            child->setText(0, tr("topology"));
            child->setText(1, topology);
            child->setToolTip(1, topology);
        }
        if (!scenario.provenance.empty()) {
            auto *child = new QTreeWidgetItem(item);
            child->setText(0, tr("provenance"));
            child->setText(1, QString::fromStdString(scenario.provenance));
        }
        for (const MetricValue &metric : scenario.metrics) {
            auto *child = new QTreeWidgetItem(item);
            child->setText(0, displayMetricName(metric.name));
            child->setToolTip(0, QString::fromStdString(metric.name));
            child->setText(1, displayMetric(metric.name, metric.value));
        }
    }
    // A run with a handful of scenarios reads best fully open; large ones stay collapsed.
    if (run.scenarios.size() <= 3)
        m_scenarios->expandAll();
    m_scenarios->resizeColumnToContents(0);
    m_fieldsScroll->show();
    m_scenarios->show();
}

} // namespace plimsoll
