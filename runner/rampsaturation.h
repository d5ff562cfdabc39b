#pragma once
// The ramp workload: steps of producer clients (or of rate), each a warm-up and a measured
// window, a latency probe alongside on its own single-partition topic, and the seed's
// saturation rules applied per step. The ramp stops at the first saturated step unless
// told to go on.

#include "runner/benchconfig.h"
#include "runner/benchphase.h"

#include <functional>
#include <string>
#include <vector>

namespace plimsoll {

// Why a step counts as saturated ("" when it does not): p99 over the limit, errors or
// back-pressure, or a throughput plateau against the previous step.
std::string saturationReason(const RunConfig &config, const ScenarioResult &step, const ScenarioResult *previous);

using StartOffsets = std::function<bool(const std::string &topic, std::vector<int64_t> &offsets)>;

std::vector<PhaseOutcome> runRamp(const RunConfig &config, const PhaseEnvironment &environment,
                                  const PhaseSpec &base, const std::string &probeTopic,
                                  const StartOffsets &startOffsets);

} // namespace plimsoll
