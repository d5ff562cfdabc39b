#include "ui/views/trendsview.h"
#include "ui/charts/chartexport.h"

#include "model/core/catalog.h"
#include "model/core/metricroles.h"
#include "model/trends/downsample.h"
#include "ui/backgroundpool.h"
#include "ui/charts/chartpalette.h"
#include "ui/charts/trendmarkstyle.h"
#include "ui/formatting.h"
#include "ui/latesttask.h"
#include "ui/models/trendchangestablemodel.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QStyle>
#include <QTableView>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <span>
#include <utility>

namespace plimsoll {

namespace {

constexpr qint64 kHourMs = 3600 * 1000;
constexpr qint64 kDayMs = 24 * kHourMs;

// Refills a combo with `items`, keeping the current text when it is still offered; else the
// first of `preferred` offered, else the first item. Returns whether the current text changed;
// signals stay blocked so the caller decides what reloads.
bool refill(QComboBox *combo, const std::vector<std::string> &items,
            std::span<const char *const> preferred = {})
{
    const QString previous = combo->currentText();
    const QSignalBlocker blocker(combo);
    combo->clear();
    for (const std::string &item : items) {
        const QString text = QString::fromStdString(item);
        combo->addItem(text);
        if (const MetricInfo *info = findMetric(item))
            combo->setItemData(combo->count() - 1, QString::fromUtf8(info->description.data(),
                                                                      info->description.size()),
                               Qt::ToolTipRole);
    }
    int index = combo->findText(previous);
    for (auto it = preferred.begin(); index < 0 && it != preferred.end(); ++it)
        index = combo->findText(QString::fromLatin1(*it));
    combo->setCurrentIndex(index >= 0 ? index : (combo->count() > 0 ? 0 : -1));
    return combo->currentText() != previous;
}

// Makes `text` the combo's choice when it lists it, without a signal: the caller reloads.
void choose(QComboBox *combo, const QString &text)
{
    const int index = text.isEmpty() ? -1 : combo->findText(text);
    if (index >= 0) {
        const QSignalBlocker blocker(combo);
        combo->setCurrentIndex(index);
    }
}

// Ticks on whole local days read as dates; for runs within a day, even ticks with hours.
struct TimeRange
{
    QDateTime from;
    QDateTime to;
    int ticks = 5;
    QString format;
};

TimeRange timeRangeFor(qint64 firstMs, qint64 lastMs)
{
    const qint64 span = lastMs - firstMs;
    // Padding keeps a lone point (most sample scenarios have one run) away from the edges,
    // where a marker would be clipped or sit on an axis line.
    const qint64 pad = span <= 0 ? kDayMs : std::max(span / 20, kHourMs);
    const QDateTime from = QDateTime::fromMSecsSinceEpoch(firstMs - pad);
    const QDateTime to = QDateTime::fromMSecsSinceEpoch(lastMs + pad);
    if (span + 2 * pad < kDayMs * 3 / 2)
        return {from, to, 5, QStringLiteral("MMM d HH:mm")};

    const QDate firstDay = from.toLocalTime().date();
    const QDateTime localTo = to.toLocalTime();
    const QDate lastDay =
        localTo.time() == QTime(0, 0) ? localTo.date() : localTo.date().addDays(1);
    const qint64 days = firstDay.daysTo(lastDay);
    // At most ~8 intervals, each a whole number of days.
    static constexpr int kSteps[] = {1, 2, 7, 14, 28, 56, 91, 182, 364, 728, 1456, 2912};
    int step = kSteps[std::size(kSteps) - 1];
    for (int candidate : kSteps) {
        if (days <= 8LL * candidate) {
            step = candidate;
            break;
        }
    }
    const qint64 intervals = (days + step - 1) / step;
    const QDate end = firstDay.addDays(intervals * step);
    return {QDateTime(firstDay, QTime(0, 0)), QDateTime(end, QTime(0, 0)),
            static_cast<int>(intervals + 1),
            days > 365 ? QStringLiteral("yyyy-MM-dd") : QStringLiteral("MMM d")};
}

} // namespace

ViewIdentity TrendsView::identity()
{
    return {QStringLiteral("trends"), tr("Trends"), QStyle::SP_ArrowUp};
}

TrendsView::TrendsView(const QString &storePath, QWidget *parent)
    : StoreView(storePath, identity(), parent), m_series(std::make_shared<const AnnotatedSeries>())
{
    setObjectName(QStringLiteral("trendsView"));
    m_scenarioLoader = new LatestTask(this);
    m_metricLoader = new LatestTask(this);
    m_seriesLoader = new LatestTask(this);

    m_scenarioCombo = new QComboBox(this);
    m_scenarioCombo->setObjectName(QStringLiteral("scenarioCombo"));
    m_scenarioCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_scenarioCombo->setMinimumContentsLength(24);
    m_metricCombo = new QComboBox(this);
    m_metricCombo->setObjectName(QStringLiteral("metricCombo"));
    m_metricCombo->setMinimumContentsLength(18);

    auto *choices = new QHBoxLayout;
    choices->addWidget(new QLabel(tr("Scenario"), this));
    choices->addWidget(m_scenarioCombo, 2);
    choices->addSpacing(12);
    choices->addWidget(new QLabel(tr("Metric"), this));
    choices->addWidget(m_metricCombo, 1);
    choices->addSpacing(12);
    auto *rangeRow = makeRangeRow();

    m_chart = new QChart;
    m_chart->legend()->hide();
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_line = new QLineSeries(m_chart);
    m_line->setObjectName(QStringLiteral("trendLine"));
    m_line->setPen(QPen(trendLineColor(), 2));
    m_scatter = new QScatterSeries(m_chart);
    m_scatter->setObjectName(QStringLiteral("trendPoints"));
    m_scatter->setMarkerSize(10);
    m_scatter->setColor(trendLineColor());
    m_scatter->setBorderColor(Qt::white);
    m_highlight = new QScatterSeries(m_chart);
    m_highlight->setMarkerSize(16);
    m_highlight->setColor(QColor(0xd6, 0x27, 0x28));
    m_highlight->setBorderColor(Qt::white);
    // Change points sit on top of the plain points, larger and coloured by verdict.
    auto changeSeries = [this](const char *name, QColor color) {
        auto *series = new QScatterSeries(m_chart);
        series->setObjectName(QLatin1String(name));
        series->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        series->setMarkerSize(14);
        series->setColor(color);
        series->setBorderColor(Qt::black);
        return series;
    };
    m_regressions = changeSeries("regressionChanges", trendVerdictColor(Verdict::Regression));
    m_improvements = changeSeries("improvementChanges", trendVerdictColor(Verdict::Improvement));
    m_neutralChanges = changeSeries("neutralChanges", trendVerdictColor(Verdict::Changed));
    // An outlier is no change: a ring around the point, not a filled mark.
    m_outliers = new QScatterSeries(m_chart);
    m_outliers->setObjectName(QStringLiteral("outliers"));
    m_outliers->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_outliers->setMarkerSize(18);
    m_outliers->setColor(Qt::transparent);
    m_outliers->setPen(QPen(trendVerdictColor(Verdict::Regression), 2));
    // A noise change moves no level: a hollow diamond, red where the runs got noisier.
    m_noiseMarks = new QScatterSeries(m_chart);
    m_noiseMarks->setObjectName(QStringLiteral("noiseChanges"));
    m_noiseMarks->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_noiseMarks->setMarkerSize(18);
    m_noiseMarks->setColor(Qt::transparent);
    m_noiseMarks->setPen(QPen(trendNoiseColor(), 2));
    m_baselineLevel = new QLineSeries(m_chart);
    m_baselineLevel->setObjectName(QStringLiteral("baselineLevel"));
    m_baselineLevel->setPen(QPen(trendBaselineColor(), 1.5, Qt::DashLine));
    m_chart->addSeries(m_line);
    makeOverlays(choices); // the overlays' lines under the marks
    m_chart->addSeries(m_baselineLevel);
    m_chart->addSeries(m_scatter);
    m_chart->addSeries(m_regressions);
    m_chart->addSeries(m_improvements);
    m_chart->addSeries(m_neutralChanges);
    m_chart->addSeries(m_outliers);
    m_chart->addSeries(m_noiseMarks);
    m_chart->addSeries(m_highlight);
    m_timeAxis = new QDateTimeAxis(m_chart);
    m_timeAxis->setTitleText(tr("Run time"));
    m_timeAxis->setTickCount(5);
    m_valueAxis = new QValueAxis(m_chart);
    m_valueAxis->setLabelFormat(QStringLiteral("%.4g"));
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_valueAxis, Qt::AlignLeft);
    for (QXYSeries *series : {static_cast<QXYSeries *>(m_line),
                              static_cast<QXYSeries *>(m_scatter),
                              static_cast<QXYSeries *>(m_highlight), static_cast<QXYSeries *>(m_regressions),
                              static_cast<QXYSeries *>(m_improvements),
                              static_cast<QXYSeries *>(m_neutralChanges),
                              static_cast<QXYSeries *>(m_outliers),
                              static_cast<QXYSeries *>(m_noiseMarks),
                              static_cast<QXYSeries *>(m_baselineLevel)}) {
        series->attachAxis(m_timeAxis);
        series->attachAxis(m_valueAxis);
    }
    makeOverlayAxes(); // after the value axis, which stays the chart's first vertical one

