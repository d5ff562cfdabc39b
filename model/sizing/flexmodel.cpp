#include "model/sizing/flexmodel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plimsoll {

namespace {

std::string mbps(double bytesPerS)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f MiB/s", bytesPerS / (1024.0 * 1024));
    return buf;
}

} // namespace

FlexModel FlexModel::fit(const std::vector<FlexSample> &samples)
{
    FlexModel m;
    const FlexSample *sustained = nullptr, *oom = nullptr;
    for (const FlexSample &s : samples) {
        if (!(s.rate > 0 && s.recordBytes > 0))
            continue;
        if (s.ramRatio)
            m.ramRatio = *s.ramRatio;
        if (std::find(m.runKeys.begin(), m.runKeys.end(), s.runKey) == m.runKeys.end())
            m.runKeys.push_back(s.runKey);
        const double bytes = s.rate * s.recordBytes;
        // Only an unbounded run proves a rate sustainable: a bounded burst may end before RAM
        // fills.
        if (!s.oom && !s.records && (!sustained || bytes > sustained->rate * sustained->recordBytes))
            sustained = &s;
        if (s.oom && s.recordsBeforeOom && (!oom || bytes < oom->rate * oom->recordBytes))
            oom = &s;
    }
    if (!sustained) {
        m.reason = "no Redis Flex run held a rate without OOM unbounded: no Flex model";
        return m;
    }
    m.fitted = true;
    m.sustainedBytesPerS = sustained->rate * sustained->recordBytes;
    char buf[256];
    std::snprintf(buf, sizeof buf, "Redis Flex sustains %.0f records/s of %.0f B (%s) per database (%s)",
                  sustained->rate, sustained->recordBytes, mbps(m.sustainedBytesPerS).c_str(),
                  sustained->scenario.c_str());
    m.reason = buf;
    if (oom) {
        m.oomBytesPerS = oom->rate * oom->recordBytes;
        // RAM fills at (rate − sustained) while flash drains the rest.
        m.bufferBytes = *oom->recordsBeforeOom * oom->recordBytes *
                        std::max(0.0, 1 - m.sustainedBytesPerS / m.oomBytesPerS);
        std::snprintf(buf, sizeof buf,
                      "; at %.0f records/s it OOMed after %.2g records (%s): ~%.0f MiB of "
                      "excess absorbed",
                      oom->rate, *oom->recordsBeforeOom, oom->scenario.c_str(),
                      m.bufferBytes / (1024.0 * 1024));
        m.reason += buf;
    }
    return m;
}

FlexEstimate FlexModel::estimate(double bytesPerS, double memoryBytes) const
{
    FlexEstimate e;
    e.ramBytes = memoryBytes * ramRatio;
    char buf[256];
    std::snprintf(buf, sizeof buf, "Flex RAM: %.1f GiB dataset × %.0f%% RAM ratio = %.1f GiB",
                  memoryBytes / (1024.0 * 1024 * 1024), ramRatio * 100,
                  e.ramBytes / (1024.0 * 1024 * 1024));
    e.lines.push_back(buf);
    if (!fitted || sustainedBytesPerS <= 0) {
        e.perDatabaseBytesPerS = bytesPerS;
        e.lines.push_back("no measured Flex write limit: the rate cannot be checked");
        return e;
    }
    e.databases = std::max(1, int(std::ceil(bytesPerS / sustainedBytesPerS - 1e-9)));
    e.perDatabaseBytesPerS = bytesPerS / e.databases;
    e.utilization = e.perDatabaseBytesPerS / sustainedBytesPerS;
    std::snprintf(buf, sizeof buf,
                  "Flex write limit: %s ÷ %s sustained per database → %d database%s (flash "
                  "eviction, not CPU, limits sustained writes)",
                  mbps(bytesPerS).c_str(), mbps(sustainedBytesPerS).c_str(), e.databases,
                  e.databases == 1 ? "" : "s");
    e.lines.push_back(buf);
    if (bytesPerS > sustainedBytesPerS && bufferBytes > 0) {
        e.secondsToOom = bufferBytes / (bytesPerS - sustainedBytesPerS);
        std::snprintf(buf, sizeof buf,
                      "one database would absorb this rate as a burst for ~%.0f s before OOM",
                      e.secondsToOom);
        e.lines.push_back(buf);
    }
    return e;
}

} // namespace plimsoll
