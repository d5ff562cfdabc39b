#include "ui/views/rundetailpanel.h"

#include "ui/charts/serieslegend.h"
#include "model/store/runlabels.h"
#include "ui/charts/chartexport.h"
#include "export/filewriter.h"

#include "ui/backgroundpool.h"
#include "ui/charts/runcharts.h"
#include "ui/formatting.h"

#include <QApplication>
#include <QChart>
#include <QGraphicsLayout>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QSplitter>
#include <QFileDialog>
#include <QFormLayout>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QtConcurrent/QtConcurrentRun>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QDir>
#include <QLabel>
#include <QScrollArea>
#include <QStringList>
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
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("runDetailTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_scenarios, tr("Scenarios"));
    m_tabs->addTab(createStepTab(), tr("Step table"));
    m_tabs->addTab(createChartsTab(), tr("Charts"));
    auto *body = new QHBoxLayout;
    body->addWidget(m_fieldsScroll, 2);
    body->addWidget(m_tabs, 3);
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
    m_steps = {};
    m_runKey.clear();
    m_run = {};
    fillStepTable();
    fillCharts();
    m_tabs->hide();
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
    // The user's name for the run first, its key after; its tags after them.
    QString heading = QString::fromStdString(runTitle(run.name, run.runKey));
    if (!run.tags.empty()) {
        QStringList tags;
        for (const std::string &t : run.tags)
            tags << QString::fromStdString(t);
        heading += QStringLiteral("  ·  ") + tr("tags: %1").arg(tags.join(QLatin1Char(' ')));
    }
    m_heading->setText(heading);
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
    m_steps = plimsoll::stepTable(run);
    m_runKey = run.runKey;
    m_run = run;
    fillStepTable();
    fillCharts();
    m_fieldsScroll->show();
    m_tabs->show();
}

