#include "ui/views/sweeppanel.h"
#include "ui/charts/chartexport.h"

#include "ui/charts/niceaxis.h"

#include "model/store/sharedsettings.h"
#include "model/core/catalog.h"
#include "model/store/store.h"
#include "ui/charts/scalingchart.h"
#include "ui/formatting.h"
#include "ui/latesttask.h"
#include "ui/views/sweepfittext.h"
#include "ui/widgets/runselectionwidget.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QLineSeries>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace plimsoll {

namespace {

const QColor kOrange(0xff, 0x7f, 0x0e);

QLabel *textLabel(QWidget *parent, const char *name)
{
    auto *l = new QLabel(parent);
    l->setObjectName(QLatin1String(name));
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

QTableWidgetItem *cell(const QString &text, const QString &tip = {})
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setToolTip(tip.isEmpty() ? text : tip);
    return item;
}

} // namespace

SweepPanel::SweepPanel(const QString &storePath, QWidget *parent)
    : QWidget(parent), m_storePath(storePath)
{
    setObjectName(QStringLiteral("sweepPanel"));
    m_runsLoader = new LatestTask(this);
    m_fitter = new LatestTask(this);

    m_keys.box = new QGroupBox(tr("Contract keys that differ among the points"), this);
    m_keys.box->setObjectName(QStringLiteral("contractKeysBox"));
    // A selection of unlike runs can differ in a score of keys: they scroll, in columns, so the
    // chart keeps its room.
    auto *keys = new QWidget;
    m_keys.layout = new QGridLayout(keys);
    m_keys.layout->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(m_keys.box);
    scroll->setWidget(keys);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMaximumHeight(120);
    (new QVBoxLayout(m_keys.box))->addWidget(scroll);
    m_keys.box->hide();
    m_parameters = textLabel(this, "sweepParameters");
    m_summary = textLabel(this, "sweepSummary");

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(buildCharts());
    m_table = new QTableWidget(0, 6, this);
    m_table->setObjectName(QStringLiteral("sweepPointsTable"));
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({480, 160});

    // The parameters above the charts, what qualifies them below: both read without scrolling.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildChoices());
    layout->addWidget(m_keys.box);
    layout->addWidget(m_parameters);
    layout->addWidget(split, 1);
    layout->addWidget(m_summary);
    m_chart->showEmpty(tr("Loading…"));
}

QWidget *SweepPanel::buildChoices()
{
    auto *box = new QWidget(this);
    m_factorCombo = new QComboBox(box);
    m_factorCombo->setObjectName(QStringLiteral("sweepFactorCombo"));
    for (const FactorInfo &f : factorCatalog())
        m_factorCombo->addItem(QString::fromUtf8(f.name.data(), qsizetype(f.name.size())));
    m_factorCombo->addItem(QString::fromUtf8(kOfferedRateFactor));
    m_factorCombo->setCurrentText(QStringLiteral("brokers"));
    m_metricCombo = new QComboBox(box);
    m_metricCombo->setObjectName(QStringLiteral("sweepMetricCombo"));
    // The USL fits throughput: the catalog's metrics that rise with capacity.
    for (const MetricInfo &m : metricCatalog())
        if (m.direction == Direction::HigherIsBetter)
            m_metricCombo->addItem(QString::fromUtf8(m.name.data(), qsizetype(m.name.size())));
    m_metricCombo->setCurrentText(QStringLiteral("records_per_s"));
    m_prefixEdit = new QLineEdit(box);
    m_prefixEdit->setObjectName(QStringLiteral("sweepPrefixEdit"));
    m_prefixEdit->setPlaceholderText(tr("any (e.g. pipeline/produce/)"));
    m_prefixEdit->setClearButtonEnabled(true);
    m_selection = new RunSelectionWidget(box);
    m_workloadCombo = new QComboBox(box);
    m_workloadCombo->setObjectName(QStringLiteral("sweepWorkloadCombo"));
    // Workload names run long: the combo keeps a short width (the popup shows them whole) so the
    // row fits a 1024-px window.
    m_workloadCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_workloadCombo->setMinimumContentsLength(18);
    auto *workloadLabel = new QLabel(tr("Workload"), box);

    auto *row = new QHBoxLayout;
    for (auto [label, w] : {std::pair<QString, QWidget *>{tr("Load factor"), m_factorCombo},
                            {tr("Metric"), m_metricCombo}, {tr("Scenarios starting"), m_prefixEdit}}) {
        row->addWidget(new QLabel(label, box));
        row->addWidget(w);
        row->addSpacing(8);
    }
    row->addStretch();
    // The workload beside the runs it is chosen among: the first row stays within a 1024-px window.
    auto *second = new QHBoxLayout;
    second->addWidget(m_selection, 1);
    second->addWidget(workloadLabel);
    second->addWidget(m_workloadCombo);
    // Hidden until a selection holds several workloads (showWorkloads()).
    connect(m_workloadCombo, &QComboBox::currentIndexChanged, this, [this, workloadLabel](int) {
        workloadLabel->setVisible(m_workloadCombo->isVisible());
        const std::string chosen = m_workloadCombo->currentData().toString().toStdString();
        if (chosen == m_workload)
            return;
        m_workload = chosen;
        startFit();
    });
    m_workloadCombo->hide();
    workloadLabel->hide();
    m_workloadLabel = workloadLabel;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addLayout(second);

    for (QComboBox *c : {m_factorCombo, m_metricCombo})
        connect(c, &QComboBox::currentIndexChanged, this, &SweepPanel::startFit);
    connect(m_prefixEdit, &QLineEdit::editingFinished, this, &SweepPanel::startFit);
    connect(m_selection, &RunSelectionWidget::selectionChanged, this, &SweepPanel::startFit);
    return box;
}

