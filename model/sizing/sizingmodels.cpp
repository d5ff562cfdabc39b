#include "model/sizing/sizingmodels.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>

namespace plimsoll {

namespace {

// The seed's measured topology spreads 24 shards over 3 nodes; its environment states the
// node count only as text ("3 nodes r6i.2xlarge ..."), read here when present.
std::optional<double> redisNodes(const RunRecord &run)
{
    const auto it = run.environment.find("redis");
    if (it == run.environment.end() || !it->is_string())
        return std::nullopt;
    static const std::regex nodes(R"((\d+)\s+nodes?\b)");
    std::smatch m;
    const std::string text = it->get<std::string>();
    if (std::regex_search(text, m, nodes))
        return std::stod(m[1].str());
    return std::nullopt;
}

std::string prefixOf(const std::string &scenario)
{
    const auto slash = scenario.rfind('/');
    return slash == std::string::npos ? std::string() : scenario.substr(0, slash);
}

// The load factor a ramp varies: the first of these whose value differs across its steps.
std::string rampFactor(const std::vector<const ScenarioRecord *> &steps)
{
    for (const char *f : {"producers", "consumers", "clients", "connections", "threads",
                          "pipeline", "brokers", "shards", "partitions"}) {
        std::optional<int64_t> first;
        for (const ScenarioRecord *s : steps) {
            const auto v = s->topology.factor(f);
            if (!v)
                continue;
            if (first && *v != *first)
                return f;
            first = v;
        }
    }
    return {};
}

} // namespace

SizingModels fitSizingModels(const std::vector<RunRecord> &runs, const SizingModelOptions &options)
{
    SizingModels m;
    std::vector<CapacityPoint> shardPoints, brokerPoints;
    std::vector<MemorySample> memory;
    std::vector<FlexSample> flex;
    std::vector<OffloadSample> offload;
    std::vector<double> shardsPerNode, wire;
    std::vector<double> recordSizes;
    double hottestShardCpu = -1;
    ConsumeModelBuilder consume;

    for (const RunRecord &run : runs) {
        std::map<std::string, std::vector<const ScenarioRecord *>> ramps;
        const auto nodes = redisNodes(run);
        for (const ScenarioRecord &s : run.scenarios) {
            const Topology &t = s.topology;
            const auto rate = s.metric("records_per_s");
            const double recordBytes = t.recordSizeBytes ? double(*t.recordSizeBytes) : 0;
            const auto readPath = consumeStepPath(s);
            if (readPath)
                consume.add(*readPath, s, run.runKey);
            if (s.kind == "ramp-step" && rate && *rate > 0 && !readPath) {
                ramps[prefixOf(s.name)].push_back(&s);
                const auto shardCpu = s.metric("shard_cpu_max");
                const auto brokerCpu = s.metric("broker_cpu_avg");
                if (shardCpu && t.shards && *t.shards > 0) {
                    shardPoints.push_back({*rate / double(*t.shards), *shardCpu, run.runKey, s.name});
                    if (*shardCpu > hottestShardCpu) {
                        hottestShardCpu = *shardCpu;
                        m.rampShards = int(*t.shards);
                        m.rampPartitions = t.partitions ? int(*t.partitions) : 0;
                    }
                    if (recordBytes > 0)
                        recordSizes.push_back(recordBytes);
                    if (nodes && *nodes > 0)
                        shardsPerNode.push_back(double(*t.shards) / *nodes);
                }
                if (brokerCpu && t.brokers && *t.brokers > 0)
                    brokerPoints.push_back({*rate / double(*t.brokers), *brokerCpu, run.runKey, s.name});
                const auto p99 = s.metric("latency_p99_s");
                if (p99 && t.shards && *t.shards > 0)
                    m.latency.push_back({*rate / double(*t.shards),
                                         t.brokers ? *rate / double(*t.brokers) : 0, *p99,
                                         run.runKey, s.name});
                const auto bytes = s.metric("bytes_per_s");
                if (bytes && *bytes > 0 && recordBytes > 0)
                    wire.push_back(*rate * recordBytes / *bytes);
            }
            const auto mem = s.metric("memory_bytes");
            const auto records = s.metric("run.records");
            if (mem && records && recordBytes > 0)
                memory.push_back({*mem, *records, recordBytes, run.runKey, s.name});
            if (const auto oom = s.metric("flex.oom"); oom && rate && recordBytes > 0) {
                FlexSample f{*rate, recordBytes, records, *oom > 0,
                             s.metric("flex.records_before_oom"), std::nullopt, run.runKey, s.name};
                const auto ratio = run.tuning.find("flex.ram_ratio");
                if (ratio != run.tuning.end() && ratio->is_number())
                    f.ramRatio = ratio->get<double>();
                flex.push_back(f);
            }
            if (s.kind == "offload" && rate && t.partitions)
                offload.push_back({double(*t.partitions), *rate, recordBytes, run.runKey, s.name});
        }
        for (const auto &[prefix, steps] : ramps) {
            RampSaturation r{run.runKey, prefix, rampFactor(steps), {}};
            std::vector<SaturationStep> satSteps;
            for (const ScenarioRecord *s : steps) {
                SaturationStep step;
                step.scenario = s->name;
                const auto load = r.factor.empty() ? std::nullopt : s->topology.factor(r.factor);
                step.load = load ? double(*load) : 0;
                step.throughput = *s->metric("records_per_s");
                step.brokerCpu = s->metric("broker_cpu_avg");
                step.shardCpu = s->metric("shard_cpu_max");
                step.p99 = s->metric("latency_p99_s");
                step.errors = s->metric("errors");
                step.backPressure = s->metric("back_pressure");
                satSteps.push_back(step);
            }
            if (r.factor.empty())
                continue; // not a ramp: nothing varies
            r.result = SaturationDetector(options.saturation).detect(std::move(satSteps));
            m.ramps.push_back(std::move(r));
        }
    }

    const ComponentCapacityFitter fitter(CapacityOptions{options.cpuLimit});
    m.shard = fitter.fit("Redis shard", shardPoints);
    m.broker = fitter.fit("broker", brokerPoints);
    m.brokerSweep = fitComponentSweep(runs, "broker", "brokers");
    m.shardSweep = fitComponentSweep(runs, "Redis shard", "shards");
    m.storedBytes = StoredBytesModel::fit(memory);
    m.flex = FlexModel::fit(flex);
    m.offload = OffloadModel::fitSamples(offload);
    consume.fit(options.cpuLimit, m.consume, m.tieredConsume);
    auto median = [](std::vector<double> v) {
        if (v.empty())
            return 0.0;
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    m.rampRecordBytes = median(recordSizes);
    m.rampShardsPerNode = median(shardsPerNode);
    m.wireCompression = median(wire);
    std::sort(m.latency.begin(), m.latency.end(),
              [](const LatencyCurvePoint &a, const LatencyCurvePoint &b) {
                  return a.perShardRate < b.perShardRate;
              });
    if (!m.shard.ok)
        m.notes.push_back("no ramp step reports shard CPU with a shard count: shard capacity unknown");
    if (!m.broker.ok)
        m.notes.push_back("no ramp step reports broker CPU with a broker count: broker capacity unknown");
    if (!m.storedBytes.fitted)
        m.notes.push_back(m.storedBytes.reason);
    return m;
}

FittedEvidence fitEvidence(const Store &store, const EvidenceSelection &selection, const SizingModelOptions &options)
{
    FittedEvidence out;
    out.evidence = readEvidence(store, selection, true);
    out.models = fitSizingModels(out.evidence.runs, options);
    return out;
}

} // namespace plimsoll