QWidget *RunDetailPanel::createStepTab()
{
    auto *tab = new QWidget(this);
    m_stepTable = new QTableWidget(tab);
    m_stepTable->setObjectName(QStringLiteral("runStepTable"));
    m_stepTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_stepTable->setAlternatingRowColors(true);
    m_stepTable->verticalHeader()->hide();
    m_stepTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_stepTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    auto *copy = new QPushButton(tr("Copy"), tab);
    copy->setObjectName(QStringLiteral("copyStepTable"));
    copy->setToolTip(tr("Copy the table as tab-separated SI values, units in the header"));
    connect(copy, &QPushButton::clicked, this, &RunDetailPanel::copyStepTable);
    auto *save = new QPushButton(tr("Save CSV…"), tab);
    save->setObjectName(QStringLiteral("saveStepTable"));
    connect(save, &QPushButton::clicked, this, [this] {
        const QString suggested = QString::fromStdString(m_runKey).replace(QLatin1Char('/'), QLatin1Char('-'));
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Step Table"), suggested + QStringLiteral("-steps.csv"),
                                                          tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            saveStepTable(path);
    });
    m_stepStatus = new QLabel(tab);
    m_stepStatus->setObjectName(QStringLiteral("stepTableStatus"));
    connect(&m_stepWriter, &QFutureWatcher<QString>::finished, this, [this] {
        const QString error = m_stepWriter.result();
        const QString path = m_stepWriter.property("path").toString();
        // The error names the file and the system's reason ("cannot write …: No space left on device").
        m_stepStatus->setText(error.isEmpty() ? tr("Saved %1").arg(QDir::toNativeSeparators(path))
                                              : error.left(1).toUpper() + error.mid(1));
        emit stepTableSaved(path, error);
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(copy);
    buttons->addWidget(save);
    buttons->addWidget(m_stepStatus, 1);
    auto *layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_stepTable, 1);
    layout->addLayout(buttons);
    return tab;
}

QWidget *RunDetailPanel::createChartsTab()
{
    auto *tab = new QWidget(this);
    const auto chartView = [tab](QChart *chart, const char *name) {
        chart->setAnimationOptions(QChart::NoAnimation);
        chart->legend()->setAlignment(Qt::AlignBottom);
        chart->setMargins(QMargins(2, 2, 2, 2));
        chart->layout()->setContentsMargins(0, 0, 0, 0);
        auto *view = new QChartView(chart, tab);
        enableChartExport(view, QLatin1String(name));
        view->setObjectName(QLatin1String(name));
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(240, 160);
        return view;
    };
    m_spectrum = new QChart;
    m_seriesChart = new QChart;
    m_family = new QComboBox(tab);
    m_family->setObjectName(QStringLiteral("spectrumFamily"));
    m_family->setToolTip(tr("Which latency's percentiles: the run's own, or a tool's (publish, end to end)"));
    m_windowSeries = new QComboBox(tab);
    m_windowSeries->setObjectName(QStringLiteral("windowSeries"));
    m_windowSeries->setToolTip(tr("A per-window series the run kept (scenario — series)"));
    auto *choices = new QHBoxLayout;
    choices->addWidget(new QLabel(tr("Percentiles of"), tab));
    choices->addWidget(m_family, 1);
    choices->addWidget(new QLabel(tr("Series"), tab));
    choices->addWidget(m_windowSeries, 2);
    // Side by side: the panel is wider than it is high, and each chart keeps its whole height.
    auto *split = new QSplitter(Qt::Horizontal, tab);
    // The spectrum's names in a list beside it: a chart legend squeezes long scenario names to
    // their colour swatches.
    auto *spectrumBox = new QWidget(split);
    auto *spectrumRow = new QHBoxLayout(spectrumBox);
    spectrumRow->setContentsMargins(0, 0, 0, 0);
    spectrumRow->addWidget(chartView(m_spectrum, "spectrumChart"), 1);
    m_spectrumLegend = new SeriesLegend(spectrumBox);
    m_spectrumLegend->setObjectName(QStringLiteral("spectrumLegend"));
    spectrumRow->addWidget(m_spectrumLegend);
    split->addWidget(spectrumBox);
    split->addWidget(chartView(m_seriesChart, "windowSeriesChart"));
    auto *layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(choices);
    layout->addWidget(split, 1);
    connect(m_family, &QComboBox::currentIndexChanged, this, [this] { drawSpectrum(); });
    connect(m_windowSeries, &QComboBox::currentIndexChanged, this, &RunDetailPanel::showSeriesAt);
    return tab;
}

void RunDetailPanel::drawSpectrum()
{
    showSpectrum(m_spectrum, m_run, m_family->currentText().toStdString());
    m_spectrum->legend()->setVisible(false);
    const QList<QAbstractSeries *> lines = m_spectrum->series();
    m_spectrumLegend->setSeries(lines);
    m_spectrumLegend->setVisible(lines.size() > 1);
}

void RunDetailPanel::showSeriesAt(int index)
{
    if (index < 0) {
        showWindowSeries(m_seriesChart, {});
        m_seriesChart->setTitle(tr("This run keeps no per-window series"));
        return;
    }
    const QPoint at = m_windowSeries->itemData(index).toPoint(); // (scenario, series)
    const ScenarioRecord &scenario = m_run.scenarios.at(size_t(at.x()));
    showWindowSeries(m_seriesChart, scenario.series.at(size_t(at.y())));
}

void RunDetailPanel::fillCharts()
{
    {
        const QSignalBlocker blocker(m_family);
        m_family->clear();
        for (const std::string &family : spectrumFamilies(m_run))
            m_family->addItem(QString::fromStdString(family));
    }
    drawSpectrum();
    if (m_family->count() == 0)
        m_spectrum->setTitle(tr("This run states no latency percentiles"));
    m_family->setEnabled(m_family->count() > 1);
    {
        const QSignalBlocker blocker(m_windowSeries);
        m_windowSeries->clear();
        for (size_t s = 0; s < m_run.scenarios.size(); ++s)
            for (size_t k = 0; k < m_run.scenarios[s].series.size(); ++k)
                m_windowSeries->addItem(
                    QStringLiteral("%1 — %2").arg(QString::fromStdString(m_run.scenarios[s].name),
                                                  displayMetricName(m_run.scenarios[s].series[k].name)),
                    QPoint(int(s), int(k)));
    }
    m_windowSeries->setEnabled(m_windowSeries->count() > 1);
    showSeriesAt(m_windowSeries->currentIndex());
}

void RunDetailPanel::fillStepTable()
{
    m_stepTable->clear();
    m_stepTable->setRowCount(int(m_steps.rows.size()));
    m_stepTable->setColumnCount(int(m_steps.columns.size()) + 1);
    auto *scenarioHeader = new QTableWidgetItem(tr("Scenario"));
    m_stepTable->setHorizontalHeaderItem(0, scenarioHeader);
    for (size_t c = 0; c < m_steps.columns.size(); ++c) {
        const StepTable::Column &col = m_steps.columns[c];
        auto *header = new QTableWidgetItem(col.factor ? QString::fromStdString(col.name)
                                                       : displayMetricName(col.name));
        header->setToolTip(QString::fromStdString(col.unit.empty() ? col.name : col.name + " (" + col.unit + ")"));
        m_stepTable->setHorizontalHeaderItem(int(c) + 1, header);
    }
    for (size_t r = 0; r < m_steps.rows.size(); ++r) {
        const StepTable::Row &row = m_steps.rows[r];
        m_stepTable->setItem(int(r), 0, new QTableWidgetItem(QString::fromStdString(row.scenario)));
        for (size_t c = 0; c < row.cells.size(); ++c) {
            const StepTable::Column &col = m_steps.columns[c];
            const std::optional<double> &v = row.cells[c];
            const QString text = !v ? QStringLiteral("—")
                                 : col.factor ? QString::number(qint64(*v))
                                              : displayMetric(col.name, *v);
            auto *item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_stepTable->setItem(int(r), int(c) + 1, item);
        }
    }
    m_stepTable->resizeColumnsToContents();
    m_stepStatus->clear();
}

void RunDetailPanel::copyStepTable() const
{
    QApplication::clipboard()->setText(QString::fromStdString(stepTableText(m_steps, '\t')));
}

void RunDetailPanel::saveStepTable(const QString &path)
{
    const QByteArray bytes = QByteArray::fromStdString(stepTableText(m_steps));
    m_stepWriter.setProperty("path", path);
    m_stepStatus->setText(tr("Saving %1…").arg(QDir::toNativeSeparators(path)));
    m_stepWriter.setFuture(QtConcurrent::run(backgroundPool(), [path, bytes]() -> QString {
        const std::string error =
            writeFileWhole(path.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
        return QString::fromStdString(error);
    }));
}

} // namespace plimsoll
