// Files that interleave each command line with its output and the user's notes (how a sweep
// is saved from a terminal): every block imports, with the load factors its command states.
#include "importers/commandblocks.h"
#include "importers/importers.h"
#include "importers/redis/memtierimporter.h"
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

const ScenarioRecord *scenario(const RunRecord &run, const std::string &name)
{
    for (const ScenarioRecord &s : run.scenarios)
        if (s.name == name)
            return &s;
    return nullptr;
}

std::string names(const RunRecord &run)
{
    std::string out;
    for (const ScenarioRecord &s : run.scenarios)
        out += s.name + "\n";
    return out;
}

} // namespace

TEST(CommandBlocks, CommandLinesAreFoundBehindPromptsAndNotesAreNot)
{
    EXPECT_TRUE(commandArgs("$ redis-benchmark -c 50", {"redis-benchmark"}));
    EXPECT_TRUE(commandArgs("user@host:~$ /usr/bin/redis-benchmark -q", {"redis-benchmark"}));
    EXPECT_TRUE(commandArgs("redis-benchmark -c 50 -P 16", {"redis-benchmark"}));
    EXPECT_TRUE(commandArgs("+ sudo redis-benchmark -t set", {"redis-benchmark"}));
    EXPECT_TRUE(commandArgs("$ bin/kafka-producer-perf-test.sh --topic t", {"kafka-producer-perf-test"}));
    // A note naming the tool, without a prompt or an option, is no command.
    EXPECT_FALSE(commandArgs("redis-benchmark was slow here", {"redis-benchmark"}));
    EXPECT_FALSE(commandArgs("$ memtier_benchmark -t 4", {"redis-benchmark"}));

    const auto args = *commandArgs("$ memtier_benchmark -t 8 --clients=25 --pipeline 4 -d512 "
                                   "--key-prefix 'a b'",
                                   {"memtier_benchmark"});
    EXPECT_EQ(integerOption(args, {"-t", "--threads"}), 8);
    EXPECT_EQ(integerOption(args, {"-c", "--clients"}), 25);
    EXPECT_EQ(integerOption(args, {"--pipeline"}), 4);
    EXPECT_EQ(integerOption(args, {"-d", "--data-size"}), 512);
    EXPECT_EQ(optionValue(args, {"--key-prefix"}), "a b");
}

