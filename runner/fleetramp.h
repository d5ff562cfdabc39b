#pragma once
// The fleet ramp (`bench ramp --agents-steps 1,2,4,8,16`): the produce ramp with agents as its
// load factor, as the Korvet page steps producer pods. Each step is a local fleet of that many
// agents (runner/fleet.h) on the ramp's topic, each agent offering the ramp's --producer-clients
// and --rate of its own, so that a step's load grows with its agents. Every step has the same
// warm-up and window, counted from the fleet's start instant; the latency probe runs alongside
// from the coordinator on its own topic, and the collectors sample each step's window. The
// saturation rules are the ramp's (rampsaturation.h), with the load generator's own first after
// CPU: an agent below 80 % of the agents' mean rate names its client node as the bottleneck.
// The ramp stops at the first saturated step unless told to go on; each step keeps its agents'
// rates (agents.<i>.records_per_s) and its agent count (topology.agents) for the Scaling view.

#include "runner/benchconfig.h"
#include "runner/benchresult.h"
#include "runner/kubernetesfleet.h"
#include "runner/kubernetesrun.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>

namespace plimsoll {

// Where each step's agents run: processes of this machine (`executable` as runLocalFleet() takes
// it), or, with `kubernetes`, the pods of one Job a step, applied with kubectl (kubernetesrun.h),
// each step's manifest and pods' logs in "<outDir>/agents-N" and its start `startMargin` after
// the step's Job is written.
struct FleetRampLauncher
{
    std::string executable;
    std::optional<KubernetesFleetRequest> kubernetes;
    KubectlOptions kubectl;
};

// Runs config.agentSteps; `sink` and `note` as runLocalFleet() takes them, the sink's intervals
// named after their step and counted from the ramp's start.
BenchResult runFleetRamp(RunConfig config, const FleetRampLauncher &launcher, const std::atomic<bool> &cancel,
                         const std::function<void(const BenchSnapshot &)> &sink,
                         const std::function<void(const std::string &)> &note);

// A fleet ramp step's scenario name: bench/ramp/agents-N.
std::string fleetRampStepName(int agents);

} // namespace plimsoll
