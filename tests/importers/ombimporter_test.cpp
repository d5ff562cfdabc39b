// OpenMessaging Benchmark results from the shared corpus: headline numbers exactly as the files
// state them, quantile maps with sci-notation keys, series, topology from the workload name.
#include "importers/importers.h"
#include "importertest.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

ImportResult parseCorpus(const std::string &name)
{
    QFile f(QString::fromStdString(corpusPath("omb/" + name)));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << name;
    return ombImporter().parse(f, ImportOptions{name}, {});
}

const SeriesRecord *seriesNamed(const ScenarioRecord &s, const std::string &name)
{
    for (const auto &series : s.series)
        if (series.name == name)
            return &series;
    return nullptr;
}

const char *kStreamNative =
    "streamnative__openmessaging-benchmark__kafka-100-partitions-1kb-batched-1ms-1mb-ack-all-sync.json";

} // namespace

TEST(OmbImporter, StreamNativeHeadlineNumbersAreExact)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r = parseCorpus(kStreamNative);
    ASSERT_TRUE(r.ok()) << r.error->describe("omb");
    ASSERT_EQ(r.runs.size(), 1u);
    const RunRecord &run = r.runs[0];
    EXPECT_EQ(run.target, "kafka");
    ASSERT_EQ(run.scenarios.size(), 1u);
    const ScenarioRecord &s = run.scenarios[0];
    EXPECT_EQ(s.name, "1 topic / 100 partitions / 2 producer / 2 consumer / 1Kb / 200K Rate");
    EXPECT_DOUBLE_EQ(*s.metric("latency_p50_s"), 5.713e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), 58.83e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p999_s"), 163.943e-3);
    EXPECT_DOUBLE_EQ(*s.metric("publish.latency_p9999_s"), 254.7e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_max_s"), 400.999e-3);
    EXPECT_DOUBLE_EQ(*s.metric("e2e_p99_s"), 64.621e-3);
    EXPECT_DOUBLE_EQ(*s.metric("e2e.latency_p99_s"), 64.621e-3);
    EXPECT_DOUBLE_EQ(*s.metric("e2e.latency_p50_s"), 6.889e-3);
    // The mean of the 18 publishRate windows, as OMB's own CSV computes prod-rate-avg.
    EXPECT_NEAR(*s.metric("records_per_s"), 200294.6287485482, 1e-6);
    // 1Kb from the workload name: 1024 B, inferred.
    EXPECT_NEAR(*s.metric("bytes_per_s"), 200294.6287485482 * 1024, 1e-3);
    EXPECT_EQ(s.topology.partitions, 100);
    EXPECT_EQ(s.topology.producers, 2);
    EXPECT_EQ(s.topology.consumers, 2);
    EXPECT_EQ(s.topology.recordSizeBytes, 1024);
    for (const char *f : {"partitions", "producers", "consumers", "record_size_bytes"})
        EXPECT_NE(std::find(s.topology.inferred.begin(), s.topology.inferred.end(), f),
                  s.topology.inferred.end())
            << f;
    EXPECT_EQ(run.tuning["producerRate"], 200000.0);

    const SeriesRecord *rate = seriesNamed(s, "records_per_s");
    ASSERT_NE(rate, nullptr);
    ASSERT_EQ(rate->samples.size(), 18u);
    EXPECT_DOUBLE_EQ(rate->samples[0].value, 205316.77528936346);
    EXPECT_DOUBLE_EQ(rate->samples[1].tOffsetS, 10.0);
    const SeriesRecord *p99 = seriesNamed(s, "latency_p99_s");
    ASSERT_NE(p99, nullptr);
    EXPECT_DOUBLE_EQ(p99->samples[0].value, 60.112e-3);
    EXPECT_NE(seriesNamed(s, "e2e.latency_p99_s"), nullptr);
    EXPECT_NE(seriesNamed(s, "backlog"), nullptr);
    EXPECT_DOUBLE_EQ(*s.metric("publish.quantile.100"), 400.999e-3);
}

TEST(OmbImporter, SciNotationQuantileKeysAndNegativeBacklog)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r =
        parseCorpus("redpanda-data__openmessaging-benchmark__blog-results-kafka-latency-sync-200k.json");
    ASSERT_TRUE(r.ok()) << r.error->describe("omb");
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    // "8.280981931675837E-7" is the first key of the map.
    EXPECT_DOUBLE_EQ(*s.metric("publish.quantile.0.0000008280981931675837"), 1.044e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), 19.712e-3);
    EXPECT_DOUBLE_EQ(*s.metric("e2e_p99_s"), 20e-3);
    EXPECT_EQ(s.topology.partitions, 100);
    EXPECT_EQ(s.topology.producers, 4);
    EXPECT_FALSE(s.topology.recordSizeBytes.has_value());
    EXPECT_FALSE(s.metric("bytes_per_s").has_value()) << "no message size anywhere";
    const SeriesRecord *backlog = seriesNamed(s, "backlog");
    ASSERT_NE(backlog, nullptr);
    EXPECT_EQ(backlog->samples[0].value, -57);
}

