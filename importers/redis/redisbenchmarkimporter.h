#pragma once
// redis-benchmark output in each of its shapes (formats.md §3):
//   --csv, 6.2+: header "test","rps","avg_latency_ms",…,"max_latency_ms", quoted values
//   --csv, older: no header, "SET","188679.25" (often CRLF)
//   --csv, 6.2+ saved without its header row: the 8 columns in the header's order
//   -q: "GET: 86206.90 requests per second[, p50=0.119 msec]"
//   full text, 6.2+/7.x: "====== SET ======", header lines, "Latency by percentile
//     distribution", "Summary:" with throughput and the avg/min/p50/p95/p99/max table
//   full text, older: "99.04% <= 2 milliseconds" cumulative lines and "N requests per second"
// Each test (command) becomes one scenario named redis-benchmark/<TEST>[/c-<clients>][/P-<pipeline>]
// so that connection and pipeline sweeps line up across files. The text output states the
// clients; CSV and -q do not, so they are taken from the file name (…clients_50…, -c50,
// P16) when it says, recorded as inferred. Latencies are milliseconds in every shape.
// A file of several runs, each after its "$ redis-benchmark …" command line (commandblocks.h),
// reads each block on its own; the command's -c, -P, --threads and -d are its load factors
// (stated, so not inferred), with /threads-N and /d-N in the scenario name.

#include "importers/importer.h"

namespace plimsoll {

class RedisBenchmarkImporter : public Importer
{
public:
    RedisBenchmarkImporter();
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
