// Prometheus text exposition: the corpus scrape of a long-running Prometheus (237 families,
// float-noise `le` bounds), hand-written expositions after the 0.0.4 grammar (escapes, the old
// jmx_exporter trailing comma, untyped, timestamps, errors with line and column), and two
// scrapes of a Korvet broker giving rates and produce-latency percentiles of the interval.
#include "importers/importers.h"
#include "importers/importservice.h"
#include "importers/prometheus/prometheusimporter.h"
#include "importertest.h"
#include "model/formats/prometheusdiff.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

const std::string kCorpus = "prometheus/prometheus__prometheus__alltypes.237mfs.prom.txt";

std::string readCorpus(const std::string &name)
{
    QFile f(QString::fromStdString(corpusPath(name)));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << corpusPath(name);
    const QByteArray b = f.readAll();
    return std::string(b.constData(), size_t(b.size()));
}

// Prometheus' histogram_quantile for the bucket holding the rank, written out.
double interpolate(double lower, double upper, double below, double inBucket, double rank)
{
    return lower + (upper - lower) * ((rank - below) / inBucket);
}

// Two scrapes of a broker, 10 s apart, as a harness writes them: `date` then curl.
const std::string kTwoScrapes = R"(2026-08-11 03:00:00
# HELP korvet_broker_produce_seconds Produce request handling time.
# TYPE korvet_broker_produce_seconds histogram
korvet_broker_produce_seconds_bucket{broker="0",le="0.005"} 100
korvet_broker_produce_seconds_bucket{broker="0",le="0.01"} 150
korvet_broker_produce_seconds_bucket{broker="0",le="0.05"} 200
korvet_broker_produce_seconds_bucket{broker="0",le="+Inf"} 200
korvet_broker_produce_seconds_sum{broker="0"} 1.5
korvet_broker_produce_seconds_count{broker="0"} 200
# TYPE korvet_records_produced_total counter
korvet_records_produced_total 1000
# TYPE korvet_partitions gauge
korvet_partitions 96
2026-08-11 03:00:10
# HELP korvet_broker_produce_seconds Produce request handling time.
# TYPE korvet_broker_produce_seconds histogram
korvet_broker_produce_seconds_bucket{broker="0",le="0.005"} 1100
korvet_broker_produce_seconds_bucket{broker="0",le="0.01"} 1950
korvet_broker_produce_seconds_bucket{broker="0",le="0.05"} 2180
korvet_broker_produce_seconds_bucket{broker="0",le="+Inf"} 2200
korvet_broker_produce_seconds_sum{broker="0"} 16.5
korvet_broker_produce_seconds_count{broker="0"} 2200
# TYPE korvet_records_produced_total counter
korvet_records_produced_total 651000
# TYPE korvet_partitions gauge
korvet_partitions 96
)";

} // namespace

TEST(PrometheusText, CorpusScrapeHasEveryFamilyAndFloatNoiseBounds)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const PromParseResult r = parsePrometheusText(readCorpus(kCorpus));
    ASSERT_FALSE(r.error) << r.error->message << " line " << r.error->line;
    ASSERT_EQ(r.snapshots.size(), 1u);
    const PromSnapshot &s = r.snapshots[0];
    EXPECT_EQ(s.families.size(), 237u);
    int histograms = 0, summaries = 0, counters = 0, gauges = 0;
    size_t samples = 0;
    for (const PromFamily &f : s.families) {
        histograms += f.type == PromType::Histogram;
        summaries += f.type == PromType::Summary;
        counters += f.type == PromType::Counter;
        gauges += f.type == PromType::Gauge;
        samples += f.samples.size();
    }
    EXPECT_EQ(counters, 112);
    EXPECT_EQ(gauges, 97);
    EXPECT_EQ(histograms, 15);
    EXPECT_EQ(summaries, 13);
    EXPECT_EQ(samples, 1857u); // every non-comment line, each in its family
    const PromFamily *allocs = s.family("go_gc_heap_allocs_by_size_bytes");
    ASSERT_NE(allocs, nullptr);
    EXPECT_EQ(allocs->samples.front().label("le"), "8.999999999999998");
    EXPECT_DOUBLE_EQ(allocs->samples.front().value, 2.279966416e+09);
}

