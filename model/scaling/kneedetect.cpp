#include "model/scaling/kneedetect.h"

#include "model/core/catalog.h"
#include "model/core/enumnames.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plimsoll {

namespace {

std::string rate(double recordsPerSecond)
{
    return groupThousands(recordsPerSecond, 0) + " records/s";
}

// In the unit that reads best: "4.56 s", "24.7 ms", never an exponent.
std::string millis(double seconds)
{
    return formatSeconds(seconds);
}

} // namespace

constexpr EnumName<KneeRule> kKneeRuleNames[] = {{KneeRule::None, "none"},
                                                 {KneeRule::Shortfall, "shortfall"},
                                                 {KneeRule::Latency, "latency"},
                                                 {KneeRule::Both, "shortfall+latency"}};

const char *toString(KneeRule rule)
{
    return nameOf(kKneeRuleNames, rule);
}

KneeDetector::KneeDetector(KneeOptions options) : m_options(options) {}

KneeResult KneeDetector::detect(std::vector<SweepStep> steps) const
{
    KneeResult out;
    if (steps.empty()) {
        out.error = "no sweep steps";
        return out;
    }
    for (const SweepStep &s : steps)
        if (!std::isfinite(s.offered) || !std::isfinite(s.achieved) || s.offered <= 0 ||
            s.achieved < 0) {
            out.error = "a step has an unusable rate (offered must be > 0, achieved ≥ 0)";
            return out;
        }
    std::stable_sort(steps.begin(), steps.end(),
                     [](const SweepStep &a, const SweepStep &b) { return a.offered < b.offered; });
    out.ok = true;

    for (const SweepStep &s : steps) {
        out.ceiling = std::max(out.ceiling, s.achieved);
        if (std::isnan(out.baselineP99) && std::isfinite(s.p99) && s.p99 > 0)
            out.baselineP99 = s.p99;
    }
    const double latencyLimit = out.baselineP99 * m_options.latencyFactor; // NaN: rule off

    for (size_t i = 0; i < steps.size(); ++i) {
        const SweepStep &s = steps[i];
        const bool shortfall = s.achieved < s.offered * (1.0 - m_options.maxShortfall);
        const bool latency = std::isfinite(s.p99) && s.p99 > latencyLimit;
        if (!shortfall && !latency)
            continue;
        out.rule = shortfall && latency ? KneeRule::Both
                   : shortfall          ? KneeRule::Shortfall
                                        : KneeRule::Latency;
        out.kneeStep = int(i);
        out.kneeOffered = s.offered;
        out.kneeAchieved = s.achieved;
        out.kneeP99 = s.p99;
        out.bounded = true;
        std::string why;
        if (shortfall) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "achieved %s is %.1f%% short of the offered %s",
                          rate(s.achieved).c_str(), 100.0 * (1.0 - s.achieved / s.offered),
                          rate(s.offered).c_str());
            why = buf;
        }
        if (latency) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "p99 %s exceeds %.3g× the low-load p99 %s",
                          millis(s.p99).c_str(), m_options.latencyFactor,
                          millis(out.baselineP99).c_str());
            why += (why.empty() ? "" : " and ") + std::string(buf);
        }
        if (i == 0) {
            out.capacity = 0;
            out.reason = "knee at the first step (" + why +
                         "): the sweep started above capacity; rerun with lower offered rates";
        } else {
            out.capacity = steps[i - 1].achieved;
            out.reason = "capacity " + rate(out.capacity) + " (step " + std::to_string(i - 1) +
                         "); knee at step " + std::to_string(i) + ": " + why;
        }
        return out;
    }

    out.capacity = steps.back().achieved;
    out.bounded = false;
    out.reason = "no knee: every step kept up within " +
                 std::to_string(int(std::lround(m_options.maxShortfall * 100))) +
                 "% and p99 stayed within the latency rule; capacity is at least " +
                 rate(out.capacity);
    return out;
}

} // namespace plimsoll
