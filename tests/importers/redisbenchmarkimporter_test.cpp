// redis-benchmark in its shapes: the corpus CSV (Valkey/Redis 7, header) and full text report
// (7.x header with the summary table), plus hand-written old CSV (CRLF), -q and pre-6.2
// text after the tool's printf formats.
#include "importers/importers.h"
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

ImportResult parseCorpus(const std::string &name)
{
    const std::string path = corpusPath("redis-benchmark/" + name);
    QFile f(QString::fromStdString(path));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path;
    return redisBenchmarkImporter().parse(f, ImportOptions{path}, {});
}

const ScenarioRecord *find(const ImportResult &r, const std::string &name)
{
    for (const auto &s : r.runs.at(0).scenarios)
        if (s.name == name)
            return &s;
    return nullptr;
}

} // namespace

TEST(RedisBenchmarkImporter, CsvWithHeaderTakesClientsFromTheFileName)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r = parseCorpus("botbabai__valkey-redis-benchmark__results_redis_clients_50.csv");
    ASSERT_TRUE(r.ok()) << r.error->describe("csv");
    const ScenarioRecord *get = find(r, "redis-benchmark/GET/c-50");
    ASSERT_NE(get, nullptr);
    // "GET","194174.77","0.137","0.024","0.127","0.199","0.279","0.991"
    EXPECT_DOUBLE_EQ(*get->metric("records_per_s"), 194174.77);
    EXPECT_DOUBLE_EQ(*get->metric("latency_avg_s"), 0.137e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_p50_s"), 0.127e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_p95_s"), 0.199e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_p99_s"), 0.279e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_max_s"), 0.991e-3);
    EXPECT_EQ(get->topology.clients, 50);
    EXPECT_EQ(get->topology.inferred, std::vector<std::string>{"clients"});
    EXPECT_NE(find(r, "redis-benchmark/LRANGE_100 (first 100 elements)/c-50"), nullptr);
}

TEST(RedisBenchmarkImporter, FullTextReportSummaryBlock)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string name = "paulrzcz__redka__benchmark.md__original-redis-block.txt";
    EXPECT_GT(redisBenchmarkImporter().sniff(readCorpusFile("redis-benchmark/" + name)), 0);
    const ImportResult r = parseCorpus(name);
    ASSERT_TRUE(r.ok()) << r.error->describe("text");
    const ScenarioRecord *set = find(r, "redis-benchmark/SET/c-50");
    ASSERT_NE(set, nullptr);
    EXPECT_DOUBLE_EQ(*set->metric("records_per_s"), 155521.00);
    EXPECT_DOUBLE_EQ(*set->metric("latency_avg_s"), 0.184e-3);
    EXPECT_DOUBLE_EQ(*set->metric("latency_p50_s"), 0.151e-3);
    EXPECT_DOUBLE_EQ(*set->metric("latency_p95_s"), 0.343e-3);
    EXPECT_DOUBLE_EQ(*set->metric("latency_p99_s"), 1.023e-3);
    EXPECT_DOUBLE_EQ(*set->metric("latency_max_s"), 2.191e-3);
    // p99.9 from the percentile listing: the first line at or past 99.9% (99.902% <= 1.775).
    EXPECT_DOUBLE_EQ(*set->metric("latency_p999_s"), 1.775e-3);
    EXPECT_DOUBLE_EQ(*set->metric("redis.requests"), 100000);
    EXPECT_EQ(set->topology.recordSizeBytes, 3);
    EXPECT_NE(find(r, "redis-benchmark/GET/c-50"), nullptr);
}

TEST(RedisBenchmarkImporter, OldCsvWithoutHeaderAndCrlf)
{
    const ImportResult r = parseText(redisBenchmarkImporter(),
                                     "\"PING_INLINE\",\"178571.42\"\r\n\"SET\",\"188679.25\"\r\n");
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.runs[0].scenarios.size(), 2u);
    EXPECT_EQ(r.runs[0].scenarios[1].name, "redis-benchmark/SET");
    EXPECT_DOUBLE_EQ(*r.runs[0].scenarios[1].metric("records_per_s"), 188679.25);
}

