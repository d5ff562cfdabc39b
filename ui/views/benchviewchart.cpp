// The Bench view's live chart: its titles for a workload or the offload record, its axes, and
// each interval's snapshot plotted as it arrives.
#include "ui/views/benchview.h"

#include "model/core/catalog.h"
#include "runner/benchconfig.h"
#include "ui/charts/niceaxis.h"

#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QProgressBar>
#include <QValueAxis>

#include <algorithm>

namespace plimsoll {

// What the chart plots: a workload's records/s and latencies, or the offload record's archived
// MiB/s and archive lag on the same two axes (the lines it does not have hidden, legend too).
void BenchView::labelChart(bool offload)
{
    m_offloadChart = offload;
    if (offload) {
        m_chart->setTitle(tr("Live archive rate and lag (per poll)"));
        m_throughput->setName(tr("archived MiB/s"));
        m_ackP99->setName(tr("archive lag"));
        m_rateAxis->setTitleText(tr("archived MiB/s"));
        m_latencyAxis->setTitleText(tr("archive lag (s)"));
        m_chart->legend()->setToolTip(
            tr("archived MiB/s: bytes the brokers archived to the remote tier since the poll before (left axis). "
               "archive lag: the most lagging broker's, falling to zero as the backlog drains (right axis, s)."));
    } else {
        m_chart->setTitle(tr("Live throughput and latency (per interval)"));
        // Short names, their units on the axes: five long ones were elided to "acknow…" at 1024 px.
        m_throughput->setName(tr("records/s"));
        m_ackP99->setName(tr("ack p99"));
        m_rateAxis->setTitleText(tr("acknowledged records/s"));
        m_latencyAxis->setTitleText(tr("latency p99, p50 (ms)"));
        m_chart->legend()->setToolTip(
            tr("records/s: records acknowledged per interval (left axis). ack: send to broker "
               "acknowledgement; e2e: send to consumer receipt; p99 solid, p50 dashed (right axis, "
               "ms)."));
    }
    m_e2eP99->setName(tr("e2e p99"));
    m_ackP50->setName(tr("ack p50"));
    m_e2eP50->setName(tr("e2e p50"));
    for (auto *series : {m_e2eP99, m_ackP50, m_e2eP50})
        series->setVisible(!offload);
}

void BenchView::resetAxes()
{
    // Before the first interval: whole seconds, records/s and milliseconds, not 0 … 1.
    setNiceAxis(m_timeAxis, 10);
    setNiceAxis(m_rateAxis, 1000);
    setNiceAxis(m_latencyAxis, 10);
}

void BenchView::showSnapshot(const BenchSnapshot &s)
{
    const bool poll = s.archiveLagS >= 0; // the offload record's
    if (poll) {
        m_throughput->append(s.elapsedS, s.bytesPerS / (1024.0 * 1024.0));
        m_ackP99->append(s.elapsedS, s.archiveLagS);
    } else {
        m_throughput->append(s.elapsedS, s.producedPerS > 0 ? s.producedPerS : s.consumedPerS);
        m_ackP99->append(s.elapsedS, s.ackP99S * 1e3);
        m_ackP50->append(s.elapsedS, s.ackP50S * 1e3);
    }
    if (!poll && s.e2eP99S > 0) {
        m_e2eP99->append(s.elapsedS, s.e2eP99S * 1e3);
        m_e2eP50->append(s.elapsedS, s.e2eP50S * 1e3);
    }
    double maxRate = 1, maxLatency = 1;
    for (const QPointF &p : m_throughput->points())
        maxRate = std::max(maxRate, p.y());
    for (auto *series : {m_ackP99, m_e2eP99, m_ackP50, m_e2eP50})
        for (const QPointF &p : series->points())
            maxLatency = std::max(maxLatency, p.y());
    setNiceAxis(m_timeAxis, std::max(1.0, s.elapsedS));
    setNiceAxis(m_rateAxis, maxRate * 1.05);
    setNiceAxis(m_latencyAxis, maxLatency * 1.05);
    if (s.progress >= 0)
        m_progress->setValue(static_cast<int>(s.progress * 1000));
    if (poll) {
        m_status->setText(tr("%1 (%2): archived %3, %4 segments/s, archive lag %5")
                              .arg(QString::fromStdString(s.scenario), QString::fromStdString(s.phase),
                                   QString::fromStdString(formatMetric("bytes_per_s", s.bytesPerS)))
                              .arg(std::max(0.0, s.segmentsPerS), 0, 'f', 2)
                              .arg(QString::fromStdString(formatMetric("offload.drain_s", s.archiveLagS))));
        return;
    }
    m_status->setText(tr("%1 (%2): %3 records/s, ack p99 %4 ms, %5 errors")
                          .arg(QString::fromStdString(s.scenario), QString::fromStdString(s.phase))
                          .arg(s.producedPerS > 0 ? s.producedPerS : s.consumedPerS, 0, 'f', 0)
                          .arg(s.ackP99S * 1e3, 0, 'f', 2)
                          .arg(s.errors));
}

} // namespace plimsoll
