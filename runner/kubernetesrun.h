#pragma once
// A written fleet (kubernetesfleet.h) run on the cluster of kubectl's current context: the Job
// applied, its pods followed until each has finished, each pod's log read, the Job deleted (by
// name and by its run's labels: nothing Plimsoll did not create), and the logs merged as
// `bench merge` merges them. Every step is a kubectl command, so the user's context,
// credentials and plugins apply exactly as at their prompt; nothing here speaks the API itself.
//
// A pod still running the run's timeout + 60 s after the first one finished is named late; a
// pod that failed is named with its container's exit code and last log line; a stop (cancel)
// deletes the Job at once and keeps what the pods had logged.

#include "runner/benchresult.h"
#include "runner/kubernetesfleet.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <string>

namespace plimsoll {

struct KubectlOptions
{
    std::string program = "kubectl"; // found on PATH unless a path
    std::chrono::milliseconds poll{2000};            // between looks at the Job
    std::chrono::milliseconds commandTimeout{60000}; // bound on each kubectl command
    std::chrono::seconds lateSlack{60};               // beyond the run's timeout, after the first pod ended
};

// Runs `written` (its manifest in written.file; the pods' logs are kept beside it, a file per
// pod) and returns the fleet's result. `note` gets a line for the user at each step.
BenchResult runKubernetesFleet(const KubernetesFleetWritten &written, const KubectlOptions &kubectl,
                               const std::atomic<bool> &cancel, const std::function<void(const std::string &)> &note);

} // namespace plimsoll
