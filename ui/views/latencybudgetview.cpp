#include "ui/views/latencybudgetview.h"
#include "ui/charts/chartexport.h"

#include "ui/charts/chartpalette.h"
#include "ui/charts/niceaxis.h"
#include "ui/charts/serieslegend.h"

#include "model/trends/downsample.h"
#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/formatting.h"
#include "ui/latesttask.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QCursor>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace plimsoll {

namespace {

// The slider moves on a log scale, 0.1 ms to 10 s: budgets span four decades.
constexpr double kMinMs = 0.1, kMaxMs = 10000;
int sliderFor(double ms)
{
    return int(std::lround(1000 * std::log10(ms / kMinMs) / std::log10(kMaxMs / kMinMs)));
}
double msFor(int slider)
{
    return kMinMs * std::pow(kMaxMs / kMinMs, slider / 1000.0);
}

// One line per product + configuration, ordered by p99 as a sweep reads; a line longer than a
// chart can show is drawn as an LTTB selection that keeps its extremes (model/trends/downsample.h).
// Runs in the loader, off the UI thread.
constexpr std::size_t kMaxDrawnPerLine = 1000;
// A selection copies and explains every point: at a million points that is most of a second,
// too long for the UI thread at each step of the slider. Up to this many it stays synchronous.
constexpr std::size_t kSyncSelectionPoints = 20000;

// Requests in flight by Little's law as a person counts them: whole ones from a hundred up,
// with separators ("1,024"), three significant digits below ("0.84", "12.5"). The expected
// count, connections × pipeline, is whole and printed so.
QString inFlightText(double n)
{
    return n >= 100 ? QLocale().toString(n, 'f', 0) : plainNumber(n, 3);
}

} // namespace

QString LatencyBudgetView::littleText(const BudgetedPoint &b)
{
    const LittleCheck &l = b.little;
    if (l.notApplicable)
        return tr("not checked: an asynchronous client");
    if (!l.checked)
        return b.point.avgLatency ? tr("not checked: no connection count")
                                  : tr("not checked: no average latency");
    // Whole percent, signed; a gap that rounds to nothing has no sign ("0 %", not "−0 %").
    const double deviation = std::round((l.ratio - 1) * 100);
    const QString sign = deviation > 0 ? QStringLiteral("+")
                         : deviation < 0 ? QStringLiteral("−")
                                         : QString();
    const QString signedPercent =
        sign + QLocale().toString(std::fabs(deviation), 'f', 0) + QStringLiteral(" %");
    return tr("%1 in flight vs %2 expected: %3 (%4)")
        .arg(inFlightText(l.outstanding), QLocale().toString(l.expected, 'f', 0),
             l.flagged ? tr("inconsistent") : tr("consistent"), signedPercent);
}

QString LatencyBudgetView::littleToolTip(const BudgetedPoint &b)
{
    const LatencyPoint &p = b.point;
    const QString why =
        tr("Little's law (L = λW): in a closed-loop sweep the requests in flight, throughput × "
           "average latency, should equal connections × pipeline depth. More than %1 % apart "
           "means the numbers describe different request populations: client think time, a "
           "rate limit, dropped connections, or a transcription error.")
            .arg(LatencyBudget{}.littleTolerance * 100, 0, 'f', 0);
    if (b.little.notApplicable)
        return why + QLatin1Char('\n') +
               tr("This point's clients are Kafka producers or consumers: each keeps as many requests "
                  "in flight on its connection as its batches allow, so the law has no connection "
                  "count to hold it to.");
    if (!b.little.checked)
        return why + QLatin1Char('\n') +
               (p.avgLatency ? tr("This point has no connection count to compare with.")
                             : tr("This point has no average latency to multiply by."));
    return why + QLatin1Char('\n') +
           tr("Here: %1/s × %2 ms = %3 in flight; %4 connections × %5 = %6 expected.")
               .arg(QLocale().toString(p.throughput, 'f', 0))
               .arg(plainNumber(*p.avgLatency * 1e3, 3))
               .arg(inFlightText(b.little.outstanding))
               .arg(p.connections)
               .arg(p.pipeline)
               .arg(QLocale().toString(b.little.expected, 'f', 0));
}

ViewIdentity LatencyBudgetView::identity()
{
    return {QStringLiteral("latency-budget"), tr("Latency budget"), QStyle::SP_MediaSeekForward};
}

