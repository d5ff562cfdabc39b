// OpenMessaging Benchmark result JSON (Jackson-serialized TestResult): the old 39-key schema,
// the current one (messageSize, topics, partitions, producers/consumersPerTopic,
// publishErrorRate, publishDelayLatency* in microseconds, 99.999th fields) and fork extras
// (Redpanda's version, beginTime, sampleRateMillis, sent/consumed counts). Every field is
// optional and unknown keys are ignored.
//
// One run, one scenario named by the workload. Aggregates become catalog metrics: publish
// latency (ms) -> latency_*_s, end-to-end -> e2e_p99_s and e2e.latency_*_s, publish delay
// (µs) -> publish_delay.latency_*_s; records_per_s is the mean of the per-window publish
// rates (OMB's own prod-rate-avg) and bytes_per_s that times messageSize. Quantile maps,
// keyed by Double.toString of the percentile (sci-notation allowed), become
// publish.quantile.<p>, e2e.quantile.<p>, publish_delay.quantile.<p> in seconds. Per-window
// arrays are kept as series.

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/jsonlocator.h"
#include "importers/jsonnesting.h"
#include "importers/omb/ombworkload.h"
#include "importers/textsource.h"

#include <QDateTime>
#include <QIODevice>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <set>

namespace plimsoll {

namespace {

using nlohmann::json;

constexpr int64_t kMaxBytes = 512LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"omb", "1",
                          "OpenMessaging Benchmark result JSON (old and current TestResult schemas, forks): one run, one scenario per workload, per-window series",
                          "a JSON object with a \"publishRate\" array or \"aggregatedPublishLatency…\" keys"},
                         "an OMB result", kMaxBytes, TextInput::Whole};
// OMB's stats window when the file does not say (sampleRateMillis is a Redpanda-fork field).
constexpr double kDefaultWindowSeconds = 10.0;

struct LatencyGroup
{
    const char *series;     // per-window arrays: "<series><Stat>"
    const char *aggregated; // "<aggregated><Stat>", "<aggregated>Quantiles"
    const char *prefix;     // metric prefix
    double scale;           // to seconds
};

constexpr LatencyGroup kGroups[] = {
    {"publishLatency", "aggregatedPublishLatency", "publish", 1e-3},
    {"endToEndLatency", "aggregatedEndToEndLatency", "e2e", 1e-3},
    {"publishDelayLatency", "aggregatedPublishDelayLatency", "publish_delay", 1e-6}, // µs
};

constexpr std::pair<const char *, const char *> kStats[] = {
    {"Avg", "avg"},       {"Min", "min"},         {"50pct", "p50"},
    {"75pct", "p75"},     {"95pct", "p95"},       {"99pct", "p99"},
    {"999pct", "p999"},   {"9999pct", "p9999"},   {"99999pct", "p99999"},
    {"Max", "max"},
};

struct RateSeries
{
    const char *key;
    const char *name;
};

constexpr RateSeries kRates[] = {
    {"publishRate", "records_per_s"},       {"consumeRate", "consume.records_per_s"},
    {"publishErrorRate", "publish.errors_per_s"}, {"backlog", "backlog"},
    {"sent", "sent"},                       {"consumed", "consumed"},
    {"publishFailed", "publish_failed"},    {"consumeFailed", "consume_failed"},
};

const std::set<std::string> kIdentityKeys = {
    "workload", "driver",   "messageSize", "topics",  "partitions", "producersPerTopic",
    "consumersPerTopic", "version", "beginTime", "endTime", "sampleRateMillis"};

std::string latencyMetric(const std::string &prefix, const std::string &stat)
{
    static const std::set<std::string> catalog = {"avg", "p50", "p95", "p99", "p999", "max"};
    if (prefix == "publish" && catalog.count(stat))
        return "latency_" + stat + "_s";
    return prefix + ".latency_" + stat + "_s";
}

std::string percentileName(double p)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, p, std::chars_format::fixed);
    return std::string(buf, r.ptr);
}

struct Failure
{
    ImportError error;
};

