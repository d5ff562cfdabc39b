#include "importers/importers.h"
#include "export/trendrecordwriter.h"

#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

const Importer &kImporter = trendRecordsImporter();

// A valid record; tests patch one field at a time.
nlohmann::ordered_json record(const std::string &runKey = "run-1",
                              const std::string &scenario = "pipeline/produce/step-1")
{
    nlohmann::ordered_json j;
    j["format"] = "plimsoll-trend/1";
    j["run_key"] = runKey;
    j["timestamp"] = "2026-03-01T02:00:00Z";
    j["commit"] = "abc1234";
    j["tool"] = "korvet-bench";
    j["scenario"] = scenario;
    j["topology"] = {{"brokers", 1}, {"shards", 16}};
    j["metrics"] = {{"records_per_s", 100000}, {"latency_p99_s", 0.004}};
    return j;
}

std::string lines(std::initializer_list<nlohmann::ordered_json> records)
{
    std::string out;
    for (const auto &r : records)
        out += r.dump() + "\n";
    return out;
}

} // namespace

TEST(TrendRecordsImporter, LinesSharingRunKeyFormOneRunInOrderOfFirstAppearance)
{
    const ImportResult r = parseData(kImporter, "trend-records.jsonl");
    ASSERT_TRUE(r.ok()) << r.error->describe("trend-records.jsonl");
    ASSERT_EQ(r.runs.size(), 2u);

    const RunRecord &first = r.runs[0];
    EXPECT_EQ(first.runKey, "gh-run-1001");
    EXPECT_EQ(first.line, 2);
    EXPECT_EQ(first.timestamp, "2026-03-01T02:00:00Z");
    EXPECT_EQ(first.commit, "abc1234");
    EXPECT_EQ(first.imageDigest, "sha256:9f2cabc1234");
    EXPECT_EQ(first.tool, "korvet-bench");
    EXPECT_EQ(first.toolVersion, "0.5.0");
    EXPECT_EQ(first.target, "korvet");
    EXPECT_EQ(first.environment["runner"], "c7i.4xlarge");
    EXPECT_EQ(first.tuning["linger_ms"], 5);
    EXPECT_FALSE(first.sample);
    EXPECT_EQ(first.provenance, "korvet bench pipeline, daily ramp");
    ASSERT_EQ(first.scenarios.size(), 2u);
    EXPECT_EQ(first.scenarios[0].name, "pipeline/produce/step-1");
    EXPECT_EQ(first.scenarios[0].line, 2);
    EXPECT_EQ(first.scenarios[1].name, "pipeline/produce/step-16");
    EXPECT_EQ(first.scenarios[1].line, 5);
    EXPECT_EQ(first.scenarios[1].kind, "ramp-step");
    EXPECT_EQ(first.scenarios[1].topology.producers, 16);
    EXPECT_EQ(first.scenarios[1].topology.shards, 16);
    EXPECT_EQ(first.scenarios[1].topology.inferred, std::vector<std::string>{"producers"});
    EXPECT_DOUBLE_EQ(*first.scenarios[1].metric("records_per_s"), 642352);
    // Metrics keep the order the line gives them.
    ASSERT_EQ(first.scenarios[0].metrics.size(), 3u);
    EXPECT_EQ(first.scenarios[0].metrics[0].name, "records_per_s");
    EXPECT_EQ(first.scenarios[0].metrics[2].name, "kafka.batch-size-avg");

    const RunRecord &second = r.runs[1];
    EXPECT_EQ(second.runKey, "gh-run-1002");
    EXPECT_EQ(second.timestamp, "2026-03-02T01:00:00Z");
    ASSERT_EQ(second.scenarios.size(), 2u);
    EXPECT_EQ(second.scenarios[1].line, 6);
    EXPECT_DOUBLE_EQ(*second.scenarios[0].metric("records_per_s"), 99500.5);

    // An undotted unknown metric and an unknown field warn; the dotted tool metric is silent.
    EXPECT_TRUE(hasWarning(r, "unknown-metric", 5));
    EXPECT_TRUE(hasWarning(r, "ignored-field", 5));
    EXPECT_EQ(r.warnings.size(), 2u);
}

