#pragma once
// The ramp workload: steps of producer clients (or of rate), each a warm-up and a measured
// window, a latency probe alongside on its own single-partition topic, and the seed's
// saturation rules applied per step. The ramp stops at the first saturated step unless
// told to go on.

#include "runner/benchconfig.h"
#include "runner/benchphase.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

// Why a step counts as saturated ("" when it does not): CPU at the limit, Korvet's Redis
// connection pool timing out or its broker applying back-pressure, a fleet's agent below
// 80 % of the agents' mean rate (its client node), produce or fetch p99 over its limit, errors
// or back-pressure, or a throughput plateau against the previous step.
std::string saturationReason(const RunConfig &config, const ScenarioResult &step, const ScenarioResult *previous);

using StartOffsets = std::function<bool(const std::string &topic, std::vector<int64_t> &offsets)>;

// One step of a ramp: `step` with the latency probe alongside (when probeTopic is set) and the
// collectors sampling its window; nullopt when the probe's start could not be read (the
// reason is the engine's) or on a stop.
std::optional<PhaseOutcome> runRampStep(const RunConfig &config, const PhaseEnvironment &environment,
                                        const PhaseSpec &step, const std::string &probeTopic,
                                        const StartOffsets &startOffsets);

// Applies the saturation rules to `outcome` against the last of `outcomes`, appends it, and
// says whether the ramp goes on (not when saturated, unless told to, nor when interrupted).
bool judgeRampStep(const RunConfig &config, std::vector<PhaseOutcome> &outcomes, PhaseOutcome outcome);

std::vector<PhaseOutcome> runRamp(const RunConfig &config, const PhaseEnvironment &environment,
                                  const PhaseSpec &base, const std::string &probeTopic,
                                  const StartOffsets &startOffsets);

} // namespace plimsoll