TEST(OmbImporter, StalledPulsarRunImportsWithItsZeroWindows)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r =
        parseCorpus("luky116__openmessaging-benchmark__100-partition,10-producer,10-consumer.json");
    ASSERT_TRUE(r.ok()) << r.error->describe("omb");
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_EQ(r.runs[0].target, "pulsar");
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), 7981.055e-3);
    // The workload says one partition, whatever the file name says.
    EXPECT_EQ(s.topology.partitions, 1);
}

TEST(OmbImporter, CurrentSchemaFieldsWinAndDelayIsMicroseconds)
{
    const std::string text = R"({
  "workload" : "1-topic-16-partitions-1kb-4p-4c-500k",
  "driver" : "Kafka",
  "messageSize" : 2048,
  "topics" : 2,
  "partitions" : 8,
  "producersPerTopic" : 3,
  "consumersPerTopic" : 5,
  "publishRate" : [ 1000.0, 3000.0 ],
  "publishErrorRate" : [ 0.0, 2.0 ],
  "consumeRate" : [ 1000.0, 3000.0 ],
  "backlog" : [ 0, 0 ],
  "publishDelayLatency99pct" : [ 150, 250 ],
  "aggregatedPublishDelayLatency99pct" : 200,
  "aggregatedPublishLatency99999pct" : 12.5,
  "aggregatedPublishDelayLatencyQuantiles" : { "99.9" : 300 },
  "someFutureField" : { "x" : 1 }
})";
    const ImportResult r = parseText(ombImporter(), text);
    ASSERT_TRUE(r.ok()) << r.error->describe("omb");
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_EQ(s.topology.partitions, 16);
    EXPECT_EQ(s.topology.producers, 6);
    EXPECT_EQ(s.topology.consumers, 10);
    EXPECT_EQ(s.topology.recordSizeBytes, 2048);
    EXPECT_TRUE(s.topology.inferred.empty());
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 2000.0);
    EXPECT_DOUBLE_EQ(*s.metric("bytes_per_s"), 2000.0 * 2048);
    EXPECT_DOUBLE_EQ(*s.metric("publish.errors_per_s"), 1.0);
    EXPECT_DOUBLE_EQ(*s.metric("publish_delay.latency_p99_s"), 200e-6);
    EXPECT_DOUBLE_EQ(*s.metric("publish_delay.quantile.99.9"), 300e-6);
    EXPECT_DOUBLE_EQ(*s.metric("publish.latency_p99999_s"), 12.5e-3);
    const SeriesRecord *delay = seriesNamed(s, "publish_delay.latency_p99_s");
    ASSERT_NE(delay, nullptr);
    EXPECT_DOUBLE_EQ(delay->samples[1].value, 250e-6);
    bool ignored = false;
    for (const auto &w : r.warnings)
        ignored |= w.kind == "ignored-field" && w.detail.find("someFutureField") != std::string::npos;
    EXPECT_TRUE(ignored);
}

TEST(OmbImporter, WrongTypeNamesLineColumnAndField)
{
    const std::string text = "{\n  \"workload\" : \"w\",\n  \"publishRate\" : [ 1.0, \"x\" ]\n}";
    const ImportResult r = parseText(ombImporter(), text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 3);
    EXPECT_EQ(r.error->column, 26);
    EXPECT_EQ(r.error->field, "publishRate/1");
    EXPECT_EQ(r.error->describe("r.json"),
              "r.json: line 3, column 26: field 'publishRate/1': is a string, not a number");
}

TEST(OmbImporter, ZeroOnlyRunIsImportedWithAWarning)
{
    const ImportResult r = parseText(
        ombImporter(), R"({"workload":"w","publishRate":[0.0,0.0],"aggregatedPublishLatencyQuantiles":{ }})");
    ASSERT_TRUE(r.ok());
    bool zero = false;
    for (const auto &w : r.warnings)
        zero |= w.kind == "zero-only-run";
    EXPECT_TRUE(zero);
}

TEST(OmbImporter, SniffsOmbButNotOtherJson)
{
    const Importer &omb = ombImporter();
    EXPECT_GT(omb.sniff(readData("korvet-result.json")), -1);
    EXPECT_EQ(omb.sniff(readData("korvet-result.json")), 0);
    EXPECT_GE(omb.sniff("{\n  \"workload\" : \"x\",\n  \"driver\" : \"Kafka\",\n  \"publishRate\" : [ ]"), 90);
}

TEST(OmbImporter, ForcedOntoOtherJsonItRefuses)
{
    const ImportResult r = parseData(ombImporter(), "korvet-result.json");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error->message.find("not an OpenMessaging Benchmark result"), std::string::npos);
}
