// Two scrapes of one target saved to two files (`curl :9404/metrics > before.prom`, the
// workload, `curl … > after.prom`) paired into one source and one run: rates = increase /
// interval, histogram percentiles of the bucket difference interpolated as Prometheus'
// histogram_quantile does, the interval from the scrapes' times, --interval or the files'
// modification times (inferred), and the refusals that keep a wrong pair out of the store.
#include "importers/prometheus/scrapepairimport.h"
#include "importertest.h"
#include "model/store/store.h"

#include <gtest/gtest.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QTemporaryDir>

#include <chrono>
#include <filesystem>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

const std::string kCorpus = "prometheus/prometheus__prometheus__alltypes.237mfs.prom.txt";

// A Korvet broker before the workload: 10,000 produce requests so far.
const std::string kBefore = R"(# HELP korvet_broker_produce_seconds Produce request handling time.
# TYPE korvet_broker_produce_seconds histogram
korvet_broker_produce_seconds_bucket{broker="0",le="0.001"} 4000
korvet_broker_produce_seconds_bucket{broker="0",le="0.005"} 9000
korvet_broker_produce_seconds_bucket{broker="0",le="0.01"} 9900
korvet_broker_produce_seconds_bucket{broker="0",le="0.05"} 9990
korvet_broker_produce_seconds_bucket{broker="0",le="0.1"} 10000
korvet_broker_produce_seconds_bucket{broker="0",le="+Inf"} 10000
korvet_broker_produce_seconds_sum{broker="0"} 25
korvet_broker_produce_seconds_count{broker="0"} 10000
# TYPE korvet_records_produced_total counter
korvet_records_produced_total{topic="bench"} 1.2e6
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total 812.5
# TYPE process_start_time_seconds gauge
process_start_time_seconds 1786410000
# TYPE korvet_partitions gauge
korvet_partitions 96
)";

// The same broker after it: 20,000 more requests, of which 6,000 took <= 1 ms, 16,000 <= 5 ms,
// 19,000 <= 10 ms, 19,700 <= 50 ms and all 20,000 <= 100 ms; 2.4 million more records.
const std::string kAfter = R"(# HELP korvet_broker_produce_seconds Produce request handling time.
# TYPE korvet_broker_produce_seconds histogram
korvet_broker_produce_seconds_bucket{broker="0",le="0.001"} 10000
korvet_broker_produce_seconds_bucket{broker="0",le="0.005"} 25000
korvet_broker_produce_seconds_bucket{broker="0",le="0.01"} 28900
korvet_broker_produce_seconds_bucket{broker="0",le="0.05"} 29690
korvet_broker_produce_seconds_bucket{broker="0",le="0.1"} 30000
korvet_broker_produce_seconds_bucket{broker="0",le="+Inf"} 30000
korvet_broker_produce_seconds_sum{broker="0"} 95
korvet_broker_produce_seconds_count{broker="0"} 30000
# TYPE korvet_records_produced_total counter
korvet_records_produced_total{topic="bench"} 3.6e6
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total 860.5
# TYPE process_start_time_seconds gauge
process_start_time_seconds 1786410000
# TYPE korvet_partitions gauge
korvet_partitions 96
)";

const int64_t kAfterMs = 1786413660000; // 2026-08-11T02:01:00Z, an hour after the start

// Prometheus' histogram_quantile for the bucket holding the rank, written out.
double interpolate(double lower, double upper, double below, double inBucket, double rank)
{
    return lower + (upper - lower) * ((rank - below) / inBucket);
}

ScrapeFile file(const std::string &name, const std::string &bytes,
                std::optional<int64_t> modifiedMs = std::nullopt)
{
    ScrapeFile f;
    f.name = name;
    f.uri = "/scrapes/" + name;
    f.bytes = bytes;
    if (modifiedMs)
        f.modifiedNs = *modifiedMs * 1000000;
    return f;
}

