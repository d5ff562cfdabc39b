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
