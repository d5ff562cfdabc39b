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
//   offload.archive_p50_s/_p99_s  per-attempt archive time (korvet_storage_archive_seconds' buckets),
//   offload.archive_avg_s      and its mean (_sum / _count), the only figure without buckets
//   offload.failures, offload.retries  when korvet_storage_archive_failures_total / _retries_total are there
//   offload.max_lag_s          the largest archive lag any poll saw (korvet_storage_archive_lag_oldest_seconds,
//                              the most lagging broker)
//   offload.max_lag_segments   the most sealed segments waiting at any poll (korvet_storage_archive_lag_segments)
// The drain is over when the oldest waiting segment's age is zero and, where the broker exports
// it, no sealed segment waits.
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
// suffixes below, as Korvet 0.19's metric reference names them in Micrometer's Prometheus form
// (korvet.storage.archive.* → korvet_storage_archive_*). The prefix stays an override for builds
// that name them otherwise.
struct OffloadMetricNames
{
    static constexpr const char *kDefaultPrefix = "korvet_storage_archive";
    explicit OffloadMetricNames(const std::string &prefix = kDefaultPrefix);
    std::string bytes;       // <prefix>_bytes_total (counter)
    std::string segments;    // <prefix>_segments_total (counter)
    std::string messages;    // <prefix>_messages_total, where a build counts records
    std::string seconds;     // <prefix>_seconds (timer: _bucket where histograms are on, else _count/_sum)
    std::string failures;    // <prefix>_failures_total (counter)
    std::string retries;     // <prefix>_retries_total, where a build counts them
    std::string lagOldest;   // <prefix>_lag_oldest_seconds (gauge): the oldest waiting segment's age
    std::string lagSegments; // <prefix>_lag_segments (gauge): sealed segments waiting
    std::string lag;         // <prefix>_lag_seconds: read where <prefix>_lag_oldest_seconds is absent
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
// the baseline, has no lag gauge (neither <prefix>_lag_oldest_seconds nor <prefix>_lag_seconds), the drain is not seen within the timeout, or nothing was
// archived; kExitInterrupted when cancelled. `sink`, when set, is called on the caller's thread
// after every poll that read the lag: scenario pipeline/offload, phase "drain", bytesPerS and
// segmentsPerS archived since the poll before, archiveLagS the most lagging broker's, progress
// 1 - lag / the largest lag seen.
BenchResult runOffloadRecord(const OffloadRecordConfig &config, const std::atomic<bool> &cancel,
                             const std::function<void(const BenchSnapshot &)> &sink = {});

} // namespace plimsoll
