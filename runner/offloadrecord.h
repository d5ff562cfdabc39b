#pragma once
// The offload record (bench offload): how fast a Korvet broker archives sealed segments to the
// remote tier while a backlog drains, measured from its /metrics as the page's pipeline
// measures offload — a baseline scrape, then polls until the archive lag is zero on every
// broker twice in a row (a stable zero-lag snapshot), the record taken between the baseline and
// the first zero-lag poll. Scenario pipeline/offload (kind "offload"):
//   bytes_per_s                archived bytes/s, the trend headline (korvet_storage_archive_bytes_total)
//   offload.segments_per_s     sealed segments archived per second (korvet_storage_archive_segments_total)
//   records_per_s              archived records/s, when korvet_storage_archive_messages_total is there
//   offload.drain_s            drain wall-clock: baseline to the first zero-lag poll
//   offload.archive_p50_s/_p99_s  per-segment archive time (korvet_storage_archive_seconds histogram)
//   offload.failures, offload.retries  when korvet_storage_archive_failures_total / _retries_total are there
//   offload.max_lag_s          the largest archive lag any poll saw (korvet_storage_archive_lag_seconds,
//                              the most lagging broker)
// With --partitions, topology.partitions states the streams that archived in parallel: records
// at several partition counts give Sizing its offload capacity against streams.
// Counters, histograms and the lag are summed (lag: the maximum) over the brokers.
//
// Threading: runOffloadRecord() blocks its caller (a CLI command, a worker thread) until the
// drain is seen, the timeout passes or `cancel` is set; it polls `cancel` between scrapes.

#include "model/core/domain.h"
#include "runner/benchresult.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace plimsoll {

// The Korvet storage worker's series the record reads: one prefix (--archive-prefix) and the
// suffixes below. Korvet's benchmark page names none of them and Korvet cannot run here, so the
// default prefix is an assumption the user can correct from the command line.
struct OffloadMetricNames
{
    static constexpr const char *kDefaultPrefix = "korvet_storage_archive";
    explicit OffloadMetricNames(const std::string &prefix = kDefaultPrefix);
    std::string bytes;    // <prefix>_bytes_total
    std::string segments; // <prefix>_segments_total
    std::string messages; // <prefix>_messages_total
    std::string seconds;  // <prefix>_seconds (histogram)
    std::string failures; // <prefix>_failures_total
    std::string retries;  // <prefix>_retries_total
    std::string lag;      // <prefix>_lag_seconds (gauge)
};

struct OffloadRecordConfig
{
    std::vector<std::string> brokerMetricsUrls;
    std::chrono::milliseconds interval{1000};      // between polls
    std::chrono::milliseconds drainTimeout{1800000}; // the page's TIERED_OFFLOAD_TIMEOUT_SECONDS (small)
    std::chrono::milliseconds scrapeTimeout{30000};
    std::map<std::string, std::string> tuning; // --tuning: part of the run's contract
    OffloadMetricNames names;                  // --archive-prefix
    int partitions = 0; // --partitions: the streams archived in parallel; 0: not stated
};

// `bench offload` as the user types it, and its one translation into a config.
struct OffloadRequest
{
    std::vector<std::string> brokerMetrics; // URL[,URL...], repeatable
    std::vector<std::string> tuning;        // key=value, repeatable
    std::string interval = "1s", drainTimeout = "30m", timeout = "30s";
    std::string archivePrefix = OffloadMetricNames::kDefaultPrefix; // a Prometheus metric name
    int partitions = 0; // the partitions whose segments archive in parallel; 0: not stated

    static constexpr Domain kInterval = Domain::above(0, "s");
    static constexpr Domain kDrainTimeout = Domain::above(0, "s");
    static constexpr Domain kTimeout = Domain::above(0, "s");
    static constexpr Domain kPartitions = Domain::count(1, 100000);

    // "" with *out filled, or the problem phrased with the option's name.
    std::string resolve(OffloadRecordConfig *out) const;
};

// Exit code 0 with the record; 1 (errors say why, partial) when a broker cannot be scraped at
// the baseline, has no lag gauge, the drain is not seen within the timeout, or nothing was
// archived; kExitInterrupted when cancelled. `sink`, when set, is called on the caller's thread
// after every poll that read the lag: scenario pipeline/offload, phase "drain", bytesPerS and
// segmentsPerS archived since the poll before, archiveLagS the most lagging broker's, progress
// 1 - lag / the largest lag seen.
BenchResult runOffloadRecord(const OffloadRecordConfig &config, const std::atomic<bool> &cancel,
                             const std::function<void(const BenchSnapshot &)> &sink = {});

} // namespace plimsoll
