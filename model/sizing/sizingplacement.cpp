#include "model/sizing/sizingplacement.h"

#include "model/sizing/sizingtext.h"

#include <algorithm>

namespace plimsoll {

using sizingtext::fmt;
using sizingtext::gibText;

PlacementNotes placementNotes(const PartitionPlan &plan, const SizingModels &m, const SizingInputs &in,
                              const MemoryEstimate &memory)
{
    PlacementNotes n;
    const PlacementResult &p = plan.placement;
    const int shards = int(p.shards.size());
    if (plan.measuredSkew > 0) {
        n.cpuFactor = std::max(1.0, plan.skew / plan.measuredSkew);
        if (n.cpuFactor > 1 + 1e-9) {
            n.cpuText = " × " + fmt("%.3g", n.cpuFactor) + ", the placement's skew " + fmt("%.2f", plan.skew) +
                        " over the " + fmt("%.2f", plan.measuredSkew) + " of the measured " +
                        std::to_string(m.rampPartitions) + " partitions on " + std::to_string(m.rampShards) +
                        " shards";
            n.cpuCaveat = "the hottest shard carries " + fmt("%.3g", n.cpuFactor) +
                          "× the share the capacity was measured at (placement skew " + fmt("%.2f", plan.skew) +
                          " against " + fmt("%.2f", plan.measuredSkew) + ")";
        }
    } else if (plan.skew > 1 + 1e-9) {
        n.cpuText = "; the measured run states no partition count, so the skew its capacity carries is unknown "
                    "and this placement's " + fmt("%.2f", plan.skew) + " is not added";
    }

    if (p.oneShardHoldsAll()) {
        n.warnings.push_back(plan.warning);
        n.shardsCaveat = "only 1 of the " + std::to_string(shards) + " shards holds a partition: the key pattern '" +
                         in.keyPattern + "' puts every partition on one shard";
        n.cpuCaveat = "every partition on one shard: it carries the whole topic, and more shards do not help";
    } else if (!p.emptyShards.empty()) {
        n.shardsCaveat = std::to_string(p.emptyShards.size()) + " of the " + std::to_string(shards) +
                         " shards hold no partition of the " + std::to_string(p.partitions) +
                         ": they add no capacity for this topic";
        n.warnings.push_back(n.shardsCaveat);
    }
    const std::string skewed = "placement skew " + fmt("%.2f", plan.skew) + " of " +
                               std::to_string(plan.partitions) + " partitions over " + std::to_string(shards) +
                               " shards is above the ";
    const std::string scaled = n.cpuFactor > 1 + 1e-9 ? "; its CPU is scaled by " + fmt("%.3g", n.cpuFactor) : "";
    if (p.oneShardHoldsAll())
        ; // said above, in full
    else if (plan.skew > plan.target + 1e-9)
        n.warnings.push_back(skewed + "target " + fmt("%.2f", plan.target) +
                             ": the hottest shard carries that much more than the mean, and its memory is sized "
                             "for it" + scaled);
    else if (n.cpuFactor > 1 + 1e-9)
        n.warnings.push_back(skewed + fmt("%.2f", plan.measuredSkew) + " of the measured configuration (" +
                             std::to_string(m.rampPartitions) + " on " + std::to_string(m.rampShards) +
                             "), whose per-shard capacity the sizing uses: the hottest shard runs that much hotter" +
                             scaled);

    const double nodeUsable = in.nodeRamBytes * in.nodeRamUsable;
    if (memory.perShardBytes > nodeUsable) {
        n.memoryCaveat = "past a node's memory: the hottest shard holds " + gibText(memory.perShardBytes) +
                         ", a node " + gibText(nodeUsable) + " (" + fmt("%.0f", in.nodeRamUsable * 100) + " % of " +
                         gibText(in.nodeRamBytes) + "); no node can hold it";
        n.warnings.push_back("memory per shard " + n.memoryCaveat);
    }
    return n;
}

} // namespace plimsoll