std::string replaceOnce(std::string text, const std::string &from, const std::string &to)
{
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

std::string readCorpus()
{
    QFile f(QString::fromStdString(corpusPath(kCorpus)));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray b = f.readAll();
    return std::string(b.constData(), size_t(b.size()));
}

const ImportWarning *warningOf(const ScrapePair &p, const std::string &kind)
{
    for (const ImportWarning &w : p.result.warnings)
        if (w.kind == kind)
            return &w;
    return nullptr;
}

ScrapeSide sideOf(const ScrapePair &p, const std::string &kind)
{
    for (size_t i = 0; i < p.result.warnings.size(); ++i)
        if (p.result.warnings[i].kind == kind)
            return p.warningSides.at(i);
    return ScrapeSide::Neither;
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

// Writes `bytes` to `name` in `dir` with the given modification time.
std::string writeFile(const QTemporaryDir &dir, const std::string &name, const std::string &bytes,
                      int64_t modifiedMs)
{
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    QFile f(QString::fromStdString(path));
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes.data(), qint64(bytes.size()));
    f.close();
    const auto t = std::chrono::sys_time<std::chrono::milliseconds>(std::chrono::milliseconds(modifiedMs));
    std::filesystem::last_write_time(path, std::chrono::file_clock::from_sys(t));
    return path;
}

ScrapePairRequest pairOf(const std::string &before, const std::string &after)
{
    ScrapePairRequest r;
    r.before = before;
    r.after = after;
    return r;
}

} // namespace

TEST(ScrapePair, RatesAreIncreaseOverTheIntervalAndPercentilesComeFromTheDifference)
{
    const ScrapePair p = pairScrapes(file("before.prom", kBefore, kAfterMs - 60000),
                                     file("after.prom", kAfter, kAfterMs));
    ASSERT_TRUE(p.result.ok()) << p.result.error->describe("pair");
    EXPECT_EQ(p.intervalS, 60);
    EXPECT_EQ(p.intervalFrom, "file modification times");
    ASSERT_EQ(p.result.runs.size(), 1u);
    const RunRecord &run = p.result.runs[0];
    EXPECT_EQ(run.tool, "prometheus");
    EXPECT_EQ(run.target, "korvet");
    ASSERT_EQ(run.scenarios.size(), 1u);
    const ScenarioRecord &w = run.scenarios[0];
    EXPECT_EQ(w.name, "prometheus/window-1");
    EXPECT_EQ(w.kind, "interval");
    EXPECT_EQ(w.metric("prom.interval_s"), 60);
    // rate = increase / interval.
    EXPECT_DOUBLE_EQ(*w.metric("prom.korvet_records_produced_total{topic=\"bench\"}.rate_per_s"),
                     (3.6e6 - 1.2e6) / 60);
    EXPECT_DOUBLE_EQ(*w.metric("prom.process_cpu_seconds_total.rate_per_s"), (860.5 - 812.5) / 60);
    EXPECT_DOUBLE_EQ(*w.metric("korvet.produce_requests_per_s"), 20000.0 / 60);
    // p99 of the 20,000 requests in the interval: rank 19,800 lies in (50 ms, 100 ms], above
    // the 19,700 at or below 50 ms and among that bucket's 300.
    const double p99 = interpolate(0.05, 0.1, 19700, 300, 0.99 * 20000);
    EXPECT_DOUBLE_EQ(p99, 0.05 + 0.05 / 3);
    EXPECT_DOUBLE_EQ(*w.metric("latency_p99_s"), p99);
    EXPECT_DOUBLE_EQ(*w.metric("prom.korvet_broker_produce_seconds{broker=\"0\"}.p99"), p99);
    // p50: rank 10,000 in (1 ms, 5 ms], above 6,000, among 10,000.
    EXPECT_DOUBLE_EQ(*w.metric("latency_p50_s"), interpolate(0.001, 0.005, 6000, 10000, 10000));
    EXPECT_DOUBLE_EQ(*w.metric("latency_avg_s"), 70.0 / 20000);
    EXPECT_EQ(w.metric("prom.korvet_partitions"), 96);

    // The interval came from the files' times: inferred, and said so.
    EXPECT_EQ(run.environment["interval_from"], "file modification times");
    EXPECT_EQ(run.environment["interval_s"], 60);
    EXPECT_EQ(run.environment["inferred"], nlohmann::json({"interval_s", "timestamp"}));
    EXPECT_EQ(run.environment["scrape_files"],
              nlohmann::json({"/scrapes/before.prom", "/scrapes/after.prom"}));
    EXPECT_EQ(run.timestamp, "2026-08-11T02:01:00Z");
    const ImportWarning *inferred = warningOf(p, "interval-inferred");
    ASSERT_NE(inferred, nullptr);
    EXPECT_TRUE(contains(inferred->detail, "60 s")) << inferred->detail;
    EXPECT_TRUE(contains(w.provenance, "before.prom")) << w.provenance;
    EXPECT_TRUE(contains(w.provenance, "modification times (inferred)")) << w.provenance;
    EXPECT_FALSE(warningOf(p, "counter-reset"));
}

