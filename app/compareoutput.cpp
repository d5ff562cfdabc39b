#include "app/compareoutput.h"

#include "app/texttable.h"
#include "model/core/catalog.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace plimsoll {

using nlohmann::json;

namespace {

// JSON has no infinity or NaN: an unbounded N* or a missing interval end is null.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
json optionalNumber(const std::optional<double> &v) { return v ? number(*v) : json(nullptr); }

json identityJson(const RunIdentity &r)
{
    return {{"run_key", r.runKey}, {"timestamp", r.timestamp}, {"commit", r.commit},
            {"image_digest", r.imageDigest}, {"target", r.target}, {"tuning", r.tuning}};
}

json offeredJson(const ScenarioComparison &s)
{
    auto side = [](const std::optional<OfferedRate> &o) -> json {
        if (!o)
            return nullptr;
        return {{"records_per_s", optionalNumber(o->recordsPerS)}, {"source", o->source}};
    };
    return {{"baseline", side(s.offeredBaseline)}, {"current", side(s.offeredCurrent)}, {"differs", s.offeredDiffers}};
}

json metricJson(const MetricComparison &m)
{
    json j = {{"metric", m.metric},
              {"direction", directionWord(m.direction)},
              {"baseline", m.baseline},
              {"current", m.current},
              {"delta", m.delta},
              {"delta_percent", optionalNumber(m.deltaPercent)},
              {"noise_band", m.noiseBand},
              {"history_points", m.historyPoints},
              {"history_stddev", m.historyStddev},
              {"pvalue", optionalNumber(m.pValue)},
              {"pvalue_adjusted", optionalNumber(m.adjustedPValue)},
              {"verdict", toString(m.verdict)}};
    if (m.perRecordChangePercent)
        j["per_record_change_percent"] = *m.perRecordChangePercent;
    if (!m.note.empty())
        j["note"] = m.note;
    return j;
}

json rampJson(const RampComparison &rc)
{
    json j = {{"family", rc.family}, {"factor", rc.factor}, {"metric", rc.metric},
              {"status", rc.compatible ? "compatible" : "incompatible"},
              {"baseline_steps", rc.baselineSteps}, {"current_steps", rc.currentSteps}};
    if (!rc.compatible)
        j["differences"] = differencesJson(rc.differences);
    if (!rc.note.empty())
        j["note"] = rc.note;
    json params = json::array();
    for (const ParameterComparison &p : rc.parameters)
        params.push_back({{"name", p.name},
                          {"direction", directionWord(p.direction)},
                          {"baseline", number(p.baseline)},
                          {"current", number(p.current)},
                          {"baseline_ci", {number(p.baselineCi.lo), number(p.baselineCi.hi)}},
                          {"current_ci", {number(p.currentCi.lo), number(p.currentCi.hi)}},
                          {"verdict", toString(p.verdict)}});
    if (rc.compatible)
        j["parameters"] = params;
    return j;
}

std::string percentText(const std::optional<double> &pct)
{
    if (!pct)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f %%", *pct);
    return buf;
}

std::string pText(const std::optional<double> &p)
{
    if (!p)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g", *p);
    return buf;
}

std::string plainNumber(double v)
{
    if (std::isinf(v))
        return "∞";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string intervalText(const UslInterval &ci)
{
    if (std::isnan(ci.lo))
        return "-";
    return plainNumber(ci.lo) + "–" + plainNumber(ci.hi);
}

void addMetricRow(TextTable &table, const MetricComparison &m)
{
    table.addRow({m.metric, toString(m.verdict), formatMetric(m.metric, m.baseline), formatMetric(m.metric, m.current),
                  percentText(m.deltaPercent), "± " + formatMetric(m.metric, m.noiseBand), pText(m.adjustedPValue),
                  m.note});
}

// One row for a family of quantiles: how many moved which way, the range of their deltas, the
// smallest corrected p-value.
void addFamilyRow(TextTable &table, const std::string &family, const std::vector<const MetricComparison *> &members)
{
    std::map<std::string, int> verdicts;
    double lo = INFINITY, hi = -INFINITY;
    std::optional<double> minP;
    for (const MetricComparison *m : members) {
        if (m->verdict != Verdict::Unchanged)
            ++verdicts[toString(m->verdict)];
        if (m->deltaPercent) {
            lo = std::min(lo, *m->deltaPercent);
            hi = std::max(hi, *m->deltaPercent);
        }
        if (m->adjustedPValue && (!minP || *m->adjustedPValue < *minP))
            minP = m->adjustedPValue;
    }
    std::string verdict;
    for (const auto &[word, n] : verdicts)
        verdict += (verdict.empty() ? "" : ", ") + std::to_string(n) + " " + word;
    if (verdict.empty())
        verdict = "unchanged";
    std::string range = "-";
    if (lo <= hi) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%+.2f..%+.2f %%", lo, hi);
        range = buf;
    }
    table.addRow({family, verdict, "", "", range, "", pText(minP),
                  std::to_string(members.size()) + " quantiles (--all lists each)"});
}

void addScenario(TextTable &table, const ScenarioComparison &s, bool allRows)
{
    // A pair aligned by a load factor or by position names both scenarios.
    const std::string name = s.currentScenario.empty() || s.currentScenario == s.scenario
                                 ? s.scenario
                                 : s.scenario + " ↔ " + s.currentScenario;
    if (!s.compatible) {
        std::string line = name + ": incompatible baseline, no delta; differing:";
        for (const auto &d : s.differences)
            line += " " + d.key + " (" + d.baseline.value_or("unset") + " -> " + d.current.value_or("unset") + ")";
        table.addSection(line);
        return;
    }
    std::string heading = name;
    if (s.offeredDiffers)
        heading += "  (offered rate " + offeredText(*s.offeredBaseline) + " -> " + offeredText(*s.offeredCurrent) +
                   ": throughput not comparable)";
    table.addSection(heading);
    // Families keep the place of their first member; each member of a family of one stands alone.
    std::map<std::string, std::vector<const MetricComparison *>> families;
    if (!allRows)
        for (const MetricComparison &m : s.metrics)
            if (const std::string f = quantileFamily(m.metric); !f.empty())
                families[f].push_back(&m);
    for (const MetricComparison &m : s.metrics) {
        const std::string f = allRows ? std::string() : quantileFamily(m.metric);
        const auto it = families.find(f);
        if (f.empty() || it == families.end() || it->second.size() < 2) {
            addMetricRow(table, m);
        } else if (it->second.front() == &m) {
            addFamilyRow(table, f, it->second);
        }
    }
}

std::string counted(int n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string joined(const std::vector<std::string> &names)
{
    std::string out;
    for (const auto &n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

} // namespace

const char *directionWord(Direction d)
{
    switch (d) {
    case Direction::HigherIsBetter:
        return "higher";
    case Direction::LowerIsBetter:
        return "lower";
    case Direction::Neutral:
        break;
    }
    return "neutral";
}

json differencesJson(const std::vector<ContractDifference> &diffs)
{
    json out = json::array();
    for (const auto &d : diffs)
        out.push_back({{"key", d.key},
                       {"baseline", d.baseline ? json(*d.baseline) : json(nullptr)},
                       {"current", d.current ? json(*d.current) : json(nullptr)}});
    return out;
}

std::string quantileFamily(const std::string &metric)
{
    static const std::string kQuantile = ".quantile.";
    const auto at = metric.find(kQuantile);
    if (at == std::string::npos || at + kQuantile.size() == metric.size())
        return {};
    return metric.substr(0, at + kQuantile.size()) + "*";
}

json comparisonJson(const RunComparison &r)
{
    json scenarios = json::array();
    for (const ScenarioComparison &s : r.scenarios) {
        json j = {{"scenario", s.scenario}, {"status", s.compatible ? "compatible" : "incompatible"}};
        if (!s.currentScenario.empty() && s.currentScenario != s.scenario)
            j["current_scenario"] = s.currentScenario; // aligned by a load factor or by position
        if (!s.compatible) {
            // No delta at all: the numbers of different contracts do not compare.
            j["differences"] = differencesJson(s.differences);
        } else {
            j["contract"] = s.contract;
            if (s.offeredBaseline || s.offeredCurrent)
                j["offered"] = offeredJson(s);
            json metrics = json::array();
            for (const MetricComparison &m : s.metrics)
                metrics.push_back(metricJson(m));
            j["metrics"] = metrics;
        }
        scenarios.push_back(j);
    }
    json ramps = json::array();
    for (const RampComparison &rc : r.ramps)
        ramps.push_back(rampJson(rc));
    return {{"baseline", identityJson(r.baseline)},
            {"current", identityJson(r.current)},
            {"noise", {{"history_runs", r.options.historyRuns},
                       {"correction", "holm"},
                       {"alpha", r.options.alpha},
                       {"tested", r.tested},
                       {"min_relative_band", r.options.minRelativeBand}}},
            {"scenarios", scenarios},
            {"scalability", ramps},
            {"only_in_baseline", r.onlyInBaseline},
            {"only_in_current", r.onlyInCurrent},
            {"summary", {{"regressions", r.count(Verdict::Regression)},
                         {"improvements", r.count(Verdict::Improvement)},
                         {"unchanged", r.count(Verdict::Unchanged)},
                         {"changed", r.count(Verdict::Changed)},
                         {"not_comparable", r.count(Verdict::NotComparable)},
                         {"follows_throughput", r.count(Verdict::FollowsThroughput)},
                         {"incompatible", r.count(Verdict::Incompatible)}}}};
}

void printComparison(std::ostream &out, const RunComparison &r, bool allRows)
{
    out << "baseline " << r.baseline.runKey << " (" << r.baseline.timestamp << ")\n"
        << "current  " << r.current.runKey << " (" << r.current.timestamp << ")\n";
    int untested = 0; // no noise estimate: the floor alone judges them
    for (const ScenarioComparison &s : r.scenarios)
        for (const MetricComparison &m : s.metrics)
            untested += !m.pValue && m.verdict != Verdict::NotComparable ? 1 : 0;
    char legend[320];
    std::snprintf(legend, sizeof legend,
                  "noise: last %d runs of each series; p-values Holm-corrected over %d metrics at α = %g; "
                  "a band is never under %g %% of the baseline",
                  r.options.historyRuns, r.tested, r.options.alpha, r.options.minRelativeBand * 100);
    out << legend;
    if (untested > 0)
        out << "; " << counted(untested, "metric", "metrics") << " with fewer than 2 earlier runs (P -) judged by "
            << "that floor alone";
    out << "\n\n";
    using A = TextTable::Align;
    TextTable table({{"METRIC"}, {"VERDICT"}, {"BASELINE", A::Right}, {"CURRENT", A::Right}, {"Δ %", A::Right},
                     {"NOISE BAND", A::Right}, {"P (HOLM)", A::Right}, {"NOTE"}},
                    "  ");
    for (const ScenarioComparison &s : r.scenarios)
        addScenario(table, s, allRows);
    for (const RampComparison &rc : r.ramps) {
        const std::string heading = rc.family + "* (USL over " + rc.factor + ")";
        if (!rc.compatible) {
            table.addSection(heading + ": incompatible baseline");
            continue;
        }
        table.addSection(heading + (rc.note.empty() ? "" : ": " + rc.note));
        for (const ParameterComparison &p : rc.parameters) {
            std::optional<double> pct;
            if (p.baseline != 0 && std::isfinite(p.baseline) && std::isfinite(p.current))
                pct = (p.current - p.baseline) / std::abs(p.baseline) * 100;
            table.addRow({p.name, toString(p.verdict), plainNumber(p.baseline), plainNumber(p.current), percentText(pct),
                          "", "", "intervals " + intervalText(p.baselineCi) + " -> " + intervalText(p.currentCi)});
        }
    }
    table.print(out);
    out << "\n"
        << counted(r.count(Verdict::Regression), "regression", "regressions") << ", "
        << counted(r.count(Verdict::Improvement), "improvement", "improvements") << ", "
        << r.count(Verdict::Unchanged) << " unchanged, " << r.count(Verdict::Changed) << " changed, "
        << r.count(Verdict::NotComparable) << " not comparable, " << r.count(Verdict::FollowsThroughput)
        << " following throughput; " << r.count(Verdict::Incompatible) << " incompatible\n";
    if (!r.onlyInBaseline.empty())
        out << "only in baseline (" << r.onlyInBaseline.size() << "): " << joined(r.onlyInBaseline) << "\n";
    if (!r.onlyInCurrent.empty())
        out << "only in current (" << r.onlyInCurrent.size() << "): " << joined(r.onlyInCurrent) << "\n";
}

} // namespace plimsoll
