#include "runner/kubernetesfleet.h"

#include "runner/fleet.h"

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
            + "); do " + kubectl(std::vector<std::string>{"logs"}) + (ns.empty() ? "" : " --namespace " + shellWord(ns[1]))
            + " \"$pod\" > \"${pod#pod/}.log\"; done",
        "plimsoll bench merge " + out.manifest.name + "-*.log",
        kubectl(kubectlDeleteArgs(out.manifest)),
    };
    return out;
}

} // namespace plimsoll