struct BrokenFile
{
    const char *file;
    int64_t line;
    const char *field;
    const char *messagePart;
};

class TrendBrokenFile : public ::testing::TestWithParam<BrokenFile>
{
};

TEST_P(TrendBrokenFile, NamesLineAndField)
{
    const BrokenFile c = GetParam();
    const ImportResult r = parseData(kImporter, c.file);
    ASSERT_FALSE(r.ok()) << c.file;
    EXPECT_TRUE(r.runs.empty());
    EXPECT_EQ(r.error->line, c.line) << r.error->describe(c.file);
    EXPECT_EQ(r.error->field, c.field) << r.error->describe(c.file);
    EXPECT_NE(r.error->message.find(c.messagePart), std::string::npos) << r.error->message;
}

INSTANTIATE_TEST_SUITE_P(
    Files, TrendBrokenFile,
    ::testing::Values(
        BrokenFile{"trend-bad-json.jsonl", 2, "", "is not valid JSON"},
        BrokenFile{"trend-disagree.jsonl", 2, "commit",
                   "line 1 gave run 'gh-run-2001' \"fed9876\""},
        BrokenFile{"trend-unknown-topology.jsonl", 2, "topology/nodes",
                   "is not a known factor (known: brokers, shards"},
        BrokenFile{"trend-format-v2.jsonl", 1, "format", "Plimsoll reads plimsoll-trend/1"}));

struct BrokenLine
{
    const char *name;
    std::function<void(nlohmann::ordered_json &)> patch;
    const char *field;
    const char *messagePart;
};

class TrendBrokenLine : public ::testing::TestWithParam<BrokenLine>
{
};

// The broken record is the third line, after a comment and a good record.
TEST_P(TrendBrokenLine, NamesLineAndField)
{
    const BrokenLine c = GetParam();
    nlohmann::ordered_json broken = record("run-1", "pipeline/produce/step-2");
    c.patch(broken);
    const std::string text = "# header\n" + lines({record(), broken});
    const ImportResult r = parseText(kImporter, text);
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(r.error->line, 3) << r.error->describe(c.name);
    EXPECT_EQ(r.error->field, c.field) << r.error->describe(c.name);
    EXPECT_NE(r.error->message.find(c.messagePart), std::string::npos) << r.error->message;
}

