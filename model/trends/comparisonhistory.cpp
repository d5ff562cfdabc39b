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

RunComparison compareStoredRuns(const Store &store, const CompareRequest &request,
                                const ContractPolicies &policies)
{
    // By id or by key: the history knows its runs by key.
    const auto keyOf = [&store](const std::string &idOrKey) {
        const auto detail = store.run(idOrKey);
        if (!detail)
            throw std::invalid_argument("no run '" + idOrKey + "'");
        return detail->record.runKey;
    };
    const std::string baseline = keyOf(request.baseline), current = keyOf(request.current);
    const int64_t perScenario = std::max<int64_t>(kComparisonHistoryRuns, request.options.historyRuns);
    return compareRuns(comparisonHistory(store, baseline, current, perScenario), baseline, current,
                       policies, request.options);
}

} // namespace plimsoll
