// memtier_benchmark: the corpus text block (memtier 2.x, -x 10: BEST/WORST/AGGREGATED with
// the 9-column table), a hand-written 1.2-style 5-column ALL STATS table, and JSON in the shape
// memtier's --json-out-file writer produces (tabs, "run information", "Percentile Latencies").
#include "importers/importers.h"
#include "importers/redis/memtierimporter.h"
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

const ScenarioRecord *find(const ImportResult &r, const std::string &name)
{
    for (const auto &s : r.runs.at(0).scenarios)
        if (s.name == name)
            return &s;
    return nullptr;
}

ImportResult parseNamed(const std::string &text, const std::string &uri)
{
    QBuffer buffer;
    buffer.setData(QByteArray(text.data(), qsizetype(text.size())));
    buffer.open(QIODevice::ReadOnly);
    return memtierImporter().parse(buffer, ImportOptions{uri}, {});
}

// memtier 1.2.x, redis protocol, 4 threads x 50 clients.
const std::string kOldText = R"([RUN #1 100%,  10 secs]  0 threads:     1519612 ops,  151916 (avg:  151954) ops/sec, 6.26MB/sec (avg: 6.26MB/sec),  1.31 (avg:  1.31) msec latency

4         Threads
50        Connections per thread
10000     Requests per client


ALL STATS
=========================================================================
Type         Ops/sec     Hits/sec   Misses/sec      Latency       KB/sec 
-------------------------------------------------------------------------
Sets        13818.73          ---          ---      1.31400      1064.31 
Gets       138172.39       111.79    138060.60      1.31200      5385.33 
Waits           0.00          ---          ---      0.00000         0.00 
Totals     151991.12       111.79    138060.60      1.31300      6449.64 


Request Latency Distribution
Type     <= msec         Percent
------------------------------------------------------------------------
SET       0.230         0.00
---
)";

const std::string kJson = "{\n\t\"configuration\" : \n\t{\n\t\t\"server\": \"127.0.0.1\""
                          ",\n\t\t\"threads\": 2,\n\t\t\"clients\": 25,\n\t\t\"pipeline\": 16"
                          ",\n\t\t\"data_size\": 100,\n\t\t\"ratio\": \"1:10\"\n\t}"
                          ",\n\t\"run information\": \n\t{\n\t\t\"Threads\": 2"
                          ",\n\t\t\"Connections per thread\": 25,\n\t\t\"Requests per client\": 1000"
                          ",\n\t\t\"Format version\": 2\n\t}"
                          ",\n\t\"ALL STATS\": \n\t{\n\t\t\"Runtime\": \n\t\t{"
                          "\n\t\t\t\"Start time\": 1754881200123,\n\t\t\t\"Finish time\": 1754881210123"
                          ",\n\t\t\t\"Total duration\": 10000,\n\t\t\t\"Time unit\": \"MILLISECONDS\"\n\t\t}"
                          ",\n\t\t\"Gets\": \n\t\t{\n\t\t\t\"Count\": 450000,\n\t\t\t\"Ops/sec\": 45000.12"
                          ",\n\t\t\t\"Hits/sec\": 44000.10,\n\t\t\t\"Misses/sec\": 1000.02"
                          ",\n\t\t\t\"Latency\": 0.35500,\n\t\t\t\"Average Latency\": 0.35500"
                          ",\n\t\t\t\"Min Latency\": 0.04700,\n\t\t\t\"Max Latency\": 12.79900"
                          ",\n\t\t\t\"KB/sec\": 4567.89,\n\t\t\t\"Percentile Latencies\": \n\t\t\t{"
                          "\n\t\t\t\t\"p50.00\": 0.31900,\n\t\t\t\t\"p99.00\": 1.03100"
                          ",\n\t\t\t\t\"p99.90\": 2.07900,\n\t\t\t\t\"p99.99\": 5.11900"
                          ",\n\t\t\t\t\"Histogram log format\": {\"Compressed Histogram\": \"HISTFAAAA\"}"
                          "\n\t\t\t}\n\t\t}"
                          ",\n\t\t\"Totals\": \n\t\t{\n\t\t\t\"Ops/sec\": 49500.20,\n\t\t\t\"Latency\": 0.36000"
                          ",\n\t\t\t\"KB/sec\": 5000.00\n\t\t}\n\t}\n}\n";

} // namespace

