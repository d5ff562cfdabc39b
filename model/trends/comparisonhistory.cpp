#include "model/trends/comparisonhistory.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace plimsoll {

TrendHistory comparisonHistory(const Store &store, const std::string &baselineRun,
                               const std::string &currentRun, int64_t perScenario)
{
    const auto wholeRun = [&](const std::string &key) {
        auto detail = store.run(key);
        if (!detail)
            throw std::invalid_argument("no run '" + key + "'");
        for (ScenarioRecord &s : detail->record.scenarios)
            s.series.clear(); // per-window series take no part in a comparison
        return std::move(detail->record);
    };
    RunRecord base = wholeRun(baselineRun);
    RunRecord cur = wholeRun(currentRun);
    // Each run once, whatever the number of chosen scenarios it has: keyed by run key.
    std::map<std::string, RunRecord> history;
    for (const ScenarioRecord &s : cur.scenarios) {
        for (RunRecord &r : store.recentRunsOf(s.name, cur.target, cur.timestamp, perScenario)) {
            if (r.runKey == base.runKey || r.runKey == cur.runKey)
                continue;
            const std::string key = r.runKey;
            auto [it, inserted] = history.try_emplace(key, std::move(r));
            if (!inserted)
                it->second.scenarios.push_back(std::move(r.scenarios.front()));
        }
    }
    std::vector<RunRecord> runs;
    runs.reserve(history.size() + 2);
    for (auto &[key, run] : history)
        runs.push_back(std::move(run));
    const bool same = base.runKey == cur.runKey;
    runs.push_back(std::move(base));
    if (!same)
        runs.push_back(std::move(cur));
    return TrendHistory::fromRuns(std::move(runs));
}

std::optional<std::string> previousRunOf(const Store &store, const std::string &currentRun)
{
    const auto detail = store.run(currentRun);
    if (!detail)
        throw std::invalid_argument("no run '" + currentRun + "'");
    const RunRecord &cur = detail->record;
    std::optional<RunRecord> best;
    for (const ScenarioRecord &s : cur.scenarios) {
        // The newest few up to the current run's time: the current run itself, runs stored at
        // the same time after it, and sample runs are passed over.
        for (RunRecord &r : store.recentRunsOf(s.name, cur.target, cur.timestamp, 16)) {
            if (r.runKey == cur.runKey || r.sample)
                continue;
            if (r.timestamp == cur.timestamp && store.run(r.runKey)->summary.id > detail->summary.id)
                continue;
            if (!best || r.timestamp >= best->timestamp)
                best = std::move(r);
        }
    }
    if (!best)
        return std::nullopt;
    return best->runKey;
}

std::string compareRequestProblem(const Store &store, const CompareRequest &request)
{
    if (request.runs.size() < 2)
        return "compare needs two or more runs (" + std::to_string(request.runs.size()) + " given)";
    if (request.baseline >= request.runs.size())
        return "the baseline is not one of the runs compared";
    std::map<std::string, std::string> named; // run key -> how it was named first
    for (const std::string &idOrKey : request.runs) {
        const auto detail = store.run(idOrKey);
        if (!detail)
            return "no run '" + idOrKey + "'";
        const auto [it, inserted] = named.try_emplace(detail->record.runKey, idOrKey);
        if (!inserted)
            return "run '" + detail->record.runKey + "' is named twice" +
                   (it->second == idOrKey ? std::string() : " (as " + it->second + " and " + idOrKey + ")") +
                   ": compare each run once";
    }
    return {};
}

RunsComparison compareStoredRuns(const Store &store, const CompareRequest &request,
                                 const ContractPolicies &policies)
{
    if (const std::string problem = compareRequestProblem(store, request); !problem.empty())
        throw std::invalid_argument(problem);
    std::vector<RunRecord> records;
    for (const std::string &idOrKey : request.runs) {
        RunRecord r = store.run(idOrKey)->record;
        for (ScenarioRecord &s : r.scenarios)
            s.series.clear(); // per-window series take no part in a comparison
        records.push_back(std::move(r));
    }
    const RunRecord &base = records[request.baseline];
    const int64_t perScenario = std::max<int64_t>(kComparisonHistoryRuns, request.options.historyRuns);
    std::vector<ScenarioAlignment> alignments(records.size());
    std::vector<RunComparison> pairs(records.size());
    alignments[request.baseline].by = AlignedBy::Name;
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (i == request.baseline)
            continue;
        alignments[i] = alignScenarios(base, records[i]);
        pairs[i] = compareRuns(comparisonHistory(store, base.runKey, records[i].runKey, perScenario), base.runKey,
                               records[i].runKey, policies, request.options, alignments[i].pairing);
    }
    std::vector<const RunRecord *> pointers;
    for (const RunRecord &r : records)
        pointers.push_back(&r);
    return tabulateComparison(pointers, request.baseline, std::move(alignments), std::move(pairs), request.options);
}

} // namespace plimsoll
