#pragma once
// The outputs of korvet-dist's samples/benchmark/scripts/run-comprehensive-benchmark.sh:
// per-test result files (producers-<N>_batch-<B>msg_pool-<P>.txt: a configuration block, the
// kafka-producer-perf-test output of one producer or each producer's final line, aggregate
// results, Korvet actuator metrics, Redis Enterprise per-shard memory and CPU) and SUMMARY.txt
// (one row per test). One run per file; scenarios are named by the test
// ("producers-8_batch-1000msg_pool-8"), so a test's per-file aggregate and its SUMMARY row line up.
// MB is MiB throughout (the script divides by 1024 twice); CPU percentages become fractions.

#include "importers/importer.h"

namespace plimsoll {

class KorvetDistImporter : public Importer
{
public:
    KorvetDistImporter();
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
