#include "model/formats/benchrunrecord.h"

#include <cmath>

namespace plimsoll {

namespace {

using nlohmann::json;

const json &member(const json &object, const std::string &pointer, const char *key, json::value_t type,
                   const char *typeName)
{
    const auto it = object.find(key);
    if (it == object.end())
        throw BenchDocumentError(pointer + "/" + key, std::string("required field '") + key + "' is missing");
    const bool numberOk = type == json::value_t::number_float && it->is_number();
    if (it->type() != type && !numberOk)
        throw BenchDocumentError(pointer + "/" + key,
                                 std::string("field '") + key + "' is " + it->type_name() + ", not " + typeName);
    return *it;
}

std::string text(const json &object, const std::string &pointer, const char *key)
{
    return member(object, pointer, key, json::value_t::string, "a string").get<std::string>();
}

bool flag(const json &object, const std::string &pointer, const char *key)
{
    return member(object, pointer, key, json::value_t::boolean, "a boolean").get<bool>();
}

const json &object(const json &parent, const std::string &pointer, const char *key)
{
    return member(parent, pointer, key, json::value_t::object, "an object");
}

} // namespace

RunRecord benchRunRecordFromJson(const json &doc, const std::string &toolVersion)
{
    if (!doc.is_object())
        throw BenchDocumentError("", std::string("the document is ") + doc.type_name() + ", not an object");
    if (doc.value("format", std::string()) != "plimsoll-bench/1")
        throw BenchDocumentError("/format", "field 'format' is not \"plimsoll-bench/1\"");
    const std::string runId = text(doc, "", "run_id");
    const std::string workload = text(doc, "", "workload");
    const std::string startedAt = text(doc, "", "started_at");
    const json &target = object(doc, "", "target");
    const bool embedded = flag(target, "/target", "embedded");
    const bool partial = flag(doc, "", "partial");

    RunRecord run;
    run.runKey = "plimsoll-bench-" + runId;
    run.timestamp = normalizeTimestamp(startedAt).value_or(startedAt);
    run.tool = "plimsoll-bench";
    run.toolVersion = toolVersion;
    run.target = embedded ? "embedded-mock" : "kafka-compatible";
    run.environment = {{"bootstrap_servers", text(target, "/target", "bootstrap_servers")},
                       {"workload", workload},
                       {"topic", text(object(doc, "", "topic"), "/topic", "name")}};
    if (embedded)
        run.environment["embedded"] = true;
    run.tuning = json::object();
    for (const auto &[key, value] : object(doc, "", "tuning").items()) {
        if (!value.is_string())
            throw BenchDocumentError("/tuning/" + key, "tuning value '" + key + "' is not a string");
        run.tuning[key] = value;
    }
    if (partial) {
        run.tuning["partial"] = true;
        run.environment["partial"] = true;
    }
    run.provenance = "plimsoll bench " + workload + " run " + runId + (partial ? " (partial: stopped early)" : "");

    const json &scenarios = member(doc, "", "scenarios", json::value_t::array, "an array");
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
        const std::string at = "/scenarios/" + std::to_string(i);
        const json &s = scenarios[i];
        if (!s.is_object())
            throw BenchDocumentError(at, "scenario is " + std::string(s.type_name()) + ", not an object");
        ScenarioRecord scenario;
        scenario.name = text(s, at, "name");
        scenario.kind = text(s, at, "kind");
        try {
            scenario.topology = Topology::fromJson(object(s, at, "topology"));
        } catch (const std::invalid_argument &e) {
            throw BenchDocumentError(at + "/topology", e.what());
        }
        // The writer leaves out values that are not finite, so every metric here is a number.
        for (const auto &[name, value] : object(s, at, "metrics").items()) {
            if (!value.is_number())
                throw BenchDocumentError(at + "/metrics/" + name, "metric '" + name + "' is not a number");
            if (const double v = value.get<double>(); std::isfinite(v))
                scenario.metrics.push_back({name, v});
        }
        scenario.provenance = run.provenance;
        run.scenarios.push_back(std::move(scenario));
    }
    return run;
}

} // namespace plimsoll
