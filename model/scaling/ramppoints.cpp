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

SaturationStep saturationStepOf(const ScenarioRecord &s, double load)
{
    SaturationStep step;
    step.scenario = s.name;
    step.load = load;
    step.throughput = s.metric("records_per_s").value_or(0);
    step.brokerCpu = s.metric("broker_cpu_avg");
    step.shardCpu = s.metric("shard_cpu_max");
    step.p99 = s.metric("latency_p99_s");
    step.errors = s.metric("errors");
    step.backPressure = s.metric("back_pressure");
    step.poolTimeoutsPerS = s.metric("storage.pool_timeouts_per_s");
    step.brokerBackpressurePerS = s.metric("broker.backpressure_applied_per_s");
    step.brokerBackpressureHeld = s.metric("broker.backpressure_connections");
    return step;
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
        SaturationStep step = saturationStepOf(s, double(*x));
        step.throughput = *y;
        out.push_back({s.name, double(*x), *y, s.metric("broker_cpu_avg"), s.metric("shard_cpu_max"),
                       s.metric("latency_p99_s"), std::move(step)});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const RampPoint &a, const RampPoint &b) { return a.x < b.x; });
    return out;
}

namespace {
// One scenario's point (it measured both): product, run key, name, topology and metrics as the
// store holds them.
void addLatencyPoint(std::string_view target, std::string_view runKey, std::string_view name,
                     const Topology &topology, double rate, double p99, std::optional<double> avg,
                     std::optional<double> p999, std::vector<LatencyPoint> &out,
                     std::vector<LatencyPointOrigin> *origins, LeftOutOrigins *leftOut)
{
    LatencyPoint &p = out.emplace_back();
    p.product = target.empty() ? runKey : target;
    const auto slash = name.rfind('/');
    if (slash != std::string_view::npos)
        p.configuration = name.substr(0, slash);
    if (topology.threads)
        p.configuration += " threads=" + std::to_string(*topology.threads);
    for (const auto &c : {topology.connections, topology.clients, topology.producers, topology.consumers})
        if (c) {
            p.connections = int(*c);
            // Counted as Kafka clients: asynchronous, many requests in flight on each connection.
            p.asynchronousClient = !topology.connections && !topology.clients;
            break;
        }
    p.pipeline = topology.pipeline ? int(*topology.pipeline) : 1;
    p.throughput = rate;
    p.avgLatency = avg;
    p.p99 = p99;
    p.p999 = p999;
    if (origins)
        origins->push_back({std::string(runKey), std::string(name)});
    if (leftOut && isDegenerate(p))
        leftOut->emplace_back(out.size() - 1, LatencyPointOrigin{std::string(runKey), std::string(name)});
}

// The same of a whole run's scenario, when it measured both and is no saturation marker.
void addLatencyPoint(const RunRecord &run, const ScenarioRecord &s, std::vector<LatencyPoint> &out,
                     std::vector<LatencyPointOrigin> *origins, LeftOutOrigins *leftOut)
{
    const auto rate = s.metric("records_per_s");
    const auto p99 = s.metric("latency_p99_s");
    if (!rate || !p99 || s.kind == "saturation")
        return;
    addLatencyPoint(run.target, run.runKey, s.name, s.topology, *rate, *p99, s.metric("latency_avg_s"),
                    s.metric("latency_p999_s"), out, origins, leftOut);
}
} // namespace

std::vector<LatencyPoint> latencyPoints(const std::vector<RunRecord> &runs,
                                        std::vector<LatencyPointOrigin> *origins, LeftOutOrigins *leftOut)
{
    std::vector<LatencyPoint> out;
    for (const RunRecord &run : runs)
        for (const ScenarioRecord &s : run.scenarios)
            addLatencyPoint(run, s, out, origins, leftOut);
    return out;
}

std::vector<LatencyPoint> readLatencyPoints(const Store &store,
                                            std::vector<LatencyPointOrigin> *origins, LeftOutOrigins *leftOut)
{
    // Only what latencyPoints() reads of each scenario measuring both (never whole runs), the
    // saturation summaries left out by the store. A long history's later half is made into
    // points on a thread of its own and appended.
    std::vector<LatencyPoint> points[2];
    std::vector<LatencyPointOrigin> from[2];
    LeftOutOrigins left[2];
    // At most a point per run for most stores: reserved (untouched memory costs nothing), so a
    // million are not copied as the vectors grow.
    for (int half : {0, 1}) {
        points[half].reserve(store.runCountBound());
        if (origins)
            from[half].reserve(points[half].capacity());
    }
    store.forEachMeasuredScenario({"records_per_s", "latency_p99_s"}, {"latency_avg_s", "latency_p999_s"},
                                  [&](const MeasuredScenario &row, int half) {
                                      addLatencyPoint(row.target, row.runKey, row.scenario, *row.topology,
                                                      row.values[0], row.values[1], row.value(2), row.value(3),
                                                      points[half], origins ? &from[half] : nullptr,
                                                      leftOut ? &left[half] : nullptr);
                                  },
                                  "saturation");
    if (leftOut) {
        *leftOut = std::move(left[0]);
        for (auto &[index, origin] : left[1]) // the later half's points follow the earlier's
            leftOut->emplace_back(index + points[0].size(), std::move(origin));
    }
    points[0].insert(points[0].end(), std::make_move_iterator(points[1].begin()),
                     std::make_move_iterator(points[1].end()));
    if (origins) {
        from[0].insert(from[0].end(), std::make_move_iterator(from[1].begin()), std::make_move_iterator(from[1].end()));
        *origins = std::move(from[0]);
    }
    return std::move(points[0]);
}

} // namespace plimsoll
