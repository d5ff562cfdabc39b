#include "model/sizing/offloadmodel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plimsoll {

OffloadModel OffloadModel::fitSamples(const std::vector<OffloadSample> &samples)
{
    OffloadModel m;
    std::vector<UslPoint> points;
    for (const OffloadSample &s : samples) {
        if (!(s.streams > 0 && s.rate > 0))
            continue;
        points.push_back({s.streams, s.rate});
        m.recordBytes = std::max(m.recordBytes, s.recordBytes);
        if (std::find(m.runKeys.begin(), m.runKeys.end(), s.runKey) == m.runKeys.end())
            m.runKeys.push_back(s.runKey);
    }
    if (points.empty()) {
        m.reason = "no archival runs: offload capacity unknown";
        return m;
    }
    UslOptions options;
    options.bootstrapResamples = 0; // the plan uses the curve; intervals belong to `plimsoll fit`
    m.fit = UslFitter(options).fit(points);
    m.fitted = m.fit.ok;
    char buf[320];
    if (!m.fitted) {
        m.reason = "offload fit failed: " + m.fit.error;
        return m;
    }
    std::snprintf(buf, sizeof buf,
                  "offload: %.0f records/s for one stream, contention σ=%.3f, coherency κ=%.2g "
                  "over %d runs%s",
                  m.fit.params.lambda, m.fit.params.sigma, m.fit.params.kappa, m.fit.points,
                  m.fit.weak ? " (weak fit: few stream counts measured)" : "");
    m.reason = buf;
    return m;
}

OffloadPlan OffloadModel::plan(double targetRate, int maxStreams) const
{
    OffloadPlan p;
    if (!fitted) {
        p.line = reason;
        return p;
    }
    const double nStar = fit.params.peakN();
    const int top = std::isfinite(nStar) ? std::min(maxStreams, int(std::ceil(nStar)))
                                         : maxStreams;
    for (int n = 1; n <= top; ++n) {
        const double x = fit.params.throughputAt(n);
        p.ceiling = std::max(p.ceiling, x);
        if (x >= targetRate) {
            p.reachable = true;
            p.streams = n;
            p.rateAtStreams = x;
            break;
        }
    }
    char buf[320];
    if (p.reachable)
        std::snprintf(buf, sizeof buf,
                      "offload %.0f records/s: %d streams archiving in parallel give %.0f "
                      "records/s (measured at %.0f B records)",
                      targetRate, p.streams, p.rateAtStreams, recordBytes);
    else
        std::snprintf(buf, sizeof buf,
                      "offload %.0f records/s is beyond the fitted ceiling of %.0f records/s "
                      "(measured at %.0f B records): size retention and offload separately",
                      targetRate, p.ceiling, recordBytes);
    p.line = buf;
    return p;
}

} // namespace plimsoll