TEST(RedisBenchmarkImporter, QuietOutputOldAndNew)
{
    const std::string text = "PING_INLINE: 86206.90 requests per second\n"
                             "SET: rps=51910.9 (overall: 46024.1) avg_msec=11.348 (overall: 11.348)\r"
                             "SET: 155521.00 requests per second, p50=0.151 msec\n"
                             "LRANGE_100 (first 100 elements): 40160.64 requests per second, p50=0.655 msec\n";
    EXPECT_GT(redisBenchmarkImporter().sniff(text), 0);
    const ImportResult r = parseText(redisBenchmarkImporter(), text);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.runs[0].scenarios.size(), 3u);
    EXPECT_DOUBLE_EQ(*r.runs[0].scenarios[0].metric("records_per_s"), 86206.90);
    EXPECT_FALSE(r.runs[0].scenarios[0].metric("latency_p50_s"));
    EXPECT_DOUBLE_EQ(*r.runs[0].scenarios[1].metric("latency_p50_s"), 0.151e-3);
    EXPECT_EQ(r.runs[0].scenarios[2].name, "redis-benchmark/LRANGE_100 (first 100 elements)");
}

TEST(RedisBenchmarkImporter, PreSixTwoTextWithCumulativeDistribution)
{
    const std::string text = "====== SET ======\n"
                             "  100000 requests completed in 0.64 seconds\n"
                             "  50 parallel clients\n"
                             "  3 bytes payload\n"
                             "  keep alive: 1\n\n"
                             "45.16% <= 1 milliseconds\n"
                             "99.04% <= 2 milliseconds\n"
                             "99.95% <= 3 milliseconds\n"
                             "100.00% <= 4 milliseconds\n"
                             "156006.25 requests per second\n\n";
    const ImportResult r = parseText(redisBenchmarkImporter(), text);
    ASSERT_TRUE(r.ok());
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_EQ(s.name, "redis-benchmark/SET/c-50");
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 156006.25);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p50_s"), 2e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), 2e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p999_s"), 3e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_max_s"), 4e-3);
}

TEST(RedisBenchmarkImporter, BadNumberIsAnErrorWithField)
{
    const ImportResult r = parseText(redisBenchmarkImporter(),
                                     "\"test\",\"rps\",\"avg_latency_ms\"\n\"GET\",\"12x\",\"0.1\"\n");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 2);
    EXPECT_EQ(r.error->field, "rps");
}

TEST(RedisBenchmark, TheSummaryTableIsReadInTheUnitItStates)
{
    PLIMSOLL_REQUIRES_CORPUS();
    QFile f(QString::fromStdString(corpusPath("redis-benchmark/paulrzcz__redka__benchmark.md__original-redis-block.txt")));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    std::string text = f.readAll().toStdString();
    const ImportResult msec = parseText(redisBenchmarkImporter(), text);
    ASSERT_TRUE(msec.ok());
    EXPECT_DOUBLE_EQ(*msec.runs[0].scenarios[0].metric("latency_p99_s"), 1.023e-3);
    for (size_t at = text.find("(msec)"); at != std::string::npos; at = text.find("(msec)"))
        text.replace(at, 6, "(usec)");
    const ImportResult usec = parseText(redisBenchmarkImporter(), text);
    ASSERT_TRUE(usec.ok());
    EXPECT_DOUBLE_EQ(*usec.runs[0].scenarios[0].metric("latency_p99_s"), 1.023e-6);
    text.replace(text.find("(usec)"), 6, "(fortnights)");
    const ImportResult bad = parseText(redisBenchmarkImporter(), text);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error->field, "latency summary");
}

