#include "model/sizing/placementrequest.h"

#include "model/sizing/sizingmodels.h"
#include "model/store/store.h"

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
