// `plimsoll compare` of any number of runs: the metric × run table (model/trends/runscomparison.h)
// as text and JSON. Two runs print as they always have (compareoutput.cpp), with the alignment
// line above and the table beside the pair in the JSON.
#include "app/compareoutput.h"

#include "app/texttable.h"
#include "model/core/catalog.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace plimsoll {

using nlohmann::json;

namespace {

json optionalNumber(const std::optional<double> &v)
{
    return v && std::isfinite(*v) ? json(*v) : json(nullptr);
}

json alignmentJson(const RunsComparison &r, std::size_t i)
{
    const ScenarioAlignment &a = r.alignments[i];
    json factors = json::array();
    for (std::size_t f = 0; f < a.factors.size(); ++f)
        factors.push_back({{"factor", a.factors[f]}, {"baseline", a.baselineValues[f]}, {"current", a.currentValues[f]}});
    json pairs = json::array();
    for (const auto &[b, c] : a.pairing.pairs)
        pairs.push_back({{"baseline", b}, {"current", c}});
    return {{"run_key", r.runs[i].runKey}, {"by", alignedByWord(a.by)}, {"factors", factors}, {"pairs", pairs},
            {"only_in_run", r.unalignedOf(i)}};
}

std::string deltaText(const RunCell &c)
{
    if (!c.value)
        return "-";
    if (!c.deltaPercent)
        return c.verdict ? toString(*c.verdict) : "-";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%+.2f %%", *c.deltaPercent);
    std::string out = buf;
    if (c.verdict && *c.verdict != Verdict::Unchanged)
        out += std::string(" ") + toString(*c.verdict);
    return out;
}

std::string runLetter(std::size_t i)
{
    return std::string(1, static_cast<char>('A' + i % 26)) + (i >= 26 ? std::to_string(i / 26) : "");
}

// A family of quantiles on one row: per run, the range of its deltas.
void addFamilyRow(TextTable &table, const RunsComparison &r, const std::string &family,
                  const std::vector<const ComparedRow *> &members)
{
    std::vector<std::string> cells{family};
    for (std::size_t i = 0; i < r.runs.size(); ++i) {
        if (i == r.baseline) {
            cells.push_back(std::to_string(members.size()) + " quantiles");
            continue;
        }
        double lo = INFINITY, hi = -INFINITY;
        int moved = 0;
        for (const ComparedRow *m : members) {
            const RunCell &c = m->cells[i];
            if (c.deltaPercent) {
                lo = std::min(lo, *c.deltaPercent);
                hi = std::max(hi, *c.deltaPercent);
            }
            moved += c.verdict && (*c.verdict == Verdict::Regression || *c.verdict == Verdict::Improvement) ? 1 : 0;
        }
        std::string text = "-";
        if (lo <= hi) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%+.2f..%+.2f %%", lo, hi);
            text = buf;
            if (moved > 0)
                text += ", " + std::to_string(moved) + " moved";
        }
        cells.push_back(text);
    }
    table.addRow(std::move(cells));
}

} // namespace

json runsComparisonJson(const RunsComparison &r)
{
    json runs = json::array();
    for (std::size_t i = 0; i < r.runs.size(); ++i)
        runs.push_back({{"run_key", r.runs[i].runKey}, {"timestamp", r.runs[i].timestamp},
                        {"target", r.runs[i].target}, {"baseline", i == r.baseline}});
    json alignment = {{"text", r.alignmentText()}, {"runs", json::array()}};
    for (std::size_t i = 0; i < r.runs.size(); ++i)
        if (i != r.baseline)
            alignment["runs"].push_back(alignmentJson(r, i));
    json table = json::array();
    for (const ComparedRow &row : r.rows) {
        json cells = json::array();
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            const RunCell &c = row.cells[i];
            json cell = {{"run_key", r.runs[i].runKey},
                         {"scenario", c.scenario.empty() ? json(nullptr) : json(c.scenario)},
                         {"value", optionalNumber(c.value)},
                         {"delta_percent", optionalNumber(c.deltaPercent)},
                         {"verdict", c.verdict ? json(toString(*c.verdict)) : json(nullptr)}};
            if (!c.note.empty())
                cell["note"] = c.note;
            cells.push_back(std::move(cell));
        }
        table.push_back({{"scenario", row.scenario}, {"metric", row.metric},
                         {"direction", directionWord(row.direction)}, {"cells", cells}});
    }
    json out;
    if (r.runs.size() == 2) {
        out = comparisonJson(r.onlyPair()); // the nightly gate's report, as it was
    } else {
        json pairs = json::array();
        for (std::size_t i = 0; i < r.pairs.size(); ++i)
            if (i != r.baseline)
                pairs.push_back(comparisonJson(r.pairs[i]));
        out["comparisons"] = pairs;
        out["summary"] = {{"regressions", r.count(Verdict::Regression)},
                          {"improvements", r.count(Verdict::Improvement)},
                          {"unchanged", r.count(Verdict::Unchanged)},
                          {"not_comparable", r.count(Verdict::NotComparable)},
                          {"follows_throughput", r.count(Verdict::FollowsThroughput)},
                          {"incompatible", r.count(Verdict::Incompatible)}};
    }
    out["runs"] = runs;
    out["alignment"] = alignment;
    out["table"] = table;
    return out;
}

