#pragma once
// memtier_benchmark output (formats.md §1.4, §4):
//   text: the result tables, 5 columns (<= 1.2: Type Ops/sec Hits/sec Misses/sec Latency KB/sec)
//     or 9 and more (1.3+: Avg. Latency and the --print-percentiles columns, matched by
//     header name), under "ALL STATS" or, with -x N, "BEST RUN RESULTS", "WORST RUN RESULTS"
//     and "AGGREGATED AVERAGE RESULTS (N runs)";
//   JSON (--json-out-file): "configuration", "run information", and the result blocks with
//     per-command objects ("Sets", "Gets", "Totals", …: Ops/sec, Latency, KB/sec, "Percentile
//     Latencies" {"p50.00": …}).
// Each command of each configuration is one scenario "memtier/<CMD>/t-<threads>/c-<clients
// per thread>/P-<pipeline>" (CMD: SET, GET, WAIT, TOTAL or the command's own name), so that
// thread, connection and pipeline sweeps line up across files as the redis-benchmark
// scenarios do. The text output states the configuration only in its header lines
// ("4 Threads", "50 Connections per thread"); when they are absent it is taken from the file
// name (…t4…, …c50…, …P16…) and recorded as inferred. Topology: threads, clients and
// connections = threads x clients per thread (one connection each), pipeline.
// A file of several runs, each after its "$ memtier_benchmark …" command line
// (commandblocks.h), reads each block on its own; the command's -t, -c, --pipeline and -d
// stand in for what the output does not state (record_size_bytes and /d-N in the name from
// -d). A blank line after a table's rows ends it, so notes may follow.
//
// Units: latencies are milliseconds in every shape; KB/sec is memtier's bytes / 1024 per
// second, stored as bytes_per_s = KB/sec x 1024 exactly. The headline is ALL STATS, else the
// aggregated average (memtier's own figure, kept as it states it); the best and worst runs
// become "memtier.best_run.*" and "memtier.worst_run.*" metrics on the same scenario.

#include "importers/importer.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

// One row of a result table or one command object of the JSON, already in SI units.
struct MemtierRow
{
    std::string command; // "SET", "GET", "TOTAL", …
    std::vector<MetricValue> metrics;
    int64_t line = 0;
};

// One result block: "ALL STATS", "BEST RUN RESULTS", …
struct MemtierSection
{
    std::string title;
    std::vector<MemtierRow> rows;
    int64_t line = 0;
};

struct MemtierConfig
{
    std::optional<int64_t> threads, clients, pipeline, dataSize, runs;
    std::vector<std::string> inferred;
};

// The JSON shape (memtierjson.cpp). Fills sections, config, run timestamp (empty when the
// file states none) and warnings; returns false with result.error set on failure.
bool parseMemtierJson(const std::string &text, std::vector<MemtierSection> &sections,
                      MemtierConfig &config, std::string &timestamp, ImportResult &result);

// The command name a memtier row type stands for: "Sets" -> "SET", "Totals" -> "TOTAL".
std::string memtierCommand(const std::string &type);

// A memtier metric column or JSON key ("Ops/sec", "p99.9 Latency", "p99.90", "KB/sec") with
// its value appended to `row` in SI units; false for columns Plimsoll does not keep.
bool addMemtierValue(const std::string &column, double value, MemtierRow &row);

} // namespace plimsoll