INSTANTIATE_TEST_SUITE_P(
    Fields, TrendBrokenLine,
    ::testing::Values(
        BrokenLine{"missing-metrics", [](auto &j) { j.erase("metrics"); }, "metrics", "is missing"},
        BrokenLine{"missing-scenario", [](auto &j) { j.erase("scenario"); }, "scenario",
                   "is missing"},
        BrokenLine{"missing-format", [](auto &j) { j.erase("format"); }, "format", "is missing"},
        BrokenLine{"string-metric", [](auto &j) { j["metrics"]["records_per_s"] = "fast"; },
                   "metrics/records_per_s", "is a string, not a number"},
        BrokenLine{"bool-metric", [](auto &j) { j["metrics"]["errors"] = true; }, "metrics/errors",
                   "not a number"},
        BrokenLine{"bad-timestamp", [](auto &j) { j["timestamp"] = "last tuesday"; }, "timestamp",
                   "is not an ISO-8601 time"},
        BrokenLine{"number-timestamp", [](auto &j) { j["timestamp"] = 1711819800; }, "timestamp",
                   "is a number"},
        BrokenLine{"fractional-factor", [](auto &j) { j["topology"]["brokers"] = 1.5; },
                   "topology/brokers", "not an integer"},
        BrokenLine{"negative-factor", [](auto &j) { j["topology"]["shards"] = -2; },
                   "topology/shards", "negative"},
        BrokenLine{"unknown-factor", [](auto &j) { j["topology"]["nodes"] = 3; },
                   "topology/nodes", "not a known factor"},
        BrokenLine{"empty-run-key", [](auto &j) { j["run_key"] = ""; }, "run_key", "is empty"},
        BrokenLine{"tuning-array", [](auto &j) { j["tuning"] = {{"batch", {1, 2}}}; },
                   "tuning/batch", "is an array"},
        BrokenLine{"sample-string", [](auto &j) { j["sample"] = "yes"; }, "sample",
                   "not true or false"},
        BrokenLine{"other-timestamp", [](auto &j) { j["timestamp"] = "2026-03-01T03:00:00Z"; },
                   "timestamp", "all lines of a run must agree"},
        BrokenLine{"dropped-commit", [](auto &j) { j.erase("commit"); }, "commit",
                   "is absent"},
        BrokenLine{"other-tuning", [](auto &j) { j["tuning"] = {{"acks", "1"}}; }, "tuning",
                   "must agree"},
        BrokenLine{"repeated-scenario",
                   [](auto &j) { j["scenario"] = "pipeline/produce/step-1"; }, "scenario",
                   "appears twice in run 'run-1' (first on line 2)"}),
    [](const auto &info) {
        std::string name = info.param.name;
        std::replace(name.begin(), name.end(), '-', '_');
        return name;
    });

TEST(TrendRecordsImporter, SameInstantWithAnotherOffsetAgrees)
{
    auto second = record("run-1", "pipeline/produce/step-2");
    second["timestamp"] = "2026-03-01T03:00:00+01:00";
    const ImportResult r = parseText(kImporter, lines({record(), second}));
    ASSERT_TRUE(r.ok()) << r.error->describe("");
    EXPECT_EQ(r.runs.at(0).scenarios.size(), 2u);
}

TEST(TrendRecordsImporter, InvalidJsonNamesLineAndColumn)
{
    const std::string text = lines({record()}) + "{\"format\": \"plimsoll-trend/1\", oops}\n";
    const ImportResult r = parseText(kImporter, text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 2);
    EXPECT_NE(r.error->message.find("column 32"), std::string::npos) << r.error->message;
    EXPECT_EQ(r.error->offset, int64_t(lines({record()}).size()) + 31);
}

TEST(TrendRecordsImporter, CommentsBlankLinesCrlfAndBomAreAccepted)
{
    std::string text = "\xEF\xBB\xBF# exported by plimsoll\r\n\r\n   \r\n" + record().dump() +
                       "\r\n# trailing comment\r\n";
    const ImportResult r = parseText(kImporter, text);
    ASSERT_TRUE(r.ok()) << r.error->describe("");
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_EQ(r.runs[0].line, 4);
}

TEST(TrendRecordsImporter, UnknownTopLevelFieldWarnsOnce)
{
    auto a = record();
    a["nightly_note"] = "x";
    auto b = record("run-1", "pipeline/produce/step-2");
    b["nightly_note"] = "y";
    const ImportResult r = parseText(kImporter, lines({a, b}));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].kind, "ignored-field");
    EXPECT_EQ(r.warnings[0].line, 1);
}

