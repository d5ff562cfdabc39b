// korvet-dist benchmark script outputs (hand-written after the script, see tests/data/korvet-dist).
#include "importers/importers.h"
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

TEST(KorvetDist, MultiProducerTestFile)
{
    const ImportResult r = parseData(korvetDistImporter(), "korvet-dist/producers-8_batch-1000msg_pool-8.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("test");
    const RunRecord &run = r.runs[0];
    EXPECT_EQ(run.timestamp, "2026-01-15T10:23:45Z");
    EXPECT_EQ(run.tuning["korvet.redis.pool-size"], 8);
    EXPECT_EQ(run.tuning["batch.messages"], 1000);
    ASSERT_EQ(run.scenarios.size(), 9u);
    const ScenarioRecord &agg = run.scenarios[0];
    EXPECT_EQ(agg.name, "producers-8_batch-1000msg_pool-8");
    EXPECT_DOUBLE_EQ(*agg.metric("records_per_s"), 380952);
    EXPECT_DOUBLE_EQ(*agg.metric("bytes_per_s"), 372.02 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(*agg.metric("korvet_dist.duration_s"), 21);
    EXPECT_DOUBLE_EQ(*agg.metric("korvet.process_cpu"), 0.0235);
    EXPECT_DOUBLE_EQ(*agg.metric("korvet.system_cpu"), 0.005); // bc's ".50"
    EXPECT_DOUBLE_EQ(*agg.metric("korvet.jvm_memory_bytes"), 512.34 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(*agg.metric("redis.shard.2.cpu"), 0.21999999999999996);
    EXPECT_DOUBLE_EQ(*agg.metric("shard_cpu_max"), 0.241);
    EXPECT_DOUBLE_EQ(*agg.metric("memory_bytes"), (498.0 + 497 + 498 + 499) * 1024 * 1024);
    EXPECT_DOUBLE_EQ(*agg.metric("producers.latency_avg_max_s"), 724.3e-3);
    EXPECT_DOUBLE_EQ(*agg.metric("producers.latency_avg_min_s"), 612.41e-3);
    EXPECT_EQ(agg.topology.partitions, 16);
    EXPECT_EQ(agg.topology.producers, 8);
    EXPECT_EQ(agg.topology.shards, 4);
    EXPECT_EQ(agg.topology.batchBytes, 1124000);
    EXPECT_EQ(agg.topology.acks, "1");
    const ScenarioRecord &p1 = run.scenarios[1];
    EXPECT_EQ(p1.name, "producers-8_batch-1000msg_pool-8/producer-1");
    EXPECT_DOUBLE_EQ(*p1.metric("records_per_s"), 48216.007714);
    EXPECT_DOUBLE_EQ(*p1.metric("latency_p99_s"), 1204e-3);
    // Producer 8 was cut off: its tail line is a periodic one.
    EXPECT_TRUE(hasWarning(r, "no-final-line", 41));
}

TEST(KorvetDist, SingleProducerTestFileReadsTheTeedOutput)
{
    const ImportResult r = parseData(korvetDistImporter(), "korvet-dist/producers-1_batch-1000msg_pool-16.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("test");
    ASSERT_EQ(r.runs[0].scenarios.size(), 1u);
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 151860.288534);
    EXPECT_DOUBLE_EQ(*s.metric("bytes_per_s"), 148.30 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), 329e-3);
    EXPECT_DOUBLE_EQ(*s.metric("memory_bytes"), 776.0 * 1024 * 1024);
    EXPECT_EQ(s.series.size(), 4u);
}

TEST(KorvetDist, SummaryWithTheScriptsSplitRow)
{
    const ImportResult r = parseData(korvetDistImporter(), "korvet-dist/SUMMARY-split-row.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("summary");
    const auto &sc = r.runs[0].scenarios;
    ASSERT_EQ(sc.size(), 2u);
    EXPECT_EQ(sc[0].name, "producers-1_batch-1000msg_pool-8");
    EXPECT_FALSE(sc[0].metric("records_per_s").has_value());
    EXPECT_DOUBLE_EQ(*sc[0].metric("korvet.process_cpu"), 0.012);
    EXPECT_EQ(sc[1].name, "producers-8_batch-1000msg_pool-8");
    EXPECT_DOUBLE_EQ(*sc[1].metric("records_per_s"), 380952);
    EXPECT_DOUBLE_EQ(*sc[1].metric("bytes_per_s"), 372.02 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(*sc[1].metric("korvet_dist.total_messages"), 8000000);
    EXPECT_EQ(sc[1].topology.partitions, 16);
    EXPECT_TRUE(hasWarning(r, "joined-row", 27));
}

TEST(KorvetDist, SummaryAsTheBenchmarkPageShowsIt)
{
    const ImportResult r = parseData(korvetDistImporter(), "korvet-dist/SUMMARY.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("summary");
    ASSERT_EQ(r.runs[0].scenarios.size(), 1u);
    EXPECT_DOUBLE_EQ(*r.runs[0].scenarios[0].metric("records_per_s"), 380952);
}

TEST(KorvetDist, WinsOverTheProducerLinesItEmbeds)
{
    const Importer *i = ImporterRegistry::instance().detect(readData("korvet-dist/producers-1_batch-1000msg_pool-16.txt"));
    ASSERT_NE(i, nullptr);
    EXPECT_EQ(i->name(), "korvet-dist");
}

TEST(KorvetDist, SizesAreReadInTheUnitTheyState)
{
    std::string text = readData("korvet-dist/producers-1_batch-1000msg_pool-16.txt");
    ASSERT_NE(text.find("JVM Memory Used: 301.77 MB"), std::string::npos);
    ASSERT_NE(text.find("Record size: 1024 bytes"), std::string::npos);
    const ImportResult mb = parseText(korvetDistImporter(), text);
    ASSERT_TRUE(mb.ok()) << mb.error->describe("mb");
    text.replace(text.find("301.77 MB"), 9, "1.5 GB");
    text.replace(text.find("1024 bytes"), 10, "4 KB");
    const ImportResult gb = parseText(korvetDistImporter(), text);
    ASSERT_TRUE(gb.ok()) << gb.error->describe("gb");
    auto jvm = [](const ImportResult &r) -> double {
        for (const ScenarioRecord &s : r.runs[0].scenarios)
            if (auto v = s.metric("korvet.jvm_memory_bytes"))
                return *v;
        return -1;
    };
    EXPECT_DOUBLE_EQ(jvm(mb), 301.77 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(jvm(gb), 1.5 * 1024 * 1024 * 1024);
    EXPECT_EQ(gb.runs[0].scenarios[0].topology.recordSizeBytes, 4096);

    text.replace(text.find("1.5 GB"), 6, "1.5 furlongs");
    const ImportResult bad = parseText(korvetDistImporter(), text);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error->field, "JVM Memory Used");
}
