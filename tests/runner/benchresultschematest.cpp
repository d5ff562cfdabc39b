// The result document of `plimsoll bench --output json` / --result-file against its published
// schema (resources/schemas/plimsoll-bench-result.schema.json), with no services: a result
// file written by a run on librdkafka's mock cluster (tests/data) and the writer's own output,
// checked by a small walker that understands the
// schema keywords the file uses (type, required, properties, additionalProperties, items,
// const, enum, oneOf). A key the writer renames, drops or retypes fails here.
#include "runner/benchresult.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

namespace plimsoll {
namespace {

nlohmann::json loadSchema()
{
    std::ifstream in(PLIMSOLL_SOURCE_DIR "/resources/schemas/plimsoll-bench-result.schema.json");
    EXPECT_TRUE(in.good()) << "the schema file is missing";
    return nlohmann::json::parse(in);
}

bool hasType(const nlohmann::json &value, const std::string &type)
{
    if (type == "object")
        return value.is_object();
    if (type == "array")
        return value.is_array();
    if (type == "string")
        return value.is_string();
    if (type == "boolean")
        return value.is_boolean();
    if (type == "integer")
        return value.is_number_integer();
    if (type == "number")
        return value.is_number();
    if (type == "null")
        return value.is_null();
    return false;
}

// Appends "path: problem" for each way `value` breaks `schema`.
void check(const nlohmann::json &value, const nlohmann::json &schema, const std::string &path,
           std::vector<std::string> &problems)
{
    if (schema.contains("type")) {
        const auto &t = schema["type"];
        bool ok = false;
        if (t.is_string())
            ok = hasType(value, t.get<std::string>());
        else
            for (const auto &one : t)
                ok = ok || hasType(value, one.get<std::string>());
        if (!ok) {
            problems.push_back(path + ": " + value.type_name() + ", not " + t.dump());
            return;
        }
    }
    if (schema.contains("const") && value != schema["const"])
        problems.push_back(path + ": " + value.dump() + " is not " + schema["const"].dump());
    if (schema.contains("enum")) {
        bool found = false;
        for (const auto &e : schema["enum"])
            found = found || e == value;
        if (!found)
            problems.push_back(path + ": " + value.dump() + " is not one of " + schema["enum"].dump());
    }
    if (schema.contains("oneOf")) {
        int matches = 0;
        for (const auto &alternative : schema["oneOf"]) {
            std::vector<std::string> ignored;
            check(value, alternative, path, ignored);
            matches += ignored.empty() ? 1 : 0;
        }
        if (matches != 1)
            problems.push_back(path + ": matches " + std::to_string(matches) + " alternatives of oneOf");
    }
    if (value.is_object()) {
        for (const auto &key : schema.value("required", nlohmann::json::array()))
            if (!value.contains(key.get<std::string>()))
                problems.push_back(path + ": required key '" + key.get<std::string>() + "' is missing");
        const auto properties = schema.value("properties", nlohmann::json::object());
        for (const auto &[key, member] : value.items()) {
            if (properties.contains(key))
                check(member, properties[key], path + "." + key, problems);
            else if (schema.contains("additionalProperties") && schema["additionalProperties"].is_object())
                check(member, schema["additionalProperties"], path + "." + key, problems);
        }
    }
    if (value.is_array() && schema.contains("items"))
        for (std::size_t i = 0; i < value.size(); ++i)
            check(value[i], schema["items"], path + "[" + std::to_string(i) + "]", problems);
}

std::vector<std::string> problemsOf(const nlohmann::json &document)
{
    std::vector<std::string> problems;
    check(document, loadSchema(), "$", problems);
    return problems;
}

std::string joined(const std::vector<std::string> &lines)
{
    std::string out;
    for (const auto &line : lines)
        out += line + "\n";
    return out;
}

TEST(runnerBenchResultSchema, EmbeddedRoundTripResultFileMatchesTheSchema)
{
    // Written by `plimsoll bench --embedded --records 2000 --record-size 256 --no-store
    // --result-file` (librdkafka's mock cluster): the file as a user gets it.
    std::ifstream in(PLIMSOLL_TEST_DATA_DIR "/plimsoll-bench-result-embedded.json");
    ASSERT_TRUE(in.good());
    const nlohmann::json document = nlohmann::json::parse(in);
    const auto problems = problemsOf(document);
    EXPECT_TRUE(problems.empty()) << joined(problems);
    ASSERT_FALSE(document["scenarios"].empty());
    EXPECT_TRUE(document["scenarios"][0]["metrics"].contains("records_per_s"));
    EXPECT_TRUE(document["scenarios"][0]["histograms"].contains("ack_us"));
}

TEST(runnerBenchResultSchema, WriterOutputMatchesTheSchema)
{
    // The writer of today against the schema: every field BenchResult::toJson emits, including
    // the optional ones (a ramp step's saturation, an embedded target's note, a secret masked).
    BenchResult result;
    result.runId = "00000000-0000-4000-8000-000000000000";
    result.workload = "ramp";
    result.embedded = true;
    result.startedAt = "2026-01-01T00:00:00Z";
    result.tuning = {{"acks", "all"}, {"partitions", "4"}};
    result.config = {{"workload", "ramp"}, {"bootstrap_servers", "embedded"}, {"topic", "t"}, {"partitions", 4},
                     {"producer_clients", 1}, {"consumer_clients", 1}, {"records", 0}, {"record_size_bytes", 1024},
                     {"rate", "unlimited"}, {"acks", "all"}, {"compression", "none"},
                     {"client_config", {{"sasl.password", "<masked>"}}}, {"steps", {1, 2}}};
    ScenarioResult step;
    step.name = "bench/ramp/step-1";
    step.kind = "ramp-step";
    step.topology.partitions = 4;
    step.topology.acks = "all";
    step.metrics = {{"records_per_s", 1000}, {"shard_cpu_max", 0.95}, {"latency_p99_s", std::nan("")}};
    step.histograms["ack_us"] = "HISTFAAAAB";
    step.saturated = true;
    step.bottleneck = "Redis shard at 95 % CPU";
    result.scenarios.push_back(step);
    const auto problems = problemsOf(nlohmann::json::parse(result.toJson().dump(2)));
    EXPECT_TRUE(problems.empty()) << joined(problems);
}

TEST(runnerBenchResultSchema, InterruptedResultMatchesTheSchema)
{
    // A run stopped by the user: its status, flag and in-flight counts are part of the format.
    BenchResult result;
    result.runId = "00000000-0000-4000-8000-000000000001";
    result.workload = "roundtrip";
    result.interrupted = true;
    result.partial = true;
    result.exitCode = kExitInterrupted;
    result.inFlightUnacknowledged = 3;
    result.inFlightUnconsumed = 41;
    result.config = {{"workload", "roundtrip"}, {"bootstrap_servers", "embedded"}, {"topic", "t"}, {"partitions", 1},
                     {"producer_clients", 1}, {"consumer_clients", 1}, {"records", 0}, {"record_size_bytes", 1024},
                     {"rate", 2000}, {"acks", "all"}, {"compression", "none"}, {"client_config", nlohmann::json::object()}};
    ScenarioResult s;
    s.name = "bench/roundtrip";
    s.kind = "benchmark";
    s.metrics = {{"records_per_s", 2000}, {"roundtrip.in_flight", 41}};
    result.scenarios.push_back(s);
    const nlohmann::json document = nlohmann::json::parse(result.toJson().dump(2));
    const auto problems = problemsOf(document);
    EXPECT_TRUE(problems.empty()) << joined(problems);
    EXPECT_EQ(document["status"], "interrupted");
    EXPECT_EQ(document["in_flight"]["acknowledged_not_consumed"], 41);
    EXPECT_EQ(document["in_flight"]["sent_not_acknowledged"], 3);

    // A failure before the stop stays a failure.
    result.exitCode = 1;
    result.errors = {"3 records were not delivered"};
    EXPECT_EQ(result.toJson()["status"], "failed");
}

TEST(runnerBenchResultSchema, CheckerRejectsWhatTheSchemaForbids)
{
    // The checker must be able to fail, or the test above proves nothing.
    BenchResult result;
    result.runId = "r";
    result.workload = "roundtrip";
    ScenarioResult s;
    s.name = "bench/roundtrip";
    s.kind = "benchmark";
    s.metrics["records_per_s"] = 1;
    result.scenarios.push_back(s);
    nlohmann::json document = result.toJson();
    document["config"] = {{"workload", "roundtrip"}};
    ASSERT_FALSE(problemsOf(document).empty()) << "config without its required keys passed";

    document = result.toJson();
    document.erase("run_id");
    document["scenarios"][0]["metrics"]["records_per_s"] = "fast";
    document["status"] = "maybe";
    const auto problems = joined(problemsOf(document));
    EXPECT_NE(problems.find("'run_id' is missing"), std::string::npos) << problems;
    EXPECT_NE(problems.find("$.scenarios[0].metrics.records_per_s"), std::string::npos) << problems;
    EXPECT_NE(problems.find("$.status"), std::string::npos) << problems;
}

} // namespace
} // namespace plimsoll
