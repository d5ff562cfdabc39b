#include "model/trends/runscomparison.h"

#include "model/core/metricroles.h"
#include "model/trends/trendhistory.h"

#include <algorithm>
#include <cmath>

namespace plimsoll {

namespace {

std::string partnerName(const ScenarioAlignment &a, const RunRecord &run, const std::string &baselineScenario)
{
    if (a.by == AlignedBy::Name) {
        for (const ScenarioRecord &s : run.scenarios)
            if (s.name == baselineScenario)
                return s.name;
        return {};
    }
    for (const auto &[b, c] : a.pairing.pairs)
        if (b == baselineScenario)
            return c;
    return {};
}

const ScenarioRecord *scenarioOf(const RunRecord &run, const std::string &name)
{
    for (const ScenarioRecord &s : run.scenarios)
        if (s.name == name)
            return &s;
    return nullptr;
}

std::string differencesText(const std::vector<ContractDifference> &diffs)
{
    std::string out = "contract differs:";
    for (const ContractDifference &d : diffs)
        out += " " + d.key + " (" + d.baseline.value_or("unset") + " -> " + d.current.value_or("unset") + ")";
    return out;
}

std::string oneAlignment(const ScenarioAlignment &a)
{
    switch (a.by) {
    case AlignedBy::Name:
        return "by name";
    case AlignedBy::Nothing:
        return "no scenario aligned (names differ, no single load factor tells them apart, and "
               "a run has more than one scenario)";
    case AlignedBy::LoadFactor:
    case AlignedBy::Position:
        break;
    }
    std::string out = a.by == AlignedBy::Position ? "by position (one scenario each)" : "by ";
    for (std::size_t i = 0; i < a.factors.size(); ++i) {
        out += a.by == AlignedBy::Position ? (i == 0 ? "; differing in " : ", ") : (i == 0 ? "" : ", ");
        out += factorWord(a.factors[i]) + ": " + a.baselineValues[i] + " ↔ " + a.currentValues[i];
    }
    return out;
}

} // namespace

bool RunsComparison::hasRegression() const
{
    return count(Verdict::Regression) > 0;
}

int RunsComparison::count(Verdict v) const
{
    int n = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (i != baseline)
            n += pairs[i].count(v);
    return n;
}

std::string RunsComparison::alignmentText() const
{
    if (runs.size() < 2)
        return {};
    std::vector<std::size_t> others;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (i != baseline)
            others.push_back(i);
    const ScenarioAlignment &first = alignments[others.front()];
    const bool same = std::all_of(others.begin(), others.end(), [&](std::size_t i) {
        return alignments[i].by == first.by && alignments[i].factors == first.factors &&
               alignments[i].baselineValues == first.baselineValues;
    });
    if (same && first.by != AlignedBy::Nothing) {
        if (first.by == AlignedBy::Name)
            return "Scenarios aligned by name.";
        // One factor list for every run: its values in the order of the runs, baseline first.
        std::string out = first.by == AlignedBy::Position ? "Scenarios aligned by position (one scenario each)"
                                                          : "Scenarios aligned by ";
        for (std::size_t f = 0; f < first.factors.size(); ++f) {
            out += first.by == AlignedBy::Position ? (f == 0 ? "; differing in " : ", ") : (f == 0 ? "" : ", ");
            out += factorWord(first.factors[f]) + ": ";
            for (std::size_t r = 0; r < runs.size(); ++r) {
                const std::string value =
                    r == baseline ? first.baselineValues[f]
                                  : (alignments[r].factors == first.factors ? alignments[r].currentValues[f] : "?");
                out += (r == 0 ? "" : " ↔ ") + value + (r == baseline && baseline != 0 ? " (baseline)" : "");
            }
        }
        return out + ".";
    }
    std::string out = "Scenarios aligned with the baseline " + runs[baseline].runKey + ": ";
    for (std::size_t k = 0; k < others.size(); ++k)
        out += (k == 0 ? "" : "; ") + runs[others[k]].runKey + " " + oneAlignment(alignments[others[k]]);
    return out + ".";
}

std::vector<std::string> RunsComparison::unalignedOf(std::size_t run) const
{
    if (run >= pairs.size() || run == baseline)
        return {};
    std::vector<std::string> out = pairs[run].onlyInCurrent;
    return out;
}

RunsComparison tabulateComparison(const std::vector<const RunRecord *> &records, std::size_t baseline,
                                  std::vector<ScenarioAlignment> alignments, std::vector<RunComparison> pairs,
                                  const ComparisonOptions &options)
{
    RunsComparison out;
    out.baseline = baseline;
    out.options = options;
    for (const RunRecord *r : records)
        out.runs.push_back({r->runKey, r->timestamp, r->commit, r->imageDigest, r->target, r->tuning});
    out.alignments = std::move(alignments);
    out.pairs = std::move(pairs);
    const RunRecord &base = *records[baseline];
    for (const ScenarioRecord &b : base.scenarios) {
        // The scenarios of each run on this row, and that pair's judgement of them.
        std::vector<const ScenarioRecord *> partners(records.size(), nullptr);
        std::vector<const ScenarioComparison *> judged(records.size(), nullptr);
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (i == baseline) {
                partners[i] = &b;
                continue;
            }
            partners[i] = scenarioOf(*records[i], partnerName(out.alignments[i], *records[i], b.name));
            for (const ScenarioComparison &sc : out.pairs[i].scenarios)
                if (sc.scenario == b.name)
                    judged[i] = &sc;
        }
        for (const MetricValue &mb : b.metrics) {
            if (isOfferedRateMetric(mb.name)) // a setting of the run, not a measurement
                continue;
            ComparedRow row;
            row.scenario = b.name;
            row.metric = mb.name;
            row.direction = trendDirection(mb.name);
            for (std::size_t i = 0; i < records.size(); ++i) {
                RunCell cell;
                if (partners[i]) {
                    cell.scenario = partners[i]->name;
                    cell.value = partners[i]->metric(mb.name);
                }
                if (i != baseline && cell.value) {
                    if (mb.value != 0 && std::isfinite(mb.value))
                        cell.deltaPercent = (*cell.value - mb.value) / std::abs(mb.value) * 100;
                    if (const ScenarioComparison *sc = judged[i]; sc && !sc->compatible) {
                        cell.verdict = Verdict::Incompatible;
                        cell.note = differencesText(sc->differences);
                    } else if (sc) {
                        for (const MetricComparison &m : sc->metrics)
                            if (m.metric == mb.name) {
                                cell.verdict = m.verdict;
                                cell.note = m.note;
                            }
                    }
                }
                row.cells.push_back(std::move(cell));
            }
            out.rows.push_back(std::move(row));
        }
    }
    return out;
}

} // namespace plimsoll
