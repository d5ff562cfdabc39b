// The Trends view's overlays: other scenarios' series of the plotted metric, and other metrics
// of the plotted scenario, dashed over the plotted series; each read in the background like it.
#include "ui/views/trendsview.h"

#include "model/core/catalog.h"
#include "model/trends/downsample.h"
#include "ui/backgroundpool.h"
#include "ui/charts/trendmarkstyle.h"
#include "ui/formatting.h"
#include "ui/latesttask.h"
#include "ui/widgets/elidingcombobox.h"
#include "ui/widgets/elidinglabel.h"

#include <QChart>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QSignalBlocker>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace plimsoll {

namespace {

const QLatin1String kScenarioKey("s:"), kMetricKey("m:");

std::string_view unitOf(const std::string &metric)
{
    const MetricInfo *info = findMetric(metric);
    return info ? std::string_view(info->unit) : std::string_view();
}

double maxAbsOf(const AnnotatedSeries &s)
{
    return std::max(std::abs(s.minValue), std::abs(s.maxValue));
}

// An axis ranged to its values with a tenth of their span on each side, never below zero for
// values that are not.
void rangeTo(QValueAxis *axis, double low, double high)
{
    if (low > high) {
        low = 0;
        high = 1;
    }
    const double pad = high > low ? (high - low) * 0.1 : (high != 0 ? std::abs(high) * 0.1 : 1.0);
    axis->setRange(low >= 0 ? std::max(0.0, low - pad) : low - pad, high + pad);
    axis->applyNiceNumbers();
}

// A few points get a marker each, as the plotted series does: a series of one run has no line
// to draw.
void showPoints(QLineSeries *line, const QList<QPointF> &points)
{
    line->setPointsVisible(size_t(points.size()) <= TrendsView::kMaxMarkedPoints);
    line->replace(points);
}

} // namespace

void TrendsView::makeOverlays(QHBoxLayout *choices)
{
    m_overlayCombo = new ElidingComboBox(this);
    m_overlayCombo->setObjectName(QStringLiteral("overlayCombo"));
    m_overlayCombo->setMinimumContentsLength(14);
    m_overlayCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_overlayCombo->addItem(tr("Add overlay…"));
    choices->addWidget(new QLabel(tr("Overlay"), this));
    choices->addWidget(m_overlayCombo, 1);
    choices->addStretch();
    connect(m_overlayCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index > 0)
            addOverlay(m_overlayCombo->itemData(index).toString());
    });
    for (int i = 0; i < kMaxTrendOverlays; ++i) {
        OverlaySlot &slot = m_overlays[size_t(i)];
        slot.loader = new LatestTask(this);
        slot.series = std::make_shared<const AnnotatedSeries>();
        slot.line = new QLineSeries(m_chart);
        slot.line->setObjectName(QStringLiteral("overlayLine"));
        slot.line->setPen(QPen(trendOverlayColor(i), 2, Qt::DashLine));
        m_chart->addSeries(slot.line);
    }
}

void TrendsView::makeOverlayAxes()
{
    for (int i = 0; i < kMaxTrendOverlays; ++i) {
        auto *axis = new QValueAxis(m_chart);
        axis->setLabelFormat(QStringLiteral("%.4g"));
        axis->setGridLineVisible(false);
        axis->setVisible(false);
        m_chart->addAxis(axis, Qt::AlignRight);
        m_overlayAxes[size_t(i)] = axis;
        m_overlays[size_t(i)].line->attachAxis(m_timeAxis);
        m_overlays[size_t(i)].line->attachAxis(m_valueAxis);
    }
}

bool TrendsView::isMetricOverlay(const OverlaySlot &slot) const
{
    return slot.key.startsWith(kMetricKey);
}

