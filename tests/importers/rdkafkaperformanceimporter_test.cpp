// rdkafka_performance summaries (hand-written after its printf formats): MB/s is 10^6 B/s.
#include "importers/rdkafkaperformanceimporter.h"
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

TEST(RdkafkaPerformance, ProducerSummaryUsesTheLastLineAndDecimalMegabytes)
{
    const ImportResult r = parseData(RdkafkaPerformanceImporter(), "rdkafka/producer.txt");
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
    const ImportResult r = parseData(RdkafkaPerformanceImporter(), "rdkafka/consumer.txt");
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
    const ImportResult r = parseText(RdkafkaPerformanceImporter(),
                                     "% lots of messages produced (100 bytes)\n");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 1);
    EXPECT_EQ(r.error->column, 1);
}
