#pragma once
// A run's own charts, as OpenMessaging Benchmark users read a result: a per-window series over
// the run's time (publish rate, backlog, a window's p99), and the latency percentile spectrum —
// the HdrHistogram plot: latency against 1/(1−p) on a log axis, so p90, p99, p99.9 … stand
// evenly apart — with one line per scenario, a ramp's steps overlaid.
//
// The spectrum reads what the store keeps of a distribution: a scenario's percentile metrics of
// one family, "latency" (latency_p50_s … latency_p9999_s) or a tool's (OMB's
// publish.quantile.<p>, e2e.quantile.<p>, and <family>.latency_p<NN>_s).

#include "model/core/records.h"
#include "model/core/spectrum.h"

#include <string>
#include <vector>

class QChart;

namespace plimsoll {

// Replaces `chart`'s series and axes: one line per scenario with the family (x: 1/(1−p), log).
void showSpectrum(QChart *chart, const RunRecord &run, const std::string &family);
void showSpectrum(QChart *chart, const std::vector<SpectrumLine> &lines, const std::string &family);
// Replaces `chart`'s series and axes with one per-window series (x: seconds into the run).
void showWindowSeries(QChart *chart, const SeriesRecord &series);

} // namespace plimsoll
