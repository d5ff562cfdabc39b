// kafka-producer-perf-test output from the shared corpus and in every variant the tool has
// printed: headline numbers exactly as the final line states them.
#include "importers/importers.h"
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

ImportResult parseCorpus(const std::string &name)
{
    QFile f(QString::fromStdString(corpusPath(name)));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << name;
    return kafkaProducerPerfImporter().parse(f, ImportOptions{name}, {});
}

bool hasKind(const ImportResult &r, const std::string &kind)
{
    for (const auto &w : r.warnings)
        if (w.kind == kind)
            return true;
    return false;
}

} // namespace

TEST(KafkaProducerPerf, HarnessPrefixedRunGivesTheFinalLineExactly)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r =
        parseCorpus("kafka-perf/aaronchlam__kafka-benchmarks__1-replicas_10-throughput_0-trial_producer.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("producer.txt");
    const RunRecord &run = r.runs[0];
    EXPECT_EQ(run.timestamp, "2018-11-23T22:22:09Z");
    ASSERT_EQ(run.scenarios.size(), 1u);
    const ScenarioRecord &s = run.scenarios[0];
    EXPECT_EQ(s.name, "producer");
    // "7031250 records sent, 19529.785266 records/sec (9.54 MB/sec), 57.10 ms avg latency,
    //  2051.00 ms max latency, 2 ms 50th, 255 ms 95th, 1600 ms 99th, 1958 ms 99.9th."
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 19529.785266);
    EXPECT_DOUBLE_EQ(*s.metric("bytes_per_s"), 9.54 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(*s.metric("latency_avg_s"), 57.10e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_max_s"), 2051e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p50_s"), 2e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p95_s"), 255e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), 1600e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p999_s"), 1958e-3);
    EXPECT_DOUBLE_EQ(*s.metric("producer.records_sent"), 7031250);
    // Interim lines ("258.0 max latency." without "ms") as series, timed by the harness.
    ASSERT_EQ(s.series.size(), 4u);
    EXPECT_EQ(s.series[0].name, "records_per_s");
    EXPECT_DOUBLE_EQ(s.series[0].samples[0].value, 19522.0);
    EXPECT_DOUBLE_EQ(s.series[0].samples[1].tOffsetS, 5.0);
    EXPECT_DOUBLE_EQ(s.series[3].samples[0].value, 258e-3);
    EXPECT_FALSE(hasKind(r, "no-final-line"));
}

TEST(KafkaProducerPerf, BrokerSeriesStepsAllImport)
{
    PLIMSOLL_REQUIRES_CORPUS();
    for (const char *step : {"5", "15", "25", "35", "45", "55"}) {
        const ImportResult r = parseCorpus(std::string("broker-series/aaronchlam__kafka-benchmarks__1-replicas_") +
                                           step + "-throughput_0-trial_producer.txt");
        ASSERT_TRUE(r.ok()) << step;
        ASSERT_TRUE(r.runs[0].scenarios[0].metric("latency_p999_s").has_value()) << step;
    }
}

TEST(KafkaProducerPerf, BannersNameSequentialSteps)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r = parseCorpus("kafka-perf/confluentinc__examples__multiregion.rst__producer-block.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("block");
    const auto &sc = r.runs[0].scenarios;
    ASSERT_EQ(sc.size(), 3u) << "named steps, no aggregate";
    EXPECT_EQ(sc[0].name, "Produce: Single-region Replication (topic: single-region)");
    EXPECT_DOUBLE_EQ(*sc[0].metric("records_per_s"), 240.453977);
    EXPECT_DOUBLE_EQ(*sc[1].metric("records_per_s"), 2.145923);
    EXPECT_DOUBLE_EQ(*sc[1].metric("latency_avg_s"), 34018.18e-3);
    EXPECT_DOUBLE_EQ(*sc[2].metric("latency_p999_s"), 18316e-3);
    EXPECT_DOUBLE_EQ(*sc[2].metric("bytes_per_s"), 1.09 * 1024 * 1024);
    EXPECT_TRUE(hasKind(r, "timestamp-inferred"));
}

TEST(KafkaProducerPerf, SeveralProducersAggregateLikeKorvetDist)
{
    const std::string text =
        "1000 records sent, 500.000000 records/sec (0.49 MB/sec), 10.00 ms avg latency, 30.00 ms max latency, 9 ms 50th, 20 ms 95th, 25 ms 99th, 30 ms 99.9th.\n"
        "3000 records sent, 1000.0 records/sec (0.98 MB/sec), 12.50 ms avg latency, 40.00 ms max latency, 11 ms 50th, 22 ms 95th, 35 ms 99th, 39 ms 99.9th.\n";
    const ImportResult r = parseText(kafkaProducerPerfImporter(), text);
    ASSERT_TRUE(r.ok());
    const auto &sc = r.runs[0].scenarios;
    ASSERT_EQ(sc.size(), 3u);
    EXPECT_EQ(sc[0].name, "producer-1");
    EXPECT_EQ(sc[1].name, "producer-2");
    EXPECT_DOUBLE_EQ(*sc[1].metric("records_per_s"), 1000.0); // the %.1f variant
    EXPECT_EQ(sc[2].name, "aggregate");
    // 4000 records over the longer producer's 3 s; no percentile is averaged.
    EXPECT_DOUBLE_EQ(*sc[2].metric("records_per_s"), 4000.0 / 3.0);
    EXPECT_DOUBLE_EQ(*sc[2].metric("latency_max_s"), 40e-3);
    EXPECT_DOUBLE_EQ(*sc[2].metric("producers.latency_avg_min_s"), 10e-3);
    EXPECT_DOUBLE_EQ(*sc[2].metric("producers.latency_avg_max_s"), 12.5e-3);
    EXPECT_FALSE(sc[2].metric("latency_p99_s").has_value());
    EXPECT_EQ(sc[2].topology.producers, 2);
    EXPECT_TRUE(hasKind(r, "assumed-concurrent"));
}