TEST(MemtierImporter, CorpusBestWorstAggregatedNineColumns)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string path = corpusPath("memtier/memc-rs__memc-rs__benchmarks_04.02.2026.md__memcrs-block.txt");
    QFile f(QString::fromStdString(path));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << path;
    const QByteArray bytes = f.peek(65536);
    EXPECT_EQ(ImporterRegistry::instance().detect(std::string_view(bytes.constData(), size_t(bytes.size())))->name(),
              "memtier");
    const ImportResult r = memtierImporter().parse(f, ImportOptions{path}, {});
    ASSERT_TRUE(r.ok()) << r.error->describe("memtier");
    EXPECT_EQ(r.runs[0].environment["runs"], 10);
    EXPECT_EQ(r.runs[0].scenarios.size(), 3u); // SET, GET, TOTAL; the empty Waits row is left out
    const ScenarioRecord *get = find(r, "memtier/GET");
    ASSERT_NE(get, nullptr);
    // AGGREGATED AVERAGE RESULTS (10 runs), Gets row.
    EXPECT_DOUBLE_EQ(*get->metric("records_per_s"), 364016.54);
    EXPECT_DOUBLE_EQ(*get->metric("memtier.hits_per_s"), 32550.76);
    EXPECT_DOUBLE_EQ(*get->metric("latency_avg_s"), 0.81035e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_p50_s"), 0.71900e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_p99_s"), 2.57500e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_p999_s"), 4.57500e-3);
    EXPECT_DOUBLE_EQ(*get->metric("bytes_per_s"), 12754.05 * 1024);
    EXPECT_DOUBLE_EQ(*get->metric("memtier.best_run.records_per_s"), 408365.46);
    EXPECT_DOUBLE_EQ(*get->metric("memtier.worst_run.latency_p999_s"), 5.56700e-3);
    const ScenarioRecord *total = find(r, "memtier/TOTAL");
    ASSERT_NE(total, nullptr);
    EXPECT_DOUBLE_EQ(*total->metric("latency_p999_s"), 4.60700e-3);
    EXPECT_DOUBLE_EQ(*total->metric("bytes_per_s"), 17838.77 * 1024);
}

TEST(MemtierImporter, FiveColumnTableWithConfigurationLines)
{
    const ImportResult r = parseText(memtierImporter(), kOldText);
    ASSERT_TRUE(r.ok()) << r.error->describe("memtier");
    const ScenarioRecord *get = find(r, "memtier/GET/t-4/c-50");
    ASSERT_NE(get, nullptr);
    EXPECT_DOUBLE_EQ(*get->metric("records_per_s"), 138172.39);
    EXPECT_DOUBLE_EQ(*get->metric("latency_avg_s"), 1.31200e-3);
    EXPECT_DOUBLE_EQ(*get->metric("bytes_per_s"), 5385.33 * 1024);
    EXPECT_EQ(get->topology.threads, 4);
    EXPECT_EQ(get->topology.clients, 200);
    EXPECT_EQ(get->topology.connections, 200);
    EXPECT_TRUE(get->topology.inferred.empty());
    EXPECT_EQ(find(r, "memtier/WAIT/t-4/c-50"), nullptr);
}

