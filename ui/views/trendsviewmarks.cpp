// The Trends view's marks: change points, contract changes, the baseline and the hover text.
#include "ui/views/trendsview.h"

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

#include <cmath>
#include <limits>

namespace plimsoll {

std::vector<int> TrendsView::changePointIndexes() const
{
    std::vector<int> out;
    for (size_t i = 0; i < m_marks.size(); ++i)
        if (m_marks[i].changePoint)
            out.push_back(static_cast<int>(i));
    return out;
}

std::vector<int> TrendsView::newBaselineIndexes() const
{
    std::vector<int> out;
    for (size_t i = 0; i < m_marks.size(); ++i)
        if (m_marks[i].newBaseline)
            out.push_back(static_cast<int>(i));
    return out;
}

void TrendsView::setBaselineRun(const QString &runKey)
{
    m_baselineKey = runKey;
    drawMarks();
    if (m_selected >= 0)
        selectPoint(m_selected);
}

void TrendsView::drawMarks()
{
    for (QScatterSeries *s : {m_regressions, m_improvements, m_neutralChanges})
        s->clear();
    m_baselineLevel->clear();
    for (QLineSeries *line : m_contractLines) {
        m_chart->removeSeries(line);
        delete line;
    }
    m_contractLines.clear();
    const double yLow = m_valueAxis->min();
    const double yHigh = m_valueAxis->max();
    for (size_t i = 0; i < m_points.size(); ++i) {
        const auto ms = static_cast<qreal>(parseStoredTimestamp(m_points[i].timestamp).toMSecsSinceEpoch());
        const double y = m_points[i].value * m_displayFactor;
        const PointMark &mark = m_marks[i];
        if (mark.changePoint) {
            QScatterSeries *target = mark.verdict == Verdict::Regression    ? m_regressions
                                     : mark.verdict == Verdict::Improvement ? m_improvements
                                                                            : m_neutralChanges;
            target->append(ms, y);
        }
        if (mark.newBaseline) {
            auto *line = new QLineSeries(m_chart);
            line->setObjectName(QStringLiteral("contractChange"));
            line->setPen(QPen(QColor(0xff, 0x7f, 0x0e), 1.5, Qt::DashLine));
            line->append(ms, yLow);
            line->append(ms, yHigh);
            m_chart->addSeries(line);
            line->attachAxis(m_timeAxis);
            line->attachAxis(m_valueAxis);
            m_contractLines.push_back(line);
        }
        if (!m_baselineKey.isEmpty() && QString::fromStdString(m_points[i].runKey) == m_baselineKey) {
            // The level the other runs are compared with, across the whole time axis.
            m_baselineLevel->append(static_cast<qreal>(m_timeAxis->min().toMSecsSinceEpoch()), y);
            m_baselineLevel->append(static_cast<qreal>(m_timeAxis->max().toMSecsSinceEpoch()), y);
        }
    }
}

QString TrendsView::pointSummary(size_t index) const
{
    const PointMark &m = m_marks[index];
    QStringList parts;
    if (m.changePoint)
        parts << tr("%1 %2 (p = %3)")
                     .arg(QString::asprintf("%+.1f %%", m.forwardChangePercent),
                          QString::fromLatin1(toString(m.verdict)), QString::number(m.pValue, 'g', 2));
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
    for (size_t b = 0; b < m_points.size(); ++b) {
        if (QString::fromStdString(m_points[b].runKey) != m_baselineKey)
            continue;
        if (b == index)
            return tr("this is the baseline");
        // Runs under different contracts are not compared: say so instead of a number.
        if (m_marks[b].contract != m_marks[index].contract)
            return tr("incompatible baseline (tuning contract differs)");
        const double base = m_points[b].value;
        const double delta = m_points[index].value - base;
        const Verdict v = verdictForDelta(trendDirection(m_series.metric), delta);
        QString text = (delta > 0 ? QStringLiteral("+") : QString()) + displayMetric(m_series.metric, delta);
        if (base != 0)
            text += QString::asprintf(" (%+.2f %%)", delta / std::abs(base) * 100);
        return text + QStringLiteral(" ") + QString::fromLatin1(toString(v)) + tr(" vs %1").arg(m_baselineKey);
    }
    return tr("baseline %1 has no value here").arg(m_baselineKey);
}

void TrendsView::showHover(const QPointF &point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    const QPointF hovered = m_chart->mapToPosition(point, m_scatter);
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (qsizetype i = 0; i < m_scatter->count(); ++i) {
        const QPointF pos = m_chart->mapToPosition(m_scatter->at(i), m_scatter);
        const double d = std::hypot(pos.x() - hovered.x(), pos.y() - hovered.y());
        if (d < bestDistance) {
            bestDistance = d;
            best = static_cast<int>(i);
        }
    }
    if (best < 0)
        return;
    const SeriesPoint &p = m_points[static_cast<size_t>(best)];
    QString text = tr("<b>%1</b><br>%2<br>%3<br>commit %4<br>image %5<br>tuning %6")
                       .arg(QString::fromStdString(p.runKey).toHtmlEscaped(), displayTimestamp(p.timestamp),
                            displayMetric(m_series.metric, p.value),
                            p.commit.empty() ? QStringLiteral("—") : QString::fromStdString(p.commit).toHtmlEscaped(),
                            p.imageDigest.empty() ? QStringLiteral("—")
                                                  : QString::fromStdString(p.imageDigest).toHtmlEscaped(),
                            compactJson(p.tuning).toHtmlEscaped());
    const QString change = pointSummary(static_cast<size_t>(best));
    if (change != QStringLiteral("—"))
        text += QStringLiteral("<br>") + change.toHtmlEscaped();
    QToolTip::showText(QCursor::pos(), text, m_chartView);
}

} // namespace plimsoll
