#include "model/sizing/sizing.h"

#include "model/sizing/consumemodel.h"
#include "model/sizing/placement.h"
#include "model/sizing/sizingconsume.h"
#include "model/sizing/sizingplacement.h"
#include "model/sizing/sizingtext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plimsoll {

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr int kMinRedisNodes = 3; // a Redis Enterprise cluster needs a quorum of three
constexpr int kDefaultShardsPerNode = 8; // the seed's 24 shards on 3 nodes

using sizingtext::fmt;
using sizingtext::gibText;
using sizingtext::rateText;
using sizingtext::grouped;

int roundUpTo(int value, int multiple)
{
    return multiple <= 1 ? value : (value + multiple - 1) / multiple * multiple;
}

std::vector<std::string> merged(std::vector<std::string> a, const std::vector<std::string> &b)
{
    for (const auto &k : b)
        if (std::find(a.begin(), a.end(), k) == a.end())
            a.push_back(k);
    return a;
}

// The taken answer's reasoning, why it was taken, and the others' counts beside it.
std::string takenReasoning(const UnitsChoice &c)
{
    std::string out, others;
    for (const UnitsAnswer &a : c.answers) {
        if (a.taken)
            out = a.reasoning;
        else
            others += (others.empty() ? "" : ", ") + a.model + " " +
                      (a.units ? std::to_string(*a.units) : std::string("—"));
    }
    return out + " [" + c.taken + " model: " + c.why + (others.empty() ? "" : "; beside it: " + others) +
           "]";
}

std::vector<std::string> takenRuns(const UnitsChoice &c)
{
    for (const UnitsAnswer &a : c.answers)
        if (a.taken)
            return a.runKeys;
    return {};
}

} // namespace

const char *toString(ConsumeFrom from)
{
    return from == ConsumeFrom::Backlog ? "backlog" : "tail";
}

std::optional<ConsumeFrom> consumeFromFromString(const std::string &text)
{
    if (text == "tail")
        return ConsumeFrom::Tail;
    if (text == "backlog")
        return ConsumeFrom::Backlog;
    return std::nullopt;
}

std::string SizingInputs::validate(const std::string &prefix) const
{
    const std::optional<std::string> checks[] = {
        rate != 0 || bytesPerS <= 0 ? kRate.check(prefix + "rate", rate) : std::nullopt,
        rate > 0 ? std::nullopt : kBytesPerS.check(prefix + "rate", bytesPerS),
        kRecordBytes.check(prefix + "record-size", recordBytes),
        kCompressionRatio.check(prefix + "compression", compressionRatio),
        kRetentionS.check(prefix + "retention", retentionS),
        kReplication.check(prefix + "replication", replication),
        kP99Budget.check(prefix + "p99", p99Budget),
        kHeadroom.check(prefix + "headroom", headroom),
        kLocalRetentionS.check(prefix + "local-retention", localRetentionS),
        kTrimTickS.check(prefix + "trim-tick", trimTickS),
        kShardsPerNode.check(prefix + "shards-per-node", shardsPerNode),
        kSkewTarget.check(prefix + "skew-target", skewTarget),
        skewTarget > 0 && skewTarget < 1
            ? std::optional<std::string>(prefix + "skew-target must be 1 or more (max/mean partitions per shard), "
                                         "or 0 for the measured configuration's (got " + fmt("%g", skewTarget) + ")")
            : std::nullopt,
        kNodeRamBytes.check(prefix + "node-ram", nodeRamBytes),
        kNodeRamUsable.check(prefix + "node-ram-usable", nodeRamUsable),
        kConsumerGroups.check(prefix + "consumer-groups", consumerGroups),
        kConsumeRate.check(prefix + "consume-rate", consumeRate),
        kConsumeMargin.check(prefix + "consume-margin", consumeMargin),
        kFetchP99Budget.check(prefix + "fetch-p99", fetchP99Budget),
    };
    for (const auto &problem : checks)
        if (problem)
            return *problem;
    if (const auto problem = consumeProblem(*this, prefix))
        return *problem;
    return {};
}

