#include "model/scaling/componentcapacity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plimsoll {

namespace {

// Whole records/s with thousands separators, as the rest of the sizing prints them: 243,931.
std::string number(double v, const char *format = "%.0f")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    std::string out = buf;
    const size_t digitsEnd = out.find_first_not_of("-0123456789");
    const size_t end = digitsEnd == std::string::npos ? out.size() : digitsEnd;
    for (size_t i = end; i > (out[0] == '-' ? 4u : 3u); i -= 3)
        out.insert(i - 3, ",");
    return out;
}

} // namespace

int ComponentCapacity::unitsFor(double totalRate) const
{
    if (!ok || capacityPerUnit <= 0 || totalRate <= 0)
        return 1;
    // A hair of tolerance so a rate exactly at capacity does not round up on float noise.
    return std::max(1, int(std::ceil(totalRate / capacityPerUnit - 1e-9)));
}

ComponentCapacity ComponentCapacityFitter::fit(const std::string &component,
                                               const std::vector<CapacityPoint> &points) const
{
    ComponentCapacity out;
    out.component = component;
    out.cpuLimit = m_options.cpuLimit;
    if (!(m_options.cpuLimit > 0 && m_options.cpuLimit <= 1)) {
        out.error = "the CPU limit must be in (0, 1]";
        return out;
    }
    double sxy = 0, sxx = 0;
    const CapacityPoint *hottest = nullptr;
    for (const CapacityPoint &p : points) {
        if (!(p.perUnitRate > 0) || !(p.cpu > 0) || !std::isfinite(p.cpu))
            continue;
        ++out.points;
        sxy += p.perUnitRate * p.cpu;
        sxx += p.perUnitRate * p.perUnitRate;
        if (!hottest || p.cpu > hottest->cpu)
            hottest = &p;
        if (std::find(out.runKeys.begin(), out.runKeys.end(), p.runKey) == out.runKeys.end())
            out.runKeys.push_back(p.runKey);
    }
    if (!hottest) {
        out.error = "no step reports both a rate and " + component + " CPU";
        return out;
    }
    out.fittedSlope = sxy / sxx;
    out.hottestSlope = hottest->cpu / hottest->perUnitRate;
    out.hottestCpu = hottest->cpu;
    out.hottestRate = hottest->perUnitRate;
    out.hottestScenario = hottest->scenario;
    out.hottestSets = out.hottestSlope >= out.fittedSlope;
    out.slope = std::max(out.fittedSlope, out.hottestSlope);
    out.capacityPerUnit = m_options.cpuLimit / out.slope;
    out.ok = true;

    const std::string limit = number(m_options.cpuLimit * 100) + "%";
    const std::string viaFit = number(m_options.cpuLimit / out.fittedSlope);
    out.reason = number(out.capacityPerUnit) + " records/s per " + component + " at " + limit +
                 " CPU: ";
    if (out.hottestSets)
        out.reason += "the hottest step (" + hottest->scenario + ", " +
                      number(hottest->cpu * 100) + "% at " + number(hottest->perUnitRate) +
                      " records/s per " + component + ") scaled to the limit; the line through all " +
                      std::to_string(out.points) + " steps would allow " + viaFit +
                      ", but CPU climbs steeply near saturation";
    else
        out.reason += "the line through all " + std::to_string(out.points) +
                      " steps (slope " + number(out.fittedSlope * 1e6, "%.3g") +
                      "% per 10k records/s), costlier than the hottest step " + hottest->scenario +
                      " (" + number(hottest->cpu * 100) + "%)";
    return out;
}

} // namespace plimsoll