TEST(CommandSweep, RedisBenchmarkBlocksTakeTheirCommandLinesLoadFactors)
{
    const ImportResult r = parseData(redisBenchmarkImporter(), "sweeps/redis-benchmark-sweep.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("sweep");
    ASSERT_EQ(r.runs.size(), 1u);
    const RunRecord &run = r.runs[0];
    ASSERT_EQ(run.scenarios.size(), 5u) << names(run);

    const ScenarioRecord *p1 = scenario(run, "redis-benchmark/SET/c-50/P-1/threads-4/d-1024");
    ASSERT_NE(p1, nullptr) << names(run);
    EXPECT_EQ(p1->topology.clients, 50);
    EXPECT_EQ(p1->topology.pipeline, 1);
    EXPECT_EQ(p1->topology.threads, 4);
    EXPECT_EQ(p1->topology.recordSizeBytes, 1024);
    EXPECT_TRUE(p1->topology.inferred.empty()); // stated by the command, not guessed
    EXPECT_DOUBLE_EQ(*p1->metric("records_per_s"), 81967.21);
    EXPECT_DOUBLE_EQ(*p1->metric("latency_p99_s"), 1.047e-3);
    EXPECT_EQ(p1->line, 4);
    EXPECT_NE(p1->provenance.find("command on line 2"), std::string::npos) << p1->provenance;

    // The second block's CSV has no header row: its 8 columns are redis-benchmark's.
    const ScenarioRecord *p16 = scenario(run, "redis-benchmark/GET/c-50/P-16/threads-4/d-1024");
    ASSERT_NE(p16, nullptr) << names(run);
    EXPECT_DOUBLE_EQ(*p16->metric("records_per_s"), 781250.00);
    EXPECT_DOUBLE_EQ(*p16->metric("latency_avg_s"), 0.967e-3);
    EXPECT_DOUBLE_EQ(*p16->metric("latency_p95_s"), 1.343e-3);
    EXPECT_DOUBLE_EQ(*p16->metric("latency_max_s"), 7.551e-3);
    EXPECT_EQ(p16->topology.pipeline, 16);

    const ScenarioRecord *quiet = scenario(run, "redis-benchmark/SET/c-100/P-16/threads-4/d-4096");
    ASSERT_NE(quiet, nullptr) << names(run);
    EXPECT_EQ(quiet->topology.clients, 100);
    EXPECT_EQ(quiet->topology.recordSizeBytes, 4096);
    EXPECT_DOUBLE_EQ(*quiet->metric("latency_p50_s"), 3.351e-3);
}

TEST(CommandSweep, HeaderlessEightColumnCsvIsDetectedAndRead)
{
    PLIMSOLL_REQUIRES_CORPUS();
    // The corpus file without its header row, as `redis-benchmark --csv` output is often
    // saved after the first run of a loop.
    QFile f(QString::fromStdString(
        corpusPath("redis-benchmark/botbabai__valkey-redis-benchmark__results_redis_clients_50.csv")));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << f.fileName().toStdString();
    const std::string text = f.readAll().toStdString();
    ASSERT_EQ(text.rfind("\"test\",\"rps\"", 0), 0u);
    const std::string headerless = text.substr(text.find('\n') + 1);
    const Importer *detected = ImporterRegistry::instance().detect(headerless);
    ASSERT_NE(detected, nullptr);
    EXPECT_EQ(detected->name(), "redis-benchmark");

    const ImportResult with = parseText(redisBenchmarkImporter(), text);
    const ImportResult without = parseText(redisBenchmarkImporter(), headerless);
    ASSERT_TRUE(without.ok()) << without.error->describe("csv");
    ASSERT_EQ(without.runs[0].scenarios.size(), with.runs[0].scenarios.size());
    ASSERT_EQ(without.runs[0].scenarios.size(), 21u);
    for (size_t i = 0; i < with.runs[0].scenarios.size(); ++i)
        EXPECT_EQ(without.runs[0].scenarios[i].metrics, with.runs[0].scenarios[i].metrics)
            << with.runs[0].scenarios[i].name;
    EXPECT_DOUBLE_EQ(*without.runs[0].scenarios[2].metric("latency_p99_s"), 0.199e-3); // SET
}

TEST(CommandSweep, MemtierBlocksWithNotesBetweenThem)
{
    const ImportResult r = parseData(memtierImporter(), "sweeps/memtier-sweep.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("sweep");
    const RunRecord &run = r.runs[0];
    // SET, GET and TOTAL of each block (the zero Waits rows are left out).
    ASSERT_EQ(run.scenarios.size(), 6u) << names(run);
    const ScenarioRecord *first = scenario(run, "memtier/GET/t-4/c-50/P-1/d-512");
    ASSERT_NE(first, nullptr) << names(run);
    EXPECT_EQ(first->topology.threads, 4);
    EXPECT_EQ(first->topology.clients, 200); // 4 threads x 50 clients each
    EXPECT_EQ(first->topology.recordSizeBytes, 512);
    EXPECT_DOUBLE_EQ(*first->metric("records_per_s"), 181815.31);

    // The second block printed no "Threads" lines: its command line says 8 and pipeline 4.
    const ScenarioRecord *second = scenario(run, "memtier/TOTAL/t-8/c-50/P-4/d-512");
    ASSERT_NE(second, nullptr) << names(run);
    EXPECT_EQ(second->topology.threads, 8);
    EXPECT_EQ(second->topology.pipeline, 4);
    EXPECT_EQ(second->topology.connections, 400);
    EXPECT_TRUE(second->topology.inferred.empty());
    EXPECT_DOUBLE_EQ(*second->metric("latency_p99_s"), 9.087e-3);
    EXPECT_DOUBLE_EQ(*second->metric("bytes_per_s"), 37800.02 * 1024);
}

TEST(CommandSweep, KafkaProducerPerfOfferedLoadSweep)
{
    const ImportResult r = parseData(kafkaProducerPerfImporter(), "sweeps/kafka-producer-sweep.txt");
    ASSERT_TRUE(r.ok()) << r.error->describe("sweep");
    const RunRecord &run = r.runs[0];
    // One scenario per command; no "aggregate": the steps ran one after another.
    ASSERT_EQ(run.scenarios.size(), 3u) << names(run);
    const ScenarioRecord *slow = scenario(run, "producer/throughput-10000/record-size-512");
    ASSERT_NE(slow, nullptr) << names(run);
    EXPECT_DOUBLE_EQ(*slow->metric("producer.offered_records_per_s"), 10000);
    EXPECT_DOUBLE_EQ(*slow->metric("records_per_s"), 9998.000400);
    EXPECT_DOUBLE_EQ(*slow->metric("latency_p99_s"), 9e-3);
    EXPECT_EQ(slow->topology.recordSizeBytes, 512);
    EXPECT_DOUBLE_EQ(*slow->metric("producer.records_requested"), 100000);

    const ScenarioRecord *open = scenario(run, "producer/throughput-unlimited/record-size-512");
    ASSERT_NE(open, nullptr) << names(run);
    EXPECT_FALSE(open->metric("producer.offered_records_per_s")); // -1: no offered rate
    EXPECT_DOUBLE_EQ(*open->metric("records_per_s"), 61576.354680);
}

TEST(CommandSweep, ACommandWithoutOutputIsWarnedNotDropped)
{
    const std::string text = "$ redis-benchmark -c 10 -q\n"
                             "Could not connect to Redis at 127.0.0.1:6379: Connection refused\n"
                             "$ redis-benchmark -c 20 -q -t get\n"
                             "GET: 1000.00 requests per second\n";
    const ImportResult r = parseText(redisBenchmarkImporter(), text);
    ASSERT_TRUE(r.ok()) << r.error->describe("t");
    ASSERT_EQ(r.runs[0].scenarios.size(), 1u);
    EXPECT_EQ(r.runs[0].scenarios[0].name, "redis-benchmark/GET/c-20");
    EXPECT_TRUE(hasWarning(r, "no-output", 1));
}