// The combo's entries: "s:<scenario>" (same metric) or "m:<metric>" (same scenario), without the
// plotted series and those drawn already. An overlay the plotted choice no longer offers goes.
void TrendsView::refillOverlays()
{
    const QString current = m_scenarioCombo->currentText();
    const QString metric = m_metricCombo->currentText();
    QStringList offered;
    for (int i = 0; i < m_scenarioCombo->count(); ++i)
        if (m_scenarioCombo->itemText(i) != current)
            offered << kScenarioKey + m_scenarioCombo->itemText(i);
    const qsizetype scenarios = offered.size();
    for (int i = 0; i < m_metricCombo->count(); ++i)
        if (m_metricCombo->itemText(i) != metric)
            offered << kMetricKey + m_metricCombo->itemText(i);
    int drawn = 0;
    for (OverlaySlot &slot : m_overlays) {
        // While a scenario's metrics load, the metric list is the previous scenario's: keep a
        // metric overlay until the list it belongs to has arrived.
        const bool metricsPending = isMetricOverlay(slot) && m_metricCombo->count() == 0;
        if (!slot.key.isEmpty() && !offered.contains(slot.key) && !metricsPending)
            clearSlot(slot);
        drawn += slot.key.isEmpty() ? 0 : 1;
    }
    {
        const QSignalBlocker blocker(m_overlayCombo);
        while (m_overlayCombo->count() > 1)
            m_overlayCombo->removeItem(1);
        for (qsizetype i = 0; i < offered.size(); ++i) {
            const QString &key = offered[i];
            if (std::any_of(m_overlays.begin(), m_overlays.end(), [&](const OverlaySlot &s) { return s.key == key; }))
                continue;
            if (i == scenarios && m_overlayCombo->count() > 1)
                m_overlayCombo->insertSeparator(m_overlayCombo->count());
            const QString name = key.mid(2);
            m_overlayCombo->addItem(key.startsWith(kMetricKey) ? tr("%1 (right axis)").arg(name) : name, key);
        }
        m_overlayCombo->setCurrentIndex(0);
    }
    const bool full = drawn == kMaxTrendOverlays;
    m_overlayCombo->setEnabled(!full && m_overlayCombo->count() > 1);
    m_overlayCombo->setToolTip(
        full ? tr("%1 overlays are drawn: remove one (its button in the legend) to add another").arg(kMaxTrendOverlays)
             : tr("Draw another scenario's series of this metric over this one, or another metric of this scenario "
                  "on an axis of its own (right); up to %1 at once")
                   .arg(kMaxTrendOverlays));
}

bool TrendsView::addOverlay(const QString &key)
{
    const int entry = m_overlayCombo->findData(key);
    auto free = std::find_if(m_overlays.begin(), m_overlays.end(), [](const OverlaySlot &s) { return s.key.isEmpty(); });
    if (key.isEmpty() || entry <= 0 || free == m_overlays.end()) {
        const QSignalBlocker blocker(m_overlayCombo);
        m_overlayCombo->setCurrentIndex(0);
        return false;
    }
    free->key = key;
    refillOverlays(); // the entry leaves the combo, which returns to "Add overlay…"
    showOverlayEntry(*free);
    loadOverlay(*free);
    return true;
}

void TrendsView::removeOverlay(const QString &key)
{
    for (OverlaySlot &slot : m_overlays)
        if (!key.isEmpty() && slot.key == key)
            clearSlot(slot);
    refillOverlays();
    if (!m_series->points.empty())
        showRange();
}

void TrendsView::clearOverlays()
{
    for (OverlaySlot &slot : m_overlays)
        clearSlot(slot);
    refillOverlays();
    if (!m_series->points.empty())
        showRange();
}

void TrendsView::clearSlot(OverlaySlot &slot)
{
    slot.loader->cancel();
    slot.key.clear();
    releaseInBackground(std::exchange(slot.series, std::make_shared<const AnnotatedSeries>()));
    slot.line->clear();
    slot.line->setName(QString());
    showOverlayEntry(slot);
}

void TrendsView::loadOverlays()
{
    for (OverlaySlot &slot : m_overlays)
        if (!slot.key.isEmpty())
            loadOverlay(slot);
}