    // No setUseOpenGL: the OpenGL path crashes on the offscreen platform and is missing from
    // exported renders; at most kMaxDrawnTrendPoints are drawn, far below where it would matter.
    m_chartView = new QChartView(m_chart, this);
    enableChartExport(m_chartView, QStringLiteral("trend"));
    m_chartView->setObjectName(QStringLiteral("trendChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 260);
    // Hover and click pick the nearest drawn point within a few pixels, whatever series (a
    // contract line, the highlight) lies on top of it.
    m_chartView->viewport()->setMouseTracking(true);
    m_chartView->viewport()->installEventFilter(this);
    m_legend = makeLegend();

    m_changeList = makeChangeList();

    // The selected run's identity sits under the chart, where a full image digest and the
    // tuning string fit on one line.
    m_detail = new QFrame(this);
    m_detail->setObjectName(QStringLiteral("pointDetail"));
    static_cast<QFrame *>(m_detail)->setFrameShape(QFrame::StyledPanel);
    auto *detailTitle = new QLabel(tr("Selected run"), m_detail);
    QFont bold = detailTitle->font();
    bold.setBold(true);
    detailTitle->setFont(bold);
    m_detailHint = new QLabel(m_detail);
    auto *identity = new QFormLayout;
    addDetailField(identity, QStringLiteral("runKey"), tr("Run key"));
    addDetailField(identity, QStringLiteral("timestamp"), tr("Time"));
    addDetailField(identity, QStringLiteral("value"), tr("Value"));
    auto *build = new QFormLayout;
    addDetailField(build, QStringLiteral("commit"), tr("Commit"));
    addDetailField(build, QStringLiteral("imageDigest"), tr("Image digest"));
    addDetailField(build, QStringLiteral("tuning"), tr("Tuning"));
    addDetailField(identity, QStringLiteral("change"), tr("Change point"));
    addDetailField(build, QStringLiteral("vsBaseline"), tr("vs baseline"));
    m_useAsBaseline = new QPushButton(tr("Use as baseline"), m_detail);
    m_useAsBaseline->setObjectName(QStringLiteral("useAsBaseline"));
    m_useAsBaseline->setToolTip(tr("Show every other run's delta against this run"));
    m_useAsBaseline->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    connect(m_useAsBaseline, &QPushButton::clicked, this, [this] {
        if (m_selected >= 0)
            setBaselineRun(
                qtext(m_series->points[static_cast<size_t>(m_selected)].runKey));
    });
    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(detailTitle);
    titleRow->addWidget(m_detailHint, 1);
    titleRow->addWidget(m_useAsBaseline);
    auto *fields = new QHBoxLayout;
    fields->addLayout(identity, 2);
    fields->addSpacing(16);
    fields->addLayout(build, 3);
    auto *detailLayout = new QVBoxLayout(m_detail);
    detailLayout->addLayout(titleRow);
    detailLayout->addLayout(fields);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(choices);
    layout->addLayout(rangeRow);
    layout->addWidget(m_chartView, 3);
    layout->addWidget(m_legend);
    layout->addWidget(m_changeSummary);
    layout->addWidget(m_changeList, 1);
    layout->addWidget(m_detail);

    connect(m_scenarioCombo, &QComboBox::currentIndexChanged, this, &TrendsView::loadMetrics);
    connect(m_metricCombo, &QComboBox::currentIndexChanged, this, &TrendsView::loadSeries);

    clearPointDetail();
    showEmptyChart(tr("Loading…"));
}


QLabel *TrendsView::addDetailField(QFormLayout *form, const QString &field, const QString &label)
{
    auto *value = new QLabel(m_detail);
    value->setObjectName(QStringLiteral("pointDetail_") + field);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(label + QLatin1Char(':'), value);
    return value;
}

int TrendsView::pointCount() const
{
    return static_cast<int>(m_series->points.size());
}

QString TrendsView::pointDetailText(const QString &field) const
{
    const auto *label = m_detail->findChild<QLabel *>(QStringLiteral("pointDetail_") + field);
    return label ? label->text() : QString();
}

void TrendsView::reload()
{
    const std::string path = storePath().toStdString();
    m_scenarioLoader->start(
        [path] { return Store(path).scenarioNames(); },
        [this](const std::vector<std::string> &names) {
            refill(m_scenarioCombo, names);
            choose(m_scenarioCombo, std::exchange(m_pendingScenario, {}));
            refillOverlays();
            emit scenariosLoaded(static_cast<int>(names.size()));
            // The store changed under an unchanged choice too: re-read the metrics and series.
            loadMetrics();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void TrendsView::loadMetrics()
{
    refillOverlays();
    const QString scenario = m_scenarioCombo->currentText();
    if (scenario.isEmpty()) {
        m_metricLoader->cancel();
        m_seriesLoader->cancel();
        refill(m_metricCombo, {});
        showSeries(std::make_shared<const AnnotatedSeries>());
        emit metricsLoaded(0);
        return;
    }
    const std::string path = storePath().toStdString();
    const std::string name = scenario.toStdString();
    m_metricLoader->start(
        [path, name] { return Store(path).metricNames(name); },
        [this](const std::vector<std::string> &metrics) {
            // A scenario first shown opens on its throughput, the series a trend is read by.
            refill(m_metricCombo, metrics, kHeadlineThroughputMetrics);
            choose(m_metricCombo, std::exchange(m_pendingMetric, {}));
            emit metricsLoaded(static_cast<int>(metrics.size()));
            loadSeries();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void TrendsView::loadSeries()
{
    refillOverlays(); // the metric entries leave out the plotted metric
    const QString scenario = m_scenarioCombo->currentText();
    const QString metric = m_metricCombo->currentText();
    if (scenario.isEmpty() || metric.isEmpty()) {
        m_seriesLoader->cancel();
        auto empty = std::make_shared<AnnotatedSeries>();
        empty->scenario = scenario.toStdString();
        empty->metric = metric.toStdString();
        showSeries(std::move(empty));
        return;
    }
    loadOverlays();
    const std::string path = storePath().toStdString();
    m_seriesLoader->start(
        [path, s = scenario.toStdString(),
         m = metric.toStdString()](const LatestTask::Staleness &stale) -> LoadedSeries {
            // Reading, contracts, change detection and the choice of drawn points all happen
            // here, off the UI thread; a series nobody waits for any more stops early.
            return std::make_shared<const AnnotatedSeries>(
                annotateSeries(path, s, m, {}, kMaxDrawnTrendPoints, stale));
        },
        [this](const LoadedSeries &series) { showSeries(series); },
        [this](const QString &error) { emit loadFailed(error); });
}

void TrendsView::showEmptyChart(const QString &title)
{
    m_chart->setTitle(title);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    setTimeRange(now - 6 * kDayMs, now);
    m_valueAxis->setRange(0, 1);
    m_valueAxis->setTitleText(QString());
}

void TrendsView::showSeries(LoadedSeries series)
{
    const QString previousKey =
        m_selected >= 0 ? qtext(m_series->points[size_t(m_selected)].runKey)
                        : QString();
    m_selected = -1;
    m_highlight->clear();
    releaseInBackground(std::exchange(m_series, std::move(series)));
    const AnnotatedSeries &data = *m_series;

    const MetricInfo *info = findMetric(data.metric);
    const double maxAbs = std::max(std::abs(data.minValue), std::abs(data.maxValue));
    const AxisScale scale = axisScaleFor(info ? info->unit : std::string_view(), maxAbs);
    m_displayFactor = scale.factor;

    if (data.points.empty()) {
        m_baseline = -1;
        m_drawn.clear();
        m_line->clear();
        for (OverlaySlot &slot : m_overlays)
            slot.line->clear();
        for (QValueAxis *axis : m_overlayAxes)
            axis->setVisible(false);
        m_scatter->clear();
        drawMarks();
        m_changes->setSeries(m_series, {});
        summarizeChanges();
        refillTargets();
        refillLoads();
        clearPointDetail();
        showEmptyChart(m_scenarioCombo->count() == 0
                           ? tr("No runs in the store yet: import results with File ▸ Import…")
                           : tr("No values of this metric"));
        emit seriesLoaded(0);
        return;
    }

    const QString metric = QString::fromStdString(data.metric);
    QString title = QStringLiteral("%1 — %2").arg(QString::fromStdString(data.scenario), metric);
    if (data.samplesLeftOut > 0)
        title += data.samplesLeftOut == 1 ? tr(" (1 sample run left out: your own runs measure it)")
                                          : tr(" (%1 sample runs left out: your own runs measure it)").arg(data.samplesLeftOut);
    if (data.loads.size() > 1)
        title += tr(" — runs at %1 loads: each load its own series, one shown").arg(data.loads.size());
    if (data.timeInferredPoints > 0)
        title += data.timeInferredPoints == 1
                     ? tr(" — 1 run dated by its file's time: no change point through it")
                     : tr(" — %1 runs dated by their file's time: no change point through them")
                           .arg(data.timeInferredPoints);
    m_chart->setTitle(title);
    // The chart's title names the metric: the axis says its unit, which fits beside the ticks.
    m_valueAxis->setTitleText(scale.unit);
    refillTargets();
    refillLoads();
    applyPreset();
    int keep = -1;
    m_baseline = -1;
    if (!previousKey.isEmpty() || !m_baselineKey.isEmpty()) {
        const std::string previous = previousKey.toStdString();
        const std::string baseline = m_baselineKey.toStdString();
        for (size_t i = 0; i < data.points.size(); ++i) {
            if (data.points[i].runKey == previous)
                keep = static_cast<int>(i);
            if (data.points[i].runKey == baseline)
                m_baseline = static_cast<int>(i);
        }
    }
    const std::string pending = std::exchange(m_pendingRun, {}).toStdString();
    for (size_t i = 0; !pending.empty() && i < data.points.size(); ++i)
        if (data.points[i].runKey == pending)
            keep = static_cast<int>(i);
    showRange();
    if (keep >= 0 && !shown(size_t(keep)) && !pending.empty()) {
        m_targetCombo->setCurrentIndex(0); // every target
        m_loadCombo->setCurrentIndex(1 + data.loadOfContract[std::size_t(data.marks[size_t(keep)].contract)]);
        resetRange();
    }
    if (keep >= 0 && shown(size_t(keep)))
        selectPoint(keep);
    else
        clearPointDetail();
    emit seriesLoaded(static_cast<int>(data.points.size()));
}

void TrendsView::openSeries(const QString &scenario, const QString &metric, const QString &runKey)
{
    m_pendingMetric = metric;
    m_pendingRun = runKey;
    if (m_scenarioCombo->findText(scenario) < 0) {
        // Not listed yet (the view has not read the store, or the store changed): the reload
        // picks it.
        m_pendingScenario = scenario;
        reload();
        return;
    }
    choose(m_scenarioCombo, scenario);
    loadMetrics();
}

void TrendsView::setTimeRange(qint64 firstMs, qint64 lastMs)
{
    const TimeRange range = timeRangeFor(firstMs, lastMs);
    m_timeAxis->setRange(range.from, range.to);
    m_timeAxis->setTickCount(range.ticks);
    m_timeAxis->setFormat(range.format);
}

void TrendsView::showRange()
{
    const AnnotatedSeries &data = *m_series;
    const double from = std::max(m_fromMs, data.firstMs), to = std::min(m_toMs, data.lastMs);
    if (from <= data.firstMs && to >= data.lastMs && m_target < 0 && m_load < 0) {
        m_drawn = data.drawn;
    } else {
        // One pass over the points in memory (a timestamp's text order, which the store reads
        // by, need not be its time order across zones), thinned as a whole series is.
        std::vector<std::size_t> kept;
        std::vector<double> x, y;
        for (std::size_t i = 0; i < data.points.size(); ++i) {
            if (!shown(i))
                continue;
            kept.push_back(i);
            x.push_back(data.points[i].timeMs);
            y.push_back(data.points[i].value);
        }
        m_drawn = lttbIndices(x, y, kMaxDrawnTrendPoints);
        for (std::size_t &i : m_drawn)
            i = kept[i];
    }
    // Only the drawn selection reaches the chart; every point stays in m_series for the detail.
    QList<QPointF> drawn;
    drawn.reserve(static_cast<qsizetype>(m_drawn.size()));
    double yMin = std::numeric_limits<double>::max(), yMax = std::numeric_limits<double>::lowest();
    for (const std::size_t i : m_drawn) {
        const double y = data.points[i].value * m_displayFactor;
        drawn.append(QPointF(data.points[i].timeMs, y));
        yMin = std::min(yMin, y);
        yMax = std::max(yMax, y);
    }
    m_line->replace(drawn);
    drawOverlays(yMin, yMax);
    // A lone point has no line to lead the eye to it: draw it larger.
    m_scatter->setMarkerSize(drawn.size() <= 2 ? 14 : 10);
    const bool marked = size_t(drawn.size()) <= kMaxMarkedPoints;
    m_scatter->replace(marked ? drawn : QList<QPointF>());
    // Without markers, a hairline: the raster engine strokes a cosmetic one-pixel pen directly,
    // while a wider pen over thousands of zig-zags is outlined first (ten times the cost).
    m_line->setPen(QPen(trendLineColor(), marked ? 2 : 1));

    setTimeRange(static_cast<qint64>(std::isfinite(m_fromMs) ? m_fromMs : data.firstMs),
                 static_cast<qint64>(std::isfinite(m_toMs) ? m_toMs : data.lastMs));
    if (drawn.isEmpty()) {
        yMin = 0;
        yMax = 1;
    }
    const double ySpan = yMax - yMin;
    const double yPad = ySpan > 0 ? ySpan * 0.1 : (yMax != 0 ? std::abs(yMax) * 0.1 : 1.0);
    double low = yMin - yPad;
    if (yMin >= 0)
        low = std::max(0.0, low); // a throughput or latency axis below zero reads as an error
    m_valueAxis->setRange(low, yMax + yPad);
    m_valueAxis->applyNiceNumbers();
    drawMarks(); // after the axes: contract lines span the value range, the baseline the time range
    const std::shared_ptr<const AnnotatedSeries> series = m_series;
    m_changes->setSeries(series, [this](int i) { return shown(std::size_t(i)); });
    summarizeChanges();
    if (m_selected >= 0 && !shown(std::size_t(m_selected)))
        clearPointDetail();
}

void TrendsView::selectPoint(int index)
{
    if (index < 0 || index >= pointCount())
        return;
    m_selected = index;
    const ChartPoint &point = m_series->points[static_cast<size_t>(index)];
    auto set = [this](const char *field, const QString &text) {
        m_detail->findChild<QLabel *>(QStringLiteral("pointDetail_") + QLatin1String(field))
            ->setText(text);
    };
    set("runKey", qtext(point.runKey));
    set("timestamp", displayTimestamp(point.timestamp) +
                         (m_series->marks[size_t(index)].timeInferred
                              ? tr(" (its file's modification time or the time of import, not the run's)")
                              : QString()));
    set("value", displayMetric(m_series->metric, point.value));
    set("commit",
        point.commit.empty() ? QStringLiteral("—") : qtext(point.commit));
    set("imageDigest", point.imageDigest.empty() ? QStringLiteral("—")
                                                 : qtext(point.imageDigest));
    set("tuning", point.tuning ? compactJson(*point.tuning) : QStringLiteral("—"));
    set("change", pointSummary(static_cast<size_t>(index)));
    set("vsBaseline", baselineDeltaText(static_cast<size_t>(index)));
    m_useAsBaseline->setEnabled(true);
    m_detailHint->hide();

    m_highlight->clear();
    m_highlight->append(point.timeMs, point.value * m_displayFactor);
    // The list follows a point picked on the chart; a row picked in the list is already current.
    m_syncingList = true;
    const int row = m_changes->rowOfPoint(index);
    if (row < 0)
        m_changeList->clearSelection();
    else if (!m_changeList->currentIndex().isValid() ||
             m_changeList->currentIndex().data(TrendChangesTableModel::PointRole).toInt() != index)
        m_changeList->setCurrentIndex(m_changes->index(row, 0));
    m_syncingList = false;
    emit pointSelected(qtext(point.runKey));
}

void TrendsView::clearPointDetail()
{
    m_selected = -1;
    m_highlight->clear();
    for (QLabel *label : m_detail->findChildren<QLabel *>()) {
        if (label->objectName().startsWith(QLatin1String("pointDetail_")))
            label->setText(QStringLiteral("—"));
    }
    m_useAsBaseline->setEnabled(false);
    m_detailHint->setText(tr("Click a point to see its run."));
    m_detailHint->show();
}

} // namespace plimsoll