TEST(MemtierImporter, SweepPointsFromFileNamesLineUp)
{
    // The same table from two files of a pipeline sweep without configuration lines.
    std::string table = kOldText.substr(kOldText.find("ALL STATS"));
    const ImportResult p1 = parseNamed(table, "/runs/memtier_t4_c50_P1.txt");
    const ImportResult p16 = parseNamed(table, "/runs/memtier_t4_c50_P16.txt");
    ASSERT_TRUE(p1.ok() && p16.ok());
    const ScenarioRecord *a = find(p1, "memtier/SET/t-4/c-50/P-1");
    const ScenarioRecord *b = find(p16, "memtier/SET/t-4/c-50/P-16");
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->topology.pipeline, 16);
    EXPECT_EQ(b->topology.inferred,
              (std::vector<std::string>{"threads", "clients", "pipeline", "connections"}));
}

TEST(MemtierImporter, JsonOutFile)
{
    EXPECT_EQ(ImporterRegistry::instance().detect(kJson)->name(), "memtier");
    const ImportResult r = parseText(memtierImporter(), kJson);
    ASSERT_TRUE(r.ok()) << r.error->describe("json");
    EXPECT_EQ(r.runs[0].timestamp, "2025-08-11T03:00:00.123Z");
    EXPECT_EQ(r.runs[0].tuning["data_size"], 100);
    const ScenarioRecord *get = find(r, "memtier/GET/t-2/c-25/P-16");
    ASSERT_NE(get, nullptr);
    EXPECT_DOUBLE_EQ(*get->metric("records_per_s"), 45000.12);
    EXPECT_DOUBLE_EQ(*get->metric("latency_avg_s"), 0.355e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_p50_s"), 0.319e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_p99_s"), 1.031e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_p999_s"), 2.079e-3);
    EXPECT_DOUBLE_EQ(*get->metric("memtier.latency_p9999_s"), 5.119e-3);
    EXPECT_DOUBLE_EQ(*get->metric("latency_max_s"), 12.799e-3);
    EXPECT_DOUBLE_EQ(*get->metric("bytes_per_s"), 4567.89 * 1024);
    EXPECT_EQ(get->topology.pipeline, 16);
    EXPECT_EQ(get->topology.connections, 50);
    EXPECT_NE(find(r, "memtier/TOTAL/t-2/c-25/P-16"), nullptr);
}

TEST(MemtierImporter, InterruptedJsonRunWarnsAndZeroRunIsFlagged)
{
    std::string json = kJson;
    json.replace(json.find("\"Finish time\": 1754881210123"), 28, "\"Finish time\": 0");
    json.replace(json.find("\"Total duration\": 10000"), 23, "\"Total duration\": -17");
    json.replace(json.find("45000.12"), 8, "0.00");
    json.replace(json.find("49500.20"), 8, "0.00");
    const ImportResult r = parseText(memtierImporter(), json);
    ASSERT_TRUE(r.ok()) << r.error->describe("json");
    EXPECT_TRUE(hasWarning(r, "negative-time", 21)); // the Runtime object
    EXPECT_TRUE(hasWarning(r, "zero-only-run", 19)); // the ALL STATS object
}

TEST(MemtierImporter, ErrorsNameLineColumnAndField)
{
    std::string text = kOldText;
    text.replace(text.find("138172.39"), 9, "138x72.39");
    const ImportResult r = parseText(memtierImporter(), text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->describe("m.txt"),
              "m.txt: line 13, column 12: field 'Ops/sec': '138x72.39' is not a number");

    const ImportResult j = parseText(memtierImporter(), "{\"ALL STATS\": {\"Gets\": {\"Ops/sec\": \"fast\"}}}");
    ASSERT_FALSE(j.ok());
    EXPECT_EQ(j.error->field, "ALL STATS/Gets/Ops/sec");
    EXPECT_EQ(j.error->line, 1);

    const ImportResult t = parseText(memtierImporter(), kOldText.substr(0, kOldText.find("Gets") + 20));
    ASSERT_TRUE(t.ok()) << t.error->describe("t");
    EXPECT_TRUE(hasWarning(t, "truncated-line", 13));
}
