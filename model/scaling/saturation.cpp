#include "model/scaling/saturation.h"

#include <algorithm>
#include <cstdio>

namespace plimsoll {

namespace {

std::string percent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", fraction * 100);
    return buf;
}

std::string millis(double seconds)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g ms", seconds * 1e3);
    return buf;
}

// A rate as a reader takes it in: whole numbers from 10 up, two significant digits below.
std::string rate(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 10 ? "%.0f" : "%.2g", v);
    return buf;
}

} // namespace

SaturationResult SaturationDetector::detect(std::vector<SaturationStep> steps) const
{
    SaturationResult out;
    std::stable_sort(steps.begin(), steps.end(),
                     [](const SaturationStep &a, const SaturationStep &b) { return a.load < b.load; });
    out.steps = std::move(steps);
    const SaturationOptions &o = m_options;
    for (size_t i = 0; i < out.steps.size(); ++i) {
        const SaturationStep &s = out.steps[i];
        out.peakThroughput = std::max(out.peakThroughput, s.throughput);
        StepVerdict v;
        auto offend = [&v](const std::string &component, double severity, std::string reason) {
            v.saturated = true;
            v.reasons.push_back(std::move(reason));
            if (severity > v.severity) {
                v.severity = severity;
                v.component = component;
            }
        };
        if (s.shardCpu && *s.shardCpu >= o.cpuLimit)
            offend("Redis shard CPU", *s.shardCpu / o.cpuLimit,
                   "Redis shard CPU " + percent(*s.shardCpu) + " ≥ " + percent(o.cpuLimit));
        if (s.brokerCpu && *s.brokerCpu >= o.cpuLimit)
            offend("broker CPU", *s.brokerCpu / o.cpuLimit,
                   "broker CPU " + percent(*s.brokerCpu) + " ≥ " + percent(o.cpuLimit));
        if (s.p99 && *s.p99 > o.p99Limit)
            offend("produce latency", *s.p99 / o.p99Limit,
                   "produce p99 " + millis(*s.p99) + " > " + millis(o.p99Limit));
        if (s.errors && *s.errors > 0)
            offend("errors", 1.0, std::to_string(int64_t(*s.errors)) + " errors");
        if (s.backPressure && *s.backPressure > 0)
            offend("back-pressure", 1.0,
                   std::to_string(int64_t(*s.backPressure)) + " back-pressure events");
        if (s.poolTimeoutsPerS && *s.poolTimeoutsPerS > 0)
            offend("Redis connection pool", 1.0,
                   "Redis connection pool: " + rate(*s.poolTimeoutsPerS) + " acquire timeouts/s");
        const double applied = s.brokerBackpressurePerS.value_or(0), held = s.brokerBackpressureHeld.value_or(0);
        if (applied > 0 || held > 0)
            offend("broker back-pressure", 1.0,
                   "broker back-pressure: " +
                       (applied > 0 ? "applied " + rate(applied) + " times/s" : std::string()) +
                       (applied > 0 && held > 0 ? ", " : "") +
                       (held > 0 ? rate(held) + (held == 1 ? " connection" : " connections") + " held"
                                 : std::string()));
        if (i > 0) {
            const SaturationStep &prev = out.steps[i - 1];
            if (s.load > prev.load && prev.throughput > 0 &&
                s.throughput < prev.throughput * (1 + o.plateauGain)) {
                char buf[128];
                std::snprintf(buf, sizeof buf, "throughput plateaued (%+.1f%% for load %g → %g)",
                              (s.throughput / prev.throughput - 1) * 100, prev.load, s.load);
                // A plateau names no component by itself: it ranks below any limit crossed.
                offend("throughput plateau", 0.5, buf);
            }
        }
        if (v.saturated && out.firstSaturated < 0)
            out.firstSaturated = int(i);
        out.verdicts.push_back(std::move(v));
    }
    if (out.steps.empty()) {
        out.reason = "no steps";
        return out;
    }
    if (out.firstSaturated >= 0) {
        const StepVerdict &v = out.verdicts[size_t(out.firstSaturated)];
        const SaturationStep &s = out.steps[size_t(out.firstSaturated)];
        out.bottleneck = v.component;
        out.sustainable = out.firstSaturated > 0
                              ? out.steps[size_t(out.firstSaturated - 1)].throughput
                              : 0;
        std::string why;
        for (const std::string &r : v.reasons)
            why += (why.empty() ? "" : "; ") + r;
        out.reason = "saturated first at " + s.scenario + " (" + why + "): bottleneck " +
                     v.component;
        return out;
    }
    // Nothing crossed a limit: name what is closest to one at the top step.
    const SaturationStep &last = out.steps.back();
    out.sustainable = last.throughput;
    double closest = -1;
    std::string what;
    auto consider = [&](const std::optional<double> &value, double limit, const char *name) {
        if (value && *value / limit > closest) {
            closest = *value / limit;
            out.bottleneck = name;
            what = name;
        }
    };
    consider(last.shardCpu, o.cpuLimit, "Redis shard CPU");
    consider(last.brokerCpu, o.cpuLimit, "broker CPU");
    consider(last.p99, o.p99Limit, "produce latency");
    out.reason = "no step saturated; closest to its limit at " + last.scenario + ": " +
                 (what.empty() ? std::string("nothing measured") : what + " at " +
                                                                       percent(closest) +
                                                                       " of its limit");
    return out;
}

} // namespace plimsoll
