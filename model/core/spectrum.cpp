#include "model/core/spectrum.h"

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

std::vector<SpectrumLine> spectrumLines(const RunRecord &run, const std::string &family, const std::string &prefix)
{
    std::vector<SpectrumLine> out;
    for (const ScenarioRecord &s : run.scenarios)
        if (prefix.empty() || s.name.rfind(prefix, 0) == 0)
            if (auto points = latencySpectrum(s, family); points.size() >= 2)
                out.push_back({s.name, std::move(points)});
    return out;
}

} // namespace plimsoll