class OmbReader
{
public:
    OmbReader(const std::string &text, std::vector<ImportWarning> &warnings)
        : m_text(text), m_warnings(warnings)
    {
    }
    RunRecord read(const json &doc, QIODevice &in);

private:
    [[noreturn]] void fail(const std::string &pointer, const std::string &message)
    {
        const JsonPosition pos = locator().locate(pointer);
        ImportError e;
        e.message = message;
        e.line = pos.line;
        e.column = pos.column;
        e.offset = pos.offset;
        e.field = JsonLocator::fieldName(pointer);
        throw Failure{e};
    }
    const JsonLocator &locator()
    {
        if (!m_locator)
            m_locator.emplace(m_text);
        return *m_locator;
    }
    std::optional<double> number(const json &doc, const std::string &key)
    {
        const auto it = doc.find(key);
        if (it == doc.end() || it->is_null())
            return std::nullopt;
        if (!it->is_number())
            fail(JsonLocator::pointer({key}), "is " + jsonTypePhrase(*it) + ", not a number");
        return it->get<double>();
    }
    std::optional<int64_t> count(const json &doc, const std::string &key)
    {
        const auto v = number(doc, key);
        if (!v)
            return std::nullopt;
        if (*v < 0 || std::trunc(*v) != *v)
            fail(JsonLocator::pointer({key}), "is not a whole, non-negative number");
        return int64_t(*v);
    }
    std::optional<std::vector<double>> array(const json &doc, const std::string &key)
    {
        const auto it = doc.find(key);
        if (it == doc.end() || it->is_null())
            return std::nullopt;
        if (!it->is_array())
            fail(JsonLocator::pointer({key}), "is " + jsonTypePhrase(*it) + ", not an array");
        std::vector<double> out;
        for (size_t i = 0; i < it->size(); ++i) {
            const json &v = (*it)[i];
            if (!v.is_number())
                fail(JsonLocator::child(JsonLocator::pointer({key}), i),
                     "is " + jsonTypePhrase(v) + ", not a number");
            out.push_back(v.get<double>());
        }
        return out;
    }
    void readQuantiles(const json &doc, const std::string &key, const std::string &prefix,
                       double scale, ScenarioRecord &sc);
    void readIdentity(const json &doc, RunRecord &run);
    std::string beginTime(const json &doc);
    void readTopology(const json &doc, const OmbWorkloadName &fromName, Topology &t);
    void readRates(const json &doc, ScenarioRecord &sc);
    void readLatencies(const json &doc, ScenarioRecord &sc);
    void warnIgnoredKeys(const json &doc);
    void warnInferred(const Topology &t);

    const std::string &m_text;
    std::vector<ImportWarning> &m_warnings;
    std::optional<JsonLocator> m_locator;
    std::string m_workload = "omb";
    bool m_sizeInferred = false;   // messageSize taken from the workload name
    double m_windowS = kDefaultWindowSeconds;
    std::set<std::string> m_known; // the keys read so far, for the ignored-field warning
};

void OmbReader::readQuantiles(const json &doc, const std::string &key, const std::string &prefix,
                              double scale, ScenarioRecord &sc)
{
    const auto it = doc.find(key);
    if (it == doc.end() || it->is_null())
        return;
    const std::string pointer = JsonLocator::pointer({key});
    if (!it->is_object())
        fail(pointer, "is " + jsonTypePhrase(*it) + ", not a map of percentile to latency");
    std::vector<std::pair<double, double>> points;
    for (const auto &[p, v] : it->items()) {
        const auto percentile = parseNumber(p);
        if (!percentile || *percentile < 0 || *percentile > 100)
            fail(JsonLocator::child(pointer, p), "key '" + p + "' is not a percentile");
        if (!v.is_number())
            fail(JsonLocator::child(pointer, p), "is " + jsonTypePhrase(v) + ", not a number");
        points.emplace_back(*percentile, v.get<double>());
    }
    std::sort(points.begin(), points.end());
    std::set<std::string> seen;
    for (const auto &[p, v] : points) {
        const std::string name = prefix + ".quantile." + percentileName(p);
        if (seen.insert(name).second)
            sc.metrics.push_back({name, v * scale});
    }
}

RunRecord OmbReader::read(const json &doc, QIODevice &in)
{
    if (!doc.is_object())
        fail("", "is " + jsonTypePhrase(doc) + ", not an OpenMessaging Benchmark result object");
    RunRecord run;
    readIdentity(doc, run);
    run.timestamp = beginTime(doc);
    if (run.timestamp.empty())
        dateByInference(run, in, m_warnings);

    ScenarioRecord sc;
    sc.name = m_workload;
    sc.kind = "benchmark";
    sc.line = 1;
    const OmbWorkloadName fromName = parseOmbWorkloadName(m_workload);
    readTopology(doc, fromName, sc.topology);
    if (fromName.producerRate)
        run.tuning["producerRate"] = *fromName.producerRate;

    m_windowS = number(doc, "sampleRateMillis").value_or(kDefaultWindowSeconds * 1000) / 1000;
    m_known = kIdentityKeys;
    readRates(doc, sc);
    readLatencies(doc, sc);
    if (sc.metrics.empty() && sc.series.empty())
        fail("", "has none of an OMB result's rate or latency keys (publishRate, "
                 "aggregatedPublishLatency…): not an OpenMessaging Benchmark result");
    warnIgnoredKeys(doc);
    warnInferred(sc.topology);
    run.scenarios.push_back(std::move(sc));
    return run;
}

