// Korvet's BenchmarkResult JSON (korvet-server integration-test scaffolding): one run per file,
// one scenario per ScenarioResult. Latencies arrive in milliseconds and throughput in MB/s
// (MB = 1024 * 1024 bytes, as the Korvet benchmark page counts); both leave here in SI.

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/jsonlocator.h"
#include "importers/jsonnesting.h"
#include "importers/textsource.h"

#include <QIODevice>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

namespace plimsoll {

namespace {

using nlohmann::json;

// A BenchmarkResult is a few kilobytes; this bound only keeps a mistaken multi-gigabyte
// file from being read whole into memory.
constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"korvet-result", "1",
                          "Korvet BenchmarkResult JSON (korvetVersion, gitCommit, environment, config, scenarios[]): one run, one scenario per ScenarioResult",
                          "a JSON object whose first 64 KiB hold a \"korvetVersion\" key"},
                         "a BenchmarkResult", kMaxBytes, TextInput::Whole};

struct MetricMapping
{
    const char *key;
    const char *metric;
    double scale; // multiplies the source value into SI
    bool throughput;
};

constexpr double kMiB = 1024.0 * 1024.0;

constexpr MetricMapping kMetrics[] = {
    {"throughputMsgPerSec", "records_per_s", 1.0, true},
    {"throughputMBPerSec", "bytes_per_s", kMiB, true},
    {"avgLatencyMs", "latency_avg_s", 1e-3, false},
    {"p50LatencyMs", "latency_p50_s", 1e-3, false},
    {"p95LatencyMs", "latency_p95_s", 1e-3, false},
    {"p99LatencyMs", "latency_p99_s", 1e-3, false},
    {"p999LatencyMs", "latency_p999_s", 1e-3, false},
    {"maxLatencyMs", "latency_max_s", 1e-3, false},
    {"errors", "errors", 1.0, false},
};

// BenchmarkConfig keys that describe the system's shape rather than the benchmark's tuning.
const std::map<std::string, std::string> kTopologyKeys = {
    {"partitions", "partitions"},
    {"recordSizeBytes", "record_size_bytes"},
    {"producers", "producers"},
    {"consumers", "consumers"},
};

const std::vector<std::string> kRunKeys = {"korvetVersion", "timestamp", "gitCommit",
                                           "environment",   "config",    "scenarios"};

struct Failure
{
    ImportError error;
};

bool hasZoneDesignator(const std::string &text)
{
    const auto t = text.find_first_of("Tt ");
    if (t == std::string::npos)
        return false;
    const std::string time = text.substr(t + 1);
    return time.find_first_of("Zz+-") != std::string::npos;
}

// Turns a config value into a tuning-contract scalar: arrays become "100,500,1000" so two
// runs' contracts compare as plain values (the trend-record schema admits scalars only).
std::optional<json> tuningScalar(const json &v)
{
    if (v.is_string() || v.is_number() || v.is_boolean())
        return v;
    if (v.is_array()) {
        std::string joined;
        for (const auto &item : v) {
            if (!joined.empty())
                joined += ',';
            joined += item.is_string() ? item.get<std::string>() : item.dump();
        }
        return json(joined);
    }
    return std::nullopt;
}

void flattenTuning(const json &object, const std::string &prefix, json &out)
{
    for (const auto &[key, value] : object.items()) {
        if (value.is_object())
            flattenTuning(value, prefix + key + ".", out);
        else if (auto scalar = tuningScalar(value))
            out[prefix + key] = *scalar;
    }
}

class ResultReader
{
public:
    ResultReader(const std::string &text, std::vector<ImportWarning> &warnings)
        : m_text(text), m_warnings(warnings)
    {
    }

    RunRecord read(const json &doc);

private:
    const JsonLocator &locator()
    {
        if (!m_locator)
            m_locator.emplace(m_text);
        return *m_locator;
    }

    [[noreturn]] void fail(const std::string &pointer, const std::string &message)
    {
        const JsonPosition pos = locator().locate(pointer);
        ImportError e;
        e.message = message;
        e.line = pos.line;
        e.offset = pos.offset;
        e.field = JsonLocator::fieldName(pointer);
        throw Failure{e};
    }

    void warn(const std::string &kind, const std::string &pointer, const std::string &detail)
    {
        m_warnings.push_back({kind, locator().locate(pointer).line, detail});
    }