TEST(ScrapePair, TheScrapesOwnTimesAreReadAndWinOverTheFilesTimes)
{
    // A harness that runs `date` before each curl; the files' times are an hour off (copied).
    const ScrapePair p =
        pairScrapes(file("before.prom", "2026-08-11 03:00:00\n" + kBefore, kAfterMs),
                    file("after.prom", "2026-08-11 03:00:45.500\n" + kAfter, kAfterMs - 3600000));
    ASSERT_TRUE(p.result.ok()) << p.result.error->describe("pair");
    EXPECT_EQ(p.intervalS, 45.5);
    EXPECT_EQ(p.intervalFrom, "scrape times");
    const RunRecord &run = p.result.runs.at(0);
    EXPECT_EQ(run.timestamp, "2026-08-11T03:00:45.500Z");
    EXPECT_FALSE(run.environment.contains("inferred"));
    EXPECT_DOUBLE_EQ(*run.scenarios.at(0).metric("prom.korvet_records_produced_total{topic=\"bench\"}.rate_per_s"),
                     2.4e6 / 45.5);
    EXPECT_FALSE(warningOf(p, "interval-inferred"));
}

TEST(ScrapePair, ExplicitIntervalIsUsedAndADisagreementWithTheScrapesIsWarned)
{
    const ScrapePair p = pairScrapes(file("before.prom", kBefore, kAfterMs),
                                     file("after.prom", kAfter, kAfterMs), 48.0);
    ASSERT_TRUE(p.result.ok()) << p.result.error->describe("pair");
    EXPECT_EQ(p.intervalFrom, "--interval");
    EXPECT_EQ(p.result.runs[0].environment["inferred"], nlohmann::json({"timestamp"}));
    EXPECT_DOUBLE_EQ(*p.result.runs[0].scenarios[0].metric("prom.process_cpu_seconds_total.rate_per_s"), 1.0);

    const ScrapePair q = pairScrapes(file("before.prom", "2026-08-11 03:00:00\n" + kBefore),
                                     file("after.prom", "2026-08-11 03:01:00\n" + kAfter), 48.0);
    ASSERT_TRUE(q.result.ok());
    const ImportWarning *w = warningOf(q, "interval-disagrees");
    ASSERT_NE(w, nullptr);
    EXPECT_TRUE(contains(w->detail, "48 s")) << w->detail;
    EXPECT_TRUE(contains(w->detail, "60 s")) << w->detail;
}