// redis-benchmark 6.2+ names a custom command's test by its command line, quotes unescaped: the
// real row `"hset h f {"a":[1,2],"b":"x,y"}","21978.02",…` is no valid CSV, but the test name is
// everything between the first quote and the last one before the 7 value cells.
TEST(RedisBenchmarkImporter, CustomCommandWithQuotesInItsNameIsRead)
{
    const std::string text = readData("redis-benchmark/hset-json-value.csv");
    ASSERT_FALSE(text.empty()) << dataPath("redis-benchmark/hset-json-value.csv");
    EXPECT_GT(redisBenchmarkImporter().sniff(text), 0);
    const ImportResult r = parseText(redisBenchmarkImporter(), text);
    ASSERT_TRUE(r.ok()) << r.error->describe("hset-json-value.csv");
    ASSERT_EQ(r.runs.at(0).scenarios.size(), 1u);
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_EQ(s.name, R"(redis-benchmark/hset h f {"a":[1,2],"b":"x,y"})");
    EXPECT_DOUBLE_EQ(*s.metric("records_per_s"), 21978.02);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), 4.391e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_max_s"), 10.127e-3);

    // Without the header row, and in the old two-column shape, the same rule holds.
    const ImportResult headerless = parseText(
        redisBenchmarkImporter(),
        R"("JSON.SET doc $ "{"n":"q,\"z"}"","8123.5","0.9","0.1","0.8","1.5","2.25","4")" "\n");
    ASSERT_TRUE(headerless.ok()) << headerless.error->describe("csv");
    EXPECT_EQ(headerless.runs[0].scenarios.at(0).name, R"(redis-benchmark/JSON.SET doc $ "{"n":"q,\"z"}")");
    EXPECT_DOUBLE_EQ(*headerless.runs[0].scenarios[0].metric("latency_p99_s"), 2.25e-3);
    const ImportResult old = parseText(redisBenchmarkImporter(),
                                       "\"SET\",\"100.5\"\r\n\"SET k \"v\"\",\"90.25\"\r\n");
    ASSERT_TRUE(old.ok()) << old.error->describe("csv");
    ASSERT_EQ(old.runs[0].scenarios.size(), 2u);
    EXPECT_EQ(old.runs[0].scenarios[1].name, "redis-benchmark/SET k \"v\"");
    EXPECT_DOUBLE_EQ(*old.runs[0].scenarios[1].metric("records_per_s"), 90.25);
}

// A quoted line that no reading takes apart is named, with what a row must hold.
TEST(RedisBenchmarkImporter, AnUnreadableRowIsNamedByItsLine)
{
    const std::string header =
        "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\","
        "\"p99_latency_ms\",\"max_latency_ms\"\n";
    const ImportResult none = parseText(redisBenchmarkImporter(),
                                        header + "\"PING\",\"fast\"ish\",\"0.1\"\n");
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error->line, 2);
    EXPECT_NE(none.error->message.find("no redis-benchmark --csv row"), std::string::npos)
        << none.error->message;

    const ImportResult some = parseText(
        redisBenchmarkImporter(),
        header + "\"GET\",\"100\",\"1\",\"1\",\"1\",\"1\",\"1\",\"1\"\n\"SET \"k\",\"oops\n");
    ASSERT_TRUE(some.ok()) << some.error->describe("csv");
    EXPECT_EQ(some.runs[0].scenarios.size(), 1u);
    bool warned = false;
    for (const ImportWarning &w : some.warnings)
        warned |= w.kind == "unreadable-row" && w.line == 3;
    EXPECT_TRUE(warned) << "the left-out row is named";
}

TEST(RedisBenchmarkImporter, HeaderlessRowsNamedByAQuotedCommandAreDetected)
{
    const std::string row = R"("SET k "v"","8123.5","0.9","0.1","0.8","1.5","2.25","4")" "\n";
    EXPECT_GT(redisBenchmarkImporter().sniff(row), 0);
    EXPECT_EQ(ImporterRegistry::instance().detect(row), &redisBenchmarkImporter());
}
