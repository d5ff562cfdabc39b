#pragma once
// Latency histograms of a bench run: HdrHistogram in microseconds, 1 µs to one hour at
// three significant digits. Each client thread records into its own interval histogram;
// the coordinator takes them at each interval boundary and merges, never averages.

#include "model/core/hdrhistogram.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace plimsoll {

inline constexpr int64_t kLatencyHighestUs = 3600LL * 1000 * 1000;

inline HdrHistogram makeLatencyHistogram() { return HdrHistogram(1, kLatencyHighestUs, 3); }

// Records a latency given in nanoseconds; values past an hour are clamped to the top so
// a stall is never silently dropped from the count.
inline void recordLatencyNs(HdrHistogram &histogram, int64_t ns)
{
    const int64_t us = std::clamp<int64_t>(ns / 1000, 1, kLatencyHighestUs);
    histogram.record(us);
}

inline double percentileSeconds(const HdrHistogram &histogram, double percentile)
{
    return histogram.empty() ? 0.0 : static_cast<double>(histogram.valueAtPercentile(percentile)) * 1e-6;
}

// A latency histogram's figures as a scenario's metrics, in seconds: <prefix>avg_s, p50_s,
// p95_s, p99_s, p999_s and max_s (putLatency), p90_s and p9999_s (putExtraPercentiles).
// Nothing for an empty histogram.
inline void putLatency(std::map<std::string, double> &m, const std::string &prefix, const HdrHistogram &h)
{
    if (h.empty())
        return;
    m[prefix + "avg_s"] = h.mean() * 1e-6;
    m[prefix + "p50_s"] = percentileSeconds(h, 50);
    m[prefix + "p95_s"] = percentileSeconds(h, 95);
    m[prefix + "p99_s"] = percentileSeconds(h, 99);
    m[prefix + "p999_s"] = percentileSeconds(h, 99.9);
    m[prefix + "max_s"] = static_cast<double>(h.max()) * 1e-6;
}

inline void putExtraPercentiles(std::map<std::string, double> &m, const std::string &prefix, const HdrHistogram &h)
{
    if (h.empty())
        return;
    m[prefix + "p90_s"] = percentileSeconds(h, 90);
    m[prefix + "p9999_s"] = percentileSeconds(h, 99.99);
}

// The named histograms of one client for the current interval, swapped out whole by the
// coordinator. Recording takes an uncontended mutex (tens of ns), well under a send.
class IntervalHistograms
{
public:
    enum Kind { Ack = 0, Service = 1, EndToEnd = 2, KindCount = 3 };

    IntervalHistograms()
        : m_histograms{makeLatencyHistogram(), makeLatencyHistogram(), makeLatencyHistogram()}
    {}

    void recordNs(Kind kind, int64_t ns)
    {
        std::lock_guard lock(m_mutex);
        recordLatencyNs(m_histograms[kind], ns);
    }
    // Adds this interval's counts to `into` and starts a new interval.
    void drainInto(HdrHistogram (&into)[KindCount])
    {
        std::lock_guard lock(m_mutex);
        for (int k = 0; k < KindCount; ++k) {
            into[k].add(m_histograms[k]);
            m_histograms[k].reset();
        }
    }

private:
    std::mutex m_mutex;
    HdrHistogram m_histograms[KindCount];
};

} // namespace plimsoll
