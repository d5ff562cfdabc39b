#pragma once
// The Scaling chart: a ramp's measured steps, the USL curve with its bootstrap interval band,
// N*, the first saturated step, and component CPU on a second axis. One class so the Scaling
// view and the reports draw the very same chart.
//
// Threading: a QChart is a graphics item; build and fill it on the GUI thread.

#include "model/scaling/ramppoints.h"
#include "model/scaling/saturation.h"
#include "model/scaling/usl.h"
#include "ui/formatting.h"

#include <QChart>

#include <string>
#include <vector>

class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace plimsoll {

class ScalingChart : public QChart
{
public:
    ScalingChart();

    // Clears every series and shows `title` instead.
    void showEmpty(const QString &title);
    // Draws the steps and the fit (when fit.ok). Returns the y axis scale, which the caller's
    // text uses so its numbers read in the chart's unit. The title is left to the caller.
    AxisScale showFit(const std::vector<RampPoint> &points, const UslFit &fit,
                      const SaturationResult &saturation, const QString &factor,
                      const std::string &metric);

    QValueAxis *xAxis() const { return m_x; }
    // The measured points, in the order given to showFit() (what a hover names).
    QScatterSeries *measuredSeries() const { return m_measured; }

private:
    QScatterSeries *m_measured = nullptr;
    QScatterSeries *m_saturated = nullptr;
    QScatterSeries *m_nStar = nullptr;
    QLineSeries *m_curve = nullptr;
    QLineSeries *m_bandLo = nullptr;
    QLineSeries *m_bandHi = nullptr;
    QAreaSeries *m_band = nullptr;
    QLineSeries *m_brokerCpu = nullptr;
    QLineSeries *m_shardCpu = nullptr;
    QValueAxis *m_x = nullptr, *m_y = nullptr, *m_cpu = nullptr;
};

} // namespace plimsoll
