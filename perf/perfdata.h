#pragma once
// Generated trend history for the store and window benchmarks: `count` nightly-style runs, one
// trend record each (scenario kPerfScenario with records_per_s and latency_p99_s), ten minutes
// apart from 2006 on, so 1M records span about 19 years. Values wander slowly with noise and a
// few isolated spikes, so a downsampled chart has extremes to keep.
#include "model/core/records.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace plimsoll::perf {

inline constexpr const char *kPerfScenario = "nightly/produce";
inline constexpr const char *kPerfMetric = "records_per_s";
// Records per source: a store of 1M records is imported as ten sources (ten files a user would
// have), so no single transaction holds every record in memory at once.
inline constexpr size_t kRecordsPerSource = 100'000;

// The records the store benchmarks import: 1M, or PLIMSOLL_PERF_STORE_RECORDS (a quick look at
// the import rates; the reads and the window are measured at 1M).
size_t storeRecords();
// The records of source `chunk` of a store of `total` (kRecordsPerSource each, the last fewer).
inline size_t recordsOfSource(size_t chunk, size_t total)
{
    const size_t first = chunk * kRecordsPerSource;
    return first >= total ? 0 : std::min(kRecordsPerSource, total - first);
}

std::vector<RunRecord> trendRuns(size_t first, size_t count);
SourceRecord trendSource(size_t index);
double trendValue(size_t i);

} // namespace plimsoll::perf
