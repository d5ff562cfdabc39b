#include "ui/charts/runcharts.h"

#include "model/core/catalog.h"
#include "ui/charts/chartpalette.h"
#include "ui/charts/niceaxis.h"
#include "ui/formatting.h"

#include <QChart>
#include <QCursor>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace plimsoll {

namespace {

void clear(QChart *chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

} // namespace

void showSpectrum(QChart *chart, const RunRecord &run, const std::string &family)
{
    showSpectrum(chart, spectrumLines(run, family), family);
}

void showSpectrum(QChart *chart, const std::vector<SpectrumLine> &lines, const std::string &family)
{
    clear(chart);
    auto *x = new QLogValueAxis;
    x->setBase(10);
    x->setLabelFormat(QStringLiteral("%g"));
    x->setTitleText(QObject::tr("1/(1−p): 100 = p99"));
    auto *y = new QValueAxis;
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double most = 0, widest = 10;
    for (const SpectrumLine &l : lines)
        for (const SpectrumPoint &p : l.points) {
            most = std::max(most, p.seconds);
            widest = std::max(widest, 1 / (1 - p.percentile));
        }
    const AxisScale scale = axisScaleFor("s", most);
    y->setTitleText(scale.unit);
    setNiceAxis(y, most * scale.factor);
    x->setRange(1, std::pow(10.0, std::ceil(std::log10(widest))));
    int index = 0;
    for (const SpectrumLine &l : lines) {
        auto *line = new QLineSeries;
        line->setName(QString::fromStdString(l.name));
        line->setColor(seriesColor(index++));
        line->setPointsVisible(true);
        for (const SpectrumPoint &p : l.points)
            line->append(1 / (1 - p.percentile), p.seconds * scale.factor);
        // Hovering a point names its scenario, percentile and latency in the unit it reads in.
        QObject::connect(line, &QXYSeries::hovered, line, [line, factor = scale.factor](const QPointF &at, bool on) {
            if (!on) {
                QToolTip::hideText();
                return;
            }
            const QString p = QString::number((1 - 1 / at.x()) * 100, 'g', 6);
            QToolTip::showText(QCursor::pos(), QStringLiteral("%1\np%2: %3")
                                                   .arg(line->name(), p,
                                                        displayMetric("latency_s", at.y() / factor)));
        });
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    // The view's own choice names what is drawn; a title is said only when there is nothing.
    chart->setTitle(lines.empty() ? QObject::tr("No latency percentiles of %1").arg(QString::fromStdString(family))
                                  : QString());
    chart->legend()->setVisible(lines.size() > 1);
}

void showWindowSeries(QChart *chart, const SeriesRecord &series)
{
    clear(chart);
    auto *x = new QValueAxis;
    x->setTitleText(QObject::tr("s into the run"));
    auto *y = new QValueAxis;
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const MetricInfo *info = findMetric(series.name);
    // A window's rate of 0 is a measurement: nothing moved then, and it is drawn. A window's
    // latency of 0 is none: a tool writes 0 for a window in which nothing was sent (OMB's
    // publishLatency99pct), and a p99 of 0 ms would read as the best window of the run. Such
    // windows are not drawn (the line breaks there) and the title counts them.
    const bool latency = (info && info->unit == std::string_view("s")) ||
                         series.name.find("latency") != std::string::npos;
    const auto drawn = [latency](const SeriesSample &s) { return std::isfinite(s.value) && (!latency || s.value > 0); };
    double most = 0, last = 0;
    int empty = 0;
    for (const SeriesSample &s : series.samples) {
        last = std::max(last, s.tOffsetS);
        if (!drawn(s)) {
            ++empty;
            continue;
        }
        most = std::max(most, std::abs(s.value));
    }
    const AxisScale scale = axisScaleFor(info ? info->unit : std::string_view(), most);
    y->setTitleText(scale.unit);
    setNiceAxis(y, most * scale.factor);
    setNiceAxis(x, last);
    // One line per stretch of drawn windows, all in the series' colour.
    QLineSeries *line = nullptr;
    const auto add = [&](QLineSeries *segment) {
        segment->setPointsVisible(segment->count() == 1); // a lone window still shows
        chart->addSeries(segment);
        segment->attachAxis(x);
        segment->attachAxis(y);
    };
    for (const SeriesSample &s : series.samples) {
        if (!drawn(s)) {
            if (line)
                add(std::exchange(line, nullptr));
            continue;
        }
        if (!line) {
            line = new QLineSeries;
            line->setName(displayMetricName(series.name));
            line->setColor(seriesColor(0));
            QObject::connect(line, &QXYSeries::hovered, line,
                             [name = series.name, factor = scale.factor](const QPointF &at, bool on) {
                                 if (!on) {
                                     QToolTip::hideText();
                                     return;
                                 }
                                 QToolTip::showText(QCursor::pos(), QObject::tr("%1 s into the run: %2")
                                                                        .arg(QString::number(at.x(), 'f', 0),
                                                                             displayMetric(name, at.y() / factor)));
                             });
        }
        line->append(s.tOffsetS, s.value * scale.factor);
    }
    if (line)
        add(line);
    const int windows = int(series.samples.size());
    if (empty == 0)
        chart->setTitle(QString());
    else if (empty == windows)
        chart->setTitle(QObject::tr("No window measured a latency: nothing was sent in any of the %1").arg(windows));
    else
        chart->setTitle(QObject::tr("%1 of %2 windows measured no latency (nothing was sent in them): not drawn")
                            .arg(empty)
                            .arg(windows));
    chart->legend()->setVisible(false);
}

} // namespace plimsoll
