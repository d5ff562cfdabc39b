#include "runner/kubernetesfleet.h"

#include "model/core/units.h"
#include "runner/fleet.h"
#include "runner/resultfile.h"

#include <QDateTime>

#include <filesystem>

namespace plimsoll {

namespace {

// One shell word: as is when it is safe, else in single quotes.
std::string shellWord(const std::string &word)
{
    if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,")
                             == std::string::npos)
        return word;
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string kubectl(const std::vector<std::string> &args)
{
    std::string line = "kubectl";
    for (const auto &a : args)
        line += " " + shellWord(a);
    return line;
}

} // namespace

KubernetesFleet renderKubernetesFleet(RunConfig c, KubernetesFleetLaunch launch)
{
    KubernetesFleet out;
    if (c.runId.empty())
        c.runId = makeUuid();
    if (c.topic.empty())
        c.topic = "plimsoll-benchmark-" + c.runId;
    const auto startAt = std::chrono::system_clock::now() + launch.startMargin;
    c.startAtUnixMs = std::chrono::duration_cast<std::chrono::milliseconds>(startAt.time_since_epoch()).count();
    KubernetesJobSpec &job = launch.job;
    job.runId = c.runId;
    job.agents = c.agents;
    job.agentArgs = agentCommonArguments(c);
    // No agent knows whether another one started first: each may create the topic.
    job.agentArgs.insert(job.agentArgs.end(), {"--create-topic", "--partitions", std::to_string(c.partitions),
                                               "--replication-factor", std::to_string(c.replicationFactor)});
    out.manifest = renderKubernetesJob(job);
    out.config = c;
    if (!out.manifest.ok())
        return out;
    const std::vector<std::string> ns =
        out.manifest.nameSpace.empty() ? std::vector<std::string>{} : std::vector<std::string>{"--namespace", out.manifest.nameSpace};
    const auto with = [&ns](std::vector<std::string> args) {
        args.insert(args.begin() + 1, ns.begin(), ns.end());
        return kubectl(args);
    };
    const std::string file = out.manifest.name + ".json";
    out.commands = {
        with({"apply", "-f", file}),
        with({"wait", "--for=condition=complete", "job/" + out.manifest.name, "--timeout=24h"}),
        "for pod in $(" + with({"get", "pods", "--selector", out.manifest.labelSelector, "--output", "name"})
            + "); do " + with({"logs"}) + " \"$pod\" > \"${pod#pod/}.log\"; done",
        "plimsoll bench merge " + out.manifest.name + "-*.log",
        kubectl(kubectlDeleteArgs(out.manifest)),
    };
    return out;
}

KubernetesFleetWritten writeKubernetesFleet(const RunConfig &config, const KubernetesFleetRequest &request)
{
    KubernetesFleetWritten out;
    if (!config.commandConfigPath.empty()) {
        out.error = "the pods read the client properties from a Secret, not from a file of this machine: create one "
                    "(kubectl create secret generic NAME --from-file=client.properties) and name it as the client "
                    "secret";
        return out;
    }
    if (request.outDir.empty()) {
        out.error = "the manifest needs a directory to be written to";
        return out;
    }
    KubernetesFleetLaunch launch;
    launch.job = request.job;
    for (const std::string &entry : request.nodeSelectors) {
        const auto equals = entry.find('=');
        if (equals == std::string::npos || equals == 0) {
            out.error = "node selector " + entry + ": must be key=value";
            return out;
        }
        launch.job.nodeSelector[entry.substr(0, equals)] = entry.substr(equals + 1);
    }
    const auto margin = parseDuration(request.startMargin);
    if (!margin || margin->count() <= 0) {
        out.error = "start margin must be a duration greater than 0 (got '" + request.startMargin + "')";
        return out;
    }
    launch.startMargin = std::chrono::duration_cast<std::chrono::milliseconds>(*margin);
    out.fleet = renderKubernetesFleet(config, launch);
    if (!out.fleet.manifest.ok()) {
        out.error = out.fleet.manifest.error;
        return out;
    }
    std::error_code fsError;
    std::filesystem::create_directories(request.outDir, fsError);
    out.file = (std::filesystem::path(request.outDir) / (out.fleet.manifest.name + ".json")).string();
    if (out.error = writeFileAtomically(out.file, out.fleet.manifest.json); !out.ok())
        return out;
    const RunConfig &c = out.fleet.config;
    const auto startAt = QDateTime::fromMSecsSinceEpoch(c.startAtUnixMs, Qt::UTC).toString(Qt::ISODate).toStdString();
    out.report = "wrote " + out.file + ": " + std::to_string(c.agents) + " agents of run " + c.runId + " on topic "
               + c.topic + ", starting at " + startAt + " (apply it before then)\nin " + request.outDir + ":\n";
    for (const std::string &command : out.fleet.commands)
        out.report += "  " + command + "\n";
    return out;
}

} // namespace plimsoll
