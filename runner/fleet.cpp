// The local launcher: the agents as processes of this machine, their reports read from their
// standard output as they write it.
#include "runner/fleet.h"

#include "runner/kafkaclient.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;

// One agent's process and what it has written so far.
class LocalAgent
{
public:
    LocalAgent(int index, std::filesystem::path dir) : m_dir(std::move(dir)) { m_report.index = index; }

    void start(const std::string &executable, const std::vector<std::string> &arguments)
    {
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errPath().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        std::vector<char *> argv;
        argv.push_back(const_cast<char *>(executable.c_str()));
        for (const auto &a : arguments)
            argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        // A process group of its own: a terminal's Ctrl-C reaches the coordinator alone, which
        // passes the stop on once (a second signal would end an agent without its result).
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attributes, 0);
        const int error = posix_spawn(&m_pid, executable.c_str(), &actions, &attributes, argv.data(), environ);
        posix_spawnattr_destroy(&attributes);
        posix_spawn_file_actions_destroy(&actions);
        m_report.started = error == 0;
        if (error != 0)
            m_report.problem = executable + ": " + std::strerror(error);
    }

    bool running() const { return m_report.started && !m_exited; }
    AgentReport &report() { return m_report; }

    // Reaps the process if it ended; true when it did just now.
    bool poll()
    {
        readLines();
        if (!running())
            return false;
        int status = 0;
        if (::waitpid(m_pid, &status, WNOHANG) != m_pid)
            return false;
        m_exited = true;
        if (WIFEXITED(status))
            m_report.exitCode = WEXITSTATUS(status);
        else if (WIFSIGNALED(status))
            m_report.signal = WTERMSIG(status);
        readLines();
        m_report.problem = lastStderrLine();
        return true;
    }

    void signal(int sig)
    {
        if (running())
            ::kill(m_pid, sig);
    }

private:
    std::string outPath() const { return (m_dir / ("agent-" + std::to_string(m_report.index) + ".out")).string(); }
    std::string errPath() const { return (m_dir / ("agent-" + std::to_string(m_report.index) + ".err")).string(); }

    // The complete lines written since the last read: interval snapshots, and the result.
    void readLines()
    {
        if (!m_report.started)
            return;
        if (!m_out.is_open())
            m_out.open(outPath(), std::ios::binary);
        m_out.clear(); // past the end the last time: read on from there
        std::string chunk((std::istreambuf_iterator<char>(m_out)), std::istreambuf_iterator<char>());
        m_partial += chunk;
        for (std::size_t newline; (newline = m_partial.find('\n')) != std::string::npos;) {
            const auto line = nlohmann::json::parse(m_partial.substr(0, newline), nullptr, false);
            m_partial.erase(0, newline + 1);
            BenchSnapshot snapshot;
            if (snapshotFromJson(line, snapshot))
                m_report.intervals.push_back(snapshot);
            else if (line.is_object() && line.value("type", "") == "result")
                m_report.result = line;
        }
    }

    std::string lastStderrLine() const
    {
        std::ifstream in(errPath());
        std::string line, last;
        while (std::getline(in, line))
            if (!line.empty())
                last = line;
        return last;
    }

    std::filesystem::path m_dir;
    pid_t m_pid = -1;
    bool m_exited = false;
    std::ifstream m_out; // the agent's standard output, read as it grows
    std::string m_partial;
    AgentReport m_report;
};

std::string selfExecutable()
{
    std::error_code error;
    const auto path = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::string("plimsoll") : path.string();
}

