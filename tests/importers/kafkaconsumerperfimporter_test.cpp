// kafka-consumer-perf-test output: summary rows, detailed stats, columns by header name,
// impossible values kept with a warning.
#include "importers/importers.h"
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

ImportResult parseCorpus(const std::string &name)
{
    QFile f(QString::fromStdString(corpusPath("kafka-perf/" + name)));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << name;
    return kafkaConsumerPerfImporter().parse(f, ImportOptions{name}, {});
}

} // namespace

TEST(KafkaConsumerPerf, NegativeFetchTimeIsKeptWithAWarning)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r = parseCorpus("confluentinc__examples__multiregion.rst__consumer-block.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("consumer");
    const RunRecord &run = r.runs[0];
    EXPECT_EQ(run.timestamp, "2019-09-25T17:10:27.266Z");
    ASSERT_EQ(run.scenarios.size(), 2u);
    const ScenarioRecord &s = run.scenarios[0];
    EXPECT_EQ(s.name, "Consume from east: Multi-region Async Replication reading from Leader in "
                      "west (topic: multi-region-async)");
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 189.2721);
    EXPECT_DOUBLE_EQ(*s.metric("bytes_per_s"), 0.9025 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(*s.metric("consumer.records_consumed"), 5000);
    EXPECT_DOUBLE_EQ(*s.metric("consumer.bytes_consumed"), 23.8419 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(*s.metric("consumer.fetch_time_s"), -1569431409.285);
    EXPECT_TRUE(hasWarning(r, "impossible-value", 4));
    EXPECT_DOUBLE_EQ(*run.scenarios[1].metric("records_per_s"), 825.3549);
}

TEST(KafkaConsumerPerf, DetailedStatsBecomeSeriesWithTotalsFromTheLastRow)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r =
        parseCorpus("aaronchlam__kafka-benchmarks__1-replicas_10-throughput_0-trial_consumer-tem10.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("consumer");
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_DOUBLE_EQ(*s.metric("consumer.records_consumed"), 6953506);
    EXPECT_DOUBLE_EQ(*s.metric("consumer.bytes_consumed"), 3395.2666 * 1024 * 1024);
    ASSERT_TRUE(s.metric("records_per_s").has_value());
    EXPECT_NEAR(*s.metric("records_per_s"), 19500, 500);
    bool found = false;
    for (const auto &series : s.series) {
        if (series.name == "records_per_s") {
            found = true;
            EXPECT_DOUBLE_EQ(series.samples[0].value, 18738.4523);
            EXPECT_NEAR(series.samples[1].tOffsetS, 5.539, 1e-6);
        }
    }
    EXPECT_TRUE(found);
    bool incomplete = false;
    for (const auto &w : r.warnings)
        incomplete |= w.kind == "incomplete-run";
    EXPECT_TRUE(incomplete);
}

TEST(KafkaConsumerPerf, SixColumnAndReorderedHeadersMatchByName)
{
    const ImportResult six = parseText(
        kafkaConsumerPerfImporter(),
        "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec\n"
        "2017-03-01 10:00:00:000, 2017-03-01 10:00:10:000, 95.3674, 9.5367, 100000, 10000.0000\n");
    ASSERT_TRUE(six.ok());
    EXPECT_DOUBLE_EQ(*six.runs[0].scenarios[0].metric("records_per_s"), 10000);
    EXPECT_DOUBLE_EQ(*six.runs[0].scenarios[0].metric("bytes_per_s"), 9.5367 * 1024 * 1024);

    const ImportResult share = parseText(
        kafkaConsumerPerfImporter(),
        "start.time, end.time, data.consumed.in.MB, MB.sec, nMsg.sec, data.consumed.in.nMsg, fetch.time.ms\n"
        "2025-03-01 10:00:00:000, 2025-03-01 10:00:10:000, 95.3674, 9.5367, 10000.0000, 100000, 9000\n");
    ASSERT_TRUE(share.ok());
    EXPECT_DOUBLE_EQ(*share.runs[0].scenarios[0].metric("records_per_s"), 10000);
    EXPECT_DOUBLE_EQ(*share.runs[0].scenarios[0].metric("consumer.records_consumed"), 100000);
}

TEST(KafkaConsumerPerf, BadCellNamesLineColumnAndField)
{
    const ImportResult r = parseText(
        kafkaConsumerPerfImporter(),
        "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec\n"
        "2017-03-01 10:00:00:000, 2017-03-01 10:00:10:000, 95.3674, fast, 100000, 10000.0000\n");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 2);
    EXPECT_EQ(r.error->column, 60);
    EXPECT_EQ(r.error->field, "MB.sec");
}

TEST(KafkaConsumerPerf, PrintMetricsOfTheConsumer)
{
    const ImportResult r = parseText(
        kafkaConsumerPerfImporter(),
        "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec\n"
        "2026-11-30 13:19:49:343, 2026-11-30 13:19:50:226, 0.0954, 0.1080, 1000, 1132.5028, 654, 229, 0.4165, 4366.8122\n"
        "\n"
        "Metric Name                                                                          Value\n"
        "consumer-fetch-manager-metrics:fetch-latency-avg:{client-id=perf-consumer-client}  : 470.529\n"
        "consumer-fetch-manager-metrics:records-per-request-avg:{client-id=perf-consumer-client} : 25.000\n");
    ASSERT_TRUE(r.ok());
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 1132.5028);
    EXPECT_DOUBLE_EQ(*s.metric("consumer.fetch_records_per_s"), 4366.8122);
    EXPECT_DOUBLE_EQ(*s.metric("kafka.consumer-fetch-manager.fetch-latency-avg"), 470.529);
    EXPECT_DOUBLE_EQ(*s.metric("kafka.consumer-fetch-manager.records-per-request-avg"), 25);
}
