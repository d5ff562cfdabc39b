// HDR histogram: the hot path of every latency the bench client measures (record), the
// per-interval merge a 1000-interval run ends with, and the percentile queries of a report.
#include "model/core/hdrhistogram.h"

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

namespace {

using plimsoll::HdrHistogram;

// Latencies in µs, log-normal around ~2 ms: what a loaded broker's acks look like.
std::vector<int64_t> latencies(size_t n, uint32_t seed)
{
    std::mt19937_64 rng(seed);
    std::lognormal_distribution<double> dist(7.6, 0.8);
    std::vector<int64_t> v(n);
    for (auto &x : v)
        x = static_cast<int64_t>(dist(rng)) + 1;
    return v;
}

HdrHistogram runnerHistogram() { return HdrHistogram(1, 3'600'000'000LL, 3); }

void BM_HdrRecord(benchmark::State &state)
{
    const auto values = latencies(1 << 16, 1);
    HdrHistogram h = runnerHistogram();
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(h.record(values[i]));
        i = (i + 1) & (values.size() - 1);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HdrRecord);

std::vector<HdrHistogram> intervals(int count)
{
    std::vector<HdrHistogram> out;
    out.reserve(count);
    for (int k = 0; k < count; ++k) {
        HdrHistogram h = runnerHistogram();
        for (int64_t v : latencies(2000, uint32_t(k)))
            h.record(v);
        out.push_back(std::move(h));
    }
    return out;
}

void BM_HdrMerge1000Intervals(benchmark::State &state)
{
    const auto parts = intervals(1000);
    for (auto _ : state) {
        HdrHistogram total = runnerHistogram();
        for (const auto &p : parts)
            total.add(p);
        benchmark::DoNotOptimize(total.totalCount());
    }
}
BENCHMARK(BM_HdrMerge1000Intervals)->Unit(benchmark::kMillisecond);

void BM_HdrPercentiles(benchmark::State &state)
{
    HdrHistogram h = runnerHistogram();
    for (int64_t v : latencies(1'000'000, 7))
        h.record(v);
    static constexpr double kPercentiles[] = {50, 90, 95, 99, 99.9, 99.99, 100};
    for (auto _ : state) {
        for (double p : kPercentiles)
            benchmark::DoNotOptimize(h.valueAtPercentile(p));
    }
    state.SetItemsProcessed(state.iterations() * std::size(kPercentiles));
}
BENCHMARK(BM_HdrPercentiles)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
