#include "ui/views/latencybudgetview.h"

#include "model/store.h"
#include "ui/latesttask.h"

#include <QChart>
#include <QChartView>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>
#include <map>

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

} // namespace

LatencyBudgetView::LatencyBudgetView(const QString &storePath, QWidget *parent)
    : StoreView(storePath, parent)
{
    setObjectName(QStringLiteral("latencyBudgetView"));
    m_loader = new LatestTask(this);
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
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Budget"), this));
    row->addWidget(m_budget);
    row->addWidget(m_slider, 1);

    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignRight);
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
    m_budgetLine->setPen(QPen(QColor(0xd6, 0x27, 0x28), 2, Qt::DashLine));
    m_chart->addSeries(m_budgetLine);
    m_budgetLine->attachAxis(m_x);
    m_budgetLine->attachAxis(m_y);
    m_chartView = new QChartView(m_chart, this);
    m_chartView->setObjectName(QStringLiteral("budgetChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 240);

    m_table = new QTableWidget(0, 6, this);
    m_table->setObjectName(QStringLiteral("qualifyingTable"));
    m_table->setHorizontalHeaderLabels({tr("Product"), tr("Configuration"), tr("Best throughput"),
                                        tr("Connections"), tr("p99"), tr("Little's law")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chartView);
    split->addWidget(m_table);
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
}

QIcon LatencyBudgetView::icon() const
{
    return style()->standardIcon(QStyle::SP_MediaSeekForward);
}

void LatencyBudgetView::reload()
{
    const std::string path = storePath().toStdString();
    m_loader->start(
        [path] {
            Loaded out;
            out.points = latencyPoints(readRunRecords(Store(path)), &out.origins);
            return out;
        },
        [this](const Loaded &loaded) { showPoints(loaded); },
        [this](const QString &error) { emit loadFailed(error); });
}

void LatencyBudgetView::showPoints(const Loaded &loaded)
{
    m_loaded = loaded;
    for (QAbstractSeries *s : m_chart->series())
        if (s != m_budgetLine) {
            m_chart->removeSeries(s);
            delete s;
        }
    // One line per product + configuration, ordered by p99 as a sweep reads.
    std::map<std::string, std::vector<const LatencyPoint *>> groups;
    std::vector<std::string> order;
    double minMs = 1e9, maxMs = 0;
    m_maxThroughput = 1;
    for (const LatencyPoint &p : m_loaded.points) {
        const std::string name = p.product + " · " + p.configuration;
        if (!groups.count(name))
            order.push_back(name);
        groups[name].push_back(&p);
        minMs = std::min(minMs, p.p99 * 1e3);
        maxMs = std::max(maxMs, p.p99 * 1e3);
        m_maxThroughput = std::max(m_maxThroughput, p.throughput);
    }
    for (const std::string &name : order) {
        auto &pts = groups[name];
        std::sort(pts.begin(), pts.end(),
                  [](const LatencyPoint *a, const LatencyPoint *b) { return a->p99 < b->p99; });
        auto *line = new QLineSeries(m_chart);
        line->setName(QString::fromStdString(name));
        line->setPointsVisible(true);
        for (const LatencyPoint *p : pts)
            line->append(p->p99 * 1e3, p->throughput / 1e3);
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
    }
    if (order.empty()) {
        minMs = 0.1;
        maxMs = 1000;
    }
    m_x->setRange(std::pow(10, std::floor(std::log10(minMs))), std::pow(10, std::ceil(std::log10(maxMs))));
    m_y->setRange(0, m_maxThroughput / 1e3 * 1.1);
    m_y->applyNiceNumbers();
    m_chart->setTitle(order.empty() ? tr("No points with throughput and p99 in the store")
                                    : tr("Throughput against p99, %1 points").arg(m_loaded.points.size()));
    emit pointsLoaded(int(m_loaded.points.size()));
    select();
}

void LatencyBudgetView::select()
{
    const double budget = m_budget->value() / 1e3;
    m_budgetLine->clear();
    m_budgetLine->append(budget * 1e3, 0);
    m_budgetLine->append(budget * 1e3, m_y->max());
    m_result = LatencyBudgetSelector(budget).select(m_loaded.points);
    m_table->setRowCount(0);
    for (const BudgetSelection &s : m_result.perConfiguration) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto cell = [&](int column, const QString &text) {
            m_table->setItem(row, column, new QTableWidgetItem(text));
        };
        cell(0, QString::fromStdString(s.product));
        cell(1, QString::fromStdString(s.configuration));
        if (!s.found) {
            cell(2, tr("none within budget"));
            continue;
        }
        const BudgetedPoint &b = s.best;
        cell(2, QString::number(b.point.throughput, 'f', 0));
        cell(3, b.point.connections > 0 ? QString::number(b.point.connections) : QStringLiteral("—"));
        cell(4, QStringLiteral("%1 ms").arg(b.point.p99 * 1e3, 0, 'g', 4));
        cell(5, b.little.checked ? QStringLiteral("%1%2").arg(b.little.ratio, 0, 'f', 2)
                                       .arg(b.little.flagged ? tr(" (inconsistent)") : QString())
                                 : tr("no average latency"));
    }
    m_table->resizeColumnsToContents();
}

} // namespace plimsoll
