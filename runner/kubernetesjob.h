#pragma once
// The Kubernetes side of a fleet run: N bench agents sharing one run id, as one Indexed Job
// (batch/v1, completionMode Indexed), pod i being agent i. A pure function renders the Job
// manifest as JSON, which `kubectl apply -f` takes as it takes YAML; nothing here talks to a
// cluster.
//
// The agent's command line is the caller's: the renderer adds only the agent's index, read by
// the kubelet from JOB_COMPLETION_INDEX when the pod starts, and where the client properties
// are mounted. Client properties hold credentials, so they reach the pods only as a Secret the
// user created beforehand (`kubectl create secret generic NAME --from-file=client.properties`):
// the manifest names that Secret and never contains a value from it.
//
// Every object carries labels naming Plimsoll, the agent role and the run, so that cleanup
// deletes the Job of this run and nothing else (kubectlDeleteArgs()).

#include "model/core/domain.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

struct KubernetesJobSpec
{
    std::string runId;     // the fleet's run id; the Job's name and run label derive from it
    std::string nameSpace; // empty: the namespace of kubectl's context
    int agents = 1;
    std::string image; // an image with plimsoll on its PATH (packaging/Containerfile)
    // plimsoll's arguments for one agent, passed as given ("$" reaches the agent as "$"; the
    // kubelet's $(VAR) expansion applies only to the index argument added after them).
    std::vector<std::string> agentArgs;
    // The index argument added last: "<indexOption>=$(JOB_COMPLETION_INDEX)".
    std::string indexOption = "--agent-index";
    // A Secret in the Job's namespace holding the Kafka client .properties under
    // clientPropertiesKey; empty for none. Mounted read-only at kClientPropertiesDir and passed
    // as "<clientPropertiesOption> <kClientPropertiesDir>/<key>".
    std::string clientPropertiesSecret;
    std::string clientPropertiesKey = "client.properties";
    std::string clientPropertiesOption = "--command-config";
    // Kubernetes quantities ("500m", "2", "512Mi", "4Gi"); empty: not set.
    std::string cpuRequest, cpuLimit, memoryRequest, memoryLimit;
    std::map<std::string, std::string> nodeSelector; // label key → value the nodes must carry
    std::string serviceAccount; // empty: the namespace's default, with no API token mounted
    // How long a finished Job (and its pods' logs) stays before Kubernetes deletes it.
    int ttlSecondsAfterFinished = 3600;

    static constexpr Domain kAgents = Domain::count(1, 1000);
    static constexpr Domain kTtlSecondsAfterFinished = Domain{0, 2147483647, false, false, true, "s"};
    static constexpr const char *kClientPropertiesDir = "/etc/plimsoll/client-properties";
    static constexpr const char *kContainerName = "agent";
    // The uid and gid the agents run as: the plimsoll user of packaging/Containerfile.
    static constexpr int kAgentUid = 10001;
};

struct KubernetesJobManifest
{
    std::string error; // empty when rendered; else the field and what it must be
    std::string name;  // the Job's name
    std::string nameSpace;
    // Selects this run's Job and pods and nothing else: "app.kubernetes.io/name=plimsoll,...".
    std::string labelSelector;
    std::string json; // the Job, indented JSON

    bool ok() const { return error.empty(); }
};

// Labels every rendered object carries.
inline constexpr const char *kLabelName = "app.kubernetes.io/name";
inline constexpr const char *kLabelComponent = "app.kubernetes.io/component";
// As a label, the Job's name (a valid label value); as an annotation, the run id as given.
inline constexpr const char *kRunIdKey = "plimsoll.dev/run-id";

KubernetesJobManifest renderKubernetesJob(const KubernetesJobSpec &spec);

// "plimsoll-<run id>" made a DNS-1123 label ([a-z0-9-], a letter or digit at each end) of at
// most 59 characters, so that its pods' "<name>-<index>" are labels too. A run id that had to be
// changed for that (case, other characters, length) gets 8 hex digits of its hash appended, so
// two run ids never share a name by normalisation alone.
// Empty, with *error set, for a run id with no letter or digit.
std::string kubernetesJobName(std::string_view runId, std::string *error);

// kubectl's arguments (without "kubectl") deleting the rendered Job and its pods: by name and by
// every label at once, so that a Job of the same name that Plimsoll did not create for this run
// stays.
std::vector<std::string> kubectlDeleteArgs(const KubernetesJobManifest &manifest);

// A Kubernetes quantity ("500m", "1.5", "2Gi", "1e3") as a number of its base unit (cores or
// bytes); false for anything else, negative values included.
bool parseKubernetesQuantity(std::string_view text, double *value);

} // namespace plimsoll
