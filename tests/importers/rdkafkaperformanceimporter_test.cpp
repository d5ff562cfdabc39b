// rdkafka_performance output: the hand-written summaries (after its printf formats) and real
// output of the tool (librdkafka 2.0.2, tests/data/rdkafka/README.md). MB/s is 10^6 B/s.
#include "importers/importers.h"
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

TEST(RdkafkaPerformance, ProducerSummaryUsesTheLastLineAndDecimalMegabytes)
{
    const ImportResult r = parseData(rdkafkaPerformanceImporter(), "rdkafka/producer.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("producer");
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_EQ(s.name, "producer");
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 405350);
    EXPECT_DOUBLE_EQ(*s.metric("bytes_per_s"), 40.54e6);
    EXPECT_DOUBLE_EQ(*s.metric("producer.records_delivered"), 1000000);
    EXPECT_DOUBLE_EQ(*s.metric("producer.elapsed_s"), 2.467);
    ASSERT_EQ(s.series.size(), 2u);
    EXPECT_DOUBLE_EQ(s.series[0].samples[0].value, 401000);
}

TEST(RdkafkaPerformance, ConsumerSummaryWithLatency)
{
    const ImportResult r = parseData(rdkafkaPerformanceImporter(), "rdkafka/consumer.txt");
    ASSERT_TRUE(r.ok());
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_EQ(s.name, "consumer");
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 533902);
    EXPECT_DOUBLE_EQ(*s.metric("bytes_per_s"), 53.39e6);
    EXPECT_DOUBLE_EQ(*s.metric("e2e.latency_avg_s"), 4.87e-3);
    EXPECT_DOUBLE_EQ(*s.metric("e2e.latency_max_s"), 41.06e-3);
}

TEST(RdkafkaPerformance, MangledSummaryIsAnError)
{
    const ImportResult r = parseText(rdkafkaPerformanceImporter(),
                                     "% lots of messages produced (100 bytes)\n");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 1);
    EXPECT_EQ(r.error->column, 1);
}

TEST(RdkafkaPerformance, RealProducerSummary)
{
    const std::string text = readData("rdkafka/real-2.0.2/producer-summary.txt");
    EXPECT_EQ(ImporterRegistry::instance().detect(text)->name(), "rdkafka-performance");
    const ImportResult r = parseText(rdkafkaPerformanceImporter(), text);
    ASSERT_TRUE(r.ok()) << r.error->describe("producer-summary.txt");
    ASSERT_EQ(r.runs[0].scenarios.size(), 1u);
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_EQ(s.name, "producer");
    EXPECT_EQ(s.line, 9); // the final line, after the backpressure line
    EXPECT_EQ(*s.metric("records_per_s"), 80518);
    EXPECT_EQ(*s.metric("bytes_per_s"), 82.45 * 1e6);
    EXPECT_EQ(*s.metric("producer.records_sent"), 200000);
    EXPECT_EQ(*s.metric("producer.bytes_sent"), 204800000);
    EXPECT_EQ(*s.metric("producer.records_delivered"), 200000);
    EXPECT_EQ(*s.metric("producer.elapsed_s"), 2483 * 1e-3);
    // 68 produce() calls met a full local queue and were retried; nothing failed.
    EXPECT_EQ(*s.metric("errors"), 0);
    EXPECT_EQ(*s.metric("producer.produce_failures"), 68);
    EXPECT_EQ(s.topology.recordSizeBytes, 1024);
    EXPECT_EQ(s.topology.compression, "none");
    EXPECT_EQ(s.topology.producers, 1);
    EXPECT_FALSE(s.metric("latency_avg_s")); // -l prints producer latency in the -u table only
    // The final line (2483 ms) replaces the interval line printed at 2547 ms.
    ASSERT_EQ(s.series.size(), 2u);
    ASSERT_EQ(s.series[0].name, "records_per_s");
    ASSERT_EQ(s.series[0].samples.size(), 2u);
    EXPECT_DOUBLE_EQ(s.series[0].samples[0].tOffsetS, 1.008);
    EXPECT_DOUBLE_EQ(s.series[0].samples[0].value, 0);
    EXPECT_DOUBLE_EQ(s.series[0].samples[1].tOffsetS, 2.483);
    EXPECT_DOUBLE_EQ(s.series[0].samples[1].value, 80518);
}

