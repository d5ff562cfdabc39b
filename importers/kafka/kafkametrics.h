#pragma once
// The `--print-metrics` block that kafka-producer-perf-test and kafka-consumer-perf-test print
// after their results: a "Metric Name   Value" header, then "group:name:{tags} : value" lines.
// Each numeric metric becomes a dotted tool metric, kafka.<group without "-metrics">.<name>,
// with tags other than client-id appended as {k=v,…}; values keep Kafka's own units (ms,
// bytes, per second) because these names are the client's, not the catalog's.

#include "importers/importer.h"
#include "importers/textsource.h"

#include <string>
#include <vector>

namespace plimsoll {

struct KafkaMetricsBlock
{
    int64_t headerLine = 0;
    std::vector<MetricValue> metrics;
    std::string clientVersion; // app-info:version, when printed
};

bool isKafkaMetricsHeader(std::string_view line);

// Reads the block whose header is lines[header]; returns the index of the first line after
// it. Lines that are not metric lines end the block.
size_t readKafkaMetrics(const std::vector<TextLine> &lines, size_t header,
                        KafkaMetricsBlock &block, std::vector<ImportWarning> &warnings);

// "producer-metrics:batch-size-avg:{client-id=perf-producer-client}" -> "kafka.producer.batch-size-avg".
std::string kafkaMetricName(std::string_view group, std::string_view name, std::string_view tags);

} // namespace plimsoll
