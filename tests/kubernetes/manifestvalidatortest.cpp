// The Job manifests renderKubernetesJob() writes, put through validate-manifests (the Go program
// in validate-manifests/ beside this file): decoded into k8s.io/api's batchv1.Job with unknown
// fields refused, and checked as the API server checks a Job. The validator is shown to refuse
// what the server would.
#include "runner/kubernetesjob.h"
#include "support/tempdir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <filesystem>
#include <functional>
#include <fstream>
#include <string>
#include <vector>

namespace plimsoll {
namespace {

// Without Go the validator is not built: one line, a skip (a failure under CI=true).
#define REQUIRES_VALIDATOR()                                                                       \
    do {                                                                                           \
        if (std::string(PLIMSOLL_GO).empty()) {                                                    \
            const std::string why = "go not found at configure time (PATH, /usr/local/go/bin): "   \
                                    "the manifests are not validated";                             \
            if (test::underCi())                                                                   \
                FAIL() << why << " (CI=true: Go is required)";                                     \
            GTEST_SKIP() << why;                                                                   \
        }                                                                                          \
        ASSERT_TRUE(std::filesystem::exists(PLIMSOLL_MANIFEST_VALIDATOR))                          \
            << PLIMSOLL_MANIFEST_VALIDATOR                                                         \
            << " is not built: run these tests through ctest, whose kubernetes.validator.build "   \
               "builds it";                                                                        \
    } while (false)

struct Validation
{
    int exitCode = -1;
    std::string output;
};

class ManifestFiles
{
public:
    std::string write(const std::string &name, const std::string &text)
    {
        const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path) << text;
        m_paths.push_back(path);
        return path;
    }