    std::string optionalString(const json &doc, const char *key)
    {
        const auto it = doc.find(key);
        if (it == doc.end() || it->is_null())
            return {};
        if (!it->is_string())
            fail(JsonLocator::pointer({key}), "is " + jsonTypePhrase(*it) + ", not a string");
        return it->get<std::string>();
    }

    Topology readTopology(const json &config, json &tuning);
    ScenarioRecord readScenario(const json &s, const std::string &pointer, const Topology &topo);

    const std::string &m_text;
    std::vector<ImportWarning> &m_warnings;
    std::optional<JsonLocator> m_locator;
};

RunRecord ResultReader::read(const json &doc)
{
    if (!doc.is_object())
        fail("", "is " + jsonTypePhrase(doc) + ", not a BenchmarkResult object");

    RunRecord run;
    run.line = 1;
    run.tool = "korvet-benchmark";
    run.target = "korvet";
    run.toolVersion = optionalString(doc, "korvetVersion");
    run.commit = optionalString(doc, "gitCommit");

    const auto ts = doc.find("timestamp");
    if (ts == doc.end() || ts->is_null())
        fail("/timestamp", "is missing; a BenchmarkResult names the time of its run");
    if (!ts->is_string())
        fail("/timestamp", "is " + jsonTypePhrase(*ts) + ", not an ISO-8601 time");
    const auto normalized = normalizeTimestamp(ts->get<std::string>());
    if (!normalized)
        fail("/timestamp", "'" + ts->get<std::string>() + "' is not an ISO-8601 time");
    if (!hasZoneDesignator(ts->get<std::string>()))
        warn("timestamp-without-zone", "/timestamp",
             "timestamp '" + ts->get<std::string>() + "' has no zone designator; read as UTC");
    run.timestamp = *normalized;
    run.runKey = "korvet-result:" + (run.commit.empty() ? std::string("unknown") : run.commit) +
                 ":" + run.timestamp;

    if (const auto env = doc.find("environment"); env != doc.end() && !env->is_null()) {
        if (!env->is_object())
            fail("/environment", "is " + jsonTypePhrase(*env) + ", not an object");
        run.environment = *env;
    }

    Topology topology;
    if (const auto config = doc.find("config"); config != doc.end() && !config->is_null()) {
        if (!config->is_object())
            fail("/config", "is " + jsonTypePhrase(*config) + ", not an object");
        topology = readTopology(*config, run.tuning);
    }

    for (const auto &[key, value] : doc.items()) {
        if (std::find(kRunKeys.begin(), kRunKeys.end(), key) == kRunKeys.end())
            warn("ignored-field", JsonLocator::pointer({key}),
                 "field '" + key + "' is not a BenchmarkResult field Plimsoll reads; ignored");
    }

    const auto scenarios = doc.find("scenarios");
    if (scenarios == doc.end())
        fail("/scenarios", "is missing; a BenchmarkResult lists its scenarios");
    if (!scenarios->is_array())
        fail("/scenarios", "is " + jsonTypePhrase(*scenarios) + ", not an array of scenarios");
    if (scenarios->empty())
        warn("no-scenarios", "/scenarios", "the result lists no scenarios");

    for (size_t i = 0; i < scenarios->size(); ++i)
        run.scenarios.push_back(
            readScenario((*scenarios)[i], JsonLocator::child("/scenarios", i), topology));

    // Repeated (type, batch) pairs are iterations of one scenario: number all of them, so
    // that the first is not mistaken for a different measurement than the others.
    std::map<std::string, int> total;
    for (const auto &s : run.scenarios)
        ++total[s.name];
    std::map<std::string, int> seen;
    for (auto &s : run.scenarios) {
        if (total[s.name] > 1) {
            const int n = ++seen[s.name];
            s.name += "/iteration-" + std::to_string(n);
        }
    }
    return run;
}

Topology ResultReader::readTopology(const json &config, json &tuning)
{
    Topology topology;
    json rest = json::object();
    for (const auto &[key, value] : config.items()) {
        const auto mapped = kTopologyKeys.find(key);
        if (mapped == kTopologyKeys.end()) {
            rest[key] = value;
            continue;
        }
        const std::string pointer = JsonLocator::pointer({"config", key});
        const double d = value.is_number() ? value.get<double>() : 0.5;
        if (!value.is_number() || std::trunc(d) != d || std::fabs(d) > 9.0e15)
            fail(pointer, value.is_number() ? "is not a whole number"
                                            : "is " + jsonTypePhrase(value) + ", not a number");
        if (d < 0)
            fail(pointer, "is negative");
        topology.setFactor(mapped->second, int64_t(d));
    }
    flattenTuning(rest, "", tuning);
    return topology;
}