TEST(PrometheusImporter, OneScrapeIsOneSnapshotScenario)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string path = corpusPath(kCorpus);
    QFile f(QString::fromStdString(path));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_EQ(ImporterRegistry::instance().detect(readCorpus(kCorpus))->name(), "prometheus");
    const ImportResult r = prometheusImporter().parse(f, ImportOptions{path}, {});
    ASSERT_TRUE(r.ok()) << r.error->describe("prom");
    ASSERT_EQ(r.runs.size(), 1u);
    ASSERT_EQ(r.runs[0].scenarios.size(), 1u);
    const ScenarioRecord &sc = r.runs[0].scenarios[0];
    EXPECT_EQ(sc.name, "prometheus/snapshot");
    EXPECT_EQ(sc.metric("prom.go_gc_gogc_percent"), 75);
    EXPECT_EQ(sc.metric("prom.go_gc_duration_seconds{quantile=\"0.5\"}"), 0.000135819);
    EXPECT_EQ(sc.metric("prom.go_gc_heap_allocs_by_size_bytes_bucket{le=\"+Inf\"}"), 4.4046288803e+10);
    // p50 since start: the rank 0.5 * 4.4046288803e10 falls in the (24.99…, 64.99…] bucket.
    const double rank = 0.5 * 4.4046288803e+10;
    EXPECT_DOUBLE_EQ(*sc.metric("prom.go_gc_heap_allocs_by_size_bytes.p50"),
                     interpolate(24.999999999999996, 64.99999999999999, 1.9429106442e+10,
                                 3.2158220609e+10 - 1.9429106442e+10, rank));
}

TEST(PrometheusText, GrammarCornersRealExportersWrite)
{
    const std::string text =
        "# TYPE kafka_network_requestmetrics_totaltimems untyped\n"
        "kafka_network_requestmetrics_totaltimems{quantile=\"0.99\",request=\"Produce\",} 12.5\n"
        "esc{path=\"C:\\\\dir\\\\\",msg=\"say \\\"hi\\\"\\n\"} 1 1754881200000\n"
        "no_type_at_all 3\n"
        "big 9.03676723e+08\n"
        "nan_gauge NaN\n";
    const PromParseResult r = parsePrometheusText(text);
    ASSERT_FALSE(r.error) << r.error->message;
    const PromSnapshot &s = r.snapshots.at(0);
    const PromFamily *jmx = s.family("kafka_network_requestmetrics_totaltimems");
    ASSERT_NE(jmx, nullptr);
    EXPECT_EQ(jmx->type, PromType::Untyped);
    EXPECT_EQ(jmx->samples[0].label("request"), "Produce");
    EXPECT_EQ(jmx->samples[0].labels.size(), 2u);
    const PromSample &esc = s.family("esc")->samples[0];
    EXPECT_EQ(esc.label("path"), "C:\\dir\\");
    EXPECT_EQ(esc.label("msg"), "say \"hi\"\n");
    EXPECT_EQ(esc.timestampMs, 1754881200000);
    EXPECT_EQ(s.timeMs, 1754881200000);
    EXPECT_TRUE(s.timeFromSamples);
    EXPECT_EQ(s.family("no_type_at_all")->type, PromType::Untyped);
    EXPECT_TRUE(std::isnan(s.family("nan_gauge")->samples[0].value));
}

TEST(PrometheusText, ErrorsNameLineColumnAndField)
{
    const PromParseResult r = parsePrometheusText("up 1\nhttp_requests_total{code=200} 5\n");
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->line, 2);
    EXPECT_EQ(r.error->column, 26); // the 2 of 200, where a quote was expected
    EXPECT_EQ(r.error->field, "code");

    const PromParseResult v = parsePrometheusText("up 1\nup{a=\"b\"} fast\n");
    ASSERT_TRUE(v.error);
    EXPECT_EQ(v.error->line, 2);
    EXPECT_EQ(v.error->column, 11);
    EXPECT_EQ(v.error->field, "up");

    QBuffer buffer;
    buffer.setData("# TYPE x counter\nx 1\nx{le=\"1\" 2\n");
    buffer.open(QIODevice::ReadOnly);
    const ImportResult ir = prometheusImporter().parse(buffer, ImportOptions{"m.prom"}, {});
    ASSERT_FALSE(ir.ok());
    EXPECT_EQ(ir.error->describe("m.prom"),
              "m.prom: line 3, column 10: field 'le': expected ',' or '}' after the label value");
}

TEST(PrometheusText, TruncatedFinalLineIsAWarningNotAFailure)
{
    const ImportResult r = parseText(prometheusImporter(), "# TYPE x counter\nx 1\nx{a=\"b");
    ASSERT_TRUE(r.ok()) << r.error->describe("m");
    EXPECT_TRUE(hasWarning(r, "truncated-line", 3));
}

TEST(PrometheusDiff, HistogramQuantileInterpolatesLinearlyWithinTheBucket)
{
    const std::vector<PromBucket> b = {{0.1, 50}, {0.2, 90}, {0.4, 100}, {INFINITY, 100}};
    EXPECT_DOUBLE_EQ(*histogramQuantile(0.5, b), 0.1);              // rank 50: top of bucket 1
    EXPECT_DOUBLE_EQ(*histogramQuantile(0.25, b), 0.05);            // first bucket from 0
    EXPECT_DOUBLE_EQ(*histogramQuantile(0.7, b), 0.1 + 0.1 * 0.5);  // 20 of 40 in (0.1, 0.2]
    EXPECT_DOUBLE_EQ(*histogramQuantile(0.99, b), 0.2 + 0.2 * 0.9); // 9 of 10 in (0.2, 0.4]
    const std::vector<PromBucket> inInf = {{0.1, 1}, {INFINITY, 10}};
    EXPECT_DOUBLE_EQ(*histogramQuantile(0.99, inInf), 0.1); // the highest finite bound
    EXPECT_FALSE(histogramQuantile(0.5, {{0.1, 0}, {INFINITY, 0}}));
}

