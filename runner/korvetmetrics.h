#pragma once
// Korvet's broker-side series as a ramp step reads them: the names of Korvet 0.19's metric
// reference in Micrometer's Prometheus form (dots become underscores, a timer is
// <name>_seconds with _count/_sum/_max and _bucket where histograms are on, a counter ends in
// _total, a gauge with a base unit ends in it), the benchmark page's newer names where a build
// exports them, and the earlier generation without the "broker" segment that korvet-dist's
// dashboard queries. Korvet cannot run in the test environment, so these are tested against
// metrics text served from the documented names.

#include "model/formats/prometheusdiff.h"

#include <map>
#include <string>
#include <vector>

namespace plimsoll {

enum class KorvetSeriesKind { Timer, Counter, Gauge, Distribution };

struct KorvetSeries
{
    const char *name;       // the Prometheus name: a timer's <x>_seconds, a counter's <x>_total
    KorvetSeriesKind kind;
    const char *generation; // "0.19" (the metric reference), "newer" (the page), "older" (the dashboard)
};

// Every series a ramp step reads, in the order a step lists them.
const std::vector<KorvetSeries> &korvetSeries();

// Whether one scrape has `series` (a timer by its _count, a distribution by its _count or _sum).
bool hasKorvetSeries(const PromSnapshot &snapshot, const KorvetSeries &series);
// Whether a scrape has any series named korvet_* at all: false is a target that is not a Korvet,
// or a build whose names are none of the known ones.
bool hasAnyKorvetFamily(const PromSnapshot &snapshot);

// The Korvet numbers of one step's window, summed over the brokers as add() sees them.
class KorvetWindow
{
public:
    // One broker's window (`diff`, from the first sample to `last`).
    void add(const PromDiff &diff, const PromSnapshot &last);
    // One broker's high watermarks of `topic` (korvet_broker_max_offset{topic,partition}) at the
    // window's start and end, `seconds` apart: each partition's produce rate. A partition that
    // several brokers report counts once, at the largest advance.
    void addOffsets(const PromSnapshot &first, const PromSnapshot &last, double seconds,
                    const std::string &topic);
    // broker.backpressure_applied_per_s / _released_per_s / broker.backpressure_connections,
    // broker.pending_bytes, storage.pool_timeouts_per_s, storage.pool_pending,
    // broker.produce_records_per_s, and storage.<verb>_<tier>_p50_s / _p99_s (from buckets) or
    // _avg_s (the timer's mean, without buckets) for write, read and ack, and likewise
    // broker.request_<api_key>_… (lower case: broker.request_produce_p99_s) for every Kafka API
    // request the window saw (korvet_broker_request_seconds{api_key}); per partition of the
    // topic, partitions.<p>.records_per_s, and broker.partition_skew (the busiest partition's
    // rate over the mean, with two or more partitions and records). Only what was found.
    void put(std::map<std::string, double> &metrics) const;

private:
    struct Timer
    {
        std::vector<PromBucket> buckets;
        double observations = 0; // in the buckets
        double count = 0, sum = 0; // _count and _sum deltas
    };
    std::map<std::string, double> m_sums; // rates and gauges, summed over brokers
    std::map<std::string, Timer> m_timers; // "storage.write_local", "broker.request_fetch" → its window
    std::map<int, double> m_partitionRates; // records/s by partition of the step's topic
};

} // namespace plimsoll
