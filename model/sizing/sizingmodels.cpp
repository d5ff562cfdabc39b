#include "model/sizing/sizingmodels.h"

#include "model/scaling/ramppoints.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>

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

// A text the run's tuning states under `key`, when it does.
std::optional<std::string> tuningText(const RunRecord &run, const char *key)
{
    const auto it = run.tuning.find(key);
    if (it == run.tuning.end() || !it->is_string() || it->get<std::string>().empty())
        return std::nullopt;
    return it->get<std::string>();
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

// What was missing, and whose runs answer for each model.
void describeModels(SizingModels &m)
{
    if (!m.shard.ok)
        m.notes.push_back("no ramp step reports shard CPU with a shard count: shard capacity unknown");
    if (!m.broker.ok)
        m.notes.push_back("no ramp step reports broker CPU with a broker count: broker capacity unknown");
    if (!m.storedBytes.fitted)
        m.notes.push_back(m.storedBytes.reason);
    std::vector<std::string> latencyRuns;
    for (const LatencyCurvePoint &p : m.latency)
        if (std::find(latencyRuns.begin(), latencyRuns.end(), p.runKey) == latencyRuns.end())
            latencyRuns.push_back(p.runKey);
    const std::pair<const char *, std::vector<std::string>> parts[] = {
        {"shard capacity", m.shard.ok ? m.shard.runKeys : std::vector<std::string>{}},
        {"broker capacity", m.broker.ok ? m.broker.runKeys : std::vector<std::string>{}},
        {"broker scaling", m.brokerSweep.ok ? m.brokerSweep.runKeys : std::vector<std::string>{}},
        {"shard scaling", m.shardSweep.ok ? m.shardSweep.runKeys : std::vector<std::string>{}},
        {"the latency curve", latencyRuns},
        {"stored bytes per record", m.storedBytes.fitted ? m.storedBytes.runKeys : std::vector<std::string>{}},
        {"Redis Flex", m.flex.fitted ? m.flex.runKeys : std::vector<std::string>{}},
        {"offload", m.offload.fitted ? m.offload.runKeys : std::vector<std::string>{}},
        {"the consume side", m.consume.measured() ? m.consume.runKeys : std::vector<std::string>{}},
        {"the tiered consume side", m.tieredConsume.measured() ? m.tieredConsume.runKeys : std::vector<std::string>{}},
    };
    m.components.clear();
    for (const auto &[name, keys] : parts)
        m.components.push_back({name, sourceOf(keys, m.sampleRunKeys), keys});
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
                        m.rampKeyPattern = tuningText(run, "key_pattern").value_or(kKorvetStreamKeyPattern);
                        m.rampTopic = tuningText(run, "topic").value_or(kMeasuredTopicDefault);
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
                const auto load = r.factor.empty() ? std::nullopt : s->topology.factor(r.factor);
                satSteps.push_back(saturationStepOf(*s, load ? double(*load) : 0));
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
    for (const RunRecord &run : runs)
        if (run.sample)
            m.sampleRunKeys.push_back(run.runKey);
    std::sort(m.sampleRunKeys.begin(), m.sampleRunKeys.end());
    m.sampleRunKeys.erase(std::unique(m.sampleRunKeys.begin(), m.sampleRunKeys.end()), m.sampleRunKeys.end());
    describeModels(m);
    return m;
}

SizingModels fitSizingModelsPerComponent(const std::vector<RunRecord> &runs, const SizingModelOptions &options)
{
    const auto samples = std::count_if(runs.begin(), runs.end(), [](const RunRecord &r) { return r.sample; });
    if (samples == 0 || samples == std::ptrdiff_t(runs.size()))
        return fitSizingModels(runs, options);
    std::vector<RunRecord> ownRuns, sampleRuns;
    for (const RunRecord &r : runs)
        (r.sample ? sampleRuns : ownRuns).push_back(r);
    SizingModels m = fitSizingModels(ownRuns, options);
    const SizingModels s = fitSizingModels(sampleRuns, options);
    // A model of the samples stands in only where the user's runs measure none; what goes with it
    // (the configuration a shard capacity was measured on) comes along.
    std::set<std::string> fromSamples;
    auto take = [&fromSamples](auto &mine, const auto &theirs, const std::vector<std::string> &keys) {
        mine = theirs;
        fromSamples.insert(keys.begin(), keys.end());
    };
    if (!m.shard.ok && s.shard.ok) {
        take(m.shard, s.shard, s.shard.runKeys);
        m.rampShards = s.rampShards;
        m.rampPartitions = s.rampPartitions;
        m.rampKeyPattern = s.rampKeyPattern;
        m.rampTopic = s.rampTopic;
        m.rampShardsPerNode = s.rampShardsPerNode;
        m.rampRecordBytes = s.rampRecordBytes;
    }
    if (!m.broker.ok && s.broker.ok)
        take(m.broker, s.broker, s.broker.runKeys);
    if (!m.brokerSweep.ok && s.brokerSweep.ok)
        take(m.brokerSweep, s.brokerSweep, s.brokerSweep.runKeys);
    if (!m.shardSweep.ok && s.shardSweep.ok)
        take(m.shardSweep, s.shardSweep, s.shardSweep.runKeys);
    if (!m.storedBytes.fitted && s.storedBytes.fitted)
        take(m.storedBytes, s.storedBytes, s.storedBytes.runKeys);
    if (!m.flex.fitted && s.flex.fitted)
        take(m.flex, s.flex, s.flex.runKeys);
    if (!m.offload.fitted && s.offload.fitted)
        take(m.offload, s.offload, s.offload.runKeys);
    if (!m.consume.measured() && s.consume.measured())
        take(m.consume, s.consume, s.consume.runKeys);
    if (!m.tieredConsume.measured() && s.tieredConsume.measured())
        take(m.tieredConsume, s.tieredConsume, s.tieredConsume.runKeys);
    if (m.latency.empty() && !s.latency.empty()) {
        m.latency = s.latency;
        for (const LatencyCurvePoint &p : s.latency)
            fromSamples.insert(p.runKey);
    }
    if (!(m.wireCompression > 0))
        m.wireCompression = s.wireCompression;
    if (!(m.rampRecordBytes > 0))
        m.rampRecordBytes = s.rampRecordBytes;
    // The samples' ramps whose runs answer for something: their peaks bound the extrapolation
    // warning and the report fits them, beside the user's own.
    for (const RampSaturation &ramp : s.ramps)
        if (fromSamples.count(ramp.runKey))
            m.ramps.push_back(ramp);
    m.sampleRunKeys = s.sampleRunKeys;
    m.notes.clear();
    describeModels(m);
    return m;
}

SizingModels fitSelectedModels(Evidence &evidence, const EvidenceSelection &selection,
                               const SizingModelOptions &options)
{
    const bool perComponent = selection.samples == SampleRuns::Auto && selection.runs.runs.empty();
    SizingModels models = perComponent ? fitSizingModelsPerComponent(evidence.runs, options)
                                       : fitSizingModels(evidence.runs, options);
    // Which runs answer for what, once anything does (a selection that answers nothing says so in
    // the sizing's error instead).
    const bool answered = std::any_of(models.components.begin(), models.components.end(),
                                      [](const ComponentEvidence &c) { return c.source != EvidenceSource::None; });
    const std::string components = answered ? componentsText(models.components) : std::string();
    if (!components.empty())
        evidence.note += (evidence.note.empty() ? "" : "; ") + components;
    return models;
}

FittedEvidence fitEvidence(const Store &store, const EvidenceSelection &selection, const SizingModelOptions &options)
{
    FittedEvidence out;
    out.evidence = readSizingEvidence(store, selection, true);
    out.models = fitSelectedModels(out.evidence, selection, options);
    return out;
}

} // namespace plimsoll
