#include "runner/kubernetesrun.h"

#include "runner/fleet.h"
#include "runner/resultfile.h"

#include <QProcess>
#include <QStringList>

#include <filesystem>
#include <map>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;

struct Ran
{
    int exitCode = -1;
    std::string out, err;
    bool ok() const { return exitCode == 0; }
    // What kubectl said, in a line.
    std::string said() const
    {
        std::string text = err.empty() ? out : err;
        while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
            text.pop_back();
        return text.empty() ? "exit code " + std::to_string(exitCode) : text;
    }
};

class Kubectl
{
public:
    Kubectl(const KubectlOptions &options, std::string nameSpace) : m_options(options), m_ns(std::move(nameSpace)) {}

    // `args` with the Job's namespace, when it has one.
    Ran operator()(std::vector<std::string> args, bool inNamespace = true) const
    {
        if (inNamespace && !m_ns.empty())
            args.insert(args.begin() + 1, {"--namespace", m_ns});
        QStringList list;
        for (const auto &a : args)
            list << QString::fromStdString(a);
        QProcess p;
        p.start(QString::fromStdString(m_options.program), list);
        Ran ran;
        if (!p.waitForStarted(10000)) {
            ran.err = "cannot run " + m_options.program + ": " + p.errorString().toStdString();
            return ran;
        }
        p.closeWriteChannel();
        if (!p.waitForFinished(int(m_options.commandTimeout.count()))) {
            p.kill();
            p.waitForFinished(5000);
            ran.err = m_options.program + " " + args.front() + " did not answer within "
                    + std::to_string(m_options.commandTimeout.count() / 1000) + " s";
            return ran;
        }
        ran.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        ran.out = p.readAllStandardOutput().toStdString();
        ran.err = p.readAllStandardError().toStdString();
        return ran;
    }

private:
    const KubectlOptions &m_options;
    std::string m_ns;
};

// One pod of the Job as `kubectl get pods -o json` lists it.
struct Pod
{
    std::string name, phase;
    int index = -1;
    int exitCode = -1;
    std::string reason; // the container's termination reason (OOMKilled, Error, ...)
};

std::map<int, Pod> podsByIndex(const nlohmann::json &list)
{
    std::map<int, Pod> out;
    for (const auto &item : list.value("items", nlohmann::json::array())) {
        Pod pod;
        pod.name = item.value("/metadata/name"_json_pointer, std::string());
        pod.phase = item.value("/status/phase"_json_pointer, std::string());
        const auto annotations = item.value("/metadata/annotations"_json_pointer, nlohmann::json::object());
        const std::string index = annotations.value("batch.kubernetes.io/job-completion-index", "");
        if (pod.name.empty() || index.empty() || index.find_first_not_of("0123456789") != std::string::npos)
            continue;
        pod.index = std::stoi(index);
        for (const auto &c : item.value("/status/containerStatuses"_json_pointer, nlohmann::json::array()))
            if (const auto t = c.value("/state/terminated"_json_pointer, nlohmann::json()); t.is_object()) {
                pod.exitCode = t.value("exitCode", -1);
                pod.reason = t.value("reason", "");
            }
        // One pod an index (backoffLimit 0); should there be two, the one that succeeded.
        if (auto it = out.find(pod.index); it == out.end() || pod.phase == "Succeeded")
            out[pod.index] = pod;
    }
    return out;
}

std::string lastLine(const std::string &text)
{
    auto end = text.find_last_not_of("\n ");
    if (end == std::string::npos)
        return {};
    const auto start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

} // namespace

