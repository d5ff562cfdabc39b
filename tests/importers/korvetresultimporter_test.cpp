#include "importers/importers.h"

#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {
const Importer &kImporter = korvetResultImporter();
}

TEST(KorvetResultImporter, SeedExampleBecomesOneRunInSI)
{
    const ImportResult r = parseData(kImporter, "korvet-result.json");
    ASSERT_TRUE(r.ok()) << r.error->describe("korvet-result.json");
    ASSERT_EQ(r.runs.size(), 1u);
    const RunRecord &run = r.runs[0];
    EXPECT_EQ(run.runKey, "korvet-result:abc1234:2026-03-30T17:30:00Z");
    EXPECT_EQ(run.timestamp, "2026-03-30T17:30:00Z");
    EXPECT_EQ(run.commit, "abc1234");
    EXPECT_EQ(run.tool, "korvet-benchmark");
    EXPECT_EQ(run.toolVersion, "0.5.0-ea1");
    EXPECT_EQ(run.target, "korvet");
    EXPECT_EQ(run.environment["availableProcessors"], 4);
    EXPECT_EQ(run.environment["javaVersion"], "25");
    // Topology keys leave the tuning contract; the rest stays, arrays as plain text.
    EXPECT_EQ(run.tuning,
              nlohmann::json::parse(
                  R"({"messageCount":10000,"iterations":3,"batchSizes":"100,500,1000"})"));

    ASSERT_EQ(run.scenarios.size(), 1u);
    const ScenarioRecord &s = run.scenarios[0];
    EXPECT_EQ(s.name, "standalone_consumer/batch-100");
    EXPECT_EQ(s.kind, "benchmark");
    EXPECT_EQ(s.line, 19);
    EXPECT_EQ(s.topology.partitions, 1);
    EXPECT_EQ(s.topology.recordSizeBytes, 1024);
    EXPECT_EQ(s.topology.batchBytes, std::nullopt);
    EXPECT_DOUBLE_EQ(*s.metric("latency_avg_s"), 0.250);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p95_s"), 0.320);
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 400.0);
    EXPECT_EQ(s.metric("latency_p99_s"), std::nullopt);
    EXPECT_EQ(s.metrics.size(), 3u);
    EXPECT_TRUE(r.warnings.empty());
}

TEST(KorvetResultImporter, RepeatedScenariosAreNumberedIterations)
{
    const ImportResult r = parseData(kImporter, "korvet-result-iterations.json");
    ASSERT_TRUE(r.ok()) << r.error->describe("korvet-result-iterations.json");
    const RunRecord &run = r.runs.at(0);
    EXPECT_EQ(run.timestamp, "2026-04-02T06:15:30.250Z");
    EXPECT_EQ(run.runKey, "korvet-result:def5678:2026-04-02T06:15:30.250Z");
    ASSERT_EQ(run.scenarios.size(), 3u);
    EXPECT_EQ(run.scenarios[0].name, "standalone_consumer/batch-100/iteration-1");
    EXPECT_EQ(run.scenarios[1].name, "standalone_consumer/batch-100/iteration-2");
    EXPECT_EQ(run.scenarios[2].name, "consumer_group/batch-1000");

    const ScenarioRecord &first = run.scenarios[0];
    EXPECT_DOUBLE_EQ(*first.metric("latency_avg_s"), 0.0125);
    EXPECT_DOUBLE_EQ(*first.metric("latency_p50_s"), 0.011);
    EXPECT_DOUBLE_EQ(*first.metric("latency_p99_s"), 0.03125);
    EXPECT_DOUBLE_EQ(*first.metric("latency_max_s"), 0.080);
    EXPECT_DOUBLE_EQ(*first.metric("records_per_s"), 8000.0);
    // MB/s in the Korvet sense: 1 MB = 1024 * 1024 bytes.
    EXPECT_DOUBLE_EQ(*first.metric("bytes_per_s"), 3.90625 * 1048576.0);
    EXPECT_DOUBLE_EQ(*first.metric("errors"), 0.0);
    EXPECT_EQ(first.topology.partitions, 4);
    EXPECT_EQ(first.topology.recordSizeBytes, 512);

    // The unknown scenario field is named with its line, and the import still succeeds.
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].kind, "ignored-field");
    EXPECT_EQ(r.warnings[0].line, 42);
    EXPECT_NE(r.warnings[0].detail.find("heapUsedMb"), std::string::npos);
}

