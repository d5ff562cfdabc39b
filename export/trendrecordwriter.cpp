#include "export/trendrecordwriter.h"

#include <cmath>
#include <stdexcept>

namespace plimsoll {

namespace {

using ojson = nlohmann::ordered_json;

ojson ordered(const nlohmann::json &v)
{
    // Plain json objects are already key-sorted; a dump/parse keeps that order and all types.
    return ojson::parse(v.dump());
}

} // namespace

std::string trendRecordLines(const RunRecord &run)
{
    // Fields in a fixed order so that diffs of exported files read line against line.
    ojson base;
    base["format"] = kTrendRecordFormat;
    base["run_key"] = run.runKey;
    base["timestamp"] = run.timestamp;
    if (!run.commit.empty())
        base["commit"] = run.commit;
    if (!run.imageDigest.empty())
        base["image_digest"] = run.imageDigest;
    if (!run.tool.empty())
        base["tool"] = run.tool;
    if (!run.toolVersion.empty())
        base["tool_version"] = run.toolVersion;
    if (!run.target.empty())
        base["target"] = run.target;
    if (run.environment.is_object() && !run.environment.empty())
        base["environment"] = ordered(run.environment);
    if (run.tuning.is_object() && !run.tuning.empty())
        base["tuning"] = ordered(run.tuning);
    if (run.sample)
        base["sample"] = true;
    // The user's labels of the run (`plimsoll name`, `plimsoll tag`).
    if (!run.name.empty())
        base["run_name"] = run.name;
    if (!run.tags.empty())
        base["run_tags"] = run.tags;
    // A run's provenance rides on its first line's "provenance" when they are the same (how
    // hand-written files give it); otherwise it is stated, so the file imports back exactly.
    const std::string firstProvenance = run.scenarios.empty() ? std::string() : run.scenarios.front().provenance;
    if (run.provenance != firstProvenance)
        base["run_provenance"] = run.provenance;

    std::string out;
    for (const ScenarioRecord &s : run.scenarios) {
        ojson line = base;
        line["scenario"] = s.name;
        if (!s.kind.empty())
            line["kind"] = s.kind;
        if (!s.provenance.empty())
            line["provenance"] = s.provenance;
        if (const nlohmann::json topology = s.topology.toJson(); !topology.empty())
            line["topology"] = ordered(topology);
        ojson metrics = ojson::object();
        for (const MetricValue &m : s.metrics) {
            if (!std::isfinite(m.value))
                throw std::invalid_argument("metric '" + m.name + "' of scenario '" + s.name +
                                            "' is not a finite number");
            metrics[m.name] = m.value;
        }
        line["metrics"] = std::move(metrics);
        out += line.dump();
        out += '\n';
    }
    return out;
}

} // namespace plimsoll
