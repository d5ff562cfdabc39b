#pragma once
// `plimsoll placement` and the Placement view as one request: the topic, its partitions, the
// shards they land on, the brokers and the stream key pattern, and the skew a recommended
// partition count must stay within. The command line fills it from argv, the view from its
// widgets; both place and recommend through planPlacement(), and the defaults and domains live
// here and in model/sizing/placement.h only.
//
// readMeasuredConfiguration() reads the store (call it on the store's thread); the rest is pure.

#include "model/sizing/placement.h"

#include <optional>
#include <string>

namespace plimsoll {

class Store;

struct PlacementRequest
{
    int shards = 0; // redis-cli's slot split over this many shards (a live cluster's map instead: see planPlacement)
    int partitions = 0;
    int brokers = 1;
    std::string topic = "logs";
    std::string keyPattern = kKorvetStreamKeyPattern;
    std::optional<double> skewTarget; // none: the measured configuration's skew, as the sizing

    // The field at fault and what is wrong with it, phrased to follow the field's name
    // ("must contain {partition} ..."); nullopt when the request can be placed. The shard count
    // is checked only by planPlacement's predicted form (a cluster's map brings its own).
    struct Problem
    {
        enum Field { Partitions, Brokers, KeyPattern, SkewTarget } field;
        std::string message;
    };
    std::optional<Problem> validate() const;
};

// Why `pattern` cannot be a partition's stream key, phrased to follow the field's name; nullopt
// when it can.
std::optional<std::string> keyPatternProblem(const std::string &pattern);

// The configuration (shards, partitions) whose placement skew the sizing's per-shard capacity
// carries: the ramp the sizing learns from (every run, the sample runs by the sizing's rule).
struct MeasuredConfiguration
{
    int shards = 0; // 0: nothing measured
    int partitions = 0;
    std::string keyPattern = kKorvetStreamKeyPattern; // its own keys (SizingModels::rampKeyPattern)
    std::string topic = kMeasuredTopicDefault;
};
MeasuredConfiguration readMeasuredConfiguration(const Store &store);

struct PlacementAnswer
{
    PlacementResult placement; // ok false: its error says why
    PartitionPlan recommended; // the sizing's own partition model on these shards
    std::string warning;       // concentrationWarning() of `placement`: "" when none
    std::string split;         // how the shards' slots were split: redis-cli's, or the live map
};

// On `slots` (a live cluster's slot map, which wins over any predicted split) ...
PlacementAnswer planPlacement(const PlacementRequest &request, const Placement &slots,
                              const MeasuredConfiguration &measured);
// ... or on request.shards masters with the slots split as `redis-cli --cluster create` splits
// them (Placement::clusterCreate).
PlacementAnswer planPlacement(const PlacementRequest &request, const MeasuredConfiguration &measured);

} // namespace plimsoll