LatencyBudgetView::LatencyBudgetView(const QString &storePath, QWidget *parent)
    : StoreView(storePath, identity(), parent)
{
    setObjectName(QStringLiteral("latencyBudgetView"));
    m_loader = new LatestTask(this);
    m_selector = new LatestTask(this);
    m_loaded = std::make_shared<const Loaded>();
    m_budget = new QDoubleSpinBox(this);
    m_budget->setObjectName(QStringLiteral("budgetSpin"));
    m_budget->setRange(kMinMs, kMaxMs);
    m_budget->setDecimals(2);
    m_budget->setValue(25);
    m_budget->setSuffix(tr(" ms p99"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("budgetSlider"));
    m_slider->setRange(0, 1000);
    m_slider->setValue(sliderFor(25));
    // p99.9 is a second, optional bound: a point qualifies only when it measured p99.9 within it.
    m_p999Check = new QCheckBox(tr("and"), this);
    m_p999Check->setObjectName(QStringLiteral("p999Check"));
    m_p999Check->setToolTip(tr("Also require p99.9 within a budget; points that did not measure "
                               "p99.9 then do not qualify."));
    m_p999 = new QDoubleSpinBox(this);
    m_p999->setObjectName(QStringLiteral("p999Spin"));
    m_p999->setRange(kMinMs, kMaxMs);
    m_p999->setDecimals(2);
    m_p999->setValue(100);
    m_p999->setSuffix(tr(" ms p99.9"));
    m_p999->setEnabled(false);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Budget"), this));
    row->addWidget(m_budget);
    row->addWidget(m_slider, 1);
    row->addWidget(m_p999Check);
    row->addWidget(m_p999);

    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    // The list beside the chart names every configuration; the chart's own legend would cut
    // off a dozen of them at 1024×700.
    m_chart->legend()->hide();
    m_x = new QLogValueAxis(m_chart);
    m_x->setTitleText(tr("p99 (ms)"));
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_x->setBase(10);
    m_y = new QValueAxis(m_chart);
    m_y->setTitleText(tr("throughput (k/s)"));
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_budgetLine = new QLineSeries(m_chart);
    m_budgetLine->setName(tr("budget"));
    m_budgetLine->setPen(QPen(highlightColor(), 2, Qt::DashLine));
    m_chart->addSeries(m_budgetLine);
    m_budgetLine->attachAxis(m_x);
    m_budgetLine->attachAxis(m_y);
    m_chartView = new QChartView(m_chart, this);
    enableChartExport(m_chartView, QStringLiteral("latency-budget"));
    m_chartView->setObjectName(QStringLiteral("budgetChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 240);
    m_legend = new SeriesLegend(this);
    m_legend->setObjectName(QStringLiteral("budgetLegend"));
    auto *chartRow = new QWidget(this);
    auto *chartLayout = new QHBoxLayout(chartRow);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(m_chartView, 1);
    chartLayout->addWidget(m_legend);

    m_table = new QTableWidget(0, 7, this);
    m_table->setObjectName(QStringLiteral("qualifyingTable"));
    m_table->setHorizontalHeaderLabels({tr("Product"), tr("Configuration"), tr("Best throughput"),
                                        tr("Connections"), tr("p99"), tr("p99.9"),
                                        tr("Little's law")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_leftOut = new QLabel(this);
    m_leftOut->setObjectName(QStringLiteral("budgetLeftOut"));
    m_leftOut->setWordWrap(true);
    m_leftOut->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_leftOut->hide();
    auto *tablePane = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_leftOut);
    tableLayout->addWidget(m_table, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chartRow);
    split->addWidget(tablePane);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(split, 1);

    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker block(m_budget);
        m_budget->setValue(msFor(v));
        select();
    });
    connect(m_budget, &QDoubleSpinBox::valueChanged, this, [this](double ms) {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(sliderFor(ms));
        select();
    });
    connect(m_p999Check, &QCheckBox::toggled, this, [this](bool on) {
        m_p999->setEnabled(on);
        select();
    });
    connect(m_p999, &QDoubleSpinBox::valueChanged, this, [this] {
        if (m_p999Check->isChecked())
            select();
    });
}

BudgetRequest LatencyBudgetView::request() const
{
    BudgetRequest request;
    request.budget.p99 = m_budget->value() / 1e3;
    if (m_p999Check->isChecked())
        request.budget.p999 = m_p999->value() / 1e3;
    return request;
}


void LatencyBudgetView::reload()
{
    const std::string path = storePath().toStdString();
    m_loader->start(
        [path] {
            auto out = std::make_shared<Loaded>();
            out->read = readBudgetPoints(Store(path), {}, PointOrigins::Left);
            groupLines(*out);
            return std::shared_ptr<const Loaded>(std::move(out));
        },
        [this](const std::shared_ptr<const Loaded> &loaded) { showPoints(loaded); },
        [this](const QString &error) { emit loadFailed(error); });
}

void LatencyBudgetView::groupLines(Loaded &out)
{
    // Each line's points as (p99 in ms, thousands of records/s): sorted as plain pairs, not as
    // pointers into the million points (a sort that dereferences each comparison).
    std::map<std::string, std::vector<std::pair<double, double>>> groups;
    std::vector<std::string> order;
    out.minMs = 1e9;
    out.maxMs = 0;
    out.maxThroughput = 1;
    // Consecutive points are mostly of one line (a nightly series): its group is looked up again
    // only when the product or configuration changes.
    std::vector<std::pair<double, double>> *group = nullptr;
    const LatencyPoint *previous = nullptr;
    for (const LatencyPoint &p : out.read.points) {
        // A point that measured nothing is no operating point, and a p99 of 0 has no place on a
        // logarithmic axis: left out of the lines as of the picks, and listed under the chart.
        if (isDegenerate(p))
            continue;
        if (!previous || p.product != previous->product || p.configuration != previous->configuration) {
            const std::string name = p.product + " · " + p.configuration;
            group = &groups[name];
            if (group->empty())
                order.push_back(name);
        }
        previous = &p;
        group->emplace_back(p.p99 * 1e3, p.throughput / 1e3);
        out.minMs = std::min(out.minMs, p.p99 * 1e3);
        out.maxMs = std::max(out.maxMs, p.p99 * 1e3);
        out.maxThroughput = std::max(out.maxThroughput, p.throughput);
    }
    for (const std::string &name : order) {
        auto &pts = groups[name];
        std::stable_sort(pts.begin(), pts.end(),
                         [](const std::pair<double, double> &a, const std::pair<double, double> &b) {
                             return a.first < b.first;
                         });
        std::vector<double> x, y;
        x.reserve(pts.size());
        y.reserve(pts.size());
        for (const auto &[ms, k] : pts) {
            x.push_back(ms);
            y.push_back(k);
        }
        pts = {}; // given back before the next line's
        Line line{name, {}};
        for (const std::size_t i : lttbIndices(x, y, kMaxDrawnPerLine))
            line.drawn.emplace_back(x[i], y[i]);
        out.lines.push_back(std::move(line));
    }
}

void LatencyBudgetView::showPoints(std::shared_ptr<const Loaded> loaded)
{
    releaseInBackground(std::exchange(m_loaded, std::move(loaded)));
    for (QAbstractSeries *s : m_chart->series())
        if (s != m_budgetLine) {
            m_chart->removeSeries(s);
            delete s;
        }
    int index = 0;
    for (const Line &l : m_loaded->lines) {
        auto *line = new QLineSeries(m_chart);
        line->setName(QString::fromStdString(l.name));
        line->setColor(seriesColor(index++));
        line->setPointsVisible(true);
        QList<QPointF> xy;
        xy.reserve(qsizetype(l.drawn.size()));
        for (const auto &[ms, k] : l.drawn)
            xy.append(QPointF(ms, k));
        line->replace(xy);
        // Hovering a point names its product, p99 and throughput.
        connect(line, &QXYSeries::hovered, line, [line](const QPointF &at, bool on) {
            if (!on) {
                QToolTip::hideText();
                return;
            }
            QToolTip::showText(QCursor::pos(), tr("%1\np99 %2 ms: %3k records/s")
                                                   .arg(line->name(), plainNumber(at.x(), 3),
                                                        QLocale().toString(at.y(), 'f', 0)));
        });
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
    }
    m_legend->setSeries(m_chart->series());
    double minMs = m_loaded->minMs, maxMs = m_loaded->maxMs;
    if (m_loaded->lines.empty()) {
        minMs = 0.1;
        maxMs = 1000;
    }
    m_maxThroughput = m_loaded->maxThroughput;
    m_x->setRange(std::pow(10, std::floor(std::log10(minMs))), std::pow(10, std::ceil(std::log10(maxMs))));
    // Whole, distinct ticks from 0 past the best throughput (0 … 1 with no points at all).
    setNiceAxis(m_y, m_loaded->lines.empty() ? 0 : m_maxThroughput / 1e3 * 1.05);
    const std::size_t leftOut = m_loaded->read.leftOut.size();
    const std::size_t drawn = m_loaded->read.points.size() - leftOut;
    const QString points = drawn == 1 ? tr("1 point") : tr("%1 points").arg(drawn);
    const QString left = tr("%1 left out: measured nothing").arg(leftOut);
    if (m_loaded->lines.empty())
        m_chart->setTitle(leftOut == 0 ? tr("No points with throughput and p99 in the store")
                                       : tr("No point measured throughput and p99 (%1)").arg(left));
    else
        m_chart->setTitle(leftOut == 0 ? tr("Throughput against p99, %1").arg(points)
                                       : tr("Throughput against p99, %1 (%2)").arg(points, left));
    showLeftOut();
    emit pointsLoaded(int(m_loaded->read.points.size()));
    select();
}

void LatencyBudgetView::showLeftOut()
{
    const LeftOutOrigins &left = m_loaded->read.leftOut;
    m_leftOut->setVisible(!left.empty());
    if (left.empty()) {
        m_leftOut->clear();
        return;
    }
    // The first few by name: a store of a thousand empty runs names five and counts the rest.
    constexpr std::size_t kNamed = 5;
    QStringList named;
    for (std::size_t i = 0; i < left.size() && i < kNamed; ++i) {
        const auto &[index, origin] = left[i];
        named << tr("run %1 (%2) %3")
                     .arg(QString::fromStdString(origin.runKey), QString::fromStdString(origin.scenario),
                          QString::fromStdString(degenerateReason(m_loaded->read.points[index])));
    }
    QString text = tr("Left out of the picks and the chart: ") + named.join(QStringLiteral("; "));
    if (left.size() > kNamed)
        text += tr("; and %1 more").arg(left.size() - kNamed);
    m_leftOut->setText(text);
}

void LatencyBudgetView::select()
{
    const LatencyBudget budget = request().budget;
    m_budgetLine->clear();
    m_budgetLine->append(budget.p99 * 1e3, 0);
    m_budgetLine->append(budget.p99 * 1e3, m_y->max());
    if (m_loaded->read.points.size() > kSyncSelectionPoints) {
        m_selector->start(
            [loaded = m_loaded, budget] {
                return std::make_shared<const BudgetResult>(
                    LatencyBudgetSelector(budget).select(loaded->read.points));
            },
            [this](const std::shared_ptr<const BudgetResult> &result) { showSelection(result); },
            [this](const QString &error) { emit loadFailed(error); });
        return;
    }
    m_selector->cancel();
    showSelection(
        std::make_shared<const BudgetResult>(LatencyBudgetSelector(budget).select(m_loaded->read.points)));
}

void LatencyBudgetView::showSelection(std::shared_ptr<const BudgetResult> result)
{
    releaseInBackground(std::exchange(m_result, std::move(result)));
    m_table->clearSpans();
    m_table->setRowCount(0);
    for (const BudgetSelection &s : m_result->perConfiguration) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto cell = [&](int column, const QString &text) {
            m_table->setItem(row, column, new QTableWidgetItem(text));
        };
        cell(0, QString::fromStdString(s.product));
        cell(1, QString::fromStdString(s.configuration));
        if (!s.found) {
            // Across the best point's columns, so a long reason widens none of them.
            cell(2, (s.allLeftOut ? tr("no pick: %1") : tr("none within budget: %1"))
                        .arg(QString::fromStdString(s.missedBecause)));
            m_table->setSpan(row, 2, 1, m_table->columnCount() - 2);
            continue;
        }
        const BudgetedPoint &b = s.best;
        cell(2, QLocale().toString(b.point.throughput, 'f', 0) + tr("/s"));
        cell(3, b.point.connections > 0 ? QString::number(b.point.connections) : QStringLiteral("—"));
        cell(4, QStringLiteral("%1 ms").arg(b.point.p99 * 1e3, 0, 'g', 4));
        cell(5, b.point.p999 ? QStringLiteral("%1 ms").arg(*b.point.p999 * 1e3, 0, 'g', 4)
                             : tr("not measured"));
        cell(6, littleText(b));
        m_table->item(row, 6)->setToolTip(littleToolTip(b));
    }
    m_table->resizeColumnsToContents();
}

} // namespace plimsoll