TEST(TrendRecordsImporter, ProgressAtLeastEvery64KiBAndCancel)
{
    std::string text;
    for (int i = 0; i < 3000; ++i) {
        text += record("run-" + std::to_string(i / 10), "step-" + std::to_string(i % 10)).dump();
        text += "\n";
    }
    ASSERT_GT(text.size(), 4u * 65536u);

    std::vector<int64_t> seen;
    const ImportResult r = parseText(kImporter, text, [&](int64_t done, int64_t total) {
        EXPECT_EQ(total, int64_t(text.size()));
        seen.push_back(done);
        return true;
    });
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.runs.size(), 300u);
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back(), int64_t(text.size()));
    int64_t previous = 0;
    for (int64_t done : seen) {
        EXPECT_LE(done - previous, 65536 + 1024); // one line past the step at most
        previous = done;
    }

    int calls = 0;
    const ImportResult cancelled = parseText(kImporter, text, [&](int64_t, int64_t) {
        return ++calls < 2;
    });
    ASSERT_FALSE(cancelled.ok());
    EXPECT_NE(cancelled.error->message.find("cancelled"), std::string::npos);
    EXPECT_TRUE(cancelled.runs.empty());
}

TEST(TrendRecordsImporter, SniffsFormatTag)
{
    EXPECT_GE(kImporter.sniff(readData("trend-records.jsonl")), 90);
    EXPECT_GT(kImporter.sniff(readData("trend-format-v2.jsonl")), 0);
    EXPECT_EQ(kImporter.sniff(readData("korvet-result.json")), 0);
    EXPECT_EQ(kImporter.sniff("# only a comment\n"), 0);
}

TEST(TrendRecordWriter, RoundTripGivesAnEqualRun)
{
    RunRecord run;
    run.runKey = "plimsoll-bench:2026-03-30T17:30:00.125Z";
    run.timestamp = "2026-03-30T17:30:00.125Z";
    run.commit = "abc1234";
    run.imageDigest = "sha256:0123";
    run.tool = "plimsoll";
    run.toolVersion = "0.1.0";
    run.target = "kafka";
    run.environment = {{"host", "ci"}, {"cores", 2}, {"nested", {{"a", {1, 2}}}}};
    run.tuning = {{"acks", "all"}, {"linger_ms", 5}, {"idempotent", true}, {"ratio", 0.1}};
    run.sample = true;
    run.provenance = "plimsoll bench, embedded target";
    ScenarioRecord a;
    a.name = "produce/step-4";
    a.kind = "ramp-step";
    a.provenance = run.provenance;
    a.topology.brokers = 1;
    a.topology.partitions = 3;
    a.topology.batchBytes = 16384;
    a.topology.compression = "zstd";
    a.topology.acks = "all";
    a.topology.inferred = {"partitions", "brokers"};
    // Unsorted names and awkward doubles must come back exactly.
    a.metrics = {{"records_per_s", 123456.789}, {"latency_p99_s", 0.1 + 0.2}, {"errors", 0},
                 {"kafka.request-latency-avg", 1e-9}};
    ScenarioRecord b;
    b.name = "consume/step-4";
    b.metrics = {{"bytes_per_s", 4.0e9}};
    run.scenarios = {a, b};

    const std::string text = trendRecordLines(run);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
    const ImportResult r = parseText(kImporter, text);
    ASSERT_TRUE(r.ok()) << r.error->describe("written");
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_EQ(r.runs[0], run);
    EXPECT_TRUE(r.warnings.empty());
}

TEST(TrendRecordWriter, RewritingAnImportedFileReadsBackTheSame)
{
    const ImportResult first = parseData(kImporter, "trend-records.jsonl");
    ASSERT_TRUE(first.ok());
    std::string text;
    for (const RunRecord &run : first.runs)
        text += trendRecordLines(run);
    const ImportResult second = parseText(kImporter, text);
    ASSERT_TRUE(second.ok()) << second.error->describe("rewritten");
    EXPECT_EQ(second.runs, first.runs);
}

TEST(TrendRecordWriter, RefusesNonFiniteMetrics)
{
    RunRecord run;
    run.runKey = "k";
    run.timestamp = "2026-03-30T17:30:00Z";
    ScenarioRecord s;
    s.name = "x";
    s.metrics = {{"records_per_s", std::numeric_limits<double>::quiet_NaN()}};
    run.scenarios = {s};
    EXPECT_THROW(trendRecordLines(run), std::invalid_argument);
}