void printRunsComparison(std::ostream &out, const RunsComparison &r, bool allRows)
{
    if (r.runs.size() == 2) {
        out << r.alignmentText() << "\n";
        printComparison(out, r.onlyPair(), allRows);
        return;
    }
    for (std::size_t i = 0; i < r.runs.size(); ++i)
        out << runLetter(i) << "  " << r.runs[i].runKey << " (" << r.runs[i].timestamp << ")"
            << (i == r.baseline ? "  baseline" : "") << "\n";
    out << r.alignmentText() << "\n";
    char legend[256];
    std::snprintf(legend, sizeof legend,
                  "Δ %% against the baseline; a verdict where the delta is beyond its series' noise "
                  "(Holm over each run's metrics at α = %g)\n\n",
                  r.options.alpha);
    out << legend;
    using A = TextTable::Align;
    std::vector<TextTable::Column> columns{{"METRIC"}};
    for (std::size_t i = 0; i < r.runs.size(); ++i) {
        columns.push_back({runLetter(i), A::Right});
        if (i != r.baseline)
            columns.push_back({"Δ " + runLetter(i), A::Right});
    }
    TextTable table(columns, "  ");
    std::string scenario;
    std::map<std::string, std::vector<const ComparedRow *>> families;
    for (std::size_t k = 0; k < r.rows.size(); ++k) {
        const ComparedRow &row = r.rows[k];
        if (row.scenario != scenario || k == 0) {
            scenario = row.scenario;
            std::string heading = row.scenario;
            for (std::size_t i = 0; i < row.cells.size(); ++i)
                if (i != r.baseline)
                    heading += "  " + runLetter(i) + ": " +
                               (row.cells[i].scenario.empty() ? std::string("none aligned")
                                                              : row.cells[i].scenario == row.scenario
                                                                    ? std::string("same")
                                                                    : row.cells[i].scenario);
            table.addSection(heading);
            families.clear();
            if (!allRows)
                for (std::size_t j = k; j < r.rows.size() && r.rows[j].scenario == scenario; ++j)
                    if (const std::string f = quantileFamily(r.rows[j].metric); !f.empty())
                        families[f].push_back(&r.rows[j]);
        }
        const std::string f = allRows ? std::string() : quantileFamily(row.metric);
        const auto it = families.find(f);
        if (!f.empty() && it != families.end() && it->second.size() >= 2) {
            if (it->second.front() == &row)
                addFamilyRow(table, r, f, it->second);
            continue;
        }
        std::vector<std::string> cells{row.metric};
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            const RunCell &c = row.cells[i];
            cells.push_back(c.value ? formatMetric(row.metric, *c.value) : "-");
            if (i != r.baseline)
                cells.push_back(deltaText(c));
        }
        table.addRow(std::move(cells));
    }
    table.print(out);
    out << "\n"
        << r.count(Verdict::Regression) << " regression(s), " << r.count(Verdict::Improvement) << " improvement(s), "
        << r.count(Verdict::Unchanged) << " unchanged, " << r.count(Verdict::NotComparable) << " not comparable, "
        << r.count(Verdict::Incompatible) << " incompatible, over " << r.runs.size() - 1 << " runs against the baseline\n";
    for (std::size_t i = 0; i < r.runs.size(); ++i) {
        const auto only = r.unalignedOf(i);
        if (only.empty())
            continue;
        out << "only in " << runLetter(i) << " (" << only.size() << "):";
        for (const std::string &s : only)
            out << " " << s << (&s == &only.back() ? "" : ",");
        out << "\n";
    }
}

} // namespace plimsoll
