#include "model/core/metricroles.h"

#include "model/core/catalog.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace plimsoll {

namespace {

std::string lowered(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// A tuning value as a rate: a number, or a number in a string; "unlimited" and the tools' own
// words for no limit give an unlimited rate; anything else is no rate at all.
std::optional<OfferedRate> rateFromTuning(const nlohmann::json &v, const std::string &key, bool zeroIsUnlimited)
{
    double x = 0;
    if (v.is_number()) {
        x = v.get<double>();
    } else if (v.is_string()) {
        const std::string s = lowered(v.get<std::string>());
        if (s == "unlimited" || s == "max" || s == "none")
            return OfferedRate{std::nullopt, "tuning." + key};
        try {
            std::size_t used = 0;
            x = std::stod(s, &used);
            if (used != s.size())
                return std::nullopt;
        } catch (const std::exception &) {
            return std::nullopt;
        }
    } else {
        return std::nullopt;
    }
    if (!std::isfinite(x))
        return std::nullopt;
    if (x < 0 || (x == 0 && zeroIsUnlimited))
        return OfferedRate{std::nullopt, "tuning." + key};
    if (x == 0)
        return std::nullopt;
    return OfferedRate{x, "tuning." + key};
}

} // namespace

bool isOfferedRateMetric(const std::string &metric)
{
    const std::string m = lowered(metric);
    return m.find("offered") != std::string::npos && m.ends_with("_per_s");
}

bool isThroughputMetric(const std::string &metric)
{
    if (isOfferedRateMetric(metric))
        return false;
    return metric == "records_per_s" || metric == "bytes_per_s" || metric.ends_with(".records_per_s") ||
           metric.ends_with(".bytes_per_s") || metric.ends_with("_records_per_s") || metric.ends_with("_bytes_per_s");
}

bool isResourceMetric(const std::string &metric)
{
    const std::string m = lowered(metric);
    return m.find("cpu") != std::string::npos || m.find("memory") != std::string::npos;
}

std::optional<OfferedRate> offeredRate(const RunRecord &run, const ScenarioRecord &scenario)
{
    for (const MetricValue &m : scenario.metrics)
        if (isOfferedRateMetric(m.name) && std::isfinite(m.value) && m.value > 0)
            return OfferedRate{m.value, m.name};
    if (!run.tuning.is_object())
        return std::nullopt;
    // Per tool, its own word; 0 means "find the maximum" to OpenMessaging Benchmark.
    for (const auto &[key, zeroIsUnlimited] : {std::pair{"rate", false}, {"producerRate", true}, {"throughput", false}}) {
        const auto it = run.tuning.find(key);
        if (it != run.tuning.end())
            if (auto r = rateFromTuning(*it, key, zeroIsUnlimited))
                return r;
    }
    return std::nullopt;
}

std::string offeredText(const OfferedRate &rate)
{
    return rate.recordsPerS ? formatMetric("records_per_s", *rate.recordsPerS) : std::string("unlimited");
}

bool offeredRatesDiffer(const OfferedRate &a, const OfferedRate &b)
{
    if (!a.recordsPerS || !b.recordsPerS)
        return a.recordsPerS.has_value() != b.recordsPerS.has_value();
    return std::abs(*a.recordsPerS - *b.recordsPerS) > 0.005 * std::max(*a.recordsPerS, *b.recordsPerS);
}

} // namespace plimsoll
