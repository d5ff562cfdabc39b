#include "model/sizing/placementrequest.h"

#include "model/sizing/sizingmodels.h"
#include "model/store/store.h"

#include <algorithm>

namespace plimsoll {

std::optional<std::string> keyPatternProblem(const std::string &pattern)
{
    if (pattern.find("{partition}") == std::string::npos)
        return std::string("must contain {partition} (e.g. ") + kKorvetStreamKeyPattern +
               "): without it every partition shares one key";
    return std::nullopt;
}

std::optional<PlacementRequest::Problem> PlacementRequest::validate() const
{
    if (!kPlacementPartitions.contains(partitions))
        return Problem{Problem::Partitions, "must be " + kPlacementPartitions.describe()};
    if (!kPlacementBrokers.contains(brokers))
        return Problem{Problem::Brokers, "must be " + kPlacementBrokers.describe()};
    if (const auto bad = keyPatternProblem(keyPattern))
        return Problem{Problem::KeyPattern, *bad};
    if (skewTarget && !kPlacementSkewTarget.contains(*skewTarget))
        return Problem{Problem::SkewTarget, "must be " + kPlacementSkewTarget.describe()};
    return std::nullopt;
}

MeasuredConfiguration readMeasuredConfiguration(const Store &store)
{
    const SizingModels models = fitEvidence(store, {}).models;
    return {models.rampShards, models.rampPartitions, models.rampKeyPattern, models.rampTopic};
}

double MeasuredPartitionLoad::total() const
{
    double sum = 0;
    for (const auto &[partition, rate] : rates)
        sum += rate;
    return sum;
}

namespace {

// partitions.<p>.records_per_s of one scenario.
std::map<int, double> partitionRates(const ScenarioRecord &scenario)
{
    constexpr std::string_view prefix = "partitions.", suffix = ".records_per_s";
    std::map<int, double> rates;
    for (const MetricValue &m : scenario.metrics) {
        const std::string_view name = m.name;
        if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix))
            continue;
        const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
        if (digits.size() > 7 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        rates[std::stoi(std::string(digits))] = m.value;
    }
    return rates;
}

} // namespace

PartitionLoadRead readPartitionLoad(const Store &store, const std::string &idOrKey, const std::string &scenario)
{
    PartitionLoadRead read;
    const auto detail = store.run(idOrKey);
    if (!detail) {
        read.error = "no run '" + idOrKey + "' in the store (see `plimsoll runs`)";
        return read;
    }
    const RunRecord &run = detail->record;
    for (const ScenarioRecord &s : run.scenarios) {
        if (!scenario.empty() && s.name != scenario)
            continue;
        std::map<int, double> rates = partitionRates(s);
        if (rates.empty())
            continue;
        MeasuredPartitionLoad load{run.runKey, s.name, {}, std::move(rates)};
        if (const auto t = run.environment.find("topic"); t != run.environment.end() && t->is_string())
            load.topic = t->get<std::string>();
        if (!read.load || load.total() > read.load->total())
            read.load = std::move(load);
    }
    if (!read.load)
        read.error = scenario.empty()
                         ? "run '" + run.runKey + "' has no step with partition rates (a ramp against a Korvet "
                                                  "records them from korvet_broker_max_offset)"
                         : "run '" + run.runKey + "' has no scenario '" + scenario + "' with partition rates";
    return read;
}

std::vector<MeasuredPartitionLoad> readPartitionLoads(const Store &store, std::size_t newest)
{
    std::vector<MeasuredPartitionLoad> out;
    const std::vector<std::string> keys = store.rampRunKeys();
    for (std::size_t i = keys.size(); i-- > 0 && keys.size() - i <= newest;)
        if (PartitionLoadRead read = readPartitionLoad(store, keys[i], {}); read.load)
            out.push_back(std::move(*read.load));
    return out;
}

std::optional<PlacementLoadComparison> compareLoad(const PlacementResult &placement,
                                                   const MeasuredPartitionLoad &load, std::string &error)
{
    if (int(load.rates.size()) != placement.partitions || load.rates.begin()->first != 0 ||
        load.rates.rbegin()->first != placement.partitions - 1) {
        error = "the measured step '" + load.scenario + "' has " + std::to_string(load.rates.size()) +
                " partitions (" + std::to_string(load.rates.begin()->first) + "–" +
                std::to_string(load.rates.rbegin()->first) + "), the placement " +
                std::to_string(placement.partitions);
        return std::nullopt;
    }
    PlacementLoadComparison c;
    c.predictedSkew = placement.maxSkew;
    c.total = load.total();
    double busiestShard = 0, busiestPartition = 0;
    for (const ShardLoad &s : placement.shards) {
        ShardMeasuredLoad m{s.shard, int(s.partitions.size()), 0};
        for (int p : s.partitions)
            m.recordsPerS += load.rates.at(p);
        busiestShard = std::max(busiestShard, m.recordsPerS);
        c.shards.push_back(std::move(m));
    }
    for (const auto &[partition, rate] : load.rates)
        busiestPartition = std::max(busiestPartition, rate);
    if (c.total > 0) {
        c.measuredSkew = busiestShard / (c.total / double(c.shards.size()));
        c.partitionSkew = busiestPartition / (c.total / double(load.rates.size()));
    }
    return c;
}

PlacementAnswer planPlacement(const PlacementRequest &request, const Placement &slots,
                              const MeasuredConfiguration &measured)
{
    PlacementAnswer answer;
    answer.placement = slots.place(request.topic, request.partitions);
    PartitionPlanInputs in;
    in.shards = slots.shardCount();
    in.brokers = request.brokers;
    in.topic = request.topic;
    in.keyPattern = request.keyPattern;
    in.measuredShards = measured.shards;
    in.measuredPartitions = measured.partitions;
    in.measuredKeyPattern = measured.keyPattern;
    in.measuredTopic = measured.topic;
    in.skewTarget = request.skewTarget;
    answer.recommended = planPartitions(in);
    answer.warning = concentrationWarning(answer.placement, request.keyPattern, request.topic);
    answer.split = "the live cluster's slot map";
    return answer;
}

PlacementAnswer planPlacement(const PlacementRequest &request, const MeasuredConfiguration &measured)
{
    if (!kPlacementShards.contains(request.shards)) {
        PlacementAnswer answer;
        answer.placement.error = "the shard count must be " + kPlacementShards.describe();
        answer.recommended.reason = answer.placement.error;
        return answer;
    }
    PlacementAnswer answer =
        planPlacement(request, Placement::clusterCreate(request.shards, request.keyPattern), measured);
    answer.split = kSlotSplitText;
    return answer;
}

} // namespace plimsoll