TEST(RdkafkaPerformance, RealConsumerSummaryWithEndToEndAndFetchLatency)
{
    const ImportResult r = parseData(rdkafkaPerformanceImporter(), "rdkafka/real-2.0.2/consumer-summary.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("consumer-summary.txt");
    const ScenarioRecord &s = r.runs[0].scenarios.at(0);
    EXPECT_EQ(s.name, "consumer");
    EXPECT_EQ(*s.metric("records_per_s"), 1505683);
    EXPECT_EQ(*s.metric("bytes_per_s"), 1541.82 * 1e6);
    EXPECT_EQ(*s.metric("consumer.records_consumed"), 200000);
    EXPECT_EQ(*s.metric("consumer.bytes_consumed"), 204800000);
    EXPECT_EQ(*s.metric("consumer.elapsed_s"), 132 * 1e-3);
    EXPECT_EQ(*s.metric("e2e.latency_avg_s"), 2547.72 * 1e-3);
    EXPECT_EQ(*s.metric("e2e.latency_min_s"), 1862.49 * 1e-3);
    EXPECT_EQ(*s.metric("e2e.latency_max_s"), 3204.73 * 1e-3);
    EXPECT_EQ(*s.metric("consumer.fetch_latency_avg_s"), 3 * 1e-6);
    EXPECT_EQ(s.topology.consumers, 1);
}

TEST(RdkafkaPerformance, RealProducerTableWithDeliveryLatency)
{
    const std::string text = readData("rdkafka/real-2.0.2/producer-table.txt");
    EXPECT_EQ(ImporterRegistry::instance().detect(text)->name(), "rdkafka-performance");
    const ImportResult r = parseText(rdkafkaPerformanceImporter(), text);
    ASSERT_TRUE(r.ok()) << r.error->describe("producer-table.txt");
    const ScenarioRecord &s = r.runs[0].scenarios.at(0);
    EXPECT_EQ(s.name, "producer");
    EXPECT_EQ(s.line, 8);
    EXPECT_EQ(s.provenance, "last table row, line 8");
    EXPECT_EQ(*s.metric("records_per_s"), 76752);
    EXPECT_EQ(*s.metric("bytes_per_s"), 39.30 * 1e6);
    EXPECT_EQ(*s.metric("producer.records_sent"), 100000);
    EXPECT_EQ(*s.metric("producer.records_delivered"), 100000);
    EXPECT_EQ(*s.metric("producer.elapsed_s"), 1302 * 1e-3);
    EXPECT_EQ(*s.metric("errors"), 0);
    EXPECT_EQ(*s.metric("producer.produce_failures"), 0);
    EXPECT_EQ(*s.metric("producer.broker_rtt_avg_s"), 2 * 1e-3);
    EXPECT_EQ(*s.metric("latency_avg_s"), 1094.87 * 1e-3);
    EXPECT_EQ(*s.metric("producer.latency_min_s"), 1042.05 * 1e-3);
    EXPECT_EQ(*s.metric("latency_max_s"), 1139.19 * 1e-3);
    EXPECT_EQ(s.topology.recordSizeBytes, 512);
    EXPECT_FALSE(s.topology.compression); // the table does not say
    ASSERT_EQ(s.series.size(), 2u);
    EXPECT_EQ(s.series[1].name, "bytes_per_s");
    EXPECT_DOUBLE_EQ(s.series[1].samples.back().value, 39.30e6);
}

TEST(RdkafkaPerformance, RealConsumerTable)
{
    const ImportResult r = parseData(rdkafkaPerformanceImporter(), "rdkafka/real-2.0.2/consumer-table.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("consumer-table.txt");
    const ScenarioRecord &s = r.runs[0].scenarios.at(0);
    EXPECT_EQ(s.name, "consumer");
    EXPECT_EQ(*s.metric("records_per_s"), 1017842);
    EXPECT_EQ(*s.metric("bytes_per_s"), 521.14 * 1e6);
    EXPECT_EQ(*s.metric("consumer.records_consumed"), 100000);
    EXPECT_EQ(*s.metric("consumer.bytes_consumed"), 51200000);
    EXPECT_EQ(*s.metric("errors"), 0);
    EXPECT_FALSE(s.metric("consumer.broker_rtt_avg_s")); // printed 0: no statistics yet
    EXPECT_EQ(*s.metric("e2e.latency_avg_s"), 2054.08 * 1e-3);
    EXPECT_EQ(*s.metric("e2e.latency_min_s"), 1938.65 * 1e-3);
    EXPECT_EQ(*s.metric("e2e.latency_max_s"), 2104.72 * 1e-3);
    EXPECT_EQ(*s.metric("consumer.fetch_latency_avg_s"), 8 * 1e-6);
}

TEST(RdkafkaPerformance, ProducerAndConsumerOutputsInOneFileGiveTwoScenarios)
{
    const ImportResult r =
        parseText(rdkafkaPerformanceImporter(), readData("rdkafka/real-2.0.2/producer-summary.txt") +
                                                    readData("rdkafka/real-2.0.2/consumer-table.txt"));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.runs[0].scenarios.size(), 2u);
    EXPECT_EQ(*r.runs[0].scenarios[0].metric("records_per_s"), 80518);
    EXPECT_EQ(*r.runs[0].scenarios[1].metric("records_per_s"), 1017842);
}

TEST(RdkafkaPerformance, IntervalLinesOfMinusMAreNotResults)
{
    // -M, after the tool's printf (2.0.2 crashes before printing one; later releases do not).
    const ImportResult r = parseText(
        rdkafkaPerformanceImporter(),
        "% 1000 messages (100000 bytes) consumed in 1000ms: 1000 msgs/s (0.10 MB/s)\n"
        "% INTERVAL: 1000 messages (100000 bytes) consumed in 1000ms: 1000 msgs/s (0.10 MB/s)\n"
        "% 3000 messages (300000 bytes) consumed in 2000ms: 1500 msgs/s (0.15 MB/s)\n"
        "% INTERVAL: 2000 messages (200000 bytes) consumed in 1000ms: 2000 msgs/s (0.20 MB/s)\n");
    ASSERT_TRUE(r.ok()) << r.error->describe("interval");
    EXPECT_EQ(*r.runs[0].scenarios[0].metric("records_per_s"), 1500);
    EXPECT_EQ(r.runs[0].scenarios[0].series[0].samples.size(), 2u);
}

TEST(RdkafkaPerformance, BrokenTablesAreErrorsWithLineAndColumn)
{
    const std::string header =
        "|    elapsed |       msgs |      bytes |        rtt |        m/s |       MB/s |     rx_err |     offset \n";
    const ImportResult early = parseText(
        rdkafkaPerformanceImporter(),
        "|        669 |      50000 |   51200000 |         18 |      74670 |      76.46 |          0 |      49999 \n");
    ASSERT_FALSE(early.ok());
    EXPECT_EQ(early.error->line, 1);
    EXPECT_EQ(early.error->field, "table");

    const ImportResult shortRow =
        parseText(rdkafkaPerformanceImporter(), header + "|        669 |      50000 \n");
    ASSERT_FALSE(shortRow.ok());
    EXPECT_EQ(shortRow.error->line, 2);

    const ImportResult word = parseText(
        rdkafkaPerformanceImporter(),
        header + "|        669 |      50000 |   51200000 |         18 |      lots |      76.46 |          0 |      49999 \n");
    ASSERT_FALSE(word.ok());
    EXPECT_EQ(word.error->line, 2);
    EXPECT_EQ(word.error->field, "m/s");
    EXPECT_EQ(word.error->column, 60);
}
