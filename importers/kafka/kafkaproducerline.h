#pragma once
// One line of Apache's ProducerPerformance (kafka-producer-perf-test) output, in every printf
// variant it has had:
//   periodic: "N records sent, R records/sec (M MB/sec), A ms avg latency, X [ms ]max latency."
//   final:    "N[ steady state] records sent, R records/sec (M MB/sec), A ms avg latency,
//              X ms max latency, P ms 50th, P ms 95th, P ms 99th, P ms 99.9th."
// R is %.1f or %f; whatever stands before N (a harness timestamp, indentation) is kept as
// the prefix. MB is MiB; latencies are whole or fractional milliseconds from
// currentTimeMillis, so the resolution is 1 ms.

#include "model/core/records.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

struct ProducerPerfLine
{
    bool final = false;       // has the percentile part (or the start of it)
    bool steadyState = false; // "N steady state records sent" (after --warmup-records)
    bool truncated = false;   // a final line cut short: some percentiles are missing
    int64_t records = 0;
    double recordsPerSec = 0;
    double mbPerSec = 0; // MiB/s as printed, 2 decimals
    double avgMs = 0;
    double maxMs = 0;
    std::optional<int64_t> p50, p95, p99, p999;
    std::string prefix;                    // text before the record count, trimmed
    std::optional<std::string> prefixTime; // the prefix as UTC ISO-8601, when it is a time
    int64_t column = 0;                    // 1-based column of the record count
};

// Nullopt when the line holds no "records sent" result.
std::optional<ProducerPerfLine> parseProducerPerfLine(std::string_view line);

// True when the line mentions "records sent" but is not a result parseProducerPerfLine reads
// (a mangled line worth an error rather than silence).
bool looksLikeProducerPerfLine(std::string_view line);

// The catalog metrics of a final line (records/s, bytes/s, avg/max/p50/p95/p99/p99.9 in
// seconds) or, for a periodic line, of its window (no percentiles).
void appendProducerMetrics(const ProducerPerfLine &line, std::vector<MetricValue> &out);

// Interim lines as series: records_per_s, bytes_per_s, latency_avg_s, latency_max_s. Times
// come from harness timestamps when every line has one, else from the tool's 5-s window.
std::vector<SeriesRecord> producerSeries(const std::vector<ProducerPerfLine> &interim);

} // namespace plimsoll
