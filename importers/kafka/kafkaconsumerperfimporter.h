#pragma once
// kafka-consumer-perf-test (Apache's ConsumerPerformance) output: one run per file.
// Columns are matched by header name, so the 6-column ZooKeeper-era header, the 10-column
// header and the share consumer's reordered one all read. A summary row is a scenario; the
// --show-detailed-stats rows (no summary row) become series of one scenario whose totals
// are the last cumulative row's. Times are "yyyy-MM-dd HH:mm:ss:SSS" local times; MB is MiB.
// Impossible values (the tool's negative fetch.time.ms when it saw no rebalance) are kept as
// printed, with a warning.

#include "importers/importer.h"

namespace plimsoll {

class KafkaConsumerPerfImporter : public Importer
{
public:
    KafkaConsumerPerfImporter();
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
