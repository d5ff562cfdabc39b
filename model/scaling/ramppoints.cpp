#include "model/scaling/ramppoints.h"

#include "model/store/store.h"

#include <algorithm>

namespace plimsoll {

std::vector<RunRecord> readRunRecords(const Store &store, const std::vector<std::string> &runs)
{
    std::vector<RunRecord> out;
    if (runs.empty()) {
        store.forEachRun({}, [&out](int64_t, RunRecord &&run) { out.push_back(std::move(run)); });
        return out;
    }
    for (const std::string &key : runs) {
        auto detail = store.run(key);
        if (!detail)
            throw StoreError("no run '" + key + "' in " + store.path());
        out.push_back(std::move(detail->record));
    }
    return out;
}

namespace {

// What makes a scenario count in fitSizingModels() (model/sizing/sizingmodels.cpp): a ramp step or an
// offload run by its kind, a memory sample by memory_bytes, a Redis Flex check by flex.oom, a
// point of a sweep over the broker or shard count by stating that count.
RunRecordFilter sizingFilter()
{
    RunRecordFilter filter;
    filter.scenarioKinds = {"ramp-step", "offload"};
    filter.metrics = {"memory_bytes", "flex.oom"};
    filter.factors = {"brokers", "shards"};
    return filter;
}

} // namespace

std::vector<RunRecord> readSizingRuns(const Store &store)
{
    std::vector<RunRecord> out;
    store.forEachRun(sizingFilter(), [&out](int64_t, RunRecord &&run) { out.push_back(std::move(run)); });
    return out;
}

bool carriesSizingEvidence(const RunRecord &run)
{
    const RunRecordFilter f = sizingFilter();
    auto in = [](const std::vector<std::string> &list, const std::string &v) {
        return std::find(list.begin(), list.end(), v) != list.end();
    };
    return std::any_of(run.scenarios.begin(), run.scenarios.end(), [&](const ScenarioRecord &s) {
        if (in(f.scenarioKinds, s.kind))
            return true;
        if (std::any_of(f.metrics.begin(), f.metrics.end(), [&](const std::string &m) { return s.metric(m).has_value(); }))
            return true;
        return std::any_of(f.factors.begin(), f.factors.end(),
                           [&](const std::string &x) { return s.topology.factor(x).has_value(); });
    });
}

std::vector<RampPoint> rampPoints(const RunRecord &run, const std::string &prefix,
                                  const std::string &factor, const std::string &metric)
{
    std::vector<RampPoint> out;
    for (const ScenarioRecord &s : run.scenarios) {
        if (s.name.rfind(prefix, 0) != 0 || s.kind == "saturation")
            continue;
        const auto x = s.topology.factor(factor);
        const auto y = s.metric(metric);
        if (!x || !y)
            continue;
        out.push_back({s.name, double(*x), *y, s.metric("broker_cpu_avg"),
                       s.metric("shard_cpu_max"), s.metric("latency_p99_s")});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const RampPoint &a, const RampPoint &b) { return a.x < b.x; });
    return out;
}

namespace {
// One scenario's point, when it measured both and is no saturation marker.
void addLatencyPoint(const RunRecord &run, const ScenarioRecord &s, std::vector<LatencyPoint> &out,
                     std::vector<LatencyPointOrigin> *origins)
{
    const auto rate = s.metric("records_per_s");
    const auto p99 = s.metric("latency_p99_s");
    if (!rate || !p99 || s.kind == "saturation")
        return;
    LatencyPoint &p = out.emplace_back();
    p.product = run.target.empty() ? run.runKey : run.target;
    const auto slash = s.name.rfind('/');
    if (slash != std::string::npos)
        p.configuration.assign(s.name, 0, slash);
    if (s.topology.threads)
        p.configuration += " threads=" + std::to_string(*s.topology.threads);
    for (const char *f : {"connections", "clients", "producers", "consumers"})
        if (const auto c = s.topology.factor(f)) {
            p.connections = int(*c);
            break;
        }
    p.pipeline = s.topology.pipeline ? int(*s.topology.pipeline) : 1;
    p.throughput = *rate;
    p.avgLatency = s.metric("latency_avg_s");
    p.p99 = *p99;
    p.p999 = s.metric("latency_p999_s");
    if (origins)
        origins->push_back({run.runKey, s.name});
}
} // namespace

std::vector<LatencyPoint> latencyPoints(const std::vector<RunRecord> &runs,
                                        std::vector<LatencyPointOrigin> *origins)
{
    std::vector<LatencyPoint> out;
    for (const RunRecord &run : runs)
        for (const ScenarioRecord &s : run.scenarios)
            addLatencyPoint(run, s, out, origins);
    return out;
}

std::vector<LatencyPoint> readLatencyPoints(const Store &store,
                                            std::vector<LatencyPointOrigin> *origins)
{
    // Only what latencyPoints() reads of each scenario measuring both (never whole runs).
    std::vector<LatencyPoint> out;
    store.forEachMeasuredScenario({"records_per_s", "latency_p99_s"}, {"latency_avg_s", "latency_p999_s"},
                                  [&](const RunRecord &run) { addLatencyPoint(run, run.scenarios.front(), out, origins); });
    return out;
}

} // namespace plimsoll
