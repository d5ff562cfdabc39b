#include "app/dataexport.h"

#include "app/clioutput.h"
#include "app/optiondomain.h"
#include "importers/trendrecordwriter.h"
#include "model/catalog.h"
#include "model/hdrlogwriter.h"

#include <QDateTime>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <tuple>

namespace plimsoll {

namespace {

std::string number(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::vector<RunDetail> selectRuns(const Store &store, const std::string &scenario,
                                  const DataExportSelection &sel, std::string *error)
{
    RunFilter filter;
    filter.scenarioContains = scenario;
    if (!sel.since.empty()) {
        const auto since = normalizeTimestamp(sel.since);
        if (!since) {
            *error = "--since '" + sel.since + "' is not an ISO-8601 time";
            return {};
        }
        filter.since = *since;
    }
    std::vector<std::string> keys;
    for (const RunSummary &r : store.runs(filter))
        keys.push_back(r.runKey);
    std::vector<RunDetail> out;
    if (!sel.runs.empty()) {
        for (const std::string &wanted : sel.runs) {
            auto detail = store.run(wanted);
            if (!detail) {
                *error = "run '" + wanted + "' not found (see `plimsoll runs`)";
                return {};
            }
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
    if (!sel.metrics.empty())
        for (RunDetail &d : out)
            for (ScenarioRecord &s : d.record.scenarios) {
                std::erase_if(s.metrics, [&](const MetricValue &m) {
                    return std::find(sel.metrics.begin(), sel.metrics.end(), m.name) == sel.metrics.end();
                });
                std::erase_if(s.series, [&](const SeriesRecord &series) {
                    return std::find(sel.metrics.begin(), sel.metrics.end(), series.name) == sel.metrics.end();
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
        const std::string run = csvText(r.runKey) + "," + csvText(r.timestamp) + "," +
                                csvText(r.commit) + "," + csvText(r.imageDigest) + "," +
                                csvText(r.tool) + "," + csvText(r.toolVersion) + "," +
                                csvText(r.target) + "," + (r.sample ? "true" : "false");
        for (const ScenarioRecord &s : r.scenarios) {
            std::string scenario = run + "," + csvText(s.name) + "," + csvText(s.kind);
            for (const std::string &f : factors) {
                const auto v = s.topology.factor(f);
                scenario += "," + (v ? std::to_string(*v) : std::string());
            }
            for (const MetricValue &m : s.metrics)
                out += scenario + "," + csvText(m.name) + "," + number(m.value) + "\n";
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

bool writeOut(const std::string &path, const std::string &text)
{
    if (path == "-") {
        std::cout << text;
        return true;
    }
    // Written whole or not at all.
    QSaveFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), qint64(text.size())) < 0 || !f.commit()) {
        printError("cannot write " + path + ": " + f.errorString().toStdString());
        return false;
    }
    return true;
}

} // namespace

std::string csvText(const std::string &text)
{
    std::string cell = text;
    if (!cell.empty() && std::string_view("=+-@\t\r").find(cell.front()) != std::string_view::npos)
        cell.insert(cell.begin(), '\'');
    if (cell.find_first_of(",\"\n\r") == std::string::npos)
        return cell;
    std::string quoted = "\"";
    for (char c : cell) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

bool isDataExportFormat(const std::string &format)
{
    return format == "csv" || format == "json" || format == "jsonl" || format == "hlog";
}

std::shared_ptr<DataExportSelection> addDataExportOptions(CLI::App *exp)
{
    auto sel = std::make_shared<DataExportSelection>();
    exp->add_option("--run", sel->runs, "csv/json/jsonl/hlog: only these runs (id or key, repeatable)");
    exp->add_option("--since", sel->since, "csv/json/jsonl/hlog: only runs at or after this ISO-8601 time or date")
        ->transform(isoTime("--since"));
    return sel;
}

int runDataExport(const CliContext &c, const std::string &format, const std::string &scenario,
                  const std::string &out, const DataExportSelection &selection)
{
    if (format == "hlog" && !selection.metrics.empty()) {
        printError("--metric does not apply to hlog: each histogram is rebuilt from a scenario's "
                   "latency percentiles together");
        return kExitUsage;
    }
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    std::string error, text;
    std::vector<RunDetail> runs;
    try {
        runs = selectRuns(*store, scenario, selection, &error);
    } catch (const StoreError &e) {
        error = e.what();
    }
    if (!error.empty()) {
        printError(error);
        return kExitFailure;
    }
    int intervals = 0;
    try {
        if (format == "csv")
            text = exportCsv(runs);
        else if (format == "json")
            text = exportJson(runs);
        else if (format == "hlog")
            text = exportHlog(runs, &intervals);
        else
            for (const RunDetail &d : runs)
                text += trendRecordLines(d.record);
    } catch (const std::exception &e) {
        printError(e.what());
        return kExitFailure;
    }
    if (!writeOut(out, text))
        return kExitFailure;
    std::cerr << "exported " << runs.size() << " runs as " << format;
    if (format == "hlog")
        std::cerr << ": " << intervals << " histograms rebuilt from stored percentiles (the store "
                     "keeps no raw histograms)";
    std::cerr << (out == "-" ? "" : " to " + out) << "\n";
    return kExitOk;
}

} // namespace plimsoll
