#pragma once
// A distribution as the store keeps it: a scenario's percentile metrics of one family,
// "latency" (latency_p50_s … latency_p9999_s) or a tool's (OMB's publish.quantile.<p>,
// e2e.quantile.<p>, and <family>.latency_p<NN>_s) — what the latency percentile spectrum (the
// HdrHistogram plot) draws in the run detail, Compare and the sizing report.

#include "model/core/records.h"

#include <string>
#include <vector>

namespace plimsoll {

struct SpectrumPoint
{
    double percentile = 0; // 0 < p < 1
    double seconds = 0;
};

// The family's percentiles of the scenario, by percentile; empty when it states none.
std::vector<SpectrumPoint> latencySpectrum(const ScenarioRecord &scenario, const std::string &family);
// The families of at least two percentiles any scenario of the run states, "latency" first.
std::vector<std::string> spectrumFamilies(const RunRecord &run);

// One line of a spectrum chart: a scenario's percentiles of one family.
struct SpectrumLine
{
    std::string name; // the scenario
    std::vector<SpectrumPoint> points;
};
// The run's scenarios with at least two percentiles of the family, in the run's order;
// `prefix` non-empty keeps only the scenarios whose names start with it (a ramp family).
std::vector<SpectrumLine> spectrumLines(const RunRecord &run, const std::string &family,
                                        const std::string &prefix = {});

} // namespace plimsoll
