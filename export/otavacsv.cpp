#include "export/otavacsv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace plimsoll {

namespace {


std::string tuningText(const nlohmann::json &tuning)
{
    if (!tuning.is_object() || tuning.empty())
        return {};
    RunRecord onlyTuning;
    onlyTuning.tuning = tuning;
    std::map<std::string, std::string> settings;
    for (const auto &[k, v] : TuningContract::allSettings(onlyTuning, ScenarioRecord{}))
        settings[k.starts_with("tuning.") ? k.substr(7) : k] = v;
    std::string out;
    for (const auto &[k, v] : settings)
        out += (out.empty() ? "" : " ") + k + "=" + v;
    return out;
}

} // namespace

std::string csvNumberCell(double v)
{
    if (!std::isfinite(v))
        return {};
    char buf[64];
    // 17 significant digits: the exported value reads back as the stored double.
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string csvTextCell(const std::string &text)
{
    std::string v = text;
    if (!v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@' || v[0] == '\t' ||
                       v[0] == '\r'))
        v.insert(0, 1, '\'');
    if (v.find_first_of(",\"\r\n") == std::string::npos)
        return v;
    std::string q = "\"";
    for (char c : v) {
        if (c == '"')
            q += '"';
        q += c;
    }
    return q + "\"";
}

std::string otavaTime(const std::string &isoUtc)
{
    // Normalized timestamps are "YYYY-MM-DDTHH:MM:SS[.mmm]Z"; Otava reads whole seconds.
    if (isoUtc.size() < 19)
        return isoUtc;
    return isoUtc.substr(0, 10) + " " + isoUtc.substr(11, 8) + " +0000";
}

OtavaExport exportOtavaCsv(const TrendHistory &history, const OtavaExportOptions &options)
{
    OtavaExport out;
    const auto scenarios = history.scenarioNames(options.scenarioContains);
    struct Column
    {
        std::string scenario;
        std::string metric;
    };
    std::vector<Column> columns;
    for (const std::string &s : scenarios) {
        const auto available = history.metricNames(s);
        for (const std::string &m : options.metrics.empty() ? available : options.metrics)
            if (std::find(available.begin(), available.end(), m) != available.end())
                columns.push_back({s, m});
    }
    const bool oneScenario = scenarios.size() == 1;
    std::string csv = "time,run_key,commit,image_digest,target,tuning";
    for (const Column &c : columns) {
        const std::string name = oneScenario ? c.metric : c.scenario + ":" + c.metric;
        out.metricColumns.push_back(name);
        csv += "," + csvTextCell(name);
    }
    csv += "\n";
    for (const RunRecord &r : history.runs()) {
        std::string cells;
        bool any = false;
        for (const Column &c : columns) {
            cells += ",";
            for (const ScenarioRecord &s : r.scenarios) {
                if (s.name != c.scenario)
                    continue;
                if (const auto v = s.metric(c.metric)) {
                    cells += csvNumberCell(*v);
                    any = true;
                }
                break;
            }
        }
        if (!any)
            continue;
        csv += csvTextCell(otavaTime(r.timestamp)) + "," + csvTextCell(r.runKey) + "," +
               csvTextCell(r.commit) + "," + csvTextCell(r.imageDigest) + "," + csvTextCell(r.target) +
               "," + csvTextCell(tuningText(r.tuning)) + cells + "\n";
        ++out.rows;
    }
    out.csv = std::move(csv);
    return out;
}

} // namespace plimsoll