struct BrokenCase
{
    const char *file;
    int64_t line;
    const char *field;
    const char *messagePart;
};

class KorvetBroken : public ::testing::TestWithParam<BrokenCase>
{
};

TEST_P(KorvetBroken, NamesLineAndField)
{
    const BrokenCase c = GetParam();
    const ImportResult r = parseData(kImporter, c.file);
    ASSERT_FALSE(r.ok()) << c.file;
    EXPECT_TRUE(r.runs.empty());
    EXPECT_EQ(r.error->line, c.line) << r.error->describe(c.file);
    EXPECT_EQ(r.error->field, c.field) << r.error->describe(c.file);
    EXPECT_NE(r.error->message.find(c.messagePart), std::string::npos) << r.error->message;
}

INSTANTIATE_TEST_SUITE_P(
    Files, KorvetBroken,
    ::testing::Values(
        BrokenCase{"korvet-result-not-json.json", 10, "", "is not valid JSON"},
        BrokenCase{"korvet-result-bad-timestamp.json", 3, "timestamp",
                   "'30/03/2026 17:30' is not an ISO-8601 time"},
        BrokenCase{"korvet-result-missing-timestamp.json", 1, "timestamp", "is missing"},
        BrokenCase{"korvet-result-scenarios-object.json", 18, "scenarios", "not an array"},
        BrokenCase{"korvet-result-string-metric.json", 22, "scenarios/0/avgLatencyMs",
                   "is a string, not a number"},
        BrokenCase{"korvet-result-negative-throughput.json", 24,
                   "scenarios/0/throughputMsgPerSec", "negative throughput"}));

TEST(KorvetResultImporter, DescribedErrorReadsLikeASentence)
{
    const ImportResult r = parseData(kImporter, "korvet-result-bad-timestamp.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->describe("runs.json"),
              "runs.json: line 3: field 'timestamp': '30/03/2026 17:30' is not an ISO-8601 time");
}

TEST(KorvetResultImporter, ZonelessTimestampIsUtcWithAWarning)
{
    std::string text = readData("korvet-result.json");
    text.replace(text.find("17:30:00Z"), 9, "17:30:00");
    const ImportResult r = parseText(kImporter, text);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.runs[0].timestamp, "2026-03-30T17:30:00Z");
    EXPECT_TRUE(hasWarning(r, "timestamp-without-zone", 3));
}

TEST(KorvetResultImporter, MissingCommitGivesUnknownInRunKey)
{
    std::string text = readData("korvet-result.json");
    text.replace(text.find("  \"gitCommit\": \"abc1234\",\n"), 26, "");
    const ImportResult r = parseText(kImporter, text);
    ASSERT_TRUE(r.ok()) << r.error->describe("");
    EXPECT_EQ(r.runs[0].runKey, "korvet-result:unknown:2026-03-30T17:30:00Z");
    EXPECT_EQ(r.runs[0].commit, "");
}

TEST(KorvetResultImporter, SniffsByContent)
{
    EXPECT_GE(kImporter.sniff(readData("korvet-result.json")), 50);
    EXPECT_EQ(kImporter.sniff(readData("trend-records.jsonl")), 0);
    EXPECT_EQ(kImporter.sniff("korvetVersion: 1"), 0);
    EXPECT_EQ(kImporter.sniff(""), 0);
}

TEST(KorvetResultImporter, CancelStopsTheImport)
{
    const ImportResult r = parseText(kImporter, readData("korvet-result.json"),
                                     [](int64_t, int64_t) { return false; });
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error->message.find("cancelled"), std::string::npos);
    EXPECT_TRUE(r.runs.empty());
}

TEST(KorvetResultImporter, ScenarioWithoutTypeNamesItsLine)
{
    std::string text = readData("korvet-result.json");
    text.replace(text.find("\"type\": \"STANDALONE_CONSUMER\","), 30, "");
    const ImportResult r = parseText(kImporter, text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 19);
    EXPECT_EQ(r.error->field, "scenarios/0/type");
    EXPECT_EQ(r.error->message, "is missing; each scenario names its type");
}
