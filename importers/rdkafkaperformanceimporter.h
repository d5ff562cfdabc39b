#pragma once
// librdkafka's examples/rdkafka_performance summary lines, producer and consumer:
//   "% N messages produced (B bytes), D delivered (offset O, F failed) in Tms: R msgs/s and
//    M MB/s, P produce failures, Q in queue, C compression"
//   "% N messages (B bytes) consumed in Tms: R msgs/s (M MB/s)[, latency curr/avg/lo/hi …ms]"
// The tool prints the same line every interval and at the end: the last of each kind is the
// result, earlier ones are series. Its MB/s is bytes per microsecond, i.e. 10^6 B/s, not MiB.

#include "importers/importer.h"

namespace plimsoll {

class RdkafkaPerformanceImporter : public Importer
{
public:
    std::string name() const override { return "rdkafka-performance"; }
    std::string version() const override { return "1"; }
    std::string description() const override;
    std::string detectionRule() const override;
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
