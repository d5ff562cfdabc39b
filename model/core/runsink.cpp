#include "model/core/runsink.h"

#include <stdexcept>

namespace plimsoll {

RunRecord *VectorRunSink::find(const std::string &runKey)
{
    const auto it = m_index.find(runKey);
    return it == m_index.end() ? nullptr : &runs[it->second];
}

void VectorRunSink::put(RunRecord run)
{
    if (find(run.runKey))
        throw std::invalid_argument("run key '" + run.runKey + "' appears twice in the source");
    m_index.emplace(run.runKey, runs.size());
    runs.push_back(std::move(run));
}

void VectorRunSink::append(const std::string &runKey, std::vector<ScenarioRecord> scenarios)
{
    RunRecord *run = find(runKey);
    if (!run)
        throw std::invalid_argument("no run '" + runKey + "' to add scenarios to");
    for (ScenarioRecord &s : scenarios)
        run->scenarios.push_back(std::move(s));
}

std::optional<RunRecord> VectorRunSink::earlierRun(const std::string &runKey)
{
    RunRecord *run = find(runKey);
    if (!run)
        return std::nullopt;
    std::vector<ScenarioRecord> scenarios = std::move(run->scenarios); // not copied
    RunRecord header = *run;
    run->scenarios = std::move(scenarios);
    return header;
}

std::optional<int64_t> VectorRunSink::earlierScenarioLine(const std::string &runKey,
                                                          const std::string &scenario)
{
    if (const RunRecord *run = find(runKey))
        for (const ScenarioRecord &s : run->scenarios)
            if (s.name == scenario)
                return s.line;
    return std::nullopt;
}

} // namespace plimsoll
