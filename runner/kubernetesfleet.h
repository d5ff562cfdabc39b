#pragma once
// The Kubernetes launcher of a fleet (runner/fleet.h): the run as one Indexed Job whose pod i is
// agent i (kubernetesjob.h renders it), written for the user to apply. Each pod is given the
// run's settings as the local launcher gives them, creates the topic if no agent did before
// it, and starts its schedule at the fleet's instant, `startMargin` after the manifest was
// rendered: a pod not ready by then is named late in the result. The pods' logs, one file each,
// make the fleet's result with `plimsoll bench merge`.

#include "runner/benchconfig.h"
#include "runner/kubernetesjob.h"

#include <chrono>
#include <string>
#include <vector>

namespace plimsoll {

struct KubernetesFleetLaunch
{
    // What the user chose: image, namespace, client-properties Secret, resources, node selector,
    // service account. The agents and their arguments are filled from the run.
    KubernetesJobSpec job;
    std::chrono::milliseconds startMargin{std::chrono::minutes(2)};
};

struct KubernetesFleet
{
    KubernetesJobManifest manifest;
    RunConfig config; // the run as rendered: its run id, topic and start instant
    // The commands that run it: apply, wait, collect each pod's log, merge, delete the Job.
    std::vector<std::string> commands;
};

// `config.agents` agents as one Job. manifest.error says what is wrong with the launch (a
// missing image, a quantity Kubernetes would refuse, ...).
KubernetesFleet renderKubernetesFleet(RunConfig config, KubernetesFleetLaunch launch);

// The Kubernetes launch as the user types it (the CLI's options, the window's dialog), and the
// one way it is written: the job's fields, node selectors as key=value, the margin as a
// duration (2m), and the directory the manifest goes to.
struct KubernetesFleetRequest
{
    KubernetesJobSpec job;
    std::vector<std::string> nodeSelectors;
    std::string startMargin = "2m";
    std::string outDir;
};

struct KubernetesFleetWritten
{
    std::string error;    // empty when written; else the field and what it must be
    std::string file;     // the manifest written
    std::string report;   // for the user: what was written, when the agents start, the commands
    KubernetesFleet fleet;
    bool ok() const { return error.empty(); }
};

// Renders `config`'s fleet as the request says and writes the manifest into request.outDir
// (created when missing), atomically. Refused: client properties given as a file (the pods
// read them from a Secret: job.clientPropertiesSecret), a malformed node selector or margin.
KubernetesFleetWritten writeKubernetesFleet(const RunConfig &config, const KubernetesFleetRequest &request);

} // namespace plimsoll