    Validation validate() const
    {
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        QStringList args;
        for (const std::string &path : m_paths)
            args << QString::fromStdString(path);
        process.start(PLIMSOLL_MANIFEST_VALIDATOR, args);
        Validation v;
        if (!process.waitForFinished(60000))
            return v;
        v.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        v.output = process.readAll().toStdString();
        return v;
    }

private:
    QTemporaryDir m_dir;
    std::vector<std::string> m_paths;
};

KubernetesJobSpec fleetSpec(int agents)
{
    KubernetesJobSpec spec;
    spec.runId = "5f0c1b7e-8a7d-4c1e-9d2a-3b6f0e4c2a91";
    spec.agents = agents;
    spec.image = "registry.example/plimsoll:0.1.0";
    spec.agentArgs = {"bench", "producer", "--bootstrap", "kafka.bench.svc:9092", "--duration", "60s"};
    return spec;
}

std::string rendered(const KubernetesJobSpec &spec)
{
    const KubernetesJobManifest manifest = renderKubernetesJob(spec);
    EXPECT_TRUE(manifest.ok()) << manifest.error;
    return manifest.json;
}

// The N = 16 Job with a Secret, changed by `edit`, and what the validator says of it.
template <typename Edit>
Validation validateEdited(Edit edit)
{
    KubernetesJobSpec spec = fleetSpec(16);
    spec.clientPropertiesSecret = "kafka-client";
    nlohmann::ordered_json job = nlohmann::ordered_json::parse(rendered(spec));
    edit(job);
    ManifestFiles files;
    files.write("job.json", job.dump(2));
    return files.validate();
}

TEST(Validator, AcceptsTheJobsOfOneAndSixteenAgentsWithAndWithoutASecret)
{
    REQUIRES_VALIDATOR();
    ManifestFiles files;
    for (int agents : {1, 16}) {
        KubernetesJobSpec spec = fleetSpec(agents);
        files.write("job-" + std::to_string(agents) + ".json", rendered(spec));
        spec.clientPropertiesSecret = "kafka-client";
        const std::string withSecret = rendered(spec);
        files.write("job-" + std::to_string(agents) + "-secret.json", withSecret);
        if (agents == 16)
            std::ofstream(std::string(PLIMSOLL_ARTIFACT_DIR) + "/kubernetes-job-16-agents.json") << withSecret;
    }
    KubernetesJobSpec everything = fleetSpec(16);
    everything.nameSpace = "bench";
    everything.clientPropertiesSecret = "kafka-client.tls";
    everything.cpuRequest = "500m";
    everything.cpuLimit = "2";
    everything.memoryRequest = "512Mi";
    everything.memoryLimit = "1.5Gi";
    everything.nodeSelector = {{"kubernetes.io/arch", "amd64"}, {"pool", "bench_agents"}};
    everything.serviceAccount = "plimsoll-agent";
    everything.agentArgs.push_back("--payload=$(NOT_EXPANDED)"); // reaches the agent as typed
    files.write("job-everything.json", rendered(everything));

    const Validation v = files.validate();
    EXPECT_EQ(v.exitCode, 0) << v.output;
    EXPECT_NE(v.output.find("job-1.json: ok: batch/v1 Job plimsoll-5f0c1b7e-8a7d-4c1e-9d2a-3b6f0e4c2a91, "
                            "1 indexed completions, parallelism 1"),
              std::string::npos)
        << v.output;
    EXPECT_NE(v.output.find("job-16-secret.json: ok: batch/v1 Job plimsoll-5f0c1b7e-8a7d-4c1e-9d2a-3b6f0e4c2a91, "
                            "16 indexed completions, parallelism 16"),
              std::string::npos)
        << v.output;
    EXPECT_NE(v.output.find("job-everything.json: ok"), std::string::npos) << v.output;
}

// What `plimsoll bench --agents N --launcher kubernetes --dry-run --out DIR` writes: a Job the API's
// types accept, whose pods' command lines plimsoll itself takes.
TEST(Validator, AcceptsTheFleetJobsTheBenchCommandWrites)
{
    REQUIRES_VALIDATOR();
    QTemporaryDir out;
    const QString properties = out.filePath("client.properties"); // the Secret's file, as mounted
    std::ofstream(properties.toStdString()) << "security.protocol=PLAINTEXT\n";
    ManifestFiles files;
    for (int agents : {1, 16})
        for (bool secret : {false, true}) {
            const QString dir = out.filePath(QString("n%1-%2").arg(agents).arg(secret));
            QStringList args = {"bench", "roundtrip", "--bootstrap-server", "127.0.0.1:1", "--agents",
                                QString::number(agents), "--partitions", "16", "--records", "100000", "--rate", "20k",
                                "--timeout", "1s", "--launcher", "kubernetes", "--image",
                                "registry.example/plimsoll:0.1.0", "--cpu-request", "1", "--memory-request", "512Mi",
                                "--node-selector", "pool=bench", "--dry-run", "--out", dir};
            if (secret)
                args << "--client-secret" << "kafka-client";
            QProcess plimsoll;
            plimsoll.start(PLIMSOLL_BINARY, args);
            ASSERT_TRUE(plimsoll.waitForFinished(30000));
            ASSERT_EQ(plimsoll.exitCode(), 0) << plimsoll.readAllStandardError().toStdString();
            const std::string said = plimsoll.readAllStandardOutput().toStdString();
            EXPECT_NE(said.find("plimsoll bench merge plimsoll-"), std::string::npos) << said;
            const auto written = QDir(dir).entryList({"plimsoll-*.json"});
            ASSERT_EQ(written.size(), 1) << said;
            std::ifstream in(QDir(dir).filePath(written[0]).toStdString());
            const std::string job((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            files.write(QString("fleet-%1-%2.json").arg(agents).arg(secret).toStdString(), job);
            // Pod 3's command line (the kubelet's expansion done by hand) is one plimsoll takes: it
            // fails to reach the broker (exit 1), not on its options (exit 2).
            const auto container = nlohmann::json::parse(job)["spec"]["template"]["spec"]["containers"][0];
            QStringList pod;
            for (const auto &arg : container["args"]) {
                QString a = QString::fromStdString(arg.get<std::string>());
                a.replace("$(JOB_COMPLETION_INDEX)", agents == 16 ? "3" : "0");
                if (a.startsWith("/etc/plimsoll/"))
                    a = properties;
                pod << a;
            }
            QProcess agent;
            agent.start(PLIMSOLL_BINARY, pod);
            ASSERT_TRUE(agent.waitForFinished(60000));
            EXPECT_EQ(agent.exitCode(), 1) << pod.join(' ').toStdString() << "\n"
                                           << agent.readAllStandardError().toStdString();
        }
    const Validation v = files.validate();
    EXPECT_EQ(v.exitCode, 0) << v.output;
    EXPECT_NE(v.output.find("fleet-16-1.json: ok: batch/v1 Job plimsoll-"), std::string::npos) << v.output;
    EXPECT_NE(v.output.find("16 indexed completions, parallelism 16"), std::string::npos) << v.output;
}

TEST(Validator, RefusesAMisspeltField)
{
    REQUIRES_VALIDATOR();
    const Validation v = validateEdited([](auto &job) {
        job["spec"]["completionMod"] = job["spec"]["completionMode"];
        job["spec"].erase("completionMode");
    });
    EXPECT_EQ(v.exitCode, 1) << v.output;
    EXPECT_NE(v.output.find("job.json: refused:"), std::string::npos) << v.output;
    EXPECT_NE(v.output.find(R"(unknown field "spec.completionMod")"), std::string::npos) << v.output;
}

TEST(Validator, RefusesAFieldSpeltInAnotherCaseAndADuplicateField)
{
    REQUIRES_VALIDATOR();
    // encoding/json would take "RestartPolicy" for restartPolicy; the API server does not.
    Validation v = validateEdited([](auto &job) { job["spec"]["template"]["spec"]["RestartPolicy"] = "Never"; });
    EXPECT_EQ(v.exitCode, 1) << v.output;
    EXPECT_NE(v.output.find(R"(unknown field "spec.template.spec.RestartPolicy")"), std::string::npos) << v.output;

    KubernetesJobSpec spec = fleetSpec(2);
    std::string text = rendered(spec);
    const std::string field = "\"backoffLimit\": 0,";
    text.replace(text.find(field), field.size(), field + " \"backoffLimit\": 3,");
    ManifestFiles files;
    files.write("duplicate.json", text);
    v = files.validate();
    EXPECT_EQ(v.exitCode, 1) << v.output;
    EXPECT_NE(v.output.find(R"(duplicate field "spec.backoffLimit")"), std::string::npos) << v.output;
}

TEST(Validator, RefusesWhatTheApiServerRefusesInAJob)
{
    REQUIRES_VALIDATOR();
    struct Case
    {
        const char *what;
        std::function<void(nlohmann::ordered_json &)> edit;
        const char *refusal;
    };
    const Case cases[] = {
        {"completions left out", [](auto &job) { job["spec"].erase("completions"); },
         "spec.completions: Required value: when completionMode is Indexed"},
        {"fewer running than completing", [](auto &job) { job["spec"]["parallelism"] = 4; },
         "spec.parallelism: Invalid value: 4: must equal completions (16)"},
        {"a label value with a space", [](auto &job) { job["metadata"]["labels"]["plimsoll.dev/run-id"] = "run 7"; },
         R"(metadata.labels: Invalid value: "run 7")"},
        {"a container name in capitals",
         [](auto &job) { job["spec"]["template"]["spec"]["containers"][0]["name"] = "Agent"; },
         R"(spec.template.spec.containers[0].name: Invalid value: "Agent")"},
        {"a cpu request above its limit",
         [](auto &job) {
             auto &resources = job["spec"]["template"]["spec"]["containers"][0]["resources"];
             resources["requests"]["cpu"] = "4";
             resources["limits"]["cpu"] = "2";
         },
         "must be less than or equal to the cpu limit of 2"},
        {"a quantity with a space",
         [](auto &job) { job["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"] = "1 Gi"; },
         "quantities must match the regular expression"},
        {"the index variable not in the env",
         [](auto &job) { job["spec"]["template"]["spec"]["containers"][0].erase("env"); },
         "$(JOB_COMPLETION_INDEX) names no variable of the container's env"},
        {"restarted in place", [](auto &job) { job["spec"]["template"]["spec"]["restartPolicy"] = "Always"; },
         R"(spec.template.spec.restartPolicy: Unsupported value: "Always")"},
        {"a mount of no volume", [](auto &job) { job["spec"]["template"]["spec"].erase("volumes"); },
         R"(spec.template.spec.containers[0].volumeMounts[0].name: Not found: "client-properties")"},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.what);
        const Validation v = validateEdited(c.edit);
        EXPECT_EQ(v.exitCode, 1) << v.output;
        EXPECT_NE(v.output.find(c.refusal), std::string::npos) << v.output;
    }
}

TEST(Validator, RefusesAnotherKind)
{
    REQUIRES_VALIDATOR();
    ManifestFiles files;
    files.write("deployment.json", R"({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "x"}})");
    const Validation v = files.validate();
    EXPECT_EQ(v.exitCode, 1) << v.output;
    EXPECT_NE(v.output.find(R"(apiVersion "apps/v1" kind "Deployment": only batch/v1 Job is expected here)"),
              std::string::npos)
        << v.output;
}

} // namespace
} // namespace plimsoll