// The fleet's topic, created when it is the run's own or --create-topic asks; its partition
// count checked against the agents. "" when ready, else the problem.
std::string prepareTopic(const RunConfig &c, KafkaClient &admin, bool fresh, bool *created)
{
    const auto timeout = toMs(c.timeout);
    ClusterDescription cluster;
    if (!fresh) {
        if (auto error = admin.describeCluster(cluster, timeout); !error.ok())
            return error.toString();
        if (const auto *topic = cluster.topic(c.topic)) {
            if (c.workload != Workload::Producer && topic->partitionCount < c.agents)
                return "topic '" + c.topic + "' has " + std::to_string(topic->partitionCount)
                     + " partitions, fewer than --agents " + std::to_string(c.agents)
                     + ": each agent reads partitions of its own";
            return {};
        }
        if (!c.createTopic)
            return "topic '" + c.topic + "' does not exist on " + c.bootstrapServers + "; pass --create-topic to create it";
    }
    auto error = admin.createTopic(c.topic, c.partitions, c.replicationFactor, timeout);
    if (error.is(RdKafka::ERR_TOPIC_ALREADY_EXISTS) && !fresh)
        return {};
    if (!error.ok())
        return error.toString();
    *created = true;
    return {};
}

} // namespace

std::vector<std::string> agentCommonArguments(const RunConfig &c)
{
    const auto ns = [](std::chrono::nanoseconds d) { return std::to_string(d.count()) + "ns"; };
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.17g", c.rate);
    std::vector<std::string> out = {"bench", workloadName(c.workload), "--bootstrap-server", c.bootstrapServers,
                                    "--record-size", std::to_string(c.recordSize) + "B", "--warmup", ns(c.warmup),
                                    "--interval", ns(c.interval), "--timeout", ns(c.timeout)};
    if (c.records > 0)
        out.insert(out.end(), {"--records", std::to_string(c.records)});
    else if (c.duration.count() > 0)
        out.insert(out.end(), {"--duration", ns(c.duration)});
    if (c.workload != Workload::Consumer) {
        out.insert(out.end(), {"--producer-clients", std::to_string(c.producerClients), "--acks", c.acks,
                               "--compression", c.compression, "--linger", ns(c.linger), "--batch-size",
                               std::to_string(c.batchSize) + "B"});
        if (c.rate > 0)
            out.insert(out.end(), {"--rate", rate});
    }
    if (c.workload != Workload::Producer) {
        out.insert(out.end(), {"--consumer-clients", std::to_string(c.consumerClients), "--fetch-max-bytes",
                               std::to_string(c.fetchMaxBytes) + "B"});
        if (c.workload == Workload::Consumer)
            out.insert(out.end(), {"--from", c.from, "--validate", c.validateChecksum ? "checksum" : "none"});
    }
    for (const auto &[key, value] : c.userTuning)
        out.insert(out.end(), {"--tuning", key + "=" + value});
    out.insert(out.end(), {"--run-id", c.runId, "--topic", c.topic, "--agents", std::to_string(c.agents),
                           "--start-at", std::to_string(c.startAtUnixMs), "--no-store", "--output", "jsonl"});
    return out;
}

std::vector<std::string> agentArguments(const RunConfig &c, int index)
{
    auto out = agentCommonArguments(c);
    if (!c.commandConfigPath.empty())
        out.insert(out.end(), {"--command-config", c.commandConfigPath});
    out.insert(out.end(), {"--agent-index", std::to_string(index)});
    if (!c.histogramLog.empty())
        out.insert(out.end(), {"--histogram-log", c.histogramLog + ".agent" + std::to_string(index)});
    return out;
}

std::chrono::milliseconds localStartMargin(int agents) { return std::chrono::milliseconds(3000 + 250 * agents); }