QWidget *SweepPanel::buildCharts()
{
    m_chart = new ScalingChart;
    m_chartView = new QChartView(m_chart, this);
    enableChartExport(m_chartView, QStringLiteral("sweep"));
    m_chartView->setObjectName(QStringLiteral("sweepChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 190);
    connect(m_chart->measuredSeries(), &QXYSeries::hovered, this, &SweepPanel::hovered);

    m_p99.chart = new QChart;
    m_p99.chart->setAnimationOptions(QChart::NoAnimation);
    m_p99.chart->legend()->hide();
    m_p99.chart->setTitle(tr("p99 against load (median per x)"));
    m_p99.line = new QLineSeries(m_p99.chart);
    m_p99.line->setPen(QPen(kOrange, 2));
    m_p99.points = new QScatterSeries(m_p99.chart);
    m_p99.points->setMarkerSize(8);
    m_p99.points->setColor(kOrange);
    m_p99.chart->addSeries(m_p99.line);
    m_p99.chart->addSeries(m_p99.points);
    m_p99.x = new QValueAxis(m_p99.chart);
    m_p99.y = new QValueAxis(m_p99.chart);
    m_p99.y->setTitleText(tr("p99 (ms)"));
    for (QValueAxis *a : {m_p99.x, m_p99.y})
        a->setLabelFormat(QStringLiteral("%.4g"));
    m_p99.chart->addAxis(m_p99.x, Qt::AlignBottom);
    m_p99.chart->addAxis(m_p99.y, Qt::AlignLeft);
    for (QXYSeries *s : std::initializer_list<QXYSeries *>{m_p99.line, m_p99.points}) {
        s->attachAxis(m_p99.x);
        s->attachAxis(m_p99.y);
    }
    m_p99.view = new QChartView(m_p99.chart, this);
    enableChartExport(m_p99.view, QStringLiteral("sweep-p99"));
    m_p99.view->setObjectName(QStringLiteral("sweepP99Chart"));
    m_p99.view->setRenderHint(QPainter::Antialiasing);
    m_p99.view->setMinimumSize(240, 190);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_chartView);
    split->addWidget(m_p99.view);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({720, 440});
    return split;
}

void SweepPanel::reload()
{
    const std::string path = m_storePath.toStdString();
    m_runsLoader->start([path] { return Store(path).runs(); },
                        [this](const std::vector<RunSummary> &runs) {
                            m_selection->setRuns(runs);
                            emit runsLoaded(int(runs.size()));
                            startFit();
                        },
                        [this](const QString &error) { emit loadFailed(error); });
}

SweepFitRequest SweepPanel::request() const
{
    SweepFitRequest r;
    r.evidence = m_selection->selection();
    r.spec.factor = m_factorCombo->currentText().toStdString();
    r.spec.metric = m_metricCombo->currentText().toStdString();
    r.spec.scenarioPrefix = m_prefixEdit->text().trimmed().toStdString();
    r.spec.excluded = m_excluded;
    r.spec.workload = m_workload;
    // The policies are the store's, read with the runs; usl and knee keep the CLI's defaults.
    return r;
}

void SweepPanel::startFit()
{
    const QString problem = m_selection->problem();
    if (!problem.isEmpty()) {
        m_fitter->cancel();
        showFailure(problem);
        return;
    }
    const SweepFitRequest req = request();
    m_chart->setTitle(tr("Fitting…"));
    const std::string path = m_storePath.toStdString();
    m_fitter->start(
        [path, req] {
            SweepFitRequest r = req;
            const Store store(path);
            r.spec.policies = loadContractPolicies(store);
            return runSweepFit(store, r);
        },
        [this, req](const SweepFitResult &result) { showResult(result, req); },
        [this](const QString &error) {
            showFailure(error);
            emit loadFailed(error);
        });
}

void SweepPanel::showFailure(const QString &why)
{
    m_result = {};
    m_chart->showEmpty(tr("No sweep"));
    m_parameters->setText(why);
    m_summary->clear();
    m_table->setRowCount(0);
    m_p99.line->clear();
    m_p99.points->clear();
    showContractKeys();
    emit fitFinished(false);
}

void SweepPanel::showWorkloads()
{
    const std::vector<SweepWorkload> &workloads = m_result.sweep.workloads;
    // A chosen workload stays listed while it is fitted, with the way back to every workload.
    if (workloads.empty() && m_workload.empty()) {
        m_workloadCombo->hide();
        m_workloadLabel->hide();
        return;
    }
    if (workloads.empty())
        return;
    const QSignalBlocker block(m_workloadCombo);
    m_workloadCombo->clear();
    m_workloadCombo->addItem(m_workload.empty() ? tr("choose one of %1").arg(workloads.size())
                                                : tr("every workload"),
                             QString());
    for (const SweepWorkload &w : workloads)
        m_workloadCombo->addItem(w.points == 1 ? tr("%1 (1 point)").arg(QString::fromStdString(w.workload))
                                               : tr("%1 (%2 points)").arg(QString::fromStdString(w.workload),
                                                                          QString::number(w.points)),
                                 QString::fromStdString(w.workload));
    m_workloadCombo->setCurrentIndex(std::max(0, m_workloadCombo->findData(QString::fromStdString(m_workload))));
    m_workloadCombo->show();
    m_workloadLabel->show();
}

void SweepPanel::showResult(const SweepFitResult &result, const SweepFitRequest &request)
{
    m_result = result;
    m_shown = request;
    showContractKeys();
    showWorkloads();
    showPoints();
    showP99();
    const QString factor = QString::fromStdString(request.spec.factor);
    const QString evidence = tr("Evidence: %1, %2 runs read%3")
                                 .arg(QString::fromStdString(result.selection))
                                 .arg(result.runsSelected)
                                 .arg(result.evidenceNote.empty()
                                          ? QString()
                                          : QStringLiteral(" (%1)").arg(QString::fromStdString(result.evidenceNote)));
    if (!result.sweep.ok) {
        m_chart->showEmpty(tr("No sweep"));
        m_parameters->setText(
            !result.sweep.workloads.empty()
                ? tr("No fit: the selected points are of %1 workloads, and a sweep fits one (%2 runs "
                     "selected). Choose a workload above, or narrow the selection.")
                      .arg(result.sweep.workloads.size())
                      .arg(result.runsSelected)
            : result.sweep.conflicts.empty()
                ? QString::fromStdString(result.error)
                : tr("No fit: the selected points do not share a tuning contract (%1 runs selected). "
                     "Leave out a key that differs (below) to sweep across it, or select fewer runs.")
                      .arg(result.runsSelected));
        m_summary->setText(evidence);
        emit fitFinished(false);
        return;
    }
    std::vector<RampPoint> points;
    m_plotted.clear();
    for (size_t i = 0; i < result.sweep.points.size(); ++i)
        if (const SweepPoint &p = result.sweep.points[i]; !p.degenerate) {
            points.push_back({p.runKey + " / " + p.scenario, p.x, p.y, {}, {}, p.p99, {}});
            m_plotted.push_back(int(i));
        }
    // A curve only where the points answer with a capacity; the knee and latency answers are
    // read from the points themselves.
    m_chart->showFit(points, result.fit.answer == SweepAnswer::Capacity ? result.fit.usl : UslFit{}, {},
                     factor, request.spec.metric);
    m_chart->setTitle(tr("%1 against %2 — %3 points from %4 runs, %5 distinct %2")
                          .arg(QString::fromStdString(request.spec.metric), factor)
                          .arg(result.sweep.points.size())
                          .arg(result.sweep.runKeys.size())
                          .arg(result.sweep.distinctX));
    if (!result.ok) {
        m_parameters->setText(QString::fromStdString(result.error));
    } else if (result.fit.answer != SweepAnswer::Capacity) {
        m_parameters->setText(sweepAnswerText(result));
    } else {
        m_parameters->setText(sweepAnswerText(result) + QStringLiteral("\n") + sweepParametersText(result, request) +
                              QStringLiteral("\n") + sweepShapeText(result, request));
    }
    m_summary->setText(sweepKneeText(result) + QStringLiteral("\n") + sweepP99Text(result, factor) +
                       QStringLiteral("\n") + sweepContractText(result) + QStringLiteral("\n") + evidence);
    emit fitFinished(result.ok);
}

void SweepPanel::showContractKeys()
{
    // deleteLater: a checkbox's own toggle may have led here.
    while (QLayoutItem *item = m_keys.layout->takeAt(0)) {
        if (QWidget *w = item->widget()) {
            w->setObjectName(QString());
            w->hide();
            w->deleteLater();
        }
        delete item;
    }
    // The keys the user left out (checked, to put back) and those that clash (unchecked).
    std::vector<std::pair<std::string, QString>> keys;
    auto describe = [this](const std::string &key) {
        for (const auto *list : {&m_result.sweep.conflicts, &m_result.sweep.leftOut})
            for (const SweepKeyDifference &d : *list)
                if (d.key == key)
                    return QString::fromStdString(d.describe());
        return QString::fromStdString(key);
    };
    for (const std::string &k : m_excluded)
        keys.emplace_back(k, describe(k));
    for (const SweepKeyDifference &d : m_result.sweep.conflicts)
        if (std::find(m_excluded.begin(), m_excluded.end(), d.key) == m_excluded.end())
            keys.emplace_back(d.key, QString::fromStdString(d.describe()));
    constexpr int kColumns = 3;
    int at = 0;
    for (const auto &[key, text] : keys) {
        auto *check = new QCheckBox(tr("Leave out %1").arg(text));
        check->setToolTip(check->text());
        check->setObjectName(QStringLiteral("leaveOut:") + QString::fromStdString(key));
        check->setChecked(std::find(m_excluded.begin(), m_excluded.end(), key) != m_excluded.end());
        connect(check, &QCheckBox::toggled, this, [this, key](bool on) {
            std::erase(m_excluded, key);
            if (on)
                m_excluded.push_back(key);
            startFit();
        });
        m_keys.layout->addWidget(check, at / kColumns, at % kColumns);
        ++at;
    }
    m_keys.box->setVisible(!keys.empty());
}

QCheckBox *SweepPanel::leaveOutCheck(const QString &key) const
{
    return m_keys.box->findChild<QCheckBox *>(QStringLiteral("leaveOut:") + key);
}

void SweepPanel::showPoints()
{
    const std::string &factor = m_shown.spec.factor;
    m_table->setColumnCount(7);
    m_table->setHorizontalHeaderLabels({QString::fromStdString(factor), QString::fromStdString(m_shown.spec.metric),
                                        tr("p99"), tr("Run"), tr("Scenario"), tr("x from"), tr("In the fit")});
    const std::vector<SweepPoint> &pts = m_result.sweep.points;
    m_table->setRowCount(int(pts.size()));
    for (int i = 0; i < int(pts.size()); ++i) {
        const SweepPoint &p = pts[size_t(i)];
        const QString tip = pointToolTip(i);
        m_table->setItem(i, 0, cell(factorValueText(p.x, factor), tip));
        m_table->setItem(i, 1, cell(displayMetric(m_shown.spec.metric, p.y), tip));
        m_table->setItem(i, 2, cell(p.p99 ? displayMetric("latency_p99_s", *p.p99) : QStringLiteral("—"), tip));
        m_table->setItem(i, 3, cell(QString::fromStdString(p.runKey)));
        m_table->setItem(i, 4, cell(QString::fromStdString(p.scenario)));
        m_table->setItem(i, 5, cell(p.xInferredFrom.empty() ? tr("stated") : QString::fromStdString(p.xInferredFrom)));
        m_table->setItem(i, 6, cell(p.leftOut.empty() ? tr("yes") : tr("left out: %1").arg(QString::fromStdString(p.leftOut))));
    }
    m_table->resizeColumnsToContents();
}

void SweepPanel::showP99()
{
    m_p99.line->clear();
    m_p99.points->clear();
    double maxX = 0, maxY = 0;
    for (const P99AtLoad &p : m_result.p99AgainstLoad) {
        m_p99.line->append(p.x, p.p99 * 1e3);
        m_p99.points->append(p.x, p.p99 * 1e3);
        maxX = std::max(maxX, p.x);
        maxY = std::max(maxY, p.p99 * 1e3);
    }
    m_p99.x->setTitleText(QString::fromStdString(m_shown.spec.factor));
    // Round steps; an empty chart whole ones (0 … 10, not 0, 0.2, 0.4 …).
    setNiceAxis(m_p99.x, maxX > 0 ? maxX * 1.1 : 10, 5);
    setNiceAxis(m_p99.y, maxY > 0 ? maxY * 1.15 : 10, 5);
}

QString SweepPanel::pointToolTip(int index) const
{
    const std::vector<SweepPoint> &pts = m_result.sweep.points;
    if (index < 0 || index >= int(pts.size()))
        return {};
    const SweepPoint &p = pts[size_t(index)];
    QString tip = tr("%1 / %2\n%3 %4 · %5 %6")
                      .arg(QString::fromStdString(p.runKey), QString::fromStdString(p.scenario),
                           QString::fromStdString(m_shown.spec.factor), factorValueText(p.x, m_shown.spec.factor),
                           QString::fromStdString(m_shown.spec.metric), displayMetric(m_shown.spec.metric, p.y));
    if (p.p99)
        tip += tr(" · p99 %1").arg(displayMetric("latency_p99_s", *p.p99));
    if (!p.xInferredFrom.empty())
        tip += tr("\n%1 from %2")
                   .arg(QString::fromStdString(m_shown.spec.factor), QString::fromStdString(p.xInferredFrom));
    if (!p.leftOut.empty())
        tip += tr("\nLeft out of the fit: %1").arg(QString::fromStdString(p.leftOut));
    return tip;
}

void SweepPanel::hovered(const QPointF &point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    // The series holds the points in sweep order, scaled to the chart's unit: the nearest one.
    const QList<QPointF> shown = m_chart->measuredSeries()->points();
    int best = -1;
    double bestDistance = 0;
    for (int i = 0; i < int(shown.size()); ++i) {
        const double d = std::hypot(shown[i].x() - point.x(), shown[i].y() - point.y());
        if (best < 0 || d < bestDistance) {
            best = i;
            bestDistance = d;
        }
    }
    if (best >= 0 && best < int(m_plotted.size()))
        QToolTip::showText(QCursor::pos(), pointToolTip(m_plotted[size_t(best)]), m_chartView);
}

} // namespace plimsoll
