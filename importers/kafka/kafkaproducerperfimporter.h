#pragma once
// kafka-producer-perf-test (Apache's ProducerPerformance) output: one run per file. Each final
// line closes a scenario with the periodic lines before it as series; several producers'
// outputs in one file become producer-1…N plus an "aggregate" scenario computed the way
// korvet-dist's benchmark script does (total records over the longest producer's duration,
// percentiles never combined). "==> …" banners name the scenarios instead (sequential steps,
// no aggregate); so do "$ kafka-producer-perf-test …" command lines (commandblocks.h), whose
// --record-size becomes record_size_bytes, --throughput producer.offered_records_per_s and the
// name producer/throughput-N/record-size-S. A run killed before its final line keeps its last periodic line, with a
// warning. A --print-metrics block becomes kafka.* metrics of the scenario it follows.

#include "importers/importer.h"

namespace plimsoll {

class KafkaProducerPerfImporter : public Importer
{
public:
    KafkaProducerPerfImporter();
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
