#pragma once
// What a sizing's placement means for the numbers beside it: the hottest shard's CPU scaled by
// the placement's skew over the skew the per-shard capacity was measured with, and the words a
// user must read at the shard count, the hottest shard's CPU and the memory per shard when the
// key pattern puts every partition on one shard, leaves shards without a partition, or makes one
// shard larger than a node can hold. Part of the sizing engine (sizing.cpp).
//
// Pure computation.

#include "model/sizing/memorymodel.h"
#include "model/sizing/placement.h"
#include "model/sizing/sizing.h"

#include <string>
#include <vector>

namespace plimsoll {

struct PlacementNotes
{
    // The hottest shard's CPU over what the measured configuration's capacity says: the plan's
    // skew ÷ the measured skew, never below 1 (a placement more even than the measured one is not
    // credited: the capacity was only measured at its own).
    double cpuFactor = 1;
    std::string cpuText;      // appended to the shard CPU line's reasoning
    std::string cpuCaveat;    // at the hottest shard's CPU
    std::string shardsCaveat; // at the shard count
    std::string memoryCaveat; // at the memory per shard
    std::vector<std::string> warnings;
};

PlacementNotes placementNotes(const PartitionPlan &plan, const SizingModels &models, const SizingInputs &in,
                              const MemoryEstimate &memory);

} // namespace plimsoll
