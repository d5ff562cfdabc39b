#pragma once
// `plimsoll placement` and the Placement view as one request: the topic, its partitions, the
// shards they land on, the brokers and the stream key pattern, and the skew a recommended
// partition count must stay within. The command line fills it from argv, the view from its
// widgets; both place and recommend through planPlacement(), and the defaults and domains live
// here and in model/sizing/placement.h only.
//
// readMeasuredConfiguration() and readPartitionLoad() read the store (call them on the store's
// thread); the rest is pure.

#include "model/sizing/placement.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

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

// What a ramp step measured of its topic's partitions: each one's produce rate from Korvet's
// high watermarks (the step metrics partitions.<p>.records_per_s, runner/korvetmetrics.h).
struct MeasuredPartitionLoad
{
    std::string runKey;
    std::string scenario;
    std::string topic;            // the run's topic, "" when it does not say
    std::map<int, double> rates;  // records/s by partition
    double total() const;
};

// The measured load of run `idOrKey`: its scenario named `scenario`, or without a name the
// step whose partitions carried the most records/s. The error, phrased to stand alone, when the
// run is unknown or none of its steps (or not the one named) has partition rates.
struct PartitionLoadRead
{
    std::optional<MeasuredPartitionLoad> load;
    std::string error;
};
PartitionLoadRead readPartitionLoad(const Store &store, const std::string &idOrKey, const std::string &scenario);
// The measured loads a picker offers: of the newest `newest` ramps in the store, each one's
// busiest step with partition rates (readPartitionLoad without a step), newest first.
std::vector<MeasuredPartitionLoad> readPartitionLoads(const Store &store, std::size_t newest = 30);

// The measured load laid on a placement: each shard's records/s (the sum of its partitions'),
// the shards' max/mean by that load beside the max/mean the partition counts predict (equal
// load per partition), and the partitions' own max/mean.
struct ShardMeasuredLoad
{
    std::string shard;
    int partitions = 0;
    double recordsPerS = 0;
};
struct PlacementLoadComparison
{
    std::vector<ShardMeasuredLoad> shards; // the placement's order
    double measuredSkew = 0;  // busiest shard's records/s over the shards' mean
    double predictedSkew = 0; // the placement's max/mean partitions per shard
    double partitionSkew = 0; // busiest partition over the partitions' mean
    double total = 0;
};
// nullopt with `error` when the load's partitions are not the placement's 0..N-1 (each front end
// says how to give its partition count).
std::optional<PlacementLoadComparison> compareLoad(const PlacementResult &placement,
                                                   const MeasuredPartitionLoad &load, std::string &error);

// On `slots` (a live cluster's slot map, which wins over any predicted split) ...
PlacementAnswer planPlacement(const PlacementRequest &request, const Placement &slots,
                              const MeasuredConfiguration &measured);
// ... or on request.shards masters with the slots split as `redis-cli --cluster create` splits
// them (Placement::clusterCreate).
PlacementAnswer planPlacement(const PlacementRequest &request, const MeasuredConfiguration &measured);

} // namespace plimsoll
