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
#include <optional>
#include <regex>

namespace plimsoll {

namespace {

struct Percentile
{
    std::string family;
    double p = 0;
};

// "latency_p999_s" → latency, 0.999; "e2e.latency_p99_s" → e2e, 0.99; "publish.quantile.99.9"
// → publish, 0.999.
std::optional<Percentile> percentileOf(const std::string &metric)
{
    static const std::regex named(R"(^(?:(.+)\.)?latency_p(\d+)_s$)");
    static const std::regex quantile(R"(^(.+)\.quantile\.([0-9]+(?:\.[0-9]+)?)$)");
    std::smatch m;
    if (std::regex_match(metric, m, named)) {
        const std::string digits = m[2].str();
        const double p = std::stod(digits) / std::pow(10.0, double(digits.size()));
        return Percentile{m[1].matched ? m[1].str() : std::string("latency"), p};
    }
    if (std::regex_match(metric, m, quantile))
        return Percentile{m[1].str(), std::stod(m[2].str()) / 100};
    return std::nullopt;
}

void clear(QChart *chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

} // namespace

std::vector<SpectrumPoint> latencySpectrum(const ScenarioRecord &scenario, const std::string &family)
{
    std::map<double, double> byP;
    for (const MetricValue &m : scenario.metrics)
        if (const auto p = percentileOf(m.name); p && p->family == family && p->p > 0 && p->p < 1)
            byP.emplace(p->p, m.value);
    std::vector<SpectrumPoint> out;
    for (const auto &[p, v] : byP)
        out.push_back({p, v});
    return out;
}

std::vector<std::string> spectrumFamilies(const RunRecord &run)
{
    std::map<std::string, int> most; // family -> most percentiles in one scenario
    for (const ScenarioRecord &s : run.scenarios) {
        std::map<std::string, int> here;
        for (const MetricValue &m : s.metrics)
            if (const auto p = percentileOf(m.name))
                ++here[p->family];
        for (const auto &[f, n] : here)
            most[f] = std::max(most[f], n);
    }
    std::vector<std::string> out;
    if (most["latency"] >= 2)
        out.push_back("latency");
    for (const auto &[f, n] : most)
        if (f != "latency" && n >= 2)
            out.push_back(f);
    return out;
}

void showSpectrum(QChart *chart, const RunRecord &run, const std::string &family)
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
    std::vector<std::pair<const ScenarioRecord *, std::vector<SpectrumPoint>>> lines;
    for (const ScenarioRecord &s : run.scenarios)
        if (auto points = latencySpectrum(s, family); points.size() >= 2) {
            for (const SpectrumPoint &p : points) {
                most = std::max(most, p.seconds);
                widest = std::max(widest, 1 / (1 - p.percentile));
            }
            lines.emplace_back(&s, std::move(points));
        }
    const AxisScale scale = axisScaleFor("s", most);
    y->setTitleText(scale.unit);
    setNiceAxis(y, most * scale.factor);
    x->setRange(1, std::pow(10.0, std::ceil(std::log10(widest))));
    int index = 0;
    for (const auto &[scenario, points] : lines) {
        auto *line = new QLineSeries;
        line->setName(QString::fromStdString(scenario->name));
        line->setColor(seriesColor(index++));
        line->setPointsVisible(true);
        for (const SpectrumPoint &p : points)
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
    double most = 0, last = 0;
    for (const SeriesSample &s : series.samples) {
        most = std::max(most, std::abs(s.value));
        last = std::max(last, s.tOffsetS);
    }
    const MetricInfo *info = findMetric(series.name);
    const AxisScale scale = axisScaleFor(info ? info->unit : std::string_view(), most);
    y->setTitleText(scale.unit);
    setNiceAxis(y, most * scale.factor);
    setNiceAxis(x, last);
    auto *line = new QLineSeries;
    line->setName(displayMetricName(series.name));
    line->setColor(seriesColor(0));
    for (const SeriesSample &s : series.samples)
        line->append(s.tOffsetS, s.value * scale.factor);
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
    chart->addSeries(line);
    line->attachAxis(x);
    line->attachAxis(y);
    chart->setTitle(QString());
    chart->legend()->setVisible(false);
}

} // namespace plimsoll
