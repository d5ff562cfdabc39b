// The Indexed Job of a fleet run as renderKubernetesJob() writes it, and the specs it refuses.
// tests/kubernetes puts the same manifests through the API's own types.
#include "runner/kubernetesjob.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

namespace plimsoll {
namespace {

using Json = nlohmann::json;

const char *const kRunId = "5f0c1b7e-8a7d-4c1e-9d2a-3b6f0e4c2a91";

KubernetesJobSpec fleetSpec(int agents)
{
    KubernetesJobSpec spec;
    spec.runId = kRunId;
    spec.agents = agents;
    spec.image = "registry.example/plimsoll:0.1.0";
    spec.agentArgs = {"bench", "producer", "--bootstrap", "kafka.bench.svc:9092"};
    return spec;
}

Json renderedJson(const KubernetesJobSpec &spec)
{
    const KubernetesJobManifest manifest = renderKubernetesJob(spec);
    EXPECT_TRUE(manifest.ok()) << manifest.error;
    return manifest.ok() ? Json::parse(manifest.json) : Json::object();
}

const Json &podSpec(const Json &job) { return job["spec"]["template"]["spec"]; }
const Json &container(const Json &job) { return podSpec(job)["containers"][0]; }

std::string renderError(const std::function<void(KubernetesJobSpec &)> &edit)
{
    KubernetesJobSpec spec = fleetSpec(4);
    edit(spec);
    const KubernetesJobManifest manifest = renderKubernetesJob(spec);
    EXPECT_TRUE(manifest.json.empty());
    EXPECT_TRUE(manifest.name.empty());
    return manifest.error;
}

TEST(runnerKubernetesJob, RendersOneIndexedJobRunningEveryAgentAtOnce)
{
    const Json job = renderedJson(fleetSpec(16));
    EXPECT_EQ(job["apiVersion"], "batch/v1");
    EXPECT_EQ(job["kind"], "Job");
    EXPECT_EQ(job["metadata"]["name"], std::string("plimsoll-") + kRunId);
    EXPECT_FALSE(job["metadata"].contains("namespace"));
    EXPECT_EQ(job["metadata"]["annotations"]["plimsoll.dev/run-id"], kRunId);
    EXPECT_EQ(job["spec"]["completionMode"], "Indexed");
    EXPECT_EQ(job["spec"]["completions"], 16);
    EXPECT_EQ(job["spec"]["parallelism"], 16);
    EXPECT_EQ(job["spec"]["backoffLimit"], 0);
    EXPECT_EQ(job["spec"]["ttlSecondsAfterFinished"], 3600);
    EXPECT_EQ(podSpec(job)["restartPolicy"], "Never");
    EXPECT_EQ(podSpec(job)["containers"].size(), 1u);
    EXPECT_EQ(container(job)["image"], "registry.example/plimsoll:0.1.0");
    EXPECT_EQ(container(job)["command"], Json::array({"plimsoll"}));
    // The caller's command line, then each pod's own index as the kubelet expands it.
    EXPECT_EQ(container(job)["args"], Json::array({"bench", "producer", "--bootstrap", "kafka.bench.svc:9092",
                                                   "--agent-index=$(JOB_COMPLETION_INDEX)"}));
    EXPECT_EQ(container(job)["env"][0]["name"], "JOB_COMPLETION_INDEX");
    EXPECT_EQ(container(job)["env"][0]["valueFrom"]["fieldRef"]["fieldPath"],
              "metadata.annotations['batch.kubernetes.io/job-completion-index']");
    EXPECT_FALSE(podSpec(job).contains("volumes"));
    EXPECT_FALSE(container(job).contains("volumeMounts"));
    EXPECT_FALSE(container(job).contains("resources"));
    // No API access unless the user names a service account.
    EXPECT_EQ(podSpec(job)["automountServiceAccountToken"], false);

    EXPECT_EQ(renderedJson(fleetSpec(1))["spec"]["completions"], 1);
    EXPECT_EQ(renderedJson(fleetSpec(1000))["spec"]["parallelism"], 1000);
}

TEST(runnerKubernetesJob, LabelsTheJobAndItsPodsWithTheRunSoCleanupDeletesOnlyThem)
{
    KubernetesJobSpec spec = fleetSpec(3);
    spec.nameSpace = "bench";
    const KubernetesJobManifest manifest = renderKubernetesJob(spec);
    ASSERT_TRUE(manifest.ok()) << manifest.error;
    const Json job = Json::parse(manifest.json);
    const std::string name = std::string("plimsoll-") + kRunId;
    const Json labels = {{"app.kubernetes.io/name", "plimsoll"},
                         {"app.kubernetes.io/component", "bench-agent"},
                         {"plimsoll.dev/run-id", name}};
    EXPECT_EQ(job["metadata"]["labels"], labels);
    EXPECT_EQ(job["spec"]["template"]["metadata"]["labels"], labels);
    EXPECT_EQ(job["metadata"]["namespace"], "bench");
    EXPECT_EQ(manifest.name, name);
    EXPECT_EQ(manifest.labelSelector,
              "app.kubernetes.io/name=plimsoll,app.kubernetes.io/component=bench-agent,plimsoll.dev/run-id=" + name);
    EXPECT_EQ(kubectlDeleteArgs(manifest),
              (std::vector<std::string>{"delete", "job", "--namespace", "bench", "--selector", manifest.labelSelector,
                                        "--field-selector", "metadata.name=" + name, "--ignore-not-found"}));
}

TEST(runnerKubernetesJob, MountsTheClientPropertiesSecretByNameAndNeverHoldsItsValues)
{
    // The user keeps the client properties (sasl.jaas.config=... password="s3cret-Passw0rd") in
    // the Secret; the spec only ever names the Secret, and nothing of the file reaches the Job.
    const std::string password = "s3cret-Passw0rd";
    KubernetesJobSpec spec = fleetSpec(4);
    spec.clientPropertiesSecret = "kafka-client";
    const KubernetesJobManifest manifest = renderKubernetesJob(spec);
    ASSERT_TRUE(manifest.ok()) << manifest.error;
    EXPECT_EQ(manifest.json.find(password), std::string::npos);
    EXPECT_EQ(manifest.json.find("sasl"), std::string::npos);
    EXPECT_EQ(manifest.json.find("stringData"), std::string::npos);
    EXPECT_EQ(manifest.json.find("secretKeyRef"), std::string::npos);

    const Json job = Json::parse(manifest.json);
    const Json &volume = podSpec(job)["volumes"][0];
    EXPECT_EQ(volume["name"], "client-properties");
    EXPECT_EQ(volume["secret"]["secretName"], "kafka-client");
    EXPECT_EQ(volume["secret"]["items"], Json::parse(R"([{"key": "client.properties", "path": "client.properties"}])"));
    EXPECT_EQ(volume["secret"]["defaultMode"], 0440);
    const Json &mount = container(job)["volumeMounts"][0];
    EXPECT_EQ(mount["name"], "client-properties");
    EXPECT_EQ(mount["mountPath"], "/etc/plimsoll/client-properties");
    EXPECT_EQ(mount["readOnly"], true);
    const Json &args = container(job)["args"];
    ASSERT_GE(args.size(), 2u);
    EXPECT_EQ(args[args.size() - 2], "--command-config");
    EXPECT_EQ(args[args.size() - 1], "/etc/plimsoll/client-properties/client.properties");
    // The group the agent runs in can read the mounted file.
    EXPECT_EQ(podSpec(job)["securityContext"]["fsGroup"], KubernetesJobSpec::kAgentUid);
    EXPECT_EQ(podSpec(job)["securityContext"]["runAsUser"], KubernetesJobSpec::kAgentUid);
}

TEST(runnerKubernetesJob, CarriesResourcesNodeSelectorAndServiceAccountAsGiven)
{
    KubernetesJobSpec spec = fleetSpec(2);
    spec.cpuRequest = "500m";
    spec.cpuLimit = "2";
    spec.memoryRequest = "512Mi";
    spec.memoryLimit = "1.5Gi";
    spec.nodeSelector = {{"kubernetes.io/arch", "amd64"}, {"pool", "bench_agents"}};
    spec.serviceAccount = "plimsoll-agent";
    spec.ttlSecondsAfterFinished = 600;
    const Json job = renderedJson(spec);
    EXPECT_EQ(container(job)["resources"],
              Json::parse(R"({"requests": {"cpu": "500m", "memory": "512Mi"}, "limits": {"cpu": "2", "memory": "1.5Gi"}})"));
    EXPECT_EQ(podSpec(job)["nodeSelector"], Json::parse(R"({"kubernetes.io/arch": "amd64", "pool": "bench_agents"})"));
    EXPECT_EQ(podSpec(job)["serviceAccountName"], "plimsoll-agent");
    EXPECT_FALSE(podSpec(job).contains("automountServiceAccountToken"));
    EXPECT_EQ(job["spec"]["ttlSecondsAfterFinished"], 600);

    spec = fleetSpec(2);
    spec.memoryLimit = "1Gi"; // a limit alone
    EXPECT_EQ(container(renderedJson(spec))["resources"], Json::parse(R"({"limits": {"memory": "1Gi"}})"));
}

TEST(runnerKubernetesJob, PassesTheAgentsArgumentsThroughTheKubeletsExpansionUnchanged)
{
    KubernetesJobSpec spec = fleetSpec(2);
    spec.agentArgs = {"bench", "--topic=$(HOME)", "a$b", "$$"};
    spec.indexOption = "--index";
    const Json args = container(renderedJson(spec))["args"];
    // The kubelet reads "$$" as "$": the agent receives "$(HOME)", "a$b" and "$$".
    EXPECT_EQ(args, Json::array({"bench", "--topic=$$(HOME)", "a$$b", "$$$$", "--index=$(JOB_COMPLETION_INDEX)"}));
}

TEST(runnerKubernetesJob, NamesTheJobFromTheRunIdAsADnsLabel)
{
    std::string error;
    EXPECT_EQ(kubernetesJobName(kRunId, &error), std::string("plimsoll-") + kRunId);
    EXPECT_EQ(kubernetesJobName("nightly-ramp-2026", &error), "plimsoll-nightly-ramp-2026");
    // Changed to fit: a hash of the run id as given keeps it apart from the one above.
    const std::string changed = kubernetesJobName("Nightly_Ramp 2026", &error);
    EXPECT_EQ(changed.rfind("plimsoll-nightly-ramp-2026-", 0), 0u) << changed;
    EXPECT_EQ(changed.size(), std::string("plimsoll-nightly-ramp-2026-").size() + 8);
    EXPECT_NE(changed, kubernetesJobName("nightly_ramp_2026", &error));

    const std::string longId(80, 'a');
    const std::string a = kubernetesJobName(longId + "-1", &error), b = kubernetesJobName(longId + "-2", &error);
    EXPECT_EQ(a.size(), 59u); // "-999", the last agent's pod, still makes a DNS label
    EXPECT_EQ(a.rfind("plimsoll-aaaa", 0), 0u);
    EXPECT_NE(a, b);
    EXPECT_NE(a.back(), '-');
    EXPECT_EQ(kubernetesJobName(std::string(60, 'x') + "----y", &error).find("--"), std::string::npos);
    EXPECT_TRUE(error.empty()) << error;

    EXPECT_EQ(kubernetesJobName("___", &error), "");
    EXPECT_EQ(error, "run id must hold a letter or digit to name the Kubernetes Job by (got '___')");
    KubernetesJobSpec spec = fleetSpec(1);
    spec.runId = "";
    EXPECT_EQ(renderKubernetesJob(spec).error,
              "run id must hold a letter or digit to name the Kubernetes Job by (got '')");
}

TEST(runnerKubernetesJob, RefusesABadSpecNamingTheFieldAndWhatItMustBe)
{
    EXPECT_EQ(renderError([](auto &s) { s.agents = 0; }), "agents must be a whole number from 1 to 1000 (got 0)");
    EXPECT_EQ(renderError([](auto &s) { s.agents = 1001; }), "agents must be a whole number from 1 to 1000 (got 1001)");
    EXPECT_EQ(renderError([](auto &s) { s.ttlSecondsAfterFinished = -1; }),
              "ttl after finished must be a whole number from 0 s to 2147483647 s (got -1 s)");
    EXPECT_EQ(renderError([](auto &s) { s.image.clear(); }),
              "image must be named: an image with plimsoll on its PATH (built from packaging/Containerfile)");
    EXPECT_EQ(renderError([](auto &s) { s.image = "plimsoll latest"; }),
              "image must be one image reference, without spaces (got 'plimsoll latest')");
    EXPECT_EQ(renderError([](auto &s) { s.agentArgs.clear(); }),
              "agent arguments must not be empty: they are the agent's plimsoll command line");
    EXPECT_EQ(renderError([](auto &s) { s.nameSpace = "Team_A"; }),
              "namespace must be a DNS-1123 label: at most 63 lowercase letters, digits and '-', beginning and "
              "ending with a letter or digit (got 'Team_A')");
    EXPECT_EQ(renderError([](auto &s) { s.nameSpace = std::string(64, 'n'); })
                  .rfind("namespace must be a DNS-1123 label", 0),
              0u);
    EXPECT_EQ(renderError([](auto &s) { s.clientPropertiesSecret = "Kafka_Client"; })
                  .rfind("client-properties secret must be a DNS-1123 subdomain: at most 253 lowercase", 0),
              0u);
    EXPECT_EQ(renderError([](auto &s) {
                  s.clientPropertiesSecret = "kafka-client";
                  s.clientPropertiesKey = "../etc/passwd";
              }).rfind("client-properties key must be a Secret key", 0),
              0u);
    EXPECT_EQ(renderError([](auto &s) { s.serviceAccount = "Bench Agent"; })
                  .rfind("service account must be a DNS-1123 subdomain", 0),
              0u);
    EXPECT_EQ(renderError([](auto &s) { s.indexOption = "agent-index"; }),
              "index option must be an option name such as --agent-index (got 'agent-index')");

    const std::string quantity = "must be a Kubernetes quantity: a number of 0 or more with an optional suffix, as in "
                                 "500m, 2 or 1.5 for cpu and 512Mi, 4Gi or 1G for memory";
    EXPECT_EQ(renderError([](auto &s) { s.cpuRequest = "500 m"; }), "cpu request " + quantity + " (got '500 m')");
    EXPECT_EQ(renderError([](auto &s) { s.memoryLimit = "4GB"; }), "memory limit " + quantity + " (got '4GB')");
    EXPECT_EQ(renderError([](auto &s) { s.cpuLimit = "-1"; }), "cpu limit " + quantity + " (got '-1')");
    EXPECT_EQ(renderError([](auto &s) {
                  s.cpuRequest = "4";
                  s.cpuLimit = "2000m";
              }),
              "cpu request (4) must not be above the cpu limit (2000m)");
    EXPECT_EQ(renderError([](auto &s) {
                  s.memoryRequest = "2Gi";
                  s.memoryLimit = "2G";
              }),
              "memory request (2Gi) must not be above the memory limit (2G)");

    EXPECT_EQ(renderError([](auto &s) { s.nodeSelector = {{"node pool", "a"}}; })
                  .rfind("node selector key must be a label key: a name of at most 63", 0),
              0u);
    EXPECT_EQ(renderError([](auto &s) { s.nodeSelector = {{"Example.com/pool", "a"}}; })
                  .rfind("node selector key must be a label key", 0),
              0u);
    EXPECT_EQ(renderError([](auto &s) { s.nodeSelector = {{"pool", "bench agents"}}; }),
              "node selector value of 'pool' must be a label value: at most 63 letters, digits, '-', '_' and '.', "
              "beginning and ending with a letter or digit (got 'bench agents')");
}

TEST(runnerKubernetesJob, ReadsKubernetesQuantities)
{
    const auto value = [](const char *text) {
        double v = std::nan("");
        EXPECT_TRUE(parseKubernetesQuantity(text, &v)) << text;
        return v;
    };
    EXPECT_DOUBLE_EQ(value("500m"), 0.5);
    EXPECT_DOUBLE_EQ(value("2"), 2);
    EXPECT_DOUBLE_EQ(value(".5"), 0.5);
    EXPECT_DOUBLE_EQ(value("1.5Gi"), 1.5 * 1024 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(value("512Mi"), 512.0 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(value("1G"), 1e9);
    EXPECT_DOUBLE_EQ(value("1e3"), 1000);
    EXPECT_DOUBLE_EQ(value("25E-1"), 2.5);
    EXPECT_DOUBLE_EQ(value("1E"), 1e18);
    EXPECT_DOUBLE_EQ(value("100n"), 1e-7);
    for (const char *bad : {"", "m", "-1", "+1", "1 Gi", "4GB", "1gi", "1e", "1e+", "0x10", "1.2.3", "Gi"})
        EXPECT_FALSE(parseKubernetesQuantity(bad, nullptr)) << bad;
}

// The image the Job names cannot be built here (no container runtime); what the Job assumes of it
// is checked against its file instead.
TEST(runnerKubernetesJob, TheAgentImageRunsAsTheUserTheJobExpects)
{
    std::ifstream in(std::string(PLIMSOLL_TEST_DATA_DIR) + "/../../packaging/Containerfile");
    ASSERT_TRUE(in) << "packaging/Containerfile";
    std::stringstream text;
    text << in.rdbuf();
    const std::string file = text.str();
    const std::string id = std::to_string(KubernetesJobSpec::kAgentUid);
    EXPECT_NE(file.find("FROM debian:12-slim\n"), std::string::npos);
    EXPECT_NE(file.find("groupadd --gid " + id + " plimsoll"), std::string::npos);
    EXPECT_NE(file.find("useradd --uid " + id + " --gid " + id), std::string::npos);
    EXPECT_NE(file.find("\nUSER " + id + ":" + id + "\n"), std::string::npos);
    // CPack's default Debian file name (packaging/cpack.cmake): plimsoll_<version>_<arch>.deb.
    EXPECT_NE(file.find("COPY plimsoll_*.deb /tmp/"), std::string::npos);
    EXPECT_NE(file.find("\nENTRYPOINT [\"plimsoll\"]\n"), std::string::npos);
    EXPECT_NE(file.find(KubernetesJobSpec::kClientPropertiesDir), std::string::npos);
}

} // namespace
} // namespace plimsoll
