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

// Kafka 4.x's kafka-share-consumer-perf-test with --threads 2 --show-detailed-stats
// --show-consumer-stats, as it prints: each thread's interval rows end "for share consumer N",
// two threads' rows can share a line (the second glued to the first's number), a row per
// thread, then the summary. The summary is the scenario; the threads give its consumers and its
// series (their interval rates summed).
TEST(KafkaConsumerPerf, ShareConsumerThreadsGiveConsumersAndSeries)
{
    const std::string text =
        "$ bin/kafka-share-consumer-perf-test.sh --bootstrap-server b:9092 --topic t --group g "
        "--num-records 60000 --threads 2 --show-detailed-stats --show-consumer-stats\n"
        "start.time, end.time, data.consumed.in.MB, MB.sec, nMsg.sec, data.consumed.in.nMsg, fetch.time.ms\n"
        "2026-12-05 18:24:21:599, 2026-12-05 18:24:26:882, 0.0001, 0.0000, 0.1893, 1, 5283 for share consumer "
        "22026-12-05 18:24:21:599, 2026-12-05 18:24:26:893, 0.0001, 0.0000, 0.1889, 1, 5294 for share consumer 1\n"
        "\n"
        "2026-12-05 18:24:26:882, 2026-12-05 18:24:27:936, 1.2704, 1.2052, 12637.5712, 13321, 1054 for share consumer 2\n"
        "2026-12-05 18:24:26:893, 2026-12-05 18:24:27:945, 2.1790, 2.0712, 21717.6806, 22848, 1052 for share consumer 1\n"
        "Share consumer 1 having client id perf-share-consumer-client-1 consumption metrics- 2026-12-05 "
        "18:24:21:141, 2026-12-05 18:24:28:463, 3.3332, 0.4552, 4773.4226, 34951, 7322\n"
        "Share consumer 2 having client id perf-share-consumer-client-2 consumption metrics- 2026-12-05 "
        "18:24:21:141, 2026-12-05 18:24:28:463, 2.3889, 0.3263, 3421.0598, 25049, 7322\n"
        "2026-12-05 18:24:21:141, 2026-12-05 18:24:28:465, 5.7220, 0.7813, 8192.2447, 60000, 7324\n";
    const ImportResult r = parseText(kafkaConsumerPerfImporter(), text);
    ASSERT_TRUE(r.ok()) << r.error->describe("share");
    const RunRecord &run = r.runs[0];
    EXPECT_EQ(run.tool, "kafka-share-consumer-perf-test");
    EXPECT_EQ(run.timestamp, "2026-12-05T18:24:21.141Z");
    ASSERT_EQ(run.scenarios.size(), 1u); // the threads' own rows are not scenarios
    const ScenarioRecord &s = run.scenarios[0];
    EXPECT_EQ(s.name, "share-consumer");
    EXPECT_EQ(s.line, 9);
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 8192.2447);
    EXPECT_DOUBLE_EQ(*s.metric("consumer.records_consumed"), 60000);
    EXPECT_DOUBLE_EQ(*s.metric("consumer.fetch_time_s"), 7.324);
    EXPECT_DOUBLE_EQ(*s.metric("consumer.records_requested"), 60000);
    EXPECT_EQ(s.topology.consumers, 2);
    EXPECT_TRUE(s.topology.inferred.empty());
    const SeriesRecord *rate = nullptr;
    for (const SeriesRecord &series : s.series)
        if (series.name == "records_per_s")
            rate = &series;
    ASSERT_NE(rate, nullptr);
    ASSERT_EQ(rate->samples.size(), 2u);
    // Both threads' rates at each interval, at the later thread's end, from the first start.
    EXPECT_NEAR(rate->samples[0].tOffsetS, 5.294, 1e-6);
    EXPECT_NEAR(rate->samples[0].value, 0.1893 + 0.1889, 1e-9);
    EXPECT_NEAR(rate->samples[1].tOffsetS, 6.346, 1e-6);
    EXPECT_NEAR(rate->samples[1].value, 12637.5712 + 21717.6806, 1e-9);
}

// A share consumer cut short before its summary row still gives the totals of its threads.
TEST(KafkaConsumerPerf, ShareConsumerWithoutASummaryTotalsItsThreads)
{
    const ImportResult r = parseText(
        kafkaConsumerPerfImporter(),
        "start.time, end.time, data.consumed.in.MB, MB.sec, nMsg.sec, data.consumed.in.nMsg, fetch.time.ms\n"
        "2026-12-05 10:00:00:000, 2026-12-05 10:00:01:000, 1.0000, 1.0000, 10000.0000, 10000, 1000 for share consumer 1\n"
        "2026-12-05 10:00:00:000, 2026-12-05 10:00:01:000, 0.5000, 0.5000, 5000.0000, 5000, 1000 for share consumer 2\n"
        "2026-12-05 10:00:01:000, 2026-12-05 10:00:02:000, 2.0000, 1.0000, 10000.0000, 20000, 1000 for share consumer 1\n");
    ASSERT_TRUE(r.ok()) << r.error->describe("share");
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_EQ(s.topology.consumers, 2);
    EXPECT_DOUBLE_EQ(*s.metric("consumer.records_consumed"), 25000); // 20000 + 5000
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 12500);             // over 2 s
    EXPECT_NE(s.provenance.find("no summary row"), std::string::npos) << s.provenance;

    const ImportResult bad = parseText(
        kafkaConsumerPerfImporter(),
        "start.time, end.time, data.consumed.in.MB, MB.sec, nMsg.sec, data.consumed.in.nMsg, fetch.time.ms\n"
        "2026-12-05 10:00:00:000, 2026-12-05 10:00:01:000, 1.0000, 10000.0000, 10000, 1000 for share consumer 1\n");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error->line, 2);
    EXPECT_NE(bad.error->message.find("7 columns"), std::string::npos) << bad.error->message;
}

// The consumer's command saved before its output, with Kafka 4.x's option names or the old ones,
// gives the same records asked for.
TEST(KafkaConsumerPerf, CommandLinesOldAndNewNamesGiveTheSameFactors)
{
    const std::string out =
        "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, "
        "rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec\n"
        "2026-12-05 10:00:00:000, 2026-12-05 10:00:10:000, 95.3674, 9.5367, 100000, 10000.0000, 3000, 7000, "
        "13.6239, 14285.7143\n";
    const ImportResult now = parseText(
        kafkaConsumerPerfImporter(),
        "$ kafka-consumer-perf-test.sh --bootstrap-server b:9092 --topic t --num-records 100000 "
        "--command-config client.properties\n" + out);
    const ImportResult before = parseText(
        kafkaConsumerPerfImporter(),
        "$ kafka-consumer-perf-test.sh --bootstrap-server b:9092 --topic t --messages 100000 "
        "--consumer.config client.properties\n" + out);
    ASSERT_TRUE(now.ok() && before.ok());
    const ScenarioRecord &a = now.runs[0].scenarios[0], &b = before.runs[0].scenarios[0];
    EXPECT_EQ(now.runs[0].tool, "kafka-consumer-perf-test");
    EXPECT_EQ(a.name, "consumer");
    EXPECT_DOUBLE_EQ(*a.metric("consumer.records_requested"), 100000);
    EXPECT_DOUBLE_EQ(*b.metric("consumer.records_requested"), 100000);
    EXPECT_EQ(a.topology, b.topology);
    EXPECT_NE(a.provenance.find("after the command on line 1"), std::string::npos) << a.provenance;
}