TEST(ScrapePair, CorpusScrapeAgainstALaterOneOfTheSamePrometheus)
{
    PLIMSOLL_REQUIRES_CORPUS();
    // The corpus self-scrape of a Prometheus server as "before"; "after" is the same server a
    // minute later having answered 400 more /metrics requests and spent 30 s more CPU.
    const std::string before = readCorpus();
    std::string after = before;
    for (const auto &[from, to] : std::vector<std::pair<std::string, std::string>>{
             {"process_cpu_seconds_total 96501.42", "process_cpu_seconds_total 96531.42"},
             {"prometheus_http_requests_total{code=\"200\",handler=\"/metrics\"} 4.059092e+06",
              "prometheus_http_requests_total{code=\"200\",handler=\"/metrics\"} 4059492"},
             {"{handler=\"/metrics\",le=\"0.1\"} 3.988654e+06", "{handler=\"/metrics\",le=\"0.1\"} 3988954"},
             {"{handler=\"/metrics\",le=\"0.2\"} 4.052461e+06", "{handler=\"/metrics\",le=\"0.2\"} 4052841"},
             {"{handler=\"/metrics\",le=\"0.4\"} 4.057771e+06", "{handler=\"/metrics\",le=\"0.4\"} 4058161"},
             {"{handler=\"/metrics\",le=\"1\"} 4.058809e+06", "{handler=\"/metrics\",le=\"1\"} 4059209"},
             {"{handler=\"/metrics\",le=\"3\"} 4.059071e+06", "{handler=\"/metrics\",le=\"3\"} 4059471"},
         })
        after = replaceOnce(after, from, to);
    for (const char *le : {"8", "20", "60", "120", "+Inf"})
        after = replaceOnce(after,
                            "prometheus_http_request_duration_seconds_bucket{handler=\"/metrics\",le=\"" +
                                std::string(le) + "\"} 4.059092e+06",
                            "prometheus_http_request_duration_seconds_bucket{handler=\"/metrics\",le=\"" +
                                std::string(le) + "\"} 4059492");
    after = replaceOnce(after, "prometheus_http_request_duration_seconds_count{handler=\"/metrics\"} 4.059092e+06",
                        "prometheus_http_request_duration_seconds_count{handler=\"/metrics\"} 4059492");

    const ScrapePair p = pairScrapes(file("before.prom", before, kAfterMs - 60000),
                                     file("after.prom", after, kAfterMs));
    ASSERT_TRUE(p.result.ok()) << p.result.error->describe("pair");
    const ScenarioRecord &w = p.result.runs.at(0).scenarios.at(0);
    EXPECT_DOUBLE_EQ(*w.metric("prom.process_cpu_seconds_total.rate_per_s"), (96531.42 - 96501.42) / 60);
    EXPECT_DOUBLE_EQ(*w.metric("prom.prometheus_http_requests_total{code=\"200\",handler=\"/metrics\"}.rate_per_s"),
                     400.0 / 60);
    // In the interval: 300 requests <= 0.1 s, 380 <= 0.2 s, 390 <= 0.4 s, 400 <= 1 s.
    // p99: rank 396 in (0.4, 1], above 390, among 10.
    EXPECT_DOUBLE_EQ(*w.metric("prom.prometheus_http_request_duration_seconds{handler=\"/metrics\"}.p99"),
                     interpolate(0.4, 1, 390, 10, 0.99 * 400));
    EXPECT_DOUBLE_EQ(*w.metric("prom.prometheus_http_request_duration_seconds{handler=\"/metrics\"}.p50"),
                     interpolate(0, 0.1, 0, 300, 0.5 * 400));
    // Every other counter stood still.
    EXPECT_EQ(w.metric("prom.prometheus_http_requests_total{code=\"200\",handler=\"/-/ready\"}.rate_per_s"), 0);
}

TEST(ScrapePair, ASecondScrapeOlderThanTheFirstIsRefusedNamingTheFile)
{
    // By the files' times.
    const ScrapePair byFiles = pairScrapes(file("before.prom", kBefore, kAfterMs),
                                           file("after.prom", kAfter, kAfterMs - 60000));
    ASSERT_FALSE(byFiles.result.ok());
    EXPECT_EQ(byFiles.errorSide, ScrapeSide::After);
    EXPECT_TRUE(contains(byFiles.result.error->message, "older than before.prom"))
        << byFiles.result.error->message;
    EXPECT_TRUE(byFiles.result.runs.empty());

    // By the scrapes' own times, with the line that states it.
    const ScrapePair byTimes =
        pairScrapes(file("before.prom", "2026-08-11 03:01:00\n" + kBefore),
                    file("after.prom", "# some header\n2026-08-11 03:00:00\n" + kAfter));
    ASSERT_FALSE(byTimes.result.ok());
    EXPECT_EQ(byTimes.errorSide, ScrapeSide::After);
    EXPECT_EQ(byTimes.result.error->line, 2);
    EXPECT_EQ(byTimes.result.error->describe("after.prom").rfind("after.prom: line 2: was scraped before", 0), 0u)
        << byTimes.result.error->describe("after.prom");
    EXPECT_TRUE(contains(byTimes.result.error->message, "give the earlier scrape first"));

    // Swapped files of one process: every counter went down while the process stayed.
    const ScrapePair swapped = pairScrapes(file("after.prom", kAfter), file("before.prom", kBefore), 60.0);
    ASSERT_FALSE(swapped.result.ok());
    EXPECT_EQ(swapped.errorSide, ScrapeSide::After);
    EXPECT_TRUE(contains(swapped.result.error->message, "every counter that changed went down"))
        << swapped.result.error->message;
    EXPECT_GT(swapped.result.error->line, 0);

    // An after scrape of an older process.
    const ScrapePair older = pairScrapes(
        file("before.prom", kBefore),
        file("after.prom", replaceOnce(kAfter, "process_start_time_seconds 1786410000",
                                       "process_start_time_seconds 1786400000")),
        60.0);
    ASSERT_FALSE(older.result.ok());
    EXPECT_EQ(older.result.error->field, "process_start_time_seconds");
    EXPECT_EQ(older.result.error->line, 16);

    // The same time on both files and no time in the scrapes: say what to give.
    const ScrapePair same = pairScrapes(file("before.prom", kBefore, kAfterMs),
                                        file("after.prom", kAfter, kAfterMs));
    ASSERT_FALSE(same.result.ok());
    EXPECT_TRUE(contains(same.result.error->message, "give --interval")) << same.result.error->message;
}

