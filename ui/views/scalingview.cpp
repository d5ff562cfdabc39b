#include "ui/views/scalingview.h"

#include "model/store/runlabels.h"
#include "ui/charts/chartexport.h"

#include "ui/charts/niceaxis.h"
#include "ui/charts/scalingchart.h"

#include "model/core/catalog.h"
#include "model/store/store.h"
#include "ui/formatting.h"
#include "ui/latesttask.h"
#include "ui/views/sweeppanel.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabBar>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace plimsoll {

namespace {

const QColor kBlue(0x1f, 0x77, 0xb4);

// Refills a combo keeping the current text when it is still offered; `preferred` is chosen
// when the old text is gone. Signals stay blocked: the caller decides what reloads.
void refill(QComboBox *combo, const std::vector<std::string> &items, const QString &preferred = {})
{
    const QString previous = combo->currentText();
    const QSignalBlocker blocker(combo);
    combo->clear();
    for (const std::string &item : items)
        combo->addItem(QString::fromStdString(item));
    int index = combo->findText(previous);
    if (index < 0)
        index = combo->findText(preferred);
    combo->setCurrentIndex(index >= 0 ? index : (combo->count() > 0 ? 0 : -1));
}

// The runs to choose from, each shown by its name and key where it has a name (runTitle) and
// standing for its key (the item's data); the run chosen before stays chosen while offered.
void refillRuns(QComboBox *combo, const std::vector<Store::RampRun> &runs, const QString &preferredKey)
{
    const QString previous = combo->currentData().toString();
    const QSignalBlocker blocker(combo);
    combo->clear();
    for (const Store::RampRun &run : runs)
        combo->addItem(QString::fromStdString(runTitle(run.name, run.runKey)), QString::fromStdString(run.runKey));
    int index = combo->findData(previous);
    if (index < 0)
        index = combo->findData(preferredKey);
    combo->setCurrentIndex(index >= 0 ? index : (combo->count() > 0 ? 0 : -1));
}

QValueAxis *axis(QChart *chart, Qt::Alignment where, const QString &title)
{
    auto *a = new QValueAxis(chart);
    a->setTitleText(title);
    a->setLabelFormat(QStringLiteral("%.4g"));
    chart->addAxis(a, where);
    return a;
}

} // namespace

ViewIdentity ScalingView::identity()
{
    return {QStringLiteral("scaling"), tr("Scaling"), QStyle::SP_FileDialogInfoView};
}

ScalingView::ScalingView(const QString &storePath, QWidget *parent) : StoreView(storePath, identity(), parent)
{
    setObjectName(QStringLiteral("scalingView"));
    m_runsLoader = new LatestTask(this);
    m_runLoader = new LatestTask(this);
    m_fitter = new LatestTask(this);

    m_modeBar = new QTabBar(this);
    m_modeBar->setObjectName(QStringLiteral("scalingModeBar"));
    m_modeBar->addTab(tr("Within a run (ramp)"));
    m_modeBar->addTab(tr("Across runs"));
    m_modeBar->setTabToolTip(AcrossRuns, tr("A sweep over separate runs, one per cluster configuration "
                                            "(brokers, shards, partitions, ...), as `plimsoll fit` fits it"));
    m_sweep = new SweepPanel(storePath, this);
    connect(m_sweep, &SweepPanel::loadFailed, this, &StoreView::loadFailed);
    // The two pages share the view, the hidden one left out of its size: a stacked widget would
    // take the taller page's height for either (QStackedLayout asks every page), and the ramp
    // page would scroll on a 700 px screen for the room the other needs.
    m_rampPage = buildRampPage();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_modeBar);
    layout->addWidget(m_rampPage, 1);
    layout->addWidget(m_sweep, 1);
    m_sweep->hide();
    connect(m_modeBar, &QTabBar::currentChanged, this, [this](int index) { setMode(Mode(index)); });
}

