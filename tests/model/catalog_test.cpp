#include "model/core/catalog.h"

#include <gtest/gtest.h>

using namespace plimsoll;

TEST(Catalog, SharedNamesAreAllThere)
{
    for (const char *m : {"records_per_s", "bytes_per_s", "latency_avg_s", "latency_p50_s",
                          "latency_p95_s", "latency_p99_s", "latency_p999_s", "latency_max_s",
                          "ack_p99_s", "e2e_p99_s", "broker_cpu_avg", "shard_cpu_max",
                          "memory_bytes", "errors"})
        EXPECT_NE(findMetric(m), nullptr) << m;
    for (const char *f : {"producers", "consumers", "clients", "connections", "threads", "pipeline",
                          "brokers", "shards", "partitions", "record_size_bytes"})
        EXPECT_NE(findFactor(f), nullptr) << f;
    EXPECT_EQ(findMetric("records_per_second"), nullptr);
}

TEST(Catalog, DirectionsFollowWhatBetterMeans)
{
    EXPECT_EQ(findMetric("records_per_s")->direction, Direction::HigherIsBetter);
    EXPECT_EQ(findMetric("latency_p99_s")->direction, Direction::LowerIsBetter);
    EXPECT_EQ(findMetric("shard_cpu_max")->direction, Direction::LowerIsBetter);
}

TEST(Catalog, FormatsForPeople)
{
    EXPECT_EQ(formatMetric("records_per_s", 642352), "642,352 rec/s");
    EXPECT_EQ(formatMetric("latency_p99_s", 0.059), "59 ms");
    EXPECT_EQ(formatMetric("latency_p50_s", 0.0021), "2.1 ms");
    EXPECT_EQ(formatMetric("latency_avg_s", 1.5), "1.5 s");
    EXPECT_EQ(formatMetric("shard_cpu_max", 0.92), "92 %");
    EXPECT_EQ(formatMetric("bytes_per_s", 46.5 * 1048576), "46.5 MiB/s");
    EXPECT_EQ(formatMetric("memory_bytes", 776.47 * 1048576), "776.5 MiB");
}

TEST(Catalog, ToolMetricsKeepTheUnitTheirNameStates)
{
    EXPECT_EQ(formatMetric("producer.service_p99_s", 0.012), "12 ms");
    EXPECT_EQ(formatMetric("consumer.fetch_bytes_per_s", 2 * 1048576.0), "2.0 MiB/s");
    EXPECT_EQ(formatMetric("archive.object_bytes", 3 * 1024.0), "3.0 KiB");
    EXPECT_EQ(formatMetric("producer.records_per_s", 5000), "5,000 rec/s");
    EXPECT_EQ(formatMetric("hdr.count_per_s", 1234), "1,234/s");
    EXPECT_EQ(formatMetric("archive.parquet_files", 42), "42");
    // A quantile map's entries (OMB's publish.quantile.<p>) are latencies in seconds.
    EXPECT_EQ(formatMetric("publish.quantile.99.9", 0.0021), "2.1 ms");
}