TEST(ScrapePair, ACounterResetIsWarnedWithFileAndLineAndCountsFromZero)
{
    // The broker restarted during the workload: its counters start again from zero.
    std::string after = replaceOnce(kAfter, "korvet_records_produced_total{topic=\"bench\"} 3.6e6",
                                    "korvet_records_produced_total{topic=\"bench\"} 3000");
    after = replaceOnce(after, "process_start_time_seconds 1786410000", "process_start_time_seconds 1786413600");
    const ScrapePair p = pairScrapes(file("before.prom", kBefore), file("after.prom", after), 60.0);
    ASSERT_TRUE(p.result.ok()) << p.result.error->describe("pair");
    const ImportWarning *w = warningOf(p, "counter-reset");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(sideOf(p, "counter-reset"), ScrapeSide::After);
    EXPECT_EQ(w->line, 12); // the korvet_records_produced_total line of after.prom
    EXPECT_TRUE(contains(w->detail, "korvet_records_produced_total{topic=\"bench\"} from 1200000 "
                                    "(before.prom line 12) to 3000"))
        << w->detail;
    EXPECT_TRUE(contains(w->detail, "restarted")) << w->detail;
    EXPECT_DOUBLE_EQ(*p.result.runs[0].scenarios[0].metric(
                         "prom.korvet_records_produced_total{topic=\"bench\"}.rate_per_s"),
                     3000.0 / 60);
}

TEST(ScrapePair, ScrapesOfDifferentTargetsAreRefused)
{
    PLIMSOLL_REQUIRES_CORPUS();
    // A Prometheus server's self-scrape (the corpus) and a Korvet broker share nothing.
    const ScrapePair p = pairScrapes(file("before.prom", readCorpus()), file("after.prom", kAfter), 60.0);
    ASSERT_FALSE(p.result.ok());
    EXPECT_EQ(p.errorSide, ScrapeSide::After);
    EXPECT_TRUE(contains(p.result.error->message, "not a scrape of the target in before.prom"))
        << p.result.error->message;
    EXPECT_TRUE(contains(p.result.error->message, "metric families are in both"));
    EXPECT_GT(p.result.error->line, 0);

    // Two brokers told apart by their instance label.
    const ScrapePair q = pairScrapes(
        file("before.prom", "# TYPE reqs_total counter\nreqs_total{instance=\"b1:9404\"} 5\n"),
        file("after.prom", "# TYPE reqs_total counter\nreqs_total{instance=\"b2:9404\"} 9\n"), 60.0);
    ASSERT_FALSE(q.result.ok());
    EXPECT_EQ(q.result.error->line, 2);
    EXPECT_EQ(q.result.error->field, "instance");
    EXPECT_TRUE(contains(q.result.error->message, "b1:9404")) << q.result.error->message;

    // A Korvet broker against a Redis exporter.
    const ScrapePair r = pairScrapes(
        file("before.prom", kBefore),
        file("after.prom", "# TYPE redis_commands_processed_total counter\nredis_commands_processed_total 7\n"
                           "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 900\n"),
        60.0);
    ASSERT_FALSE(r.result.ok());
    EXPECT_TRUE(contains(r.result.error->message, "redis_")) << r.result.error->message;

    // A family lost and one gained of many: a warning each, with the file and the line.
    std::string after = replaceOnce(kAfter, "# TYPE korvet_partitions gauge\nkorvet_partitions 96\n",
                                    "# TYPE korvet_topics gauge\nkorvet_topics 3\n");
    after += "# TYPE korvet_fetch_total counter\nkorvet_fetch_total{topic=\"bench\"} 42\n";
    const ScrapePair s = pairScrapes(file("before.prom", kBefore), file("after.prom", after), 60.0);
    ASSERT_TRUE(s.result.ok()) << s.result.error->describe("pair");
    EXPECT_EQ(sideOf(s, "series-missing"), ScrapeSide::Before);
    EXPECT_EQ(warningOf(s, "series-missing")->line, 18);
    EXPECT_EQ(sideOf(s, "series-new"), ScrapeSide::After);
    EXPECT_EQ(warningOf(s, "series-new")->line, 18);
    // A counter first seen in the after scrape was created during the interval: from zero.
    EXPECT_DOUBLE_EQ(*s.result.runs[0].scenarios[0].metric("prom.korvet_fetch_total{topic=\"bench\"}.rate_per_s"),
                     42.0 / 60);
}