ScenarioRecord ResultReader::readScenario(const json &s, const std::string &pointer,
                                          const Topology &topology)
{
    if (!s.is_object())
        fail(pointer, "is " + jsonTypePhrase(s) + ", not a scenario object");

    ScenarioRecord scenario;
    scenario.kind = "benchmark";
    scenario.topology = topology;
    scenario.line = locator().locate(pointer).line;

    const auto type = s.find("type");
    const std::string typeField = JsonLocator::child(pointer, "type");
    if (type == s.end())
        fail(typeField, "is missing; each scenario names its type");
    if (!type->is_string())
        fail(typeField, "is " + jsonTypePhrase(*type) + ", not a scenario type name");
    if (type->get_ref<const std::string &>().empty())
        fail(typeField, "is empty");
    std::string name = type->get<std::string>();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });

    // batchSize counts messages, not bytes: it names the scenario and stays out of batch_bytes.
    if (const auto batch = s.find("batchSize"); batch != s.end() && !batch->is_null()) {
        if (!batch->is_number_integer() || batch->get<int64_t>() < 0)
            fail(JsonLocator::child(pointer, "batchSize"),
                 "is " + (batch->is_number() ? std::string("not a whole number of messages")
                                             : jsonTypePhrase(*batch) + ", not a number"));
        name += "/batch-" + std::to_string(batch->get<int64_t>());
    }
    scenario.name = name;

    for (const auto &m : kMetrics) {
        const auto it = s.find(m.key);
        if (it == s.end())
            continue;
        const std::string field = JsonLocator::child(pointer, m.key);
        if (!it->is_number())
            fail(field, "is " + jsonTypePhrase(*it) + ", not a number");
        const double value = it->get<double>();
        if (value < 0)
            fail(field, std::string(m.throughput ? "is a negative throughput (" : "is negative (") +
                            it->dump() + ")");
        scenario.metrics.push_back({m.metric, value * m.scale});
    }

    for (const auto &[key, value] : s.items()) {
        const bool known = key == "type" || key == "batchSize" ||
                           std::any_of(std::begin(kMetrics), std::end(kMetrics),
                                       [&key](const MetricMapping &m) { return key == m.key; });
        if (!known)
            warn("ignored-field", JsonLocator::child(pointer, key),
                 "scenario field '" + key + "' is not one Plimsoll reads; ignored");
    }
    return scenario;
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    if (head.substr(0, 3) == "\xEF\xBB\xBF")
        head.remove_prefix(3);
    const auto first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{')
        return 0;
    const bool version = head.find("\"korvetVersion\"") != std::string_view::npos;
    const bool scenarios = head.find("\"scenarios\"") != std::string_view::npos;
    if (version)
        return scenarios ? 90 : 70;
    // A result whose version went missing is still recognisably a BenchmarkResult.
    if (scenarios && head.find("\"gitCommit\"") != std::string_view::npos &&
        head.find("\"config\"") != std::string_view::npos)
        return 40;
    return 0;
}

ImportResult parse(const std::string &text, QIODevice &, const ImportOptions &,
                   ImportResult result)
{

    if (auto tooDeep = checkJsonNesting(text)) {
        result.error = std::move(tooDeep);
        return result;
    }
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error &e) {
        const JsonPosition pos = JsonLocator(text).positionOf(int64_t(e.byte) - 1);
        result.error = ImportError{"is not valid JSON: " + jsonParseErrorDetail(e) + " (column " +
                                       std::to_string(pos.column) + ")",
                                   pos.line, pos.offset, {}};
        return result;
    } catch (const json::out_of_range &) {
        // nlohmann reports a number past a double's range (1e400) this way, not as a parse
        // error; uncaught, it ended the process.
        result.error = ImportError{kJsonNumberOutOfRange, 0, -1, {}};
        return result;
    }

    try {
        ResultReader reader(text, result.warnings);
        result.runs.push_back(reader.read(doc));
    } catch (const Failure &f) {
        result.error = f.error;
        result.runs.clear();
    }
    return result;
}

} // namespace

const Importer &korvetResultImporter()
{
    static const TextImporter importer(kFormat, {sniff, nullptr, parse});
    return importer;
}

} // namespace plimsoll
