// The Trends view's marks: change points, outliers, contract changes, the baseline and the hover text.
#include "ui/views/trendsview.h"

#include "ui/charts/trendmarkstyle.h"
#include "ui/formatting.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QDateTimeAxis>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace plimsoll {

std::vector<int> TrendsView::changePointIndexes() const
{
    return m_series->changePoints;
}

std::vector<int> TrendsView::newBaselineIndexes() const
{
    return m_series->newBaselines;
}

std::vector<int> TrendsView::outlierIndexes() const
{
    return m_series->outliers;
}

std::vector<int> TrendsView::noiseChangeIndexes() const
{
    return m_series->noiseChanges;
}

std::vector<QLineF> TrendsView::drawnDrifts() const
{
    std::vector<QLineF> lines;
    for (const QLineSeries *line : m_driftLines)
        lines.emplace_back(line->at(0), line->at(1));
    return lines;
}

void TrendsView::setBaselineRun(const QString &runKey)
{
    m_baselineKey = runKey;
    m_baseline = -1;
    const std::string key = runKey.toStdString();
    for (size_t i = 0; !key.empty() && i < m_series->points.size(); ++i)
        if (m_series->points[i].runKey == key)
            m_baseline = static_cast<int>(i);
    drawMarks();
    if (m_selected >= 0)
        selectPoint(m_selected);
}

void TrendsView::drawMarks()
{
    for (QScatterSeries *s : {m_regressions, m_improvements, m_neutralChanges, m_outliers, m_noiseMarks})
        s->clear();
    m_baselineLevel->clear();
    for (std::vector<QLineSeries *> *lines : {&m_contractLines, &m_driftLines}) {
        for (QLineSeries *line : *lines) {
            m_chart->removeSeries(line);
            delete line;
        }
        lines->clear();
    }
    const AnnotatedSeries &data = *m_series;
    // Only the marked points are visited: the series itself may be years of nightly runs.
    // Each series is filled in one replace(): an append() relayouts the whole series each time.
    QList<QPointF> regressions, improvements, neutral;
    if (data.points.empty())
        return;
    const double from = std::max(m_fromMs, data.firstMs), to = std::min(m_toMs, data.lastMs);
    const auto keep = [this](int i) { return shown(std::size_t(i)); };
    for (const int i : marksToDraw(data, data.changePoints, from, to, true, keep)) {
        const ChartPoint &p = data.points[size_t(i)];
        const Verdict verdict = data.marks[size_t(i)].verdict;
        QList<QPointF> &target = verdict == Verdict::Regression    ? regressions
                                 : verdict == Verdict::Improvement ? improvements
                                                                   : neutral;
        target.append(QPointF(p.timeMs, p.value * m_displayFactor));
    }
    m_regressions->replace(regressions);
    m_improvements->replace(improvements);
    m_neutralChanges->replace(neutral);
    QList<QPointF> outliers;
    for (const int i : marksToDraw(data, data.outliers, from, to, false, keep))
        outliers.append(QPointF(data.points[size_t(i)].timeMs, data.points[size_t(i)].value * m_displayFactor));
    m_outliers->replace(outliers);
    QList<QPointF> noise;
    for (const int i : marksToDraw(data, data.noiseChanges, from, to, false, keep))
        noise.append(QPointF(data.points[size_t(i)].timeMs, data.points[size_t(i)].value * m_displayFactor));
    m_noiseMarks->replace(noise);
    // A drift is the line fitted through its stretch, over the runs it spans (the part shown).
    for (const DriftSpan &d : data.drifts) {
        const ChartPoint &first = data.points[size_t(d.from)], &last = data.points[size_t(d.to)];
        if (last.timeMs < from || first.timeMs > to || !shown(size_t(d.from)) || !shown(size_t(d.to)))
            continue;
        auto *line = new QLineSeries(m_chart);
        line->setObjectName(QStringLiteral("drift"));
        line->setPen(QPen(trendVerdictColor(d.verdict), 3, Qt::DashDotLine));
        line->append(first.timeMs, d.valueFrom * m_displayFactor);
        line->append(last.timeMs, d.valueTo * m_displayFactor);
        m_chart->addSeries(line);
        line->attachAxis(m_timeAxis);
        line->attachAxis(m_valueAxis);
        m_driftLines.push_back(line);
    }
    const double yLow = m_valueAxis->min();
    const double yHigh = m_valueAxis->max();
    for (const int i : marksToDraw(data, data.newBaselines, from, to, false, keep)) {
        const double ms = data.points[size_t(i)].timeMs;
        auto *line = new QLineSeries(m_chart);
        line->setObjectName(QStringLiteral("contractChange"));
        line->setPen(QPen(trendContractColor(), 1.5, Qt::DashLine));
        line->append(ms, yLow);
        line->append(ms, yHigh);
        m_chart->addSeries(line);
        line->attachAxis(m_timeAxis);
        line->attachAxis(m_valueAxis);
        m_contractLines.push_back(line);
    }
    if (m_baseline >= 0) {
        // The level the other runs are compared with, across the whole time axis.
        const double y = data.points[size_t(m_baseline)].value * m_displayFactor;
        m_baselineLevel->append(static_cast<qreal>(m_timeAxis->min().toMSecsSinceEpoch()), y);
        m_baselineLevel->append(static_cast<qreal>(m_timeAxis->max().toMSecsSinceEpoch()), y);
    }
}