TEST(KafkaProducerPerf, SteadyStateLineIsItsOwnScenario)
{
    const std::string text =
        "Warmup first 100 records. Steady state results will print after the complete test summary.\n"
        "100 records sent, 10.0 records/sec (0.01 MB/sec), 5.0 ms avg latency, 9.0 ms max latency.\n"
        "1000 records sent, 99.108028 records/sec (0.01 MB/sec), 4.53 ms avg latency, 101.00 ms max latency, 4 ms 50th, 6 ms 95th, 9 ms 99th, 101 ms 99.9th.\n"
        "900 steady state records sent, 98.039216 records/sec (0.01 MB/sec), 4.20 ms avg latency, 40.00 ms max latency, 4 ms 50th, 6 ms 95th, 8 ms 99th, 40 ms 99.9th.\n";
    const ImportResult r = parseText(kafkaProducerPerfImporter(), text);
    ASSERT_TRUE(r.ok());
    const auto &sc = r.runs[0].scenarios;
    ASSERT_EQ(sc.size(), 2u);
    EXPECT_EQ(sc[0].name, "producer");
    EXPECT_DOUBLE_EQ(*sc[0].metric("latency_p999_s"), 101e-3);
    EXPECT_EQ(sc[1].name, "producer/steady-state");
    EXPECT_DOUBLE_EQ(*sc[1].metric("records_per_s"), 98.039216);
    EXPECT_DOUBLE_EQ(*sc[1].metric("latency_p999_s"), 40e-3);
}

TEST(KafkaProducerPerf, KilledRunFallsBackToTheLastPeriodicLine)
{
    const std::string text =
        "97610 records sent, 19522.0 records/sec (9.53 MB/sec), 5.1 ms avg latency, 258.0 ms max latency.\n"
        "97729 records sent, 19545.8 records/sec (9.54 MB/sec), 1.6 ms avg latency, 7.0 ms max latency.\n";
    const ImportResult r = parseText(kafkaProducerPerfImporter(), text);
    ASSERT_TRUE(r.ok());
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 19545.8);
    EXPECT_DOUBLE_EQ(*s.metric("producer.records_sent"), 97610 + 97729);
    EXPECT_FALSE(s.metric("latency_p99_s").has_value());
    EXPECT_TRUE(hasWarning(r, "no-final-line", 2));
}

TEST(KafkaProducerPerf, TruncatedFinalLineKeepsWhatItHas)
{
    const std::string text = "5000 records sent, 240.453977 records/sec (1.15 MB/sec), 10766.48 ms avg "
                             "latency, 17045.00 ms max latency, 11668 ms 50th, 16596 ms 95th, 22869 ms 99.9t";
    const ImportResult r = parseText(kafkaProducerPerfImporter(), text);
    ASSERT_TRUE(r.ok());
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_DOUBLE_EQ(*s.metric("latency_p95_s"), 16596e-3);
    EXPECT_FALSE(s.metric("latency_p999_s").has_value());
    EXPECT_TRUE(hasWarning(r, "truncated-final-line", 1));
}

TEST(KafkaProducerPerf, PrintMetricsBlockBecomesDottedMetrics)
{
    const std::string text =
        "100 records sent, 61.124694 records/sec (0.10 MB/sec), 8.40 ms avg latency, 10.00 ms max latency, 8 ms 50th, 10 ms 95th, 10 ms 99th, 10 ms 99.9th.\n"
        "\n"
        "Metric Name                                                                          Value\n"
        "app-info:commit-id:{client-id=perf-producer-client}                                : 0123abcd\n"
        "app-info:version:{client-id=perf-producer-client}                                  : 4.4.0\n"
        "producer-metrics:batch-size-avg:{client-id=perf-producer-client}                   : 31019.000\n"
        "producer-metrics:record-queue-time-avg:{client-id=perf-producer-client}            : 8.400\n"
        "producer-metrics:request-latency-max:{client-id=perf-producer-client}              : NaN\n"
        "producer-node-metrics:request-latency-avg:{client-id=perf-producer-client, node-id=node-1} : 7.000\n";
    const ImportResult r = parseText(kafkaProducerPerfImporter(), text);
    ASSERT_TRUE(r.ok());
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_DOUBLE_EQ(*s.metric("kafka.producer.batch-size-avg"), 31019);
    EXPECT_DOUBLE_EQ(*s.metric("kafka.producer.record-queue-time-avg"), 8.4);
    EXPECT_DOUBLE_EQ(*s.metric("kafka.producer-node.request-latency-avg{node-id=node-1}"), 7);
    EXPECT_FALSE(s.metric("kafka.producer.request-latency-max").has_value());
    EXPECT_EQ(r.runs[0].toolVersion, "4.4.0");
}

TEST(KafkaProducerPerf, MangledResultLineIsAnErrorWithItsColumn)
{
    const std::string text = "2018-11-23 22:22:09, 97610 records sent, lots records/sec\n";
    const ImportResult r = parseText(kafkaProducerPerfImporter(), text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 1);
    EXPECT_EQ(r.error->column, 28);
    EXPECT_EQ(r.error->field, "records sent");
}
