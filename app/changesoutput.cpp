#include "app/changesoutput.h"

#include "app/compareoutput.h"
#include "model/trends/seriesanalysis.h"
#include "model/core/catalog.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>
#include <string>

namespace plimsoll {

using nlohmann::json;

namespace {

// What a series with runs of inferred time can say of them, in words.
std::string timeInferredNote(const SeriesChanges &s)
{
    const std::size_t n = s.series.points.size();
    const int k = s.timeInferredPoints;
    const bool one = k == 1;
    return std::string(k == int(n) ? (n == 1 ? "its run is" : "all " + std::to_string(n) + " runs are")
                                   : std::to_string(k) + " of " + std::to_string(n) + (one ? " runs is" : " runs are")) +
           (one ? " dated by its file's modification time (or the time of import), not by the run: its place "
                  "in time is not known, so no change point is reported through it"
                : " dated by their file's modification time (or the time of import), not by the run: their "
                  "order is not known, so no change point is reported through them");
}

std::string loadStepsNote(const LoadSteps &l)
{
    std::string keys;
    for (const std::string &k : l.keys)
        keys += (keys.empty() ? "" : ", ") + k;
    return std::to_string(l.runs) + " run" + (l.runs == 1 ? "" : "s") + " at " + std::to_string(l.loads.size()) +
           " loads (" + keys + "): each load is a series of its own; what differs between them is "
           "the load (a sweep), not a change over time";
}

} // namespace

nlohmann::json changesJson(const ChangesReport &r)
{
    json series = json::array();
    for (const SeriesChanges &s : r.series) {
        json changes = json::array();
        for (const DetectedChange &c : s.changes)
            changes.push_back({{"index", c.change.index},
                               {"time", c.timestamp},
                               {"run_key", c.runKey},
                               {"commit", c.commit},
                               {"image_digest", c.imageDigest},
                               {"mean_before", c.change.meanBefore},
                               {"stddev_before", c.change.stddevBefore},
                               {"mean_after", c.change.meanAfter},
                               {"stddev_after", c.change.stddevAfter},
                               {"forward_change_percent", c.change.forwardChangePercent()},
                               {"pvalue", c.change.pValue},
                               {"verdict", toString(c.verdict)},
                               {"provisional", c.provisional},
                               {"short_run", c.shortRun}});
        // JSON has no infinity: a size against no noise at all is null.
        const auto finite = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
        json outliers = json::array();
        for (const DetectedOutlier &o : s.outliers)
            outliers.push_back({{"index", o.outlier.index},
                                {"time", o.timestamp},
                                {"run_key", o.runKey},
                                {"commit", o.commit},
                                {"value", o.outlier.value},
                                {"expected", o.outlier.expected},
                                {"sigmas", finite(o.outlier.sigmas)},
                                {"percent", o.outlier.percent()},
                                {"verdict", toString(o.verdict)}});
        json variance = json::array();
        for (const DetectedVarianceChange &v : s.varianceChanges)
            variance.push_back({{"index", v.change.index},
                                {"time", v.timestamp},
                                {"run_key", v.runKey},
                                {"commit", v.commit},
                                {"stddev_before", v.change.stddevBefore},
                                {"stddev_after", v.change.stddevAfter},
                                {"ratio", finite(v.change.ratio())},
                                {"pvalue", v.change.pValue},
                                {"verdict", toString(v.verdict)}});
        json drifts = json::array();
        for (const DetectedDrift &d : s.drifts)
            drifts.push_back({{"from_index", d.drift.from},
                              {"to_index", d.drift.to - 1},
                              {"from_time", d.fromTimestamp},
                              {"to_time", d.toTimestamp},
                              {"from_run_key", d.fromRunKey},
                              {"to_run_key", d.toRunKey},
                              {"value_from", d.drift.valueFrom},
                              {"value_to", d.drift.valueTo},
                              {"per_run", d.drift.slopePerPoint},
                              {"per_day", d.perDay ? json(*d.perDay) : json(nullptr)},
                              {"verdict", toString(d.verdict)}});
        json entry = {{"target", s.series.target},
                      {"scenario", s.series.scenario},
                      {"metric", s.series.metric},
                      {"direction", directionWord(s.series.direction)},
                      {"contract", s.series.contract.canonical()},
                      {"load", s.series.contract.loadText()},
                      {"points", s.series.points.size()},
                      {"time_inferred_points", s.timeInferredPoints},
                      {"changes", changes},
                      {"outliers", outliers},
                      {"variance_changes", variance},
                      {"drifts", drifts}};
        if (s.timeInferredPoints > 0)
            entry["note"] = timeInferredNote(s);
        series.push_back(std::move(entry));
    }
    json loads = json::array();
    for (const LoadSteps &l : r.loadSteps)
        loads.push_back({{"target", l.target},
                         {"scenario", l.scenario},
                         {"keys", l.keys},
                         {"loads", l.loads},
                         {"runs", l.runs},
                         {"note", loadStepsNote(l)}});
    json baselines = json::array();
    for (const BaselineChange &b : r.baselineChanges)
        baselines.push_back({{"target", b.target},
                             {"scenario", b.scenario},
                             {"time", b.timestamp},
                             {"run_key", b.runKey},
                             {"commit", b.commit},
                             {"previous_run_key", b.previousRunKey},
                             {"differences", differencesJson(b.differences)}});
    return {{"window", r.query.options.window},
            {"pvalue", r.query.options.pValue},
            {"min_magnitude", r.query.options.minMagnitude},
            {"since", r.query.since.empty() ? json(nullptr) : json(r.query.since)},
            {"change_count", r.changeCount()},
            {"outlier_count", r.outlierCount()},
            {"variance_change_count", r.varianceChangeCount()},
            {"drift_count", r.driftCount()},
            {"min_segment", SeriesAnalysisOptions{}.minSegment},
            {"series", series},
            {"baseline_changes", baselines},
            {"load_steps", loads}};
}

void printChanges(const ChangesReport &r)
{
    const std::size_t minSegment = SeriesAnalysisOptions{}.minSegment;
    for (const SeriesChanges &s : r.series) {
        const std::string where = "  " + s.series.scenario + "  " + s.series.metric + "  ";
        // Every finding of the series, oldest first (stable: a change before an outlier at one time).
        std::vector<std::pair<std::string, std::string>> lines;
        const auto at = [](const std::string &run, const std::string &commit) {
            return "  run " + run + (commit.empty() ? "" : " @ " + commit);
        };
        for (const DetectedChange &c : s.changes) {
            char line[160];
            std::snprintf(line, sizeof line, "%+.1f %% (p=%.2g) %s", c.change.forwardChangePercent(),
                          c.change.pValue, toString(c.verdict));
            const std::string provisional =
                c.provisional ? "  provisional: fewer than " + std::to_string(minSegment) + " runs after it" : "";
            lines.emplace_back(c.timestamp, c.timestamp + where + line + provisional +
                                                (c.shortRun ? "  (within its segment)" : "") + at(c.runKey, c.commit));
        }
        for (const DetectedOutlier &o : s.outliers) {
            char line[160];
            if (std::isfinite(o.outlier.sigmas))
                std::snprintf(line, sizeof line, "outlier %+.1f %% (%+.1f σ of noise) %s", o.outlier.percent(),
                              o.outlier.sigmas, toString(o.verdict));
            else
                std::snprintf(line, sizeof line, "outlier %+.1f %% (beside runs without noise) %s",
                              o.outlier.percent(), toString(o.verdict));
            lines.emplace_back(o.timestamp, o.timestamp + where + line + at(o.runKey, o.commit));
        }
        const std::string &metric = s.series.metric;
        const auto signedValue = [&metric](double v) { return (v > 0 ? "+" : "") + formatMetric(metric, v); };
        for (const DetectedVarianceChange &v : s.varianceChanges) {
            char line[200];
            std::snprintf(line, sizeof line, "noise ×%.2g (stddev %s → %s, p=%.2g) %s", v.change.ratio(),
                          formatMetric(metric, v.change.stddevBefore).c_str(),
                          formatMetric(metric, v.change.stddevAfter).c_str(), v.change.pValue, toString(v.verdict));
            lines.emplace_back(v.timestamp, v.timestamp + where + line + at(v.runKey, v.commit));
        }
        for (const DetectedDrift &d : s.drifts) {
            const std::string perDay = d.perDay ? ", " + signedValue(*d.perDay) + " per day" : "";
            char line[300];
            std::snprintf(line, sizeof line, "drift %s per run%s (%s → %s over %zu runs) %s",
                          signedValue(d.drift.slopePerPoint).c_str(), perDay.c_str(),
                          formatMetric(metric, d.drift.valueFrom).c_str(), formatMetric(metric, d.drift.valueTo).c_str(),
                          d.drift.to - d.drift.from, toString(d.verdict));
            lines.emplace_back(d.fromTimestamp,
                               d.fromTimestamp + where + line + "  runs " + d.fromRunKey + " .. " + d.toRunKey);
        }
        std::stable_sort(lines.begin(), lines.end(),
                         [](const auto &x, const auto &y) { return x.first < y.first; });
        for (const auto &[time, text] : lines)
            std::cout << text << "\n";
    }
    for (const BaselineChange &b : r.baselineChanges) {
        std::cout << b.timestamp << "  " << b.scenario << "  new baseline (contract changed:";
        for (const auto &d : b.differences)
            std::cout << " " << d.key;
        std::cout << ")  run " << b.runKey << "\n";
    }
    for (const LoadSteps &l : r.loadSteps)
        std::cout << l.scenario << (l.target.empty() ? "" : " on " + l.target) << ": " << loadStepsNote(l) << "\n";
    // Once per scenario and load (its metrics say the same), with the note of its first series.
    std::set<std::string> said;
    for (const SeriesChanges &s : r.series)
        if (s.timeInferredPoints > 0 &&
            said.insert(s.series.target + '\x1f' + s.series.scenario + '\x1f' + s.series.contract.loadText()).second)
            std::cout << s.series.scenario
                      << (s.series.contract.loadText().empty() ? "" : "  (" + s.series.contract.loadText() + ")")
                      << ": " << timeInferredNote(s) << "\n";
    const auto count = [](int n, const char *one, const char *many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::cout << r.changeCount() << " change point" << (r.changeCount() == 1 ? "" : "s");
    if (r.outlierCount() > 0)
        std::cout << ", " << count(r.outlierCount(), "outlier", "outliers");
    if (r.varianceChangeCount() > 0)
        std::cout << ", " << count(r.varianceChangeCount(), "noise change", "noise changes");
    if (r.driftCount() > 0)
        std::cout << ", " << count(r.driftCount(), "drift", "drifts");
    std::cout << " in " << groupThousands(double(r.series.size()), 0) << " series; " << r.baselineChanges.size() << " baseline change"
              << (r.baselineChanges.size() == 1 ? "" : "s");
    if (!r.loadSteps.empty())
        std::cout << "; " << r.loadSteps.size() << " scenario" << (r.loadSteps.size() == 1 ? "" : "s")
                  << " at several loads";
    if (const int inferred = r.timeInferredPoints(); inferred > 0)
        std::cout << "; " << groupThousands(inferred, 0) << " point" << (inferred == 1 ? "" : "s")
                  << " of inferred time left out of the search";
    std::cout << "\n";
}

} // namespace plimsoll
