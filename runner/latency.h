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