BenchResult runLocalFleet(RunConfig c, const std::string &agentExecutable, const std::atomic<bool> &cancel,
                          const std::function<void(const BenchSnapshot &)> &sink,
                          const std::function<void(const std::string &)> &note,
                          const std::function<void(int64_t)> &onStart)
{
    BenchResult coordinator;
    if (c.runId.empty())
        c.runId = makeUuid();
    const bool fresh = c.topic.empty();
    if (fresh)
        c.topic = "plimsoll-benchmark-" + c.runId;
    coordinator.runId = c.runId;
    coordinator.workload = workloadName(c.workload);
    coordinator.bootstrapServers = c.bootstrapServers;
    coordinator.topic = c.topic;
    coordinator.startedAt = nowTimestamp();
    std::map<std::string, std::string> kafka = c.clientConfig;
    kafka["bootstrap.servers"] = c.bootstrapServers;
    KafkaClient admin(kafka);
    std::vector<AgentReport> reports;
    if (auto problem = c.validate(); !problem.empty())
        coordinator.errors.push_back(problem);
    else if (auto topicProblem = prepareTopic(c, admin, fresh, &coordinator.topicCreated); !topicProblem.empty())
        coordinator.errors.push_back(topicProblem);
    std::error_code fsError;
    const auto dir = std::filesystem::temp_directory_path() / ("plimsoll-fleet-" + c.runId);
    if (coordinator.errors.empty() && !std::filesystem::create_directories(dir, fsError))
        coordinator.errors.push_back("cannot create " + dir.string() + ": " + fsError.message());
    if (coordinator.errors.empty()) {
        const auto startAt = std::chrono::system_clock::now() + localStartMargin(c.agents);
        c.startAtUnixMs = std::chrono::duration_cast<std::chrono::milliseconds>(startAt.time_since_epoch()).count();
        const std::string executable = agentExecutable.empty() ? selfExecutable() : agentExecutable;
        std::vector<LocalAgent> agents;
        agents.reserve(static_cast<std::size_t>(c.agents));
        for (int i = 0; i < c.agents; ++i) {
            agents.emplace_back(i, dir);
            agents.back().start(executable, agentArguments(c, i));
        }
        if (note)
            note(std::to_string(c.agents) + (c.agents == 1 ? " agent" : " agents") + " started; the schedule starts in "
                 + std::to_string(localStartMargin(c.agents).count() / 1000.0).substr(0, 4) + " s");
        if (onStart)
            onStart(c.startAtUnixMs);
        FleetIntervals intervals(sink);
        const auto advance = [&](bool final) {
            std::vector<const AgentReport *> reports;
            std::vector<bool> running;
            for (auto &a : agents) {
                reports.push_back(&a.report());
                running.push_back(a.running());
            }
            intervals.advance(reports, running, final);
        };
        std::optional<Clock::time_point> lateAfter, killAfter;
        bool stopped = false;
        for (;;) {
            bool anyRunning = false;
            for (auto &a : agents) {
                if (a.poll()) {
                    if (!lateAfter) // the first to finish: the others get the run's timeout more
                        lateAfter = Clock::now() + c.timeout + std::chrono::seconds(5);
                    if (note)
                        note("agent " + std::to_string(a.report().index) + " finished"
                             + (a.report().result.is_object() ? ": " + a.report().result.value("status", "") : ""));
                }
                anyRunning |= a.running();
            }
            advance(false);
            if (!anyRunning)
                break;
            const auto now = Clock::now();
            if (cancel.load() && !stopped) {
                stopped = true;
                for (auto &a : agents)
                    a.signal(SIGTERM);
                killAfter = now + c.timeout + std::chrono::seconds(5);
            }
            if (lateAfter && now > *lateAfter && !killAfter) {
                for (auto &a : agents)
                    if (a.running()) {
                        a.report().late = true;
                        a.signal(SIGTERM);
                    }
                killAfter = now + std::chrono::seconds(5);
            }
            if (killAfter && now > *killAfter)
                for (auto &a : agents)
                    a.signal(SIGKILL);
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        advance(true);
        coordinator.intervals = intervals.take();
        for (auto &a : agents)
            reports.push_back(std::move(a.report()));
        std::filesystem::remove_all(dir, fsError);
    }
    if (c.cleanup && coordinator.topicCreated) {
        if (auto error = admin.deleteTopic(c.topic, toMs(c.timeout)); error.ok())
            coordinator.topicDeleted = true;
        else
            coordinator.warnings.push_back(error.toString());
    }
    coordinator.finishedAt = nowTimestamp();
    coordinator.interrupted = cancel.load();
    return mergeFleetResults(c.agents, std::move(coordinator), reports);
}

} // namespace plimsoll