void TrendsView::loadOverlay(OverlaySlot &slot)
{
    const bool otherMetric = isMetricOverlay(slot);
    const QString scenario = otherMetric ? m_scenarioCombo->currentText() : slot.key.mid(2);
    const QString metric = otherMetric ? slot.key.mid(2) : m_metricCombo->currentText();
    if (scenario.isEmpty() || metric.isEmpty()) {
        slot.loader->cancel();
        return;
    }
    const std::string path = storePath().toStdString();
    slot.loader->start(
        [path, s = scenario.toStdString(), m = metric.toStdString()](const LatestTask::Staleness &stale) -> LoadedSeries {
            return std::make_shared<const AnnotatedSeries>(annotateSeries(path, s, m, {}, kMaxDrawnTrendPoints, stale));
        },
        [this, &slot](const LoadedSeries &series) {
            releaseInBackground(std::exchange(slot.series, series));
            if (!m_series->points.empty())
                showRange();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void TrendsView::showOverlayEntry(OverlaySlot &slot)
{
    const QString name = slot.key.mid(2);
    slot.line->setName(slot.key.isEmpty()      ? QString()
                       : isMetricOverlay(slot) ? tr("%1 (dashed, right axis)").arg(name)
                                               : tr("%1 (dashed)").arg(name));
    auto *text = slot.entry->findChild<ElidingLabel *>(QStringLiteral("legendOverlay"));
    text->setFullText(slot.line->name());
    text->setToolTip(isMetricOverlay(slot) ? tr("%1: another metric of this scenario, on the right axis").arg(name)
                                           : tr("%1: another scenario's series of this metric").arg(name));
    // The entries drawn, in slot order, two to a row with no gap where one was removed.
    auto *grid = static_cast<QGridLayout *>(m_overlayLegend->layout());
    int shown = 0;
    for (OverlaySlot &s : m_overlays) {
        grid->removeWidget(s.entry);
        s.entry->setVisible(!s.key.isEmpty());
        if (!s.key.isEmpty()) {
            grid->addWidget(s.entry, shown / 2, shown % 2);
            ++shown;
        }
    }
    m_overlayLegend->setVisible(shown > 0);
}

QList<QPointF> TrendsView::overlayPoints(const OverlaySlot &slot, double factor) const
{
    const AnnotatedSeries &o = *slot.series;
    QList<QPointF> out;
    // What the slot asked for, of what is plotted now: a scenario's same metric, or this
    // scenario's other metric (until the reads for a new choice land).
    const bool wanted = isMetricOverlay(slot)
                            ? o.scenario == m_series->scenario && o.metric == slot.key.mid(2).toStdString()
                            : o.metric == m_series->metric && o.scenario == slot.key.mid(2).toStdString();
    if (slot.key.isEmpty() || o.points.empty() || !wanted || o.metric.empty())
        return out;
    std::vector<double> x, y;
    for (std::size_t i = 0; i < o.points.size(); ++i) {
        const double t = o.points[i].timeMs;
        if (t < m_fromMs || t > m_toMs)
            continue;
        x.push_back(t);
        y.push_back(o.points[i].value);
    }
    for (std::size_t i : lttbIndices(x, y, kMaxDrawnTrendPoints))
        out.append(QPointF(x[i], y[i] * factor));
    return out;
}

void TrendsView::drawOverlays(double &yMin, double &yMax)
{
    // The metric overlays of one unit share a right axis, scaled for the largest of them.
    struct UnitAxis
    {
        double maxAbs = 0;
        std::vector<OverlaySlot *> members;
    };
    std::map<std::string, UnitAxis> units;
    for (OverlaySlot &slot : m_overlays) {
        if (!isMetricOverlay(slot))
            continue;
        UnitAxis &u = units[std::string(unitOf(slot.key.mid(2).toStdString()))];
        u.maxAbs = std::max(u.maxAbs, maxAbsOf(*slot.series));
        u.members.push_back(&slot);
    }
    auto attach = [](QLineSeries *line, QValueAxis *wanted) {
        for (QAbstractAxis *axis : line->attachedAxes())
            if (axis->orientation() == Qt::Vertical && axis != wanted)
                line->detachAxis(axis);
        if (!line->attachedAxes().contains(wanted))
            line->attachAxis(wanted);
    };
    for (OverlaySlot &slot : m_overlays) {
        if (isMetricOverlay(slot))
            continue;
        const QList<QPointF> points = overlayPoints(slot, m_displayFactor);
        for (const QPointF &p : points) {
            yMin = std::min(yMin, p.y());
            yMax = std::max(yMax, p.y());
        }
        attach(slot.line, m_valueAxis);
        showPoints(slot.line, points);
    }
    size_t next = 0;
    for (auto &[unit, group] : units) {
        QValueAxis *axis = m_overlayAxes[next++];
        const AxisScale scale = axisScaleFor(unit, group.maxAbs);
        double low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
        QStringList names;
        for (OverlaySlot *slot : group.members) {
            const QList<QPointF> points = overlayPoints(*slot, scale.factor);
            for (const QPointF &p : points) {
                low = std::min(low, p.y());
                high = std::max(high, p.y());
            }
            attach(slot->line, axis);
            showPoints(slot->line, points);
            names << slot->key.mid(2);
        }
        // One metric: its name and unit, in its line's colour; several: the unit they share.
        const bool one = group.members.size() == 1;
        const QColor colour = one ? group.members.front()->line->pen().color() : palette().color(QPalette::WindowText);
        axis->setTitleText(one ? tr("%1 (%2)").arg(names.front(), scale.unit) : scale.unit);
        axis->setLinePenColor(colour);
        axis->setLabelsColor(colour);
        axis->setTitleBrush(colour);
        rangeTo(axis, low, high);
        axis->setVisible(true);
    }
    for (; next < m_overlayAxes.size(); ++next)
        m_overlayAxes[next]->setVisible(false);
}

QStringList TrendsView::overlayNames() const
{
    QStringList names;
    for (const OverlaySlot &slot : m_overlays)
        if (!slot.key.isEmpty())
            names << slot.line->name();
    return names;
}

QLineSeries *TrendsView::overlayLine(const QString &name) const
{
    for (const OverlaySlot &slot : m_overlays)
        if (!slot.key.isEmpty() && slot.line->name() == name)
            return slot.line;
    return nullptr;
}

int TrendsView::overlayPointCount(const QString &name) const
{
    int count = 0;
    for (const OverlaySlot &slot : m_overlays)
        if (!slot.key.isEmpty() && (name.isEmpty() || slot.line->name() == name))
            count += int(slot.line->count());
    return count;
}

QList<QValueAxis *> TrendsView::overlayAxes() const
{
    QList<QValueAxis *> shown;
    for (QValueAxis *axis : m_overlayAxes)
        if (axis->isVisible())
            shown << axis;
    return shown;
}

} // namespace plimsoll
