#include "export/runexport.h"

#include "export/hdrlogwriter.h"
#include "export/otavacsv.h"
#include "export/steptable.h"
#include "export/trendrecordwriter.h"
#include "model/core/catalog.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <tuple>

namespace plimsoll {

namespace {

nlohmann::json orNull(const std::string &s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); }

std::string number(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::vector<RunDetail> selectRuns(const Store &store, const ExportRequest &request)
{
    const std::string &scenario = request.scenarioContains;
    RunFilter filter;
    filter.scenarioContains = scenario;
    if (!request.since.empty()) {
        const auto since = normalizeTimestamp(request.since);
        if (!since)
            throw ExportError("--since '" + request.since + "' is not an ISO-8601 time");
        filter.since = *since;
    }
    std::vector<std::string> keys;
    for (const RunSummary &r : store.runs(filter))
        keys.push_back(r.runKey);
    std::vector<RunDetail> out;
    if (!request.runs.empty()) {
        for (const std::string &wanted : request.runs) {
            auto detail = store.run(wanted);
            if (!detail)
                throw ExportError("run '" + wanted + "' not found (see `plimsoll runs`)");
            if (std::find(keys.begin(), keys.end(), detail->record.runKey) != keys.end())
                out.push_back(std::move(*detail));
        }
    } else {
        for (const std::string &k : keys)
            if (auto detail = store.run(k))
                out.push_back(std::move(*detail));
    }
    // Oldest first, then by key: the same store always exports the same bytes.
    std::sort(out.begin(), out.end(), [](const RunDetail &a, const RunDetail &b) {
        return std::tie(a.record.timestamp, a.record.runKey) < std::tie(b.record.timestamp, b.record.runKey);
    });
    if (!scenario.empty())
        for (RunDetail &d : out)
            std::erase_if(d.record.scenarios, [&](const ScenarioRecord &s) {
                return s.name.find(scenario) == std::string::npos;
            });
    if (!request.metrics.empty())
        for (RunDetail &d : out)
            for (ScenarioRecord &s : d.record.scenarios) {
                std::erase_if(s.metrics, [&](const MetricValue &m) {
                    return std::find(request.metrics.begin(), request.metrics.end(), m.name) == request.metrics.end();
                });
                std::erase_if(s.series, [&](const SeriesRecord &series) {
                    return std::find(request.metrics.begin(), request.metrics.end(), series.name) == request.metrics.end();
                });
            }
    return out;
}

std::string exportCsv(const std::vector<RunDetail> &runs)
{
    std::vector<std::string> factors;
    for (const FactorInfo &f : factorCatalog())
        factors.emplace_back(f.name);
    std::string out = "run_key,timestamp,commit,image_digest,tool,tool_version,target,sample,scenario,kind";
    for (const std::string &f : factors)
        out += "," + f;
    out += ",metric,value\n";
    for (const RunDetail &d : runs) {
        const RunRecord &r = d.record;
        const std::string run = csvTextCell(r.runKey) + "," + csvTextCell(r.timestamp) + "," +
                                csvTextCell(r.commit) + "," + csvTextCell(r.imageDigest) + "," +
                                csvTextCell(r.tool) + "," + csvTextCell(r.toolVersion) + "," +
                                csvTextCell(r.target) + "," + (r.sample ? "true" : "false");
        for (const ScenarioRecord &s : r.scenarios) {
            std::string scenario = run + "," + csvTextCell(s.name) + "," + csvTextCell(s.kind);
            for (const std::string &f : factors) {
                const auto v = s.topology.factor(f);
                scenario += "," + (v ? std::to_string(*v) : std::string());
            }
            for (const MetricValue &m : s.metrics)
                out += scenario + "," + csvTextCell(m.name) + "," + number(m.value) + "\n";
        }
    }
    return out;
}

std::string exportJson(const std::vector<RunDetail> &runs)
{
    nlohmann::json out = nlohmann::json::array();
    for (const RunDetail &d : runs) {
        nlohmann::json j = runDetailToJson(d);
        for (size_t i = 0; i < d.record.scenarios.size(); ++i) {
            nlohmann::json series = nlohmann::json::object();
            for (const SeriesRecord &s : d.record.scenarios[i].series) {
                nlohmann::json samples = nlohmann::json::array();
                for (const SeriesSample &p : s.samples)
                    samples.push_back({p.tOffsetS, p.value});
                series[s.name] = samples;
            }
            j["scenarios"][i]["series"] = series;
        }
        out.push_back(std::move(j));
    }
    return out.dump(2) + "\n";
}

// A histogram (µs) whose percentiles are the stored ones: the counts between two stored
// percentiles sit at the upper one, so valueAtPercentile(p) returns the stored value at each
// stored p (to the histogram's 3 significant digits) and nothing finer is invented.
std::optional<HdrHistogram> rebuild(const ScenarioRecord &s)
{
    static const std::pair<double, const char *> kPoints[] = {
        {50, "latency_p50_s"}, {95, "latency_p95_s"}, {99, "latency_p99_s"},
        {99.9, "latency_p999_s"}, {100, "latency_max_s"}};
    constexpr int64_t kCounts = 100000;
    HdrHistogram h(1, 3600LL * 1000 * 1000, 3);
    double below = 0;
    int64_t floor = 0;
    for (const auto &[percentile, name] : kPoints) {
        const auto v = s.metric(name);
        if (!v || !(*v >= 0))
            continue;
        const int64_t us = std::max(floor, int64_t(std::llround(*v * 1e6)));
        const int64_t count = int64_t(std::llround((percentile - below) / 100 * kCounts));
        if (count > 0 && h.record(std::max<int64_t>(us, 1), count)) {
            below = percentile;
            floor = us;
        }
    }
    if (h.empty())
        return std::nullopt;
    return h;
}

std::string exportHlog(const std::vector<RunDetail> &runs, int *intervals)
{
    double start = 0;
    for (const RunDetail &d : runs) {
        const double t = QDateTime::fromString(QString::fromStdString(d.record.timestamp), Qt::ISODateWithMs)
                             .toMSecsSinceEpoch() / 1000.0;
        if (start == 0 || t < start)
            start = t;
    }
    HdrLogWriter log(1000, "us"); // histograms in µs; Interval_Max in ms; the header says so
    log.writeHeader(start, "Plimsoll export. The store keeps latency percentiles, not raw "
                           "histograms: each interval is rebuilt from one scenario's stored "
                           "p50/p95/p99/p99.9/max (microseconds, 100000 counts); tag = run key/scenario");
    for (const RunDetail &d : runs) {
        const double t = QDateTime::fromString(QString::fromStdString(d.record.timestamp), Qt::ISODateWithMs)
                             .toMSecsSinceEpoch() / 1000.0;
        for (const ScenarioRecord &s : d.record.scenarios) {
            const auto h = rebuild(s);
            if (!h)
                continue;
            std::string tag = d.record.runKey + "/" + s.name;
            for (char &c : tag)
                if (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')
                    c = '_';
            log.writeInterval(t - start, 1.0, *h, tag);
            ++*intervals;
        }
    }
    return log.text();
}

} // namespace

nlohmann::json runDetailToJson(const RunDetail &d)
{
    const RunRecord &r = d.record;
    nlohmann::json scenarios = nlohmann::json::array();
    for (const auto &s : r.scenarios) {
        nlohmann::json metrics = nlohmann::json::object();
        for (const auto &m : s.metrics)
            metrics[m.name] = m.value;
        scenarios.push_back({{"name", s.name},
                             {"kind", orNull(s.kind)},
                             {"topology", s.topology.toJson()},
                             {"metrics", metrics},
                             {"provenance", orNull(s.provenance)}});
    }
    return {{"id", d.summary.id},
            {"run_key", r.runKey},
            {"timestamp", r.timestamp},
            {"commit", orNull(r.commit)},
            {"image_digest", orNull(r.imageDigest)},
            {"tool", orNull(r.tool)},
            {"tool_version", orNull(r.toolVersion)},
            {"target", orNull(r.target)},
            {"environment", r.environment},
            {"tuning", r.tuning},
            {"sample", r.sample},
            {"provenance", orNull(r.provenance)},
            {"name", orNull(r.name)},
            {"tags", r.tags},
            {"source",
             {{"uri", d.source.uri},
              {"format", d.source.format},
              {"sha256", d.source.sha256},
              {"importer", d.source.importer},
              {"importer_version", d.source.importerVersion},
              {"imported_at", d.source.importedAt}}},
            {"scenarios", scenarios}};
}

bool isRunExportFormat(const std::string &format)
{
    return format == "csv" || format == "json" || format == "jsonl" || format == "hlog" ||
           format == "steps";
}

std::string exportRequestProblem(const ExportRequest &request)
{
    if (!isRunExportFormat(request.format))
        return "--format must be one of csv, json, jsonl, hlog, steps (not '" + request.format + "')";
    if (request.format == "hlog" && !request.metrics.empty())
        return "--metric does not apply to hlog: each histogram is rebuilt from a scenario's "
               "latency percentiles together";
    if (request.format == "steps" && request.runs.size() != 1)
        return "--format steps writes one run's step table (its columns are that run's): name the "
               "run with one --run";
    return {};
}

ExportResult exportRuns(const Store &store, const ExportRequest &request)
{
    if (const std::string problem = exportRequestProblem(request); !problem.empty())
        throw ExportError(problem);
    std::vector<RunDetail> runs;
    try {
        // One read transaction: runs removed or imported meanwhile are wholly in or wholly out.
        const StoreSnapshot snapshot(store);
        runs = selectRuns(store, request);
    } catch (const StoreError &e) {
        throw ExportError(e.what());
    }
    ExportResult result;
    result.runs = runs.size();
    if (request.format == "csv")
        result.text = exportCsv(runs);
    else if (request.format == "json")
        result.text = exportJson(runs);
    else if (request.format == "hlog")
        result.text = exportHlog(runs, &result.histograms);
    else if (request.format == "steps")
        result.text = stepTableText(stepTable(runs.at(0).record));
    else
        for (const RunDetail &d : runs)
            result.text += trendRecordLines(d.record);
    return result;
}

} // namespace plimsoll