void OmbReader::readIdentity(const json &doc, RunRecord &run)
{
    run.line = 1;
    run.tool = "openmessaging-benchmark";
    run.runKey = contentRunKey("omb", m_text);
    if (const auto w = doc.find("workload"); w != doc.end() && w->is_string())
        m_workload = w->get<std::string>();
    if (const auto d = doc.find("driver"); d != doc.end() && d->is_string()) {
        run.target = d->get<std::string>();
        std::transform(run.target.begin(), run.target.end(), run.target.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
    }
    if (const auto v = doc.find("version"); v != doc.end() && v->is_string())
        run.toolVersion = v->get<std::string>();
}

// beginTime as ISO-8601 or epoch milliseconds; empty when the file has none.
std::string OmbReader::beginTime(const json &doc)
{
    const auto b = doc.find("beginTime");
    if (b == doc.end() || b->is_null())
        return {};
    std::optional<std::string> t;
    if (b->is_string()) {
        t = normalizeTimestamp(b->get<std::string>());
    } else if (b->is_number()) {
        const auto ms = int64_t(b->get<double>());
        t = normalizeTimestamp(
            QDateTime::fromMSecsSinceEpoch(ms).toUTC().toString(Qt::ISODateWithMs).toStdString());
    }
    if (!t || t->empty())
        fail("/beginTime", "is not a time (ISO-8601 or epoch milliseconds)");
    return *t;
}

// Topology: fields first; the workload name fills what they leave out, marked inferred.
void OmbReader::readTopology(const json &doc, const OmbWorkloadName &fromName, Topology &t)
{
    auto pick = [&](const char *key, const std::optional<int64_t> &fromWorkload,
                    bool &wasInferred) -> std::optional<int64_t> {
        if (auto v = count(doc, key))
            return v;
        wasInferred = fromWorkload.has_value();
        return fromWorkload;
    };
    bool topicsInf = false, partsInf = false, prodInf = false, consInf = false;
    const auto topics = pick("topics", fromName.topics, topicsInf);
    const auto perTopic = pick("partitions", fromName.partitionsPerTopic, partsInf);
    const auto producers = pick("producersPerTopic", fromName.producersPerTopic, prodInf);
    const auto consumers = pick("consumersPerTopic", fromName.consumersPerTopic, consInf);
    const auto size = pick("messageSize", fromName.messageSizeBytes, m_sizeInferred);
    // Totals are per-topic counts times topics; with no topic count anywhere, one topic.
    const int64_t topicCount = topics.value_or(1);
    const bool topicsRead = topics.has_value() && !topicsInf;
    auto total = [&](const std::optional<int64_t> &perTopicCount, bool inferred, const char *factor,
                     std::optional<int64_t> &out) {
        if (!perTopicCount)
            return;
        out = *perTopicCount * topicCount;
        if (inferred || !topicsRead)
            t.inferred.push_back(factor);
    };
    total(perTopic, partsInf, "partitions", t.partitions);
    total(producers, prodInf, "producers", t.producers);
    total(consumers, consInf, "consumers", t.consumers);
    if (size) {
        t.recordSizeBytes = *size;
        if (m_sizeInferred)
            t.inferred.push_back("record_size_bytes");
    }
}

// The per-window rate arrays as series, their means as the headline metrics.
void OmbReader::readRates(const json &doc, ScenarioRecord &sc)
{
    const std::optional<int64_t> size = sc.topology.recordSizeBytes;
    for (const RateSeries &r : kRates) {
        m_known.insert(r.key);
        const auto values = array(doc, r.key);
        if (!values || values->empty())
            continue;
        SeriesRecord s{r.name, {}};
        for (size_t i = 0; i < values->size(); ++i)
            s.samples.push_back({double(i) * m_windowS, (*values)[i]});
        sc.series.push_back(std::move(s));
        const double mean = std::accumulate(values->begin(), values->end(), 0.0) / double(values->size());
        const std::string key = r.key;
        if (key == "publishRate") {
            sc.metrics.push_back({"records_per_s", mean});
            if (size)
                sc.metrics.push_back({"bytes_per_s", mean * double(*size)});
            sc.provenance = "records_per_s is the mean of " + std::to_string(values->size()) +
                            " publishRate windows";
            if (size)
                sc.provenance += std::string("; bytes_per_s = records_per_s x ") +
                                 (m_sizeInferred ? "the message size inferred from the workload name"
                                                 : "messageSize");
            warnIfZeroOnly(*values, locator().locate("/publishRate").line, "publishRate", m_warnings);
        } else if (key == "consumeRate") {
            sc.metrics.push_back({"consume.records_per_s", mean});
            if (size)
                sc.metrics.push_back({"consume.bytes_per_s", mean * double(*size)});
        } else if (key == "publishErrorRate") {
            sc.metrics.push_back({"publish.errors_per_s", mean});
        }
    }
}

// Each latency group's aggregated statistics, per-window arrays and quantile maps, in seconds.
void OmbReader::readLatencies(const json &doc, ScenarioRecord &sc)
{
    for (const LatencyGroup &g : kGroups) {
        for (const auto &[stat, label] : kStats) {
            const std::string seriesKey = std::string(g.series) + stat;
            const std::string aggKey = std::string(g.aggregated) + stat;
            m_known.insert(seriesKey);
            m_known.insert(aggKey);
            const std::string metric = latencyMetric(g.prefix, label);
            if (const auto v = number(doc, aggKey)) {
                sc.metrics.push_back({metric, *v * g.scale});
                if (std::string(g.prefix) == "e2e" && std::string(label) == "p99")
                    sc.metrics.push_back({"e2e_p99_s", *v * g.scale});
            }
            if (const auto values = array(doc, seriesKey); values && !values->empty()) {
                SeriesRecord s{metric, {}};
                for (size_t i = 0; i < values->size(); ++i)
                    s.samples.push_back({double(i) * m_windowS, (*values)[i] * g.scale});
                sc.series.push_back(std::move(s));
            }
        }
        const std::string quantiles = std::string(g.aggregated) + "Quantiles";
        m_known.insert(quantiles);
        readQuantiles(doc, quantiles, g.prefix, g.scale, sc);
    }
}

void OmbReader::warnIgnoredKeys(const json &doc)
{
    std::vector<std::string> ignored;
    for (const auto &[key, value] : doc.items()) {
        if (!m_known.count(key))
            ignored.push_back(key);
    }
    if (ignored.empty())
        return;
    std::string list;
    for (const auto &k : ignored)
        list += (list.empty() ? "" : ", ") + k;
    m_warnings.push_back({"ignored-field", locator().locate(JsonLocator::pointer({ignored.front()})).line,
                          std::to_string(ignored.size()) +
                              " fields are not ones Plimsoll reads; ignored: " + list});
}

void OmbReader::warnInferred(const Topology &t)
{
    if (t.inferred.empty())
        return;
    std::string list;
    for (const auto &f : t.inferred)
        list += (list.empty() ? "" : ", ") + f;
    m_warnings.push_back({"inferred-topology", locator().locate("/workload").line,
                          "taken from the workload name '" + m_workload + "': " + list});
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    const auto first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first == std::string_view::npos || head[first] != '{')
        return 0;
    const bool rate = head.find("\"publishRate\"") != std::string_view::npos;
    const bool agg = head.find("\"aggregatedPublishLatency") != std::string_view::npos;
    const bool workload = head.find("\"workload\"") != std::string_view::npos;
    if (rate && (workload || agg))
        return 90;
    if (rate || agg)
        return 60;
    return 0;
}

Resemblance resemblance(std::string_view head)
{
    const auto first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first == std::string_view::npos || head[first] != '{')
        return {};
    if (head.find("\"workload\"") != std::string_view::npos)
        return {50, "has a \"workload\" key but no \"publishRate\" array or "
                    "\"aggregatedPublishLatency…\" keys of an OMB result"};
    if (head.find("Latency") != std::string_view::npos)
        return {20, "is JSON with latency keys, but none of an OMB result's publishRate or "
                    "aggregatedPublishLatency…"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &in, const ImportOptions &,
                   ImportResult result)
{
    const std::optional<json> doc = parseJsonDocument(text, "is not valid JSON: ", result.error);
    if (!doc)
        return result;
    try {
        result.runs.push_back(OmbReader(text, result.warnings).read(*doc, in));
    } catch (const Failure &f) {
        result.error = f.error;
        result.runs.clear();
    }
    return result;
}

} // namespace

const Importer &ombImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
