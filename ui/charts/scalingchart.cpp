#include "ui/charts/scalingchart.h"

#include "ui/charts/niceaxis.h"

#include "model/core/catalog.h"

#include <QAreaSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace plimsoll {

namespace {

const QColor kBlue(0x1f, 0x77, 0xb4), kRed(0xd6, 0x27, 0x28), kOrange(0xff, 0x7f, 0x0e),
    kGreen(0x2c, 0xa0, 0x2c), kPurple(0x94, 0x67, 0xbd),
    // The measurements in ink, the model through them in blue: a reader tells the two apart.
    kInk(0x30, 0x30, 0x30);

QValueAxis *axis(QChart *chart, Qt::Alignment where, const QString &title)
{
    auto *a = new QValueAxis(chart);
    a->setTitleText(title);
    a->setLabelFormat(QStringLiteral("%.4g"));
    chart->addAxis(a, where);
    return a;
}

} // namespace

ScalingChart::ScalingChart()
{
    setAnimationOptions(QChart::NoAnimation);
    legend()->setAlignment(Qt::AlignBottom);
    m_bandLo = new QLineSeries(this);
    m_bandHi = new QLineSeries(this);
    m_band = new QAreaSeries(m_bandHi, m_bandLo);
    m_band->setName(tr("95% interval"));
    m_band->setColor(QColor(0x1f, 0x77, 0xb4, 60));
    m_band->setBorderColor(Qt::transparent);
    m_curve = new QLineSeries(this);
    m_curve->setName(tr("USL fit"));
    m_curve->setPen(QPen(kBlue, 2));
    m_measured = new QScatterSeries(this);
    m_measured->setName(tr("measured"));
    m_measured->setMarkerSize(10);
    m_measured->setColor(kInk);
    m_measured->setBorderColor(Qt::white);
    m_saturated = new QScatterSeries(this);
    m_saturated->setName(tr("first saturated step"));
    m_saturated->setMarkerSize(16);
    m_saturated->setColor(kRed);
    m_saturated->setBorderColor(Qt::white);
    m_nStar = new QScatterSeries(this);
    m_nStar->setName(tr("N*"));
    m_nStar->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_nStar->setMarkerSize(13);
    m_nStar->setColor(kPurple);
    m_brokerCpu = new QLineSeries(this);
    m_brokerCpu->setName(tr("broker CPU"));
    m_brokerCpu->setPen(QPen(kOrange, 1.5, Qt::DashLine));
    m_shardCpu = new QLineSeries(this);
    m_shardCpu->setName(tr("hottest shard CPU"));
    m_shardCpu->setPen(QPen(kGreen, 1.5, Qt::DashLine));
    m_x = axis(this, Qt::AlignBottom, QString());
    m_y = axis(this, Qt::AlignLeft, QString());
    m_cpu = axis(this, Qt::AlignRight, tr("CPU (%)"));
    m_cpu->setRange(0, 100);
    for (QAbstractSeries *s : std::initializer_list<QAbstractSeries *>{
             m_band, m_curve, m_measured, m_saturated, m_nStar}) {
        addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    for (QLineSeries *s : {m_brokerCpu, m_shardCpu}) {
        addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_cpu);
    }
    // The band's edge lines are only its geometry; they stay out of the legend.
    for (auto *marker : legend()->markers())
        if (marker->series() == m_bandLo || marker->series() == m_bandHi)
            marker->setVisible(false);
}

void ScalingChart::showEmpty(const QString &title)
{
    for (QXYSeries *s : std::initializer_list<QXYSeries *>{m_measured, m_saturated, m_nStar, m_curve,
                                                           m_bandLo, m_bandHi, m_brokerCpu,
                                                           m_shardCpu})
        s->clear();
    setTitle(title);
    // Nothing to read: no legend of empty series, no CPU axis, whole ticks (not 0.25, 0.5 …).
    legend()->setVisible(false);
    m_cpu->setVisible(false);
    // No factor and no unit of an earlier fit on an empty chart.
    m_x->setTitleText(QString());
    m_y->setTitleText(QString());
    setNiceAxis(m_x, 10, 5);
    setNiceAxis(m_y, 10, 5);
}

AxisScale ScalingChart::showFit(const std::vector<RampPoint> &points, const UslFit &fit,
                                const SaturationResult &saturation, const QString &factor,
                                const std::string &metric)
{
    showEmpty(title());
    legend()->setVisible(true);
    double maxY = 0, maxX = 0;
    for (const RampPoint &p : points) {
        maxY = std::max(maxY, p.y);
        maxX = std::max(maxX, p.x);
    }
    const double xTop = maxX * 1.25;
    // A peak is marked only where measured points bracket it (usl.h, UslPeak).
    const bool showNStar = fit.ok && fit.peakMeasured();
    const double xEnd = showNStar ? std::max(xTop, fit.nStar * 1.1) : xTop;
    if (fit.ok)
        for (int i = 0; i <= 120; ++i)
            maxY = std::max(maxY, fit.predict(std::max(0.25, xEnd * i / 120.0)).hi);
    const MetricInfo *info = findMetric(metric);
    const AxisScale scale = axisScaleFor(info ? info->unit : std::string_view(), maxY);
    for (const RampPoint &p : points) {
        m_measured->append(p.x, p.y * scale.factor);
        if (p.brokerCpu)
            m_brokerCpu->append(p.x, *p.brokerCpu * 100);
        if (p.shardCpu)
            m_shardCpu->append(p.x, *p.shardCpu * 100);
    }
    // The saturation marker sits on the throughput curve: the rule reads records/s.
    if (saturation.firstSaturated >= 0 && metric == "records_per_s") {
        const SaturationStep &s = saturation.steps[size_t(saturation.firstSaturated)];
        m_saturated->append(s.load, s.throughput * scale.factor);
    }
    // The curve is named for the model the points could fix (usl.h, UslModel).
    m_curve->setName(fit.model == UslModel::Linear       ? tr("linear fit")
                     : fit.model == UslModel::Contention ? tr("USL fit, κ = 0")
                                                         : tr("USL fit"));
    if (fit.ok) {
        for (int i = 0; i <= 120; ++i) {
            const double n = std::max(0.25, xEnd * i / 120.0);
            const UslPrediction p = fit.predict(n);
            m_curve->append(n, p.y * scale.factor);
            m_bandLo->append(n, p.lo * scale.factor);
            m_bandHi->append(n, p.hi * scale.factor);
        }
        if (showNStar)
            m_nStar->append(fit.nStar, fit.xAtNStar * scale.factor);
    }
    m_x->setTitleText(factor);
    m_x->setRange(0, xEnd);
    m_x->applyNiceNumbers();
    // Series with nothing to show (no CPU in the steps, no saturated step: a sweep across runs)
    // stay out of the legend, and the CPU axis with them.
    // N* too: a peak the points do not bracket is not marked, nor named in the legend.
    for (QXYSeries *s : std::initializer_list<QXYSeries *>{m_saturated, m_brokerCpu, m_shardCpu, m_nStar})
        for (QLegendMarker *marker : legend()->markers(s))
            marker->setVisible(s->count() > 0);
    m_cpu->setVisible(m_brokerCpu->count() > 0 || m_shardCpu->count() > 0);
    // The unit only: the metric is in the chart's title, and a vertical title longer than a
    // short chart elides to "records_per_s (k recor…".
    m_y->setTitleText(scale.unit);
    m_y->setRange(0, maxY * scale.factor * 1.08);
    m_y->applyNiceNumbers();
    return scale;
}

} // namespace plimsoll