QString TrendsView::pointSummary(size_t index) const
{
    const PointMark &m = m_series->marks[index];
    QStringList parts;
    if (m.changePoint)
        parts << tr("%1 %2 (p = %3)%4")
                     .arg(QString::asprintf("%+.1f %%", m.forwardChangePercent),
                          QString::fromLatin1(toString(m.verdict)), QString::number(m.pValue, 'g', 2),
                          m.provisional ? tr(", provisional: fewer than %1 runs after it")
                                              .arg(SeriesAnalysisOptions{}.minSegment)
                                        : QString());
    if (m.outlier)
        parts << (std::isfinite(m.outlierSigmas)
                      ? tr("outlier %1 (%2 σ of noise), %3: left out of the change points")
                            .arg(QString::asprintf("%+.1f %%", m.outlierPercent),
                                 QString::asprintf("%+.1f", m.outlierSigmas),
                                 QString::fromLatin1(toString(m.outlierVerdict)))
                      : tr("outlier %1 beside runs without noise, %2: left out of the change points")
                            .arg(QString::asprintf("%+.1f %%", m.outlierPercent),
                                 QString::fromLatin1(toString(m.outlierVerdict))));
    if (m.noiseChange)
        parts << tr("noise change: ×%1 the spread from here (p = %2)")
                     .arg(QString::number(m.noiseRatio, 'g', 2), QString::number(m.noisePValue, 'g', 2));
    for (const DriftSpan &d : m_series->drifts)
        if (int(index) >= d.from && int(index) <= d.to)
            parts << tr("in a drift of %1 over %2 runs%3, %4")
                         .arg(QString::asprintf("%+.1f %%", d.changePercent()))
                         .arg(d.to - d.from + 1)
                         .arg(d.perDay != 0 ? tr(" (%1%2 per day)")
                                                                  .arg(d.perDay > 0 ? QStringLiteral("+") : QString(),
                                                                       displayMetric(m_series->metric, d.perDay))
                                            : QString())
                         .arg(QString::fromLatin1(toString(d.verdict)));
    if (m.newBaseline) {
        QStringList keys;
        for (const ContractDifference &d : m.differences)
            keys << QString::fromStdString(d.key);
        parts << tr("new baseline: contract changed (%1)").arg(keys.join(QStringLiteral(", ")));
    }
    return parts.isEmpty() ? QStringLiteral("—") : parts.join(QStringLiteral("; "));
}

QString TrendsView::baselineDeltaText(size_t index) const
{
    if (m_baselineKey.isEmpty())
        return tr("— (no baseline chosen)");
    if (m_baseline < 0)
        return tr("baseline %1 has no value here").arg(m_baselineKey);
    const size_t b = size_t(m_baseline);
    if (b == index)
        return tr("this is the baseline");
    const std::vector<PointMark> &marks = m_series->marks;
    // Runs under different contracts are not compared: say so instead of a number.
    if (marks[b].contract != marks[index].contract)
        return tr("incompatible baseline (tuning contract differs)");
    const double base = m_series->points[b].value;
    const double delta = m_series->points[index].value - base;
    const Verdict v = verdictForDelta(trendDirection(m_series->metric), delta);
    QString text = (delta > 0 ? QStringLiteral("+") : QString()) + displayMetric(m_series->metric, delta);
    if (base != 0)
        text += QString::asprintf(" (%+.2f %%)", delta / std::abs(base) * 100);
    return text + QStringLiteral(" ") + QString::fromLatin1(toString(v)) + tr(" vs %1").arg(m_baselineKey);
}

QString TrendsView::hoverText(size_t index) const
{
    const ChartPoint &p = m_series->points[index];
    QString text = tr("<b>%1</b><br>%2<br>%3<br>commit %4<br>image %5<br>tuning %6")
                       .arg(qtext(p.runKey).toHtmlEscaped(), displayTimestamp(p.timestamp),
                            displayMetric(m_series->metric, p.value),
                            p.commit.empty() ? QStringLiteral("—") : qtext(p.commit).toHtmlEscaped(),
                            p.imageDigest.empty() ? QStringLiteral("—")
                                                  : qtext(p.imageDigest).toHtmlEscaped(),
                            (p.tuning ? compactJson(*p.tuning) : QStringLiteral("—")).toHtmlEscaped());
    const QString change = pointSummary(index);
    if (change != QStringLiteral("—"))
        text += QStringLiteral("<br>") + change.toHtmlEscaped();
    return text;
}

} // namespace plimsoll