const SizingLine *SizingResult::line(const std::string &key) const
{
    for (const SizingLine &l : lines)
        if (l.key == key)
            return &l;
    return nullptr;
}

const PartitionPlan &Sizer::partitionsFor(int shards, int brokers, const SizingInputs &in) const
{
    const auto key = std::make_tuple(shards, brokers, in.topic, in.keyPattern, in.skewTarget);
    auto it = m_partitionCache.find(key);
    if (it != m_partitionCache.end())
        return it->second;
    // The per-shard capacity was measured with the ramp's placement skew baked in: the shared
    // partition model takes that skew as its target. The search is a single pass over
    // candidate counts, but at hundreds of shards it costs more than the rest of a sizing:
    // cached, since a window re-sizes on every keystroke.
    PartitionPlanInputs pin;
    pin.shards = shards;
    pin.brokers = brokers;
    pin.topic = in.topic;
    pin.keyPattern = in.keyPattern;
    pin.measuredShards = m_models.rampShards;
    pin.measuredPartitions = m_models.rampPartitions;
    if (in.skewTarget > 0)
        pin.skewTarget = in.skewTarget;
    pin.measuredKeyPattern = m_models.rampKeyPattern;
    pin.measuredTopic = m_models.rampTopic;
    const PartitionPlan plan = planPartitions(pin);
    return m_partitionCache.emplace(key, plan).first->second;
}

std::optional<double> Sizer::predictP99(double perShardRate, double perBrokerRate) const
{
    const SizingModels &m = m_models;
    if (m.latency.empty() || !m.shard.ok)
        return std::nullopt;
    auto fraction = [&m](double shardRate, double brokerRate) {
        double f = shardRate / m.shard.capacityPerUnit;
        if (m.broker.ok && brokerRate > 0)
            f = std::max(f, brokerRate / m.broker.capacityPerUnit);
        return f;
    };
    std::vector<std::pair<double, double>> curve; // load fraction → p99
    for (const LatencyCurvePoint &p : m.latency)
        curve.emplace_back(fraction(p.perShardRate, p.perBrokerRate), p.p99);
    std::sort(curve.begin(), curve.end());
    const double f = fraction(perShardRate, perBrokerRate);
    if (f <= curve.front().first)
        return curve.front().second; // below the ramp: latency does not fall below its floor
    for (size_t i = 1; i < curve.size(); ++i) {
        if (f <= curve[i].first) {
            const auto &[x0, y0] = curve[i - 1];
            const auto &[x1, y1] = curve[i];
            return x1 > x0 ? y0 + (y1 - y0) * (f - x0) / (x1 - x0) : y1;
        }
    }
    return std::nullopt;
}