TEST(PrometheusDiff, TwoScrapesGiveRatesAndPercentilesOfTheDifference)
{
    const PromParseResult p = parsePrometheusText(kTwoScrapes);
    ASSERT_FALSE(p.error);
    ASSERT_EQ(p.snapshots.size(), 2u);
    const PromDiff d = diffSnapshots(p.snapshots[0], p.snapshots[1], 10);
    ASSERT_EQ(d.rates.size(), 3u); // the counter, the histogram's _sum and _count
    const auto produce = d.mergedHistogram("korvet_broker_produce_seconds");
    ASSERT_TRUE(produce);
    EXPECT_EQ(produce->count, 2000);
    // In the window: 1000 <= 5 ms, 800 in (5, 10] ms, 180 in (10, 50] ms, 20 above.
    EXPECT_DOUBLE_EQ(*histogramQuantile(0.5, produce->buckets), 0.005);
    EXPECT_DOUBLE_EQ(*histogramQuantile(0.99, produce->buckets), 0.05); // rank 1980 = bucket top

    const ImportResult r = parseText(prometheusImporter(), kTwoScrapes);
    ASSERT_TRUE(r.ok()) << r.error->describe("m");
    ASSERT_EQ(r.runs[0].scenarios.size(), 1u);
    const ScenarioRecord &w = r.runs[0].scenarios[0];
    EXPECT_EQ(w.name, "prometheus/window-1");
    EXPECT_EQ(w.kind, "interval");
    EXPECT_EQ(r.runs[0].target, "korvet");
    EXPECT_EQ(r.runs[0].timestamp, "2026-08-11T03:00:10Z");
    EXPECT_DOUBLE_EQ(*w.metric("prom.interval_s"), 10);
    EXPECT_DOUBLE_EQ(*w.metric("prom.korvet_records_produced_total.rate_per_s"), 65000);
    EXPECT_DOUBLE_EQ(*w.metric("latency_p50_s"), 0.005);
    EXPECT_DOUBLE_EQ(*w.metric("latency_p99_s"), 0.05);
    EXPECT_DOUBLE_EQ(*w.metric("latency_p95_s"),
                     interpolate(0.01, 0.05, 1800, 180, 0.95 * 2000));
    EXPECT_DOUBLE_EQ(*w.metric("latency_avg_s"), 15.0 / 2000);
    EXPECT_DOUBLE_EQ(*w.metric("korvet.produce_requests_per_s"), 200);
    EXPECT_EQ(w.metric("prom.korvet_partitions"), 96);
}

TEST(PrometheusDiff, CounterResetCountsFromZeroAndWarns)
{
    const std::string text = "2026-08-11T03:00:00Z\nreqs_total 500\n"
                             "2026-08-11T03:00:05Z\nreqs_total 40\n";
    const ImportResult r = parseText(prometheusImporter(), text);
    ASSERT_TRUE(r.ok());
    EXPECT_DOUBLE_EQ(*r.runs[0].scenarios.at(0).metric("prom.reqs_total.rate_per_s"), 8);
    EXPECT_TRUE(hasWarning(r, "counter-reset", 3));
}

TEST(PrometheusDiff, ScrapesWithoutTimesKeepIncreasesAndSaySo)
{
    const std::string text = "# TYPE c counter\nc 1\n# EOF\n# TYPE c counter\nc 4\n# EOF\n";
    const ImportResult r = parseText(prometheusImporter(), text);
    ASSERT_TRUE(r.ok());
    const ScenarioRecord &w = r.runs[0].scenarios.at(0);
    EXPECT_EQ(w.metric("prom.c.increase"), 3);
    EXPECT_FALSE(w.metric("prom.c.rate_per_s"));
    EXPECT_TRUE(hasWarning(r, "interval-unknown", 4));
}

TEST(PrometheusImporter, PerTargetScenariosFromInstanceLabels)
{
    const std::string text = "# TYPE up gauge\nup{instance=\"b1:9090\",job=\"korvet\"} 1\n"
                             "up{instance=\"b2:9090\",job=\"korvet\"} 0\n";
    const ImportResult r = parseText(prometheusImporter(), text);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.runs[0].scenarios.size(), 2u);
    EXPECT_EQ(r.runs[0].scenarios[0].name, "prometheus/b1:9090");
    EXPECT_EQ(r.runs[0].scenarios[1].metric("prom.up{job=\"korvet\"}"), 0);
}
