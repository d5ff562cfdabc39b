// The Compare view's charts: every run's percentiles overlaid, scenario by scenario, and bars of
// each run's throughput and p99 per aligned scenario; one colour per run throughout
// (ui/charts/chartpalette.h), as the legend of runs above the tabs gives them.
#include "ui/views/compareview.h"

#include "model/core/catalog.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/chartpalette.h"
#include "ui/charts/niceaxis.h"
#include "ui/charts/runcharts.h"
#include "ui/formatting.h"
#include "ui/models/sidebysidetablemodel.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace plimsoll {

QWidget *CompareView::createSpectrumTab()
{
    auto *tab = new QWidget(this);
    m_spectrum = new QChart;
    m_spectrum->setAnimationOptions(QChart::NoAnimation);
    m_spectrum->legend()->setAlignment(Qt::AlignRight);
    auto *view = new QChartView(m_spectrum, tab);
    enableChartExport(view, QStringLiteral("compare-percentiles"));
    view->setObjectName(QStringLiteral("compareSpectrum"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(180);
    m_family = new QComboBox(tab);
    m_family->setObjectName(QStringLiteral("compareSpectrumFamily"));
    connect(m_family, &QComboBox::currentIndexChanged, this, [this] { drawSpectrum(); });
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Percentiles of"), tab));
    row->addWidget(m_family);
    row->addStretch();
    auto *layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(row);
    layout->addWidget(view, 1);
    return tab;
}

namespace {

// A run's name on a chart: "baseline" and "current" for two runs, else its letter as the
// table and the legend of runs above it name it ("A (baseline)", "B", …).
QString runLabel(const RunsComparison &c, std::size_t run)
{
    if (c.runs.size() == 2)
        return run == c.baseline ? QObject::tr("baseline") : QObject::tr("current");
    return run == c.baseline ? QObject::tr("%1 (baseline)").arg(SideBySideTableModel::runLetter(run))
                             : SideBySideTableModel::runLetter(run);
}

// The baseline's scenarios in order, each once, as the comparison's rows list them.
std::vector<const ComparedRow *> scenarioRows(const RunsComparison &c)
{
    std::vector<const ComparedRow *> out;
    for (const ComparedRow &row : c.rows)
        if (out.empty() || out.back()->scenario != row.scenario)
            out.push_back(&row);
    return out;
}

} // namespace

void CompareView::showSpectrumOf(const std::vector<RunRecord> &runs, const RunsComparison &comparison)
{
    // Each aligned scenario of the baseline, then its counterpart in every run, so each set reads
    // side by side; a scenario no other run has is left out.
    m_overlaid = {};
    m_spectrumRuns.clear();
    int scenarioIndex = 0;
    for (const ComparedRow *row : scenarioRows(comparison)) {
        int present = 0;
        for (const RunCell &cell : row->cells)
            present += cell.scenario.empty() ? 0 : 1;
        if (present < 2)
            continue;
        for (std::size_t i = 0; i < row->cells.size() && i < runs.size(); ++i) {
            for (const ScenarioRecord &s : runs[i].scenarios) {
                if (s.name != row->cells[i].scenario)
                    continue;
                ScenarioRecord named = s;
                named.name = tr("%1 · %2").arg(runLabel(comparison, i), QString::fromStdString(s.name)).toStdString();
                m_spectrumRuns[QString::fromStdString(named.name)] = {static_cast<int>(i), scenarioIndex};
                m_overlaid.scenarios.push_back(std::move(named));
            }
        }
        ++scenarioIndex;
    }
    {
        const QSignalBlocker blocker(m_family);
        const QString chosen = m_family->currentText();
        m_family->clear();
        for (const std::string &f : spectrumFamilies(m_overlaid))
            m_family->addItem(QString::fromStdString(f));
        m_family->setCurrentIndex(std::max(0, m_family->findText(chosen)));
    }
    drawSpectrum();
    if (m_family->count() == 0)
        m_spectrum->setTitle(comparison.runs.empty()
                                 ? QString()
                                 : tr("The runs share no aligned scenario with latency percentiles"));
}

void CompareView::drawSpectrum()
{
    showSpectrum(m_spectrum, m_overlaid, m_family->currentText().toStdString());
    // One colour per run, as in the bars and the table's legend; a run's second scenario dashed.
    for (QAbstractSeries *series : m_spectrum->series()) {
        auto *line = qobject_cast<QLineSeries *>(series);
        const auto it = line ? m_spectrumRuns.constFind(line->name()) : m_spectrumRuns.constEnd();
        if (it == m_spectrumRuns.constEnd())
            continue;
        QPen pen = line->pen();
        pen.setColor(seriesColor(it->first));
        pen.setStyle(it->second % 2 == 0 ? Qt::SolidLine : Qt::DashLine);
        line->setPen(pen);
    }
}

QWidget *CompareView::createBarsTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QHBoxLayout(tab);
    layout->setContentsMargins(0, 4, 0, 0);
    for (auto [chart, name] : {std::pair{&m_throughput, QStringLiteral("compareThroughputBars")},
                               std::pair{&m_p99, QStringLiteral("compareP99Bars")}}) {
        *chart = new QChart;
        (*chart)->setAnimationOptions(QChart::NoAnimation);
        (*chart)->legend()->setAlignment(Qt::AlignBottom);
        auto *view = new QChartView(*chart, tab);
        view->setObjectName(name);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(180);
        enableChartExport(view, name == QStringLiteral("compareThroughputBars") ? QStringLiteral("compare-throughput")
                                                                               : QStringLiteral("compare-p99"));
        layout->addWidget(view, 1);
    }
    return tab;
}

void CompareView::showBars(const RunsComparison &comparison)
{
    // The metric a bar chart draws: the first of these the baseline measured.
    const auto fill = [&](QChart *chart, const std::vector<std::string> &metrics, const QString &title) {
        chart->removeAllSeries();
        for (QAbstractAxis *axis : chart->axes())
            chart->removeAxis(axis);
        std::string metric;
        for (const std::string &m : metrics)
            for (const ComparedRow &row : comparison.rows)
                if (metric.empty() && row.metric == m)
                    metric = m;
        if (metric.empty()) {
            chart->setTitle(comparison.runs.empty() ? QString() : tr("%1: not measured by the baseline").arg(title));
            return;
        }
        constexpr std::size_t kMostScenarios = 12;
        std::vector<const ComparedRow *> rows;
        std::size_t measured = 0;
        for (const ComparedRow &row : comparison.rows)
            if (row.metric == metric && ++measured <= kMostScenarios)
                rows.push_back(&row);
        double most = 0;
        for (const ComparedRow *row : rows)
            for (const RunCell &cell : row->cells)
                if (cell.value)
                    most = std::max(most, std::abs(*cell.value));
        const MetricInfo *info = findMetric(metric);
        const AxisScale scale = axisScaleFor(info ? info->unit : std::string_view(), most);
        auto *series = new QBarSeries;
        for (std::size_t i = 0; i < comparison.runs.size(); ++i) {
            // Named as the legend of runs above the tabs names it, which gives each run's key.
            auto *set = new QBarSet(runLabel(comparison, i));
            set->setColor(seriesColor(static_cast<int>(i)));
            for (const ComparedRow *row : rows) {
                const auto &v = row->cells[i].value;
                *set << (v ? *v * scale.factor : 0.0);
            }
            series->append(set);
        }
        // Each scenario's name without the part every one of them shares ("redis-benchmark/"),
        // elided in the middle: the whole name is in the table and its tooltip.
        QStringList categories;
        for (const ComparedRow *row : rows)
            categories << QString::fromStdString(row->scenario);
        QString shared = categories.size() > 1 ? categories.front() : QString();
        for (const QString &name : categories)
            while (!name.startsWith(shared))
                shared.chop(1);
        shared = shared.left(shared.lastIndexOf(QLatin1Char('/')) + 1);
        const QFontMetrics metricsOfFont(chart->font());
        for (QString &name : categories)
            name = metricsOfFont.elidedText(name.mid(shared.size()), Qt::ElideMiddle,
                                            std::max(120, 360 / int(categories.size())));
        chart->addSeries(series);
        auto *x = new QBarCategoryAxis;
        x->append(categories);
        auto *y = new QValueAxis;
        y->setTitleText(scale.unit); // the chart's title names the metric
        setNiceAxis(y, most * scale.factor);
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        // The metric drawn is named when it is not the first choice (bytes for records, end to end).
        const QString drawn = metric == metrics.front() ? title : tr("%1 (%2)").arg(title, qtext(metric));
        chart->setTitle(measured > rows.size()
                            ? tr("%1: the first %2 of %3 scenarios").arg(drawn).arg(rows.size()).arg(measured)
                            : drawn);
        chart->legend()->setVisible(true);
    };
    fill(m_throughput, {"records_per_s", "bytes_per_s"}, tr("Throughput"));
    fill(m_p99, {"latency_p99_s", "e2e_p99_s"}, tr("p99 latency"));
}

} // namespace plimsoll