TEST(ScrapePair, TheSameScrapeTwiceIsRefusedAndSoIsAnythingButOneScrapePerFile)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string corpus = readCorpus();
    const ScrapePair twice = pairScrapes(file("before.prom", corpus), file("after.prom", corpus), 60.0);
    ASSERT_FALSE(twice.result.ok());
    EXPECT_TRUE(contains(twice.result.error->message, "after.prom has the same bytes as before.prom"))
        << twice.result.error->message;

    ScrapeFile sameFile = file("before.prom", kBefore);
    const ScrapePair one = pairScrapes(sameFile, sameFile, 60.0);
    ASSERT_FALSE(one.result.ok());
    EXPECT_TRUE(contains(one.result.error->message, "the same file")) << one.result.error->message;

    // Same values, different bytes (only the comments differ): paired, with a warning.
    const ScrapePair idle = pairScrapes(file("before.prom", kBefore),
                                        file("after.prom", "# saved again\n" + kBefore), 60.0);
    ASSERT_TRUE(idle.result.ok());
    EXPECT_TRUE(warningOf(idle, "no-change"));
    EXPECT_TRUE(warningOf(idle, "zero-only-run"));

    const ScrapePair two = pairScrapes(
        file("before.prom", "2026-08-11 03:00:00\n" + kBefore + "2026-08-11 03:01:00\n" + kAfter),
        file("after.prom", kAfter), 60.0);
    ASSERT_FALSE(two.result.ok());
    EXPECT_EQ(two.errorSide, ScrapeSide::Before);
    EXPECT_EQ(two.result.error->line, 20);
    EXPECT_TRUE(contains(two.result.error->message, "holds 2 scrapes")) << two.result.error->message;

    const ScrapePair json = pairScrapes(file("before.prom", readData("korvet-result.json")),
                                        file("after.prom", kAfter), 60.0);
    ASSERT_FALSE(json.result.ok());
    EXPECT_EQ(json.errorSide, ScrapeSide::Before);
    EXPECT_EQ(json.result.error->message, "is korvet-result output, not a Prometheus scrape");

    const ScrapePair empty = pairScrapes(file("before.prom", kBefore), file("after.prom", ""), 60.0);
    ASSERT_FALSE(empty.result.ok());
    EXPECT_EQ(empty.errorSide, ScrapeSide::After);
    EXPECT_TRUE(contains(empty.result.error->message, "is empty")) << empty.result.error->message;

    const ScrapePair broken = pairScrapes(file("before.prom", kBefore),
                                          file("after.prom", "# TYPE x counter\nx{le=\"1\" 2\nx 3\n"), 60.0);
    ASSERT_FALSE(broken.result.ok());
    EXPECT_EQ(broken.result.error->describe("after.prom"),
              "after.prom: line 2, column 10: field 'le': expected ',' or '}' after the label value");
}