QWidget *ScalingView::buildRampPage()
{
    auto *page = new QWidget(this);
    auto combo = [page](const char *name, int chars) {
        auto *c = new QComboBox(page);
        c->setObjectName(QLatin1String(name));
        // Wide enough for a typical entry, never as wide as the longest run key: the row of
        // choices fits a 1024 px window, and the full text is in the open list and the tooltip.
        c->setMinimumContentsLength(chars);
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        QObject::connect(c, &QComboBox::currentTextChanged, c, [c](const QString &text) { c->setToolTip(text); });
        return c;
    };
    m_runCombo = combo("runCombo", 16);
    m_prefixCombo = combo("prefixCombo", 12);
    m_factorCombo = combo("factorCombo", 9);
    m_metricCombo = combo("metricCombo", 10);
    auto *choices = new QHBoxLayout;
    for (auto [label, c] : {std::pair{tr("Run"), m_runCombo}, {tr("Scenarios"), m_prefixCombo},
                            {tr("Factor"), m_factorCombo}, {tr("Metric"), m_metricCombo}}) {
        choices->addWidget(new QLabel(label, page));
        choices->addWidget(c);
        choices->addSpacing(8);
    }
    choices->addStretch();

    m_chart = new ScalingChart;
    m_chartView = new QChartView(m_chart, page);
    enableChartExport(m_chartView, QStringLiteral("scaling-fit"));
    m_chartView->setObjectName(QStringLiteral("scalingChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 230);

    m_residual.chart = new QChart;
    m_residual.chart->setAnimationOptions(QChart::NoAnimation);
    m_residual.chart->legend()->hide();
    m_residual.chart->setTitle(tr("Residuals (measured − fitted)"));
    m_residual.points = new QScatterSeries(m_residual.chart);
    m_residual.points->setMarkerSize(8);
    m_residual.points->setColor(kBlue);
    m_residual.chart->addSeries(m_residual.points);
    m_residual.x = axis(m_residual.chart, Qt::AlignBottom, QString());
    m_residual.y = axis(m_residual.chart, Qt::AlignLeft, QString());
    m_residual.points->attachAxis(m_residual.x);
    m_residual.points->attachAxis(m_residual.y);
    m_residual.view = new QChartView(m_residual.chart, page);
    enableChartExport(m_residual.view, QStringLiteral("scaling-residuals"));
    m_residual.view->setObjectName(QStringLiteral("residualChart"));
    m_residual.view->setRenderHint(QPainter::Antialiasing);
    m_residual.view->setMinimumHeight(210); // below this the axis labels elide to "…"

    m_summary = new QLabel(page);
    m_summary->setObjectName(QStringLiteral("fitSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *split = new QSplitter(Qt::Vertical, page);
    split->addWidget(m_chartView);
    split->addWidget(m_residual.view);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({520, 200});
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(choices);
    layout->addWidget(split, 1);
    layout->addWidget(m_summary);

    connect(m_runCombo, &QComboBox::currentIndexChanged, this, &ScalingView::loadRun);
    for (QComboBox *c : {m_prefixCombo, m_factorCombo, m_metricCombo})
        connect(c, &QComboBox::currentIndexChanged, this, &ScalingView::startFit);
    m_chart->setTitle(tr("Loading…"));
    return page;
}


void ScalingView::setMode(Mode mode)
{
    if (m_modeBar->currentIndex() != mode)
        m_modeBar->setCurrentIndex(mode); // comes back here through currentChanged
    m_rampPage->setVisible(mode == WithinRun);
    m_sweep->setVisible(mode == AcrossRuns);
    if (mode == AcrossRuns && m_sweepStale) {
        m_sweepStale = false;
        m_sweep->reload();
    }
}

ScalingView::Mode ScalingView::mode() const
{
    return Mode(m_modeBar->currentIndex());
}

void ScalingView::reload()
{
    // Across runs reads every run of the selection: only when it is what the user looks at.
    m_sweepStale = mode() != AcrossRuns;
    if (!m_sweepStale)
        m_sweep->reload();
    // A run read for the previous list may have been removed since (the reload says the store
    // changed): its outcome is stale, and a "no run" error from it would be a false alarm.
    m_runLoader->cancel();
    const std::string path = storePath().toStdString();
    m_runsLoader->start(
        // Only runs with steps to fit: a store of years of nightly history holds far more runs
        // than ramps, and a list of every one of them would be no choice at all.
        [path] { return Store(path).rampRuns(); },
        [this](const std::vector<Store::RampRun> &keys) {
            // The sample ramp is the natural first thing to look at.
            refillRuns(m_runCombo, keys, QStringLiteral("sample:korvet-pipeline-produce-2026-08-11"));
            emit runsLoaded(int(keys.size()));
            loadRun();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void ScalingView::loadRun()
{
    const std::string key = m_runCombo->currentData().toString().toStdString();
    if (key.empty()) {
        m_run.reset();
        refillChoices();
        return;
    }
    const std::string path = storePath().toStdString();
    m_runLoader->start(
        [path, key] {
            return std::make_shared<const RunRecord>(readRunRecords(Store(path), {key}).front());
        },
        [this](const std::shared_ptr<const RunRecord> &run) {
            m_run = run;
            refillChoices();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void ScalingView::refillChoices()
{
    std::set<std::string> prefixes, factors, metrics;
    if (m_run) {
        for (const ScenarioRecord &s : m_run->scenarios) {
            const auto slash = s.name.rfind('/');
            if (slash != std::string::npos)
                prefixes.insert(s.name.substr(0, slash + 1));
            for (const FactorInfo &f : factorCatalog())
                if (s.topology.factor(std::string(f.name)))
                    factors.insert(std::string(f.name));
            for (const MetricValue &m : s.metrics)
                metrics.insert(m.name);
        }
    }
    refill(m_prefixCombo, {prefixes.begin(), prefixes.end()});
    // A fleet ramp's steps add agents (and the producers that come with them): fit by agents.
    refill(m_factorCombo, {factors.begin(), factors.end()},
           factors.count("agents") ? QStringLiteral("agents") : QStringLiteral("producers"));
    refill(m_metricCombo, {metrics.begin(), metrics.end()}, QStringLiteral("records_per_s"));
    startFit();
}

void ScalingView::startFit()
{
    if (!m_run || m_prefixCombo->currentText().isEmpty()) {
        m_fitter->cancel();
        showFit({});
        return;
    }
    m_chart->setTitle(tr("Fitting…"));
    m_fitter->start(
        [run = m_run, prefix = m_prefixCombo->currentText().toStdString(),
         factor = m_factorCombo->currentText().toStdString(),
         metric = m_metricCombo->currentText().toStdString()] {
            FitOutcome out;
            out.points = rampPoints(*run, prefix, factor, metric);
            std::vector<UslPoint> usl;
            std::vector<SaturationStep> steps;
            for (const RampPoint &p : out.points) {
                usl.push_back({p.x, p.y});
                steps.push_back(p.step);
            }
            UslOptions options;
            options.bootstrapResamples = 400; // a smooth band; `plimsoll fit` does 1000
            out.fit = UslFitter(options).fit(usl);
            out.saturation = SaturationDetector().detect(std::move(steps));
            return out;
        },
        [this](const FitOutcome &outcome) { showFit(outcome); },
        [this](const QString &error) { emit loadFailed(error); });
}

void ScalingView::showFit(const FitOutcome &outcome)
{
    m_points = outcome.points;
    m_fit = outcome.fit;
    m_saturation = outcome.saturation;
    m_residual.points->clear();
    const QString factor = m_factorCombo->currentText();
    const std::string metric = m_metricCombo->currentText().toStdString();
    if (m_points.empty()) {
        m_chart->showEmpty(m_runCombo->count() == 0 ? tr("No ramps in the store yet")
                                                    : tr("No steps carry this factor and metric"));
        m_summary->setText(QString());
        m_residual.x->setTitleText(QString());
        m_residual.chart->setTitle(tr("Residuals (measured − fitted)"));
        emit fitFinished(false);
        return;
    }
    const AxisScale scale = m_chart->showFit(m_points, m_fit, m_saturation, factor, metric);
    double maxResidual = 0;
    if (m_fit.ok) {
        for (const RampPoint &p : m_points) {
            const double r = (p.y - m_fit.params.throughputAt(p.x)) * scale.factor;
            m_residual.points->append(p.x, r);
            maxResidual = std::max(maxResidual, std::abs(r));
        }
    }
    const QString unit = scale.unit;
    m_residual.x->setRange(m_chart->xAxis()->min(), m_chart->xAxis()->max());
    m_residual.x->setTitleText(factor);
    // Symmetric about zero at round steps (±5, ±10 k records/s, not ±7.755); the unit in the
    // title, where a short chart has room for it.
    setNiceAxis(m_residual.y, maxResidual > 0 ? maxResidual * 1.1 : 1, 3);
    const double r = m_residual.y->max();
    m_residual.y->setRange(-r, r);
    m_residual.y->setTickCount(2 * m_residual.y->tickCount() - 1);
    m_residual.y->setTitleText(QString());
    m_residual.chart->setTitle(tr("Residuals (measured − fitted, %1)").arg(unit));
    m_chart->setTitle(QStringLiteral("%1%2 — %3 against %4")
                          .arg(m_runCombo->currentText(), QStringLiteral(": ") + m_prefixCombo->currentText(),
                               QString::fromStdString(metric), factor));

    QString text;
    if (!m_fit.ok) {
        text = tr("No fit: %1").arg(QString::fromStdString(m_fit.error));
    } else {
        text = tr("λ %1 %2 per unit [%3, %4]")
                   .arg(m_fit.params.lambda * scale.factor, 0, 'g', 4)
                   .arg(unit)
                   .arg(m_fit.lambdaCi.lo * scale.factor, 0, 'g', 4)
                   .arg(m_fit.lambdaCi.hi * scale.factor, 0, 'g', 4);
        // The parameters the model fitted: a linear fit has λ alone, contention only λ and σ.
        if (m_fit.model != UslModel::Linear)
            text += tr(" · σ %1").arg(m_fit.params.sigma, 0, 'g', 3);
        if (m_fit.model == UslModel::Full)
            text += tr(" · κ %1").arg(m_fit.params.kappa, 0, 'g', 3);
        text += tr(" · R² %1").arg(m_fit.r2, 0, 'f', 4);
        // A peak's numbers only where measured steps bracket it.
        if (m_fit.peakMeasured())
            text += tr(" · N* %1 (X %2 %3), between measured steps")
                        .arg(QString::number(m_fit.nStar, 'f', 1))
                        .arg(QString::number(m_fit.xAtNStar * scale.factor, 'g', 4))
                        .arg(unit);
        else
            text += tr(" · N*: %1").arg(QString::fromStdString(m_fit.nStarNote));
        text += QStringLiteral(" · ") + QString::fromUtf8(toString(m_fit.limit));
        if (m_fit.weak)
            text += tr(" · weak fit: %1").arg(QString::fromStdString(m_fit.weakReason));
    }
    text += QStringLiteral("\n") + QString::fromStdString(m_saturation.reason);
    m_summary->setText(text);
    emit fitFinished(m_fit.ok);
}

} // namespace plimsoll
