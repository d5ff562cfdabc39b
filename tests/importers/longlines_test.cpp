// Long lines in tools' text output: a real redis-benchmark row of 5.5 KB (a custom command's
// test is named by its whole command line, here a Lua script) imports; a line past 1 MiB is
// refused with its line named, whatever the format.
#include "importers/importer.h"
#include "importers/linebounds.h"
#include "importertest.h"

#include <gtest/gtest.h>

#include <map>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

const char *kSample = "redis-benchmark/eval-long-script.csv";

size_t longestLine(const std::string &text)
{
    size_t longest = 0, start = 0;
    while (start <= text.size()) {
        const size_t end = std::min(text.find('\n', start), text.size());
        longest = std::max(longest, end - start);
        start = end + 1;
    }
    return longest;
}

} // namespace

TEST(LongLines, ARedisBenchmarkRowNamingALongScriptImports)
{
    const std::string text = readData(kSample);
    ASSERT_FALSE(text.empty()) << dataPath(kSample);
    ASSERT_GT(longestLine(text), 4096u); // the line the old 4 KiB bound refused

    const Importer *importer = ImporterRegistry::instance().detect(text);
    ASSERT_NE(importer, nullptr);
    EXPECT_EQ(importer->name(), "redis-benchmark");
    const ImportResult r = parseText(*importer, text);
    ASSERT_TRUE(r.ok()) << r.error->describe(kSample);
    ASSERT_EQ(r.runs.size(), 1u);
    ASSERT_EQ(r.runs[0].scenarios.size(), 1u);
    const ScenarioRecord &eval = r.runs[0].scenarios[0];
    // The test's name is the command whole: its start and its end are both there.
    EXPECT_TRUE(
        eval.name.starts_with("redis-benchmark/eval local n = 0 redis.call('SET', 'bench:key:1'"))
        << eval.name.substr(0, 80);
    EXPECT_TRUE(eval.name.ends_with("n = n + 1 return n 0 x"))
        << eval.name.substr(eval.name.size() - 80);
    EXPECT_GT(eval.name.size(), 5442u);
    EXPECT_DOUBLE_EQ(*eval.metric("records_per_s"), 6622.52);
    EXPECT_DOUBLE_EQ(*eval.metric("latency_p99_s"), 9.055e-3);
    EXPECT_DOUBLE_EQ(*eval.metric("latency_max_s"), 16.207e-3);
}

TEST(LongLines, ALineJustUnderOneMebibyteStillImports)
{
    // The sample's script repeated inside its quoted name until the row is 1 MiB exactly.
    std::string text = readData(kSample);
    ASSERT_FALSE(text.empty());
    const size_t at = text.find(" return n 0 x\"");
    ASSERT_NE(at, std::string::npos);
    const size_t rowLength = longestLine(text);
    text.insert(at, std::string(kMaxToolLineBytes - rowLength, 'n'));
    ASSERT_EQ(longestLine(text), kMaxToolLineBytes);

    const Importer *importer = ImporterRegistry::instance().byName("redis-benchmark");
    ASSERT_NE(importer, nullptr);
    const ImportResult r = parseText(*importer, text);
    ASSERT_TRUE(r.ok()) << r.error->describe(kSample);
    EXPECT_DOUBLE_EQ(*r.runs.at(0).scenarios.at(0).metric("records_per_s"), 6622.52);
}

TEST(LongLines, ALinePastOneMebibyteIsRefusedNamingTheLine)
{
    std::string text = readData(kSample);
    ASSERT_FALSE(text.empty());
    const size_t at = text.find(" return n 0 x\"");
    ASSERT_NE(at, std::string::npos);
    text.insert(at, std::string(kMaxToolLineBytes + 1 - longestLine(text), 'n'));

    const ImportResult r = parseText(*ImporterRegistry::instance().byName("redis-benchmark"), text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 2);
    const std::string message = r.error->describe("results.csv");
    EXPECT_NE(message.find("results.csv: line 2"), std::string::npos) << message;
    EXPECT_NE(message.find("is longer than 1 MiB (1048577 bytes); redis-benchmark output has no "
                           "such lines"),
              std::string::npos)
        << message;
}

TEST(LongLines, EveryToolTextFormatRefusesALinePastOneMebibyte)
{
    // A harness that logged a megabyte on one line before the tool's output: refused at that
    // line, not read as the tool's.
    const std::string huge(kMaxToolLineBytes + 10, 'x');
    const std::map<std::string, std::string> outputs = {
        {"kafka-producer-perf",
         "1000 records sent, 99.9 records/sec (0.10 MB/sec), 2.0 ms avg latency, 9.0 ms max "
         "latency, 2 ms 50th, 5 ms 95th, 8 ms 99th, 9 ms 99.9th.\n"},
        {"redis-benchmark", "SET: 100000.00 requests per second\n"},
        {"rdkafka-performance",
         "% 1000 messages produced (1024000 bytes), 1000 delivered (offset 0, 0 failed) in 100ms: "
         "10000 msgs/s and 10.24 MB/s, 0 produce failures, 0 in queue, no compression\n"},
    };
    for (const auto &[format, output] : outputs) {
        const Importer *importer = ImporterRegistry::instance().byName(format);
        ASSERT_NE(importer, nullptr) << format;
        ASSERT_TRUE(parseText(*importer, output).ok()) << format; // the output alone imports
        const ImportResult r = parseText(*importer, "# harness log\n" + huge + "\n" + output);
        ASSERT_FALSE(r.ok()) << format;
        EXPECT_EQ(r.error->line, 2) << format;
        EXPECT_NE(r.error->message.find("is longer than 1 MiB"), std::string::npos)
            << format << ": " << r.error->message;
    }
}
