#include "export/steptable.h"

#include "export/otavacsv.h"
#include "model/core/catalog.h"

#include <algorithm>
#include <map>
#include <set>

namespace plimsoll {

namespace {

std::string textCell(const std::string &text, char separator)
{
    if (separator == ',')
        return csvTextCell(text);
    std::string out = text; // tab-separated: no quoting, a tab or line break would split the cell
    std::replace_if(out.begin(), out.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
    return out;
}

} // namespace

StepTable stepTable(const RunRecord &run)
{
    // Load factors that change from scenario to scenario (a ramp's producers) lead; those every
    // scenario states alike (the brokers of the whole run) follow the metrics.
    StepTable table;
    std::vector<StepTable::Column> constant;
    for (const FactorInfo &f : factorCatalog()) {
        const std::string name(f.name);
        std::set<std::optional<int64_t>> values;
        for (const ScenarioRecord &s : run.scenarios)
            values.insert(s.topology.factor(name));
        if (values.size() == 1 && !values.begin()->has_value())
            continue;
        (values.size() > 1 ? table.columns : constant).push_back({name, "", true});
    }
    std::map<std::string, size_t> metricColumn;
    for (const ScenarioRecord &s : run.scenarios)
        for (const MetricValue &m : s.metrics)
            if (metricColumn.emplace(m.name, table.columns.size()).second) {
                const MetricInfo *info = findMetric(m.name);
                table.columns.push_back({m.name, info ? std::string(info->unit) : std::string(), false});
            }
    table.columns.insert(table.columns.end(), constant.begin(), constant.end());
    for (const ScenarioRecord &s : run.scenarios) {
        StepTable::Row row{s.name, std::vector<std::optional<double>>(table.columns.size())};
        for (size_t c = 0; c < table.columns.size(); ++c)
            if (table.columns[c].factor)
                if (const auto v = s.topology.factor(table.columns[c].name))
                    row.cells[c] = double(*v);
        for (const MetricValue &m : s.metrics)
            row.cells[metricColumn.at(m.name)] = m.value;
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string stepTableText(const StepTable &table, char separator)
{
    std::string out = "scenario";
    for (const StepTable::Column &c : table.columns)
        out += separator + textCell(c.unit.empty() ? c.name : c.name + " (" + c.unit + ")", separator);
    out += '\n';
    for (const StepTable::Row &r : table.rows) {
        out += textCell(r.scenario, separator);
        for (const std::optional<double> &v : r.cells)
            out += separator + (v ? csvNumberCell(*v) : std::string());
        out += '\n';
    }
    return out;
}

} // namespace plimsoll