TEST(ScrapePair, OneSourceOneRunAndNothingWrittenForAFailedPair)
{
    QTemporaryDir dir;
    const std::string before = writeFile(dir, "before.prom", kBefore, kAfterMs - 60000);
    const std::string after = writeFile(dir, "after.prom", kAfter, kAfterMs);
    Store store(dir.filePath("store.db").toStdString());
    ImportService service(store);

    // Refused pairs write nothing.
    for (const auto &[b, a] : {std::pair{after, before}, std::pair{before, before}}) {
        const ScrapePairReport failed = importScrapePair(service, pairOf(b, a));
        EXPECT_EQ(failed.report.status, "failed");
        EXPECT_FALSE(failed.report.errorText.empty());
    }
    const ScrapePairReport missing =
        importScrapePair(service, pairOf(before, dir.filePath("nope.prom").toStdString()));
    EXPECT_EQ(missing.report.status, "failed");
    EXPECT_TRUE(contains(missing.report.errorText, "nope.prom")) << missing.report.errorText;
    EXPECT_EQ(missing.toJson()["error"]["file"], missing.afterUri);
    const ScrapePairReport url =
        importScrapePair(service, pairOf("http://broker:9404/metrics", after));
    EXPECT_EQ(url.report.status, "failed");
    EXPECT_TRUE(contains(url.report.errorText, "is a URL")) << url.report.errorText;
    EXPECT_EQ(store.runCount(), 0);

    const ScrapePairReport reversed = importScrapePair(service, pairOf(after, before));
    // Given as (after, before): the second file given, before.prom, is the older one.
    EXPECT_TRUE(contains(reversed.report.errorText, before + ": is older than " + after))
        << reversed.report.errorText;

    ScrapePairRequest dry = pairOf(before, after);
    dry.dryRun = true;
    EXPECT_EQ(importScrapePair(service, dry).report.status, "checked");
    EXPECT_EQ(store.runCount(), 0);

    const ScrapePairReport ok = importScrapePair(service, pairOf(before, after));
    ASSERT_EQ(ok.report.status, "imported") << ok.report.errorText;
    EXPECT_EQ(ok.report.runs, 1);
    EXPECT_EQ(ok.report.uri, before + " + " + after);
    EXPECT_EQ(store.runCount(), 1);
    const auto runs = store.runs();
    const auto detail = store.run(runs.at(0).runKey);
    ASSERT_TRUE(detail);
    EXPECT_EQ(detail->source.uri, before + " + " + after);
    EXPECT_EQ(detail->source.format, "prometheus");
    EXPECT_EQ(detail->source.sha256,
              QCryptographicHash::hash(QByteArray::fromStdString(kBefore + kAfter),
                                       QCryptographicHash::Sha256)
                  .toHex()
                  .toStdString());
    const auto json = ok.toJson();
    EXPECT_EQ(json["interval_s"], 60);
    EXPECT_EQ(json["interval_from"], "file modification times");
    EXPECT_EQ(json["scrapes"], nlohmann::json({before, after}));
    bool inferredWarning = false;
    for (const auto &w : json["warnings"])
        inferredWarning |= w["kind"] == "interval-inferred" && w["file"].is_null();
    EXPECT_TRUE(inferredWarning) << json.dump();

    // The same pair again: unchanged.
    EXPECT_EQ(importScrapePair(service, pairOf(before, after)).report.status, "unchanged");
    EXPECT_EQ(store.runCount(), 1);
}

