#pragma once
// librdkafka's examples/rdkafka_performance output, producer (-P) and consumer (-C, -G):
//   summary lines (the default)
//   "% N messages produced (B bytes), D delivered (offset O, F failed) in Tms: R msgs/s and
//    M MB/s, P produce failures, Q in queue, C compression"
//   "% N messages (B bytes) consumed in Tms: R msgs/s (M MB/s)[, latency curr/avg/lo/hi …ms]"
//   or, with -u, a table ("| %10s" cells): producer "elapsed msgs bytes rtt dr dr_m/s dr_MB/s
//   dr_err tx_err outq offset [lat_curr lat_avg lat_lo lat_hi]", consumer "elapsed msgs bytes
//   rtt m/s MB/s rx_err offset [lat_*]".
// The tool prints a line (row) every interval and once more at the end: the last of each kind
// is the result, the earlier ones are series. Its MB/s is bytes per microsecond, i.e. 10^6 B/s,
// not MiB. "produce failures" (tx_err) counts produce() calls the client refused, nearly
// always its local queue being full, and retried: back-pressure, not lost messages; failed
// deliveries are the "F failed" (dr_err) count.

#include "importers/importer.h"

namespace plimsoll {

class RdkafkaPerformanceImporter : public Importer
{
public:
    // Version 2: errors are failed deliveries (were the produce() retries); -u tables; the send
    // line's message size, the compression, the consumer's fetch latency.
    RdkafkaPerformanceImporter();
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
};

} // namespace plimsoll