BenchResult runKubernetesFleet(const KubernetesFleetWritten &written, const KubectlOptions &options,
                               const std::atomic<bool> &cancel, const std::function<void(const std::string &)> &note)
{
    const RunConfig &c = written.fleet.config;
    const KubernetesJobManifest &m = written.fleet.manifest;
    const auto say = [&](const std::string &line) {
        if (note)
            note(line);
    };
    BenchResult coordinator;
    coordinator.runId = c.runId;
    coordinator.workload = workloadName(c.workload);
    coordinator.bootstrapServers = c.bootstrapServers;
    coordinator.topic = c.topic;
    coordinator.startedAt = nowTimestamp();
    std::vector<AgentReport> reports(static_cast<std::size_t>(c.agents));
    for (int i = 0; i < c.agents; ++i) {
        reports[std::size_t(i)].index = i;
        reports[std::size_t(i)].problem = "its pod left no log";
    }
    const auto finish = [&] {
        coordinator.finishedAt = nowTimestamp();
        coordinator.interrupted = cancel.load();
        return mergeFleetResults(c.agents, coordinator, reports);
    };
    const Kubectl kubectl(options, m.nameSpace);
    const Ran context = kubectl({"config", "current-context"}, false);
    if (!context.ok()) {
        coordinator.errors.push_back("no kubectl context to apply the Job with (" + context.said()
                                     + "): configure one, or write the Job with --dry-run --out DIR and apply it yourself");
        return finish();
    }
    say("applying " + written.file + " with kubectl's context " + lastLine(context.out));
    if (const Ran applied = kubectl({"apply", "-f", written.file}); !applied.ok()) {
        coordinator.errors.push_back("kubectl apply refused the Job: " + applied.said());
        return finish();
    }
    // Follow the Job until it is complete or failed, every pod finished, a stop, or the late rule.
    std::optional<Clock::time_point> lateAfter;
    bool late = false;
    int failures = 0, lastFinished = -1;
    for (;;) {
        if (cancel.load())
            break;
        const Ran got = kubectl({"get", "job", m.name, "--output", "json"});
        const auto job = nlohmann::json::parse(got.out, nullptr, false);
        if (!got.ok() || !job.is_object()) {
            if (++failures >= 3) {
                coordinator.errors.push_back("kubectl get job " + m.name + " failed three times: " + got.said());
                break;
            }
        } else {
            failures = 0;
            const int finished = job.value("/status/succeeded"_json_pointer, 0) + job.value("/status/failed"_json_pointer, 0);
            if (finished != lastFinished && finished > 0)
                say(std::to_string(finished) + " of " + std::to_string(c.agents) + " agents finished");
            lastFinished = finished;
            bool done = finished >= c.agents;
            for (const auto &condition : job.value("/status/conditions"_json_pointer, nlohmann::json::array()))
                done |= (condition.value("type", "") == "Complete" || condition.value("type", "") == "Failed")
                     && condition.value("status", "") == "True";
            if (done)
                break;
            if (finished > 0 && !lateAfter)
                lateAfter = Clock::now() + c.timeout + options.lateSlack;
            if (lateAfter && Clock::now() > *lateAfter) {
                late = true;
                break;
            }
        }
        for (auto until = Clock::now() + options.poll; Clock::now() < until && !cancel.load();)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    // Every pod's log, a file each beside the manifest, whatever state the Job ended in.
    const Ran listed = kubectl({"get", "pods", "--selector", m.labelSelector, "--output", "json"});
    const auto list = nlohmann::json::parse(listed.out, nullptr, false);
    if (!listed.ok() || !list.is_object())
        coordinator.errors.push_back("kubectl get pods --selector " + m.labelSelector + " failed: " + listed.said());
    const auto dir = std::filesystem::path(written.file).parent_path();
    for (const auto &[index, pod] : list.is_object() ? podsByIndex(list) : std::map<int, Pod>{}) {
        if (index < 0 || index >= c.agents)
            continue;
        AgentReport &report = reports[std::size_t(index)];
        report.started = true;
        report.exitCode = pod.exitCode;
        if (pod.exitCode > 128 && pod.reason != "OOMKilled") // a shell's 128 + N: ended by signal N
            report.signal = pod.exitCode - 128, report.exitCode = -1;
        const bool running = pod.phase == "Running" || pod.phase == "Pending";
        report.late = late && running;
        const std::string unfinished = cancel.load() ? "its pod was " + pod.phase + " when the run was stopped"
                                                      : "its pod was still " + pod.phase + " when the Job ended";
        const Ran log = kubectl({"logs", pod.name});
        const std::string file = (dir / (pod.name + ".log")).string();
        if (!log.ok()) {
            report.problem = "kubectl logs " + pod.name + ": " + log.said();
            continue;
        }
        if (auto error = writeFileAtomically(file, log.out); !error.empty())
            coordinator.warnings.push_back(error);
        std::vector<AgentReport> read;
        int of = 0;
        if (readAgentReports({file}, read, &of).empty() && index < int(read.size())
            && read[std::size_t(index)].result.is_object()) {
            report = std::move(read[std::size_t(index)]); // it reported: neither late nor failed
        } else {
            const std::string words = lastLine(log.out);
            report.problem = running ? unfinished
                                     : (pod.reason.empty() ? "" : pod.reason + "; ") + (words.empty() ? "its log is empty" : words);
        }
    }
    if (const Ran deleted = kubectl(kubectlDeleteArgs(m), false); deleted.ok())
        say("deleted Job " + m.name);
    else
        coordinator.warnings.push_back("the Job " + m.name + " was not deleted (" + deleted.said() + ")");
    if (cancel.load())
        say("stopped: the Job was deleted, and what its pods had logged is kept");
    return finish();
}

} // namespace plimsoll
