#pragma once
// OpenMessaging Benchmark result JSON (Jackson-serialized TestResult): the old 39-key schema,
// the current one (messageSize, topics, partitions, producers/consumersPerTopic,
// publishErrorRate, publishDelayLatency* in microseconds, 99.999th fields) and fork extras
// (Redpanda's version, beginTime, sampleRateMillis, sent/consumed counts). Every field is
// optional and unknown keys are ignored.
//
// One run, one scenario named by the workload. Aggregates become catalog metrics: publish
// latency (ms) -> latency_*_s, end-to-end -> e2e_p99_s and e2e.latency_*_s, publish delay
// (µs) -> publish_delay.latency_*_s; records_per_s is the mean of the per-window publish
// rates (OMB's own prod-rate-avg) and bytes_per_s that times messageSize. Quantile maps,
// keyed by Double.toString of the percentile (sci-notation allowed), become
// publish.quantile.<p>, e2e.quantile.<p>, publish_delay.quantile.<p> in seconds. Per-window
// arrays are kept as series.

#include "importers/importer.h"

namespace plimsoll {

class OmbImporter : public Importer
{
public:
    OmbImporter();
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
