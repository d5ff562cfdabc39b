#pragma once
// The consume side's part of a sizing (sizing.cpp): the consume inputs that only make sense
// together, the reads' share of a unit's CPU in its reasoning line, and the consume side's own
// lines (what the groups read, what their costs rest on, the predicted fetch p99).
//
// Pure computation.

#include "model/sizing/consumemodel.h"
#include "model/sizing/sizing.h"

#include <optional>
#include <string>

namespace plimsoll {

// The consume inputs that only make sense together, as "<prefix><name> …", or nullopt.
std::optional<std::string> consumeProblem(const SizingInputs &in, const std::string &prefix);
// " + 300k records/s read per broker × 2.1% CPU per 10k records/s (the consume ramp)", or the
// margin held where the consume ramp did not measure the unit; "" without consumer groups.
std::string readsCpuText(const ConsumePlan &plan, const ComponentCapacity &reads, const ComponentCapacity &produce,
                         double units, const char *unit);
// The consume side's own lines and warnings, added to `r`.
void addConsumeLines(SizingResult &r, const ConsumePlan &plan, const SizingModels &m, double sized, int brokers,
                     int shards);

} // namespace plimsoll