// The interval is not in the bytes: the same pair imported again with another one is unchanged,
// keeps the run of the first import, and says which interval the store holds and how to
// replace it.
TEST(ScrapePair, ThePairAgainWithAnotherIntervalKeepsTheStoredRunAndSaysSo)
{
    QTemporaryDir dir;
    const std::string before = writeFile(dir, "before.prom", kBefore, kAfterMs - 60000);
    const std::string after = writeFile(dir, "after.prom", kAfter, kAfterMs);
    Store store(dir.filePath("store.db").toStdString());
    ImportService service(store);
    ScrapePairRequest first = pairOf(before, after);
    first.intervalS = 90;
    ASSERT_EQ(importScrapePair(service, first).report.status, "imported");

    // The same interval: unchanged, nothing to say about it.
    const ScrapePairReport same = importScrapePair(service, first);
    EXPECT_EQ(same.report.status, "unchanged");
    for (const ImportWarning &w : same.report.warnings)
        EXPECT_NE(w.kind, "interval-differs") << w.detail;

    // Now by the files' modification times, 60 s apart.
    const ScrapePairReport again = importScrapePair(service, pairOf(before, after));
    EXPECT_EQ(again.report.status, "unchanged");
    EXPECT_EQ(again.report.runs, 1);
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    const nlohmann::json json = again.toJson();
    const nlohmann::json *differs = nullptr;
    for (const auto &w : json["warnings"])
        if (w["kind"] == "interval-differs")
            differs = &w;
    ASSERT_NE(differs, nullptr) << json.dump();
    EXPECT_EQ((*differs)["detail"],
              "these scrapes are in the store already, with an interval of 90 s (--interval), "
              "not 60 s (file modification times): nothing was written; `plimsoll remove " +
                  runs[0].runKey + "` first to import them again");
    EXPECT_TRUE((*differs)["file"].is_null());
    // The pair's own warnings come first.
    EXPECT_EQ(json["warnings"][0]["kind"], "interval-inferred");
    EXPECT_EQ(store.run(runs[0].runKey)->record.environment["interval_s"], 90);
}

// A pair is checked against the metrics' domains as any source is: a produce latency of days
// is kept, and said to be implausible.
TEST(ScrapePair, APairsValuesAreCheckedAgainstTheirDomains)
{
    const std::string histogram = "# TYPE korvet_broker_produce_seconds histogram\n"
                                  "korvet_broker_produce_seconds_bucket{le=\"1\"} 0\n"
                                  "korvet_broker_produce_seconds_bucket{le=\"200000\"} N\n"
                                  "korvet_broker_produce_seconds_bucket{le=\"+Inf\"} N\n"
                                  "korvet_broker_produce_seconds_sum S\n"
                                  "korvet_broker_produce_seconds_count N\n";
    auto scrape = [&](const std::string &n, const std::string &sum) {
        std::string text = histogram;
        for (size_t at; (at = text.find(" N\n")) != std::string::npos;)
            text.replace(at, 3, " " + n + "\n");
        return replaceOnce(text, " S\n", " " + sum + "\n");
    };
    QTemporaryDir dir;
    const std::string before = writeFile(dir, "before.prom", scrape("0", "0"), kAfterMs - 60000);
    const std::string after = writeFile(dir, "after.prom", scrape("100", "1e7"), kAfterMs);
    Store store(dir.filePath("store.db").toStdString());
    ImportService service(store);

    const ScrapePairReport pair = importScrapePair(service, pairOf(before, after));
    ASSERT_EQ(pair.report.status, "imported") << pair.report.errorText;
    const nlohmann::json json = pair.toJson();
    // p99: rank 99 of the 100 observations in (1, 200000] s, interpolated linearly.
    const nlohmann::json *implausible = nullptr;
    for (const auto &w : json["warnings"])
        if (w["kind"] == "out-of-domain" && contains(w["detail"], "latency_p99_s is 198000 "))
            implausible = &w;
    ASSERT_NE(implausible, nullptr) << json.dump(2);
    EXPECT_TRUE(contains((*implausible)["detail"], "over a day (86,400 s) is implausible); kept "
                                                   "as imported"))
        << json.dump(2);
    EXPECT_TRUE((*implausible)["file"].is_null());
    EXPECT_EQ(store.runCount(), 1);
}

TEST(ScrapePair, TheWindowOrdersTwoChosenFilesByTheirScrapes)
{
    QTemporaryDir dir;
    // Chosen as "after, before"; modification times tell the order.
    const std::string before = writeFile(dir, "b.prom", kBefore, kAfterMs - 60000);
    const std::string after = writeFile(dir, "a.prom", kAfter, kAfterMs);
    EXPECT_EQ(scrapeOrder(after, before), std::pair(before, after));
    EXPECT_EQ(scrapeOrder(before, after), std::pair(before, after));
    // The scrapes' own times win over the files' times.
    const std::string early = writeFile(dir, "x.prom", "2026-08-11 03:00:00\n" + kBefore, kAfterMs);
    const std::string late = writeFile(dir, "y.prom", "2026-08-11 03:01:00\n" + kAfter, kAfterMs - 60000);
    EXPECT_EQ(scrapeOrder(late, early), std::pair(early, late));
}