SizingResult Sizer::size(const SizingInputs &in) const
{
    SizingResult r;
    const SizingModels &m = m_models;
    // An input outside its domain is refused, never replaced by a value of the engine's choosing.
    if (std::string problem = in.validate(); !problem.empty()) {
        r.error = problem;
        return r;
    }
    r.rate = in.rate > 0 ? in.rate : in.bytesPerS / in.recordBytes;
    if (!m.shard.ok || !m.broker.ok) {
        r.error = "no ramp with shard and broker CPU in the store: " +
                  (m.shard.ok ? m.broker.error : m.shard.error) +
                  " (install the samples or import a pipeline ramp)";
        return r;
    }
    auto add = [&r](std::string key, std::string label, double value, std::string display,
                    std::string reasoning, std::vector<std::string> runs = {}) {
        r.lines.push_back({std::move(key), std::move(label), value, std::move(display),
                           std::move(reasoning), std::move(runs), EvidenceSource::None, {}});
    };
    const double headroom = std::max(0.0, in.headroom);
    const double sized = r.rate * (1 + headroom);
    const std::string sizedText =
        rateText(sized) + " records/s" +
        (headroom > 0 ? " (" + rateText(r.rate) + " + " + fmt("%.0f", headroom * 100) + "% headroom)"
                      : "");
    add("rate", "Target rate", r.rate, rateText(r.rate) + " records/s",
        in.rate > 0 ? "as asked"
                    : fmt("%.1f", in.bytesPerS / 1048576) + " MiB/s ÷ " +
                          fmt("%.0f", in.recordBytes) + " B per record");
    if (m.rampRecordBytes > 0 && std::abs(in.recordBytes / m.rampRecordBytes - 1) > 0.25)
        r.warnings.push_back("capacities were measured with " + fmt("%.0f", m.rampRecordBytes) +
                             " B records and are applied per record to " +
                             fmt("%.0f", in.recordBytes) +
                             " B records: measure a ramp at your record size");

    // A ramp that stopped on Korvet's own pushback stopped short of every CPU limit: capacities
    // drawn from CPU would promise what its broker or Redis pool refused.
    for (const RampSaturation &ramp : m.ramps) {
        const SaturationResult &sat = ramp.result;
        if (sat.firstSaturated < 0)
            continue;
        const StepVerdict &v = sat.verdicts[std::size_t(sat.firstSaturated)];
        if (v.component != "Redis connection pool" && v.component != "broker back-pressure")
            continue;
        const std::string *reason = nullptr;
        for (const std::string &text : v.reasons)
            if (text.rfind(v.component, 0) == 0)
                reason = &text;
        r.warnings.push_back(ramp.runKey + " (" + ramp.prefix + ") saturated at " +
                             sat.steps[std::size_t(sat.firstSaturated)].scenario + " on " +
                             (reason ? *reason : v.component) + ", " +
                             rateText(sat.steps[std::size_t(sat.firstSaturated)].throughput) +
                             " records/s, before a CPU limit: per-unit capacities drawn from CPU may be above what "
                             "that configuration delivers (its pushback, not its CPU, set the limit)");
    }

    // Past the hottest step of every ramp the capacities are straight lines drawn beyond the
    // data: said with the factor, so 1.2M against a 642k peak reads as the stretch it is.
    const RampSaturation *peak = nullptr;
    for (const RampSaturation &ramp : m.ramps)
        if (!peak || ramp.result.peakThroughput > peak->result.peakThroughput)
            peak = &ramp;
    if (peak && peak->result.peakThroughput > 0 && sized > peak->result.peakThroughput) {
        const double ratio = sized / peak->result.peakThroughput;
        r.warnings.push_back(rateText(sized) + " records/s" + (headroom > 0 ? " (with headroom)" : "") +
                             " is " +
                             (ratio < 1.1 ? fmt("%.0f", std::ceil((ratio - 1) * 100)) + " % above"
                                          : fmt("%.2g", ratio) + "×") +
                             " the largest measured " + rateText(peak->result.peakThroughput) +
                             " records/s (" + peak->runKey + "): the deployment extrapolates by adding units");
    }

    // The model describes one Redis cluster: a shard owns at least one of its 16384 hash slots,
    // so a target needing more shards than that is no deployment this model can answer for.
    const double shardsNeeded = std::ceil(sized / m.shard.capacityPerUnit);
    const double brokersNeeded = std::ceil(sized / m.broker.capacityPerUnit);
    if (!(shardsNeeded <= kClusterSlots) || !(brokersNeeded <= kClusterSlots)) {
        r.error = grouped(sized) + " records/s needs " + grouped(shardsNeeded) + " shards (at " +
                  grouped(m.shard.capacityPerUnit) + " records/s each) and " +
                  grouped(brokersNeeded) + " brokers: beyond the " +
                  std::to_string(kClusterSlots) +
                  " hash slots of one Redis cluster, outside what this model describes; size "
                  "each cluster for its share of the load";
        return r;
    }

    // Units each component needs at the CPU limit; the hottest measured step sets each.
    int brokers = m.broker.unitsFor(sized);
    int shards = m.shard.unitsFor(sized);
    std::string brokerWhy = rateText(sized) + " ÷ " + m.broker.reason;
    std::string shardWhy = rateText(sized) + " ÷ " + m.shard.reason;
    // The models fitted across runs, beside the CPU-linear capacity: each answer is kept.
    r.brokerChoice = chooseUnits("broker", sized, m.brokerSweep, brokers, brokerWhy,
                                 m.broker.runKeys, true, in.brokerModel);
    r.shardChoice = chooseUnits("Redis shard", sized, m.shardSweep, shards, shardWhy,
                                m.shard.runKeys, false, BrokerModel::Auto);
    if (!r.brokerChoice.ok) {
        r.error = r.brokerChoice.error;
        return r;
    }
    brokers = r.brokerChoice.units;
    shards = r.shardChoice.units;
    brokerWhy = takenReasoning(r.brokerChoice);
    shardWhy = takenReasoning(r.shardChoice);

    // The consumer groups' reads on the same units: the larger of the ingest answer and what
    // ingest and reads need together (or ingest with the margin held, where unmeasured).
    const ConsumePlan consume(m.consume, m.tieredConsume, in, r.rate, headroom);
    const ConsumeModel &reads = consume.model();
    if (consume.active()) {
        const int withReads[] = {std::max(brokers, consume.unitsFor(m.broker, reads.broker, sized)),
                                 std::max(shards, consume.unitsFor(m.shard, reads.shard, sized))};
        if (withReads[0] > kClusterSlots || withReads[1] > kClusterSlots) {
            r.error = "ingest and " + consume.demandText() + " need " + std::to_string(withReads[1]) + " shards and " +
                      std::to_string(withReads[0]) + " brokers: beyond the " + std::to_string(kClusterSlots) +
                      " hash slots of one Redis cluster, outside what this model describes";
            return r;
        }
        for (const auto &[why, unit, before, after, capacity] :
             {std::tuple{&brokerWhy, "broker", brokers, withReads[0], &reads.broker},
              std::tuple{&shardWhy, "shard", shards, withReads[1], &reads.shard}})
            if (const std::string raised = consume.raisedText(unit, before, after, *capacity); !raised.empty())
                *why += "; " + raised;
        brokers = withReads[0];
        shards = withReads[1];
    }

    // The latency budgets: add the unit closest to its limit until the ramp's p99 at the
    // per-unit load fits, and the consume ramp's fetch p99 too. Past a ramp's top there is no
    // prediction to hold against it.
    std::string budgetWhy;
    for (int guard = 0; guard < 256; ++guard) {
        const auto p99 = predictP99(sized / shards, sized / brokers);
        const auto fetch = consume.fetchP99(m.broker, m.shard, sized, brokers, shards);
        const bool produceOver = p99 && *p99 > in.p99Budget;
        if (!produceOver && !(fetch && *fetch > consume.fetchBudget()))
            break;
        const bool raiseShards =
            produceOver ? sized / shards / m.shard.capacityPerUnit >= sized / brokers / m.broker.capacityPerUnit
                        : consume.cpuAt(m.shard, reads.shard, sized, shards) / m.shard.cpuLimit >=
                              consume.cpuAt(m.broker, reads.broker, sized, brokers) / m.broker.cpuLimit;
        ++(raiseShards ? shards : brokers);
        budgetWhy = produceOver ? "raised to keep predicted p99 within " + fmt("%.3g", in.p99Budget * 1e3) + " ms"
                                : "raised to keep the predicted fetch p99 within " +
                                      fmt("%.3g", consume.fetchBudget() * 1e3) + " ms";
    }

    const int perNode = in.shardsPerNode > 0
                            ? in.shardsPerNode
                            : (m.rampShardsPerNode > 0 ? int(std::lround(m.rampShardsPerNode))
                                                       : kDefaultShardsPerNode);
    int nodes = std::max(kMinRedisNodes, (shards + perNode - 1) / perNode);
    std::string nodeWhy = "at least " + std::to_string(kMinRedisNodes) +
                          " (cluster quorum), " + std::to_string(perNode) +
                          " shards per node as measured";

    // Memory: what Redis holds for the retention window, then the nodes to hold it.
    const double retention = in.tiered ? in.localRetentionS : in.retentionS;
    MemoryInputs mem{r.rate, in.recordBytes, retention, in.replication,
                     in.trimTickS, 1.0, headroom, 1};
    const PartitionPlan *parts = nullptr;
    MemoryEstimate memory;
    FlexEstimate flex;
    // Without a Flex measurement there is no write limit and no RAM ratio of its own: no
    // Flex figure stands in for one, the database is sized as RAM and the user told what to measure.
    const bool flexMeasured = in.flex && m.flex.fitted && m.flex.sustainedBytesPerS > 0;
    if (in.flex && !flexMeasured)
        r.warnings.push_back("Redis Flex: no Flex measurement among the runs, so no Flex RAM or "
                             "database count; sized as a RAM database. Measure a Flex database "
                             "(a sustained run and one that hits OOM) and import it to size Flex");
    auto estimate = [&] {
        mem.skew = parts->skew;
        mem.shards = shards;
        memory = estimateMemory(m.storedBytes, mem);
        if (flexMeasured)
            flex = m.flex.estimate(r.rate * in.recordBytes, memory.provisionBytes);
    };
    for (int pass = 0; pass < 4; ++pass) {
        shards = roundUpTo(shards, nodes);
        parts = &partitionsFor(shards, brokers, in);
        estimate();
        // Nodes hold what Redis holds (plus headroom). Placement skew sets each shard's memory
        // limit, but a node's several shards average it out.
        const double ramNeeded = flexMeasured ? flex.ramBytes : memory.usageBytes * (1 + headroom);
        const double memNodesNeeded = std::ceil(ramNeeded / (in.nodeRamBytes * in.nodeRamUsable) - 1e-9);
        if (!(memNodesNeeded <= kClusterSlots)) {
            r.error = grouped(ramNeeded / kGiB) + " GiB of Redis memory needs " +
                      grouped(memNodesNeeded) + " nodes of " + fmt("%.0f", in.nodeRamBytes / kGiB) +
                      " GiB: beyond one Redis cluster, outside what this model describes";
            return r;
        }
        const int memNodes = int(memNodesNeeded);
        if (memNodes <= nodes)
            break;
        nodes = memNodes;
        nodeWhy = "memory: " + fmt("%.1f", ramNeeded / kGiB) + " GiB at " +
                  fmt("%.0f", in.nodeRamUsable * 100) + "% of " +
                  fmt("%.0f", in.nodeRamBytes / kGiB) + " GiB per node";
    }
    if (shards > kClusterSlots) {
        r.error = std::to_string(shards) + " shards (" +
                  (nodes == 1 ? std::string("on one node") : "a multiple of " + std::to_string(nodes) + " nodes") +
                  ") exceed the " + std::to_string(kClusterSlots) +
                  " hash slots of one Redis cluster: outside what this model describes";
        return r;
    }
    // Far past the measured configuration the per-shard capacity is an assumption no run shows:
    // the answer stands, flagged as such.
    if (m.rampShards > 0 && shards > 2 * m.rampShards)
        r.warnings.push_back(std::to_string(shards) + " shards is " + fmt("%.3g", double(shards) / m.rampShards) +
                             "× the " + std::to_string(m.rampShards) +
                             " shards the capacity was measured on: it assumes each shard keeps its measured "
                             "capacity at that scale, which no run in the store shows");
    // The shards were spread over the nodes that hold them; a spare node for losing one comes
    // on top, and the reasoning names both.
    const int shardNodes = nodes;
    if (in.tolerateNodeLoss) {
        ++brokers;
        ++nodes;
        parts = &partitionsFor(shards, brokers, in);
        brokerWhy += "; +1 to survive losing one";
        nodeWhy += "; +1 to survive losing one";
    }
    // One estimate from the partitions deployed: every memory figure below reads it.
    estimate();
    r.brokers = brokers;
    r.redisNodes = nodes;
    r.shards = shards;
    r.partitions = parts->partitions;
    r.partitionSkew = parts->skew;
    r.partitionPlan = *parts;
    r.memory = memory;
    r.memoryUsageBytes = memory.usageBytes;
    r.memoryTotalBytes = memory.provisionBytes;
    r.memoryPerShardBytes = memory.perShardBytes;
    const PlacementNotes placed = placementNotes(*parts, m, in, memory);
    for (const std::string &w : placed.warnings)
        r.warnings.push_back(w);
    r.hottestShardFactor = placed.cpuFactor;

    add("brokers", "Korvet brokers", brokers, std::to_string(brokers),
        brokerWhy + (budgetWhy.empty() ? "" : "; " + budgetWhy), takenRuns(r.brokerChoice));
    add("shards", "Redis shards", shards, std::to_string(shards),
        shardWhy + (shardNodes == 1 ? std::string()
                                    : "; rounded up to a multiple of " + std::to_string(shardNodes) + " nodes") +
            (nodes > shardNodes ? ", the nodes left after losing one of " + std::to_string(nodes)
                                : std::string()) +
            (budgetWhy.empty() ? "" : "; " + budgetWhy),
        takenRuns(r.shardChoice));
    r.lines.back().caveat = placed.shardsCaveat;
    add("redis_nodes", "Redis nodes", nodes, std::to_string(nodes), nodeWhy, m.shard.runKeys);
    // The count's skew target is the measured configuration's (its runs), unless one was asked.
    add("partitions", "Partitions", parts->partitions, std::to_string(parts->partitions), parts->reason,
        in.skewTarget > 0 || parts->measuredSkew <= 0 ? std::vector<std::string>{} : m.shard.runKeys);
    r.lines.back().caveat = parts->warning;
    std::string memWhy;
    for (const std::string &l : memory.lines)
        memWhy += (memWhy.empty() ? "" : "; ") + l;
    add("memory_total_bytes", "Redis memory (total)", memory.provisionBytes, gibText(memory.provisionBytes),
        memWhy + "; " + m.storedBytes.reason +
            (in.tiered ? "; local retention " + fmt("%g", retention) + " s (tiered)" : ""),
        m.storedBytes.runKeys);
    add("memory_per_shard_bytes", "Memory per shard", memory.perShardBytes, gibText(memory.perShardBytes),
        "what the hottest shard holds, its replica the same: " + gibText(memory.provisionBytes) + " over " +
            std::to_string(shards) + " shards × " + std::to_string(std::max(1, in.replication)) +
            " copies (skew " + fmt("%.2f", parts->skew) + " of the " + std::to_string(parts->partitions) +
            " partitions above, keys '" + in.keyPattern + "')",
        m.storedBytes.runKeys);
    r.lines.back().caveat = placed.memoryCaveat;

    // Utilization at the target itself (not the headroom-inflated rate): what runs day to day.
    const double liveBrokers = brokers - (in.tolerateNodeLoss ? 1 : 0);
    r.loads.push_back({"broker CPU", consume.cpuAt(m.broker, reads.broker, r.rate, liveBrokers),
                       consume.limitFor(m.broker, reads.broker)});
    r.loads.push_back({"Redis shard CPU", consume.cpuAt(m.shard, reads.shard, r.rate, shards) * placed.cpuFactor,
                       consume.limitFor(m.shard, reads.shard)});
    const double liveNodes = nodes - (in.tolerateNodeLoss ? 1 : 0);
    const double ramHeld = flexMeasured ? flex.ramBytes : memory.usageBytes;
    r.loads.push_back({"Redis node memory", ramHeld / liveNodes / in.nodeRamBytes, in.nodeRamUsable});
    add("broker_cpu", "Broker CPU at target", r.loads[0].utilization,
        fmt("%.0f%%", r.loads[0].utilization * 100),
        rateText(r.rate / liveBrokers) + " records/s per broker × " +
            fmt("%.3g", m.broker.slope * 1e6) + "% CPU per 10k records/s" +
            readsCpuText(consume, reads.broker, m.broker, liveBrokers, "broker"),
        merged(m.broker.runKeys, consume.measures(reads.broker) ? reads.broker.runKeys : std::vector<std::string>{}));
    add("shard_cpu", "Hottest shard CPU at target", r.loads[1].utilization,
        fmt("%.0f%%", r.loads[1].utilization * 100),
        rateText(r.rate / shards) + " records/s per shard × " + fmt("%.3g", m.shard.slope * 1e6) +
            "% CPU per 10k records/s (hottest shard, measured skew included)" + placed.cpuText +
            readsCpuText(consume, reads.shard, m.shard, shards, "shard"),
        merged(m.shard.runKeys, consume.measures(reads.shard) ? reads.shard.runKeys : std::vector<std::string>{}));
    r.lines.back().caveat = placed.cpuCaveat;
    if (r.loads[1].utilization > r.loads[1].limit + 1e-9) {
        const std::string past = "past its " + fmt("%.0f%%", r.loads[1].limit * 100) + " limit: " +
                                 (parts->placement.oneShardHoldsAll()
                                      ? "no shard count spreads what the key pattern puts on one shard"
                                      : "a partition count nearer the measured skew, or more shards, brings it down");
        r.lines.back().caveat += (r.lines.back().caveat.empty() ? "" : "; ") + past;
        r.warnings.push_back("hottest shard CPU " + r.lines.back().display + " at the target is " + past);
    }
    add("node_memory", "Redis node memory at target", r.loads[2].utilization,
        fmt("%.0f%%", r.loads[2].utilization * 100),
        gibText(ramHeld) + " held over " + fmt("%.0f", liveNodes) + " nodes of " +
            fmt("%.0f GiB", in.nodeRamBytes / kGiB),
        m.storedBytes.runKeys);

    if (flexMeasured) {
        r.flexRamBytes = flex.ramBytes;
        r.flexDatabases = flex.databases;
        r.loads.push_back({"Redis Flex write rate", flex.utilization, 1.0});
        std::string why;
        for (const std::string &l : flex.lines)
            why += (why.empty() ? "" : "; ") + l;
        add("flex_ram_bytes", "Flex RAM", flex.ramBytes, fmt("%.1f GiB", flex.ramBytes / kGiB), why,
            m.flex.runKeys);
        add("flex_databases", "Flex databases", flex.databases, std::to_string(flex.databases),
            m.flex.reason, m.flex.runKeys);
        if (flex.utilization > 1)
            r.warnings.push_back("Redis Flex: above the sustained write rate RAM fills faster than "
                                 "flash drains; split across databases or throttle");
    }
    if (in.tiered) {
        const OffloadPlan plan = m.offload.plan(r.rate);
        r.offloadStreams = plan.reachable ? plan.streams : 0;
        const double offloadUse = plan.reachable ? r.rate / plan.rateAtStreams
                                                 : (plan.ceiling > 0 ? r.rate / plan.ceiling : 0);
        r.loads.push_back({"offload", offloadUse, 1.0});
        add("offload_streams", "Offload streams", r.offloadStreams,
            plan.reachable ? std::to_string(plan.streams) : std::string("unreachable"),
            plan.line + "; " + m.offload.reason, m.offload.runKeys);
        if (plan.reachable && plan.streams > r.partitions)
            r.warnings.push_back("offload needs " + std::to_string(plan.streams) +
                                 " streams in parallel but the topic has " +
                                 std::to_string(r.partitions) + " partitions");
    }

    // The hottest shard's load sets the latency: its share over the measured skew's counts.
    r.p99 = predictP99(r.rate / shards * placed.cpuFactor, r.rate / liveBrokers);
    std::vector<std::string> latencyRuns;
    for (const LatencyCurvePoint &p : m.latency)
        latencyRuns = merged(latencyRuns, {p.runKey});
    add("p99", "Predicted p99", r.p99 ? *r.p99 : 0,
        r.p99 ? fmt("%.3g ms", *r.p99 * 1e3) : std::string("—"),
        r.p99 ? "the ramp's p99 interpolated at this per-shard and per-broker load; budget " +
                    fmt("%.3g ms", in.p99Budget * 1e3)
              : "beyond the measured ramp (or no ramp measured p99): no prediction",
        // The curve is read at a load fraction of the capacities: their runs count too.
        latencyRuns.empty() ? latencyRuns : merged(merged(latencyRuns, m.shard.runKeys), m.broker.runKeys));
    if (r.p99 && *r.p99 > in.p99Budget)
        r.warnings.push_back("predicted p99 exceeds the budget");
    if (consume.active())
        addConsumeLines(r, consume, m, sized, brokers, shards);

    const double wireRatio = in.compressionRatio;
    add("wire_bytes_per_s", "Wire ingest", r.rate * in.recordBytes / wireRatio,
        fmt("%.1f MiB/s", r.rate * in.recordBytes / wireRatio / 1048576),
        rateText(r.rate) + " × " + fmt("%.0f", in.recordBytes) + " B ÷ compression " +
            fmt("%.3g", wireRatio) + (m.wireCompression > 0
                                          ? " (the ramp's wire bytes show " +
                                                fmt("%.3g", m.wireCompression) + ":1)"
                                          : "") +
            "; records are stored uncompressed, so memory ignores compression");

    const ComponentLoad *worst = nullptr;
    for (const ComponentLoad &l : r.loads)
        if (!worst || l.utilization / l.limit > worst->utilization / worst->limit)
            worst = &l;
    r.bottleneck = worst->component;
    std::string worstWhy = worst->component + " runs at " + fmt("%.0f%%", worst->utilization * 100) + " against a " +
                           fmt("%.0f%%", worst->limit * 100) + " limit, the closest of all components";
    if (const ComponentCapacity *c = worst == &r.loads[0] ? &reads.broker : worst == &r.loads[1] ? &reads.shard : nullptr;
        c && consume.readsDominate(worst == &r.loads[0] ? m.broker : m.shard, *c, r.rate)) {
        r.bottleneck += " (consumer reads)";
        worstWhy += "; most of it is the reads of " + consume.demandText();
    } else if (c && consume.active() && !c->ok) {
        worstWhy += "; its limit is lowered by the consume margin held for unmeasured reads";
    }
    add("bottleneck", "Bottleneck", worst->utilization / worst->limit, r.bottleneck, worstWhy,
        merged(m.shard.runKeys, m.broker.runKeys));
    // Whose runs each number rests on, said beside it; memory without a measurement of its own
    // rests on the stated default ratio.
    for (SizingLine &l : r.lines) {
        l.evidence = sourceOf(l.runKeys, m.sampleRunKeys);
        if (l.evidence == EvidenceSource::None && !m.storedBytes.fitted &&
            (l.key == "memory_total_bytes" || l.key == "memory_per_shard_bytes" || l.key == "node_memory"))
            l.evidence = EvidenceSource::Default;
    }
    r.ok = true;
    return r;
}

} // namespace plimsoll
