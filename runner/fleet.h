#pragma once
// A fleet: one workload run as N agents that share a run id (RunConfig::agents), each one a
// `plimsoll bench <workload> … --agent-index I` process running its share (benchconfig.h), and
// the one result they make together.
//
// The coordinator creates (or checks) the topic, picks the start instant, starts the agents,
// follows their interval lines, stops any that outlive the others by more than the run's
// timeout, and merges their result documents: counts summed, rates summed over the common
// window, latency histograms added count by count, so that the fleet's percentiles are those
// of one histogram holding every agent's values. Each agent reports on its standard output
// as `--output jsonl` does, its result document being the last line; a Kubernetes pod's log
// carries the same lines, so one reader serves both launchers.

#include "runner/benchconfig.h"
#include "runner/benchresult.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace plimsoll {

// What one agent left: how its process ended, and what it reported.
struct AgentReport
{
    int index = 0;
    bool started = false;  // its process was started
    int exitCode = -1;     // -1: it did not exit by itself (a signal, or never started)
    int signal = 0;        // the signal that ended it, 0: none
    bool late = false;     // still running long after the first agent finished: stopped
    bool unreported = false; // its report was not among those given (bench merge)
    std::string problem;   // why it did not start, or what it printed last on stderr
    nlohmann::json result; // its result document; null when it wrote none
    std::vector<BenchSnapshot> intervals; // its interval lines, in order
};

// Every agent's command line after the binary: "bench", the workload and the run's settings as
// options (the CLI's and the window's run alike), then agent `index`'s own: the run id, topic,
// index, the fleet's size and start instant, no store, its report on stdout, and its histogram
// log "<histogramLog>.agent<index>" when the run has one.
std::vector<std::string> agentArguments(const RunConfig &fleet, int index);
// What every agent is given, whatever its index and wherever it runs: all of agentArguments()
// but the index, the client properties' path and the histogram log.
std::vector<std::string> agentCommonArguments(const RunConfig &fleet);

// The fleet's intervals as its agents report theirs: interval k once every agent that may still
// report has reported its own k (all there are, when final).
class FleetIntervals
{
public:
    explicit FleetIntervals(std::function<void(const BenchSnapshot &)> sink = {}) : m_sink(std::move(sink)) {}
    // running[i]: agents[i] may report more.
    void advance(const std::vector<const AgentReport *> &agents, const std::vector<bool> &running, bool final);
    std::vector<BenchSnapshot> take() { return std::move(m_merged); }

private:
    std::function<void(const BenchSnapshot &)> m_sink;
    std::size_t m_next = 0;
    std::vector<BenchSnapshot> m_merged;
};

// Agents' reports from files of their standard output (their `--output jsonl` lines, such as a
// pod's log, other lines ignored), each file one agent's, for mergeFleetResults(): one report
// per agent of the fleet, an agent without a file marked unreported. "" when read, else the
// problem naming the file (no agent's result in it, another run's, an agent twice).
std::string readAgentReports(const std::vector<std::string> &files, std::vector<AgentReport> &reports,
                             int *agentCount);

// How long before the start instant the coordinator starts N local agents: room for each to
// start, connect and see the topic's leaders.
std::chrono::milliseconds localStartMargin(int agents);

// Runs config.agents agents as processes on this machine and returns the fleet's result. The
// first stop (cancel) is passed to every agent (SIGTERM), which keeps its partial result.
// `sink` gets the fleet's merged interval snapshots as all agents have reported them; `note`
// gets a line for the user at each agent's start and end.
// `executable` is the plimsoll binary the agents run; empty: this process's own. `onStart`, when
// set, is called with the fleet's start instant (Unix ms) once every agent has been started.
BenchResult runLocalFleet(RunConfig config, const std::string &executable, const std::atomic<bool> &cancel,
                          const std::function<void(const BenchSnapshot &)> &sink,
                          const std::function<void(const std::string &)> &note,
                          const std::function<void(int64_t startAtUnixMs)> &onStart = {});

// The fleet's result from its agents' reports (fleetmerge.cpp). `coordinator` holds what the
// coordinator itself found (run id, topic, errors before any agent ran, start and end times);
// an agent that did not start, died, was late, failed or wrote no result is named in the
// errors, and the result is then partial with exit code 1. Without coordinator.intervals, the
// fleet's intervals are merged from the agents' (FleetIntervals).
// `agents` holds a report for each of the fleet's `agentCount` agents; the fleet's settings and
// tuning contract are its agents' with the fleet's totals (records, rate, clients, agents).
BenchResult mergeFleetResults(int agentCount, BenchResult coordinator, const std::vector<AgentReport> &agents);

// The fleet's interval k from each agent's interval k: rates and counts summed, latencies
// the highest agent's (an interval's histograms are in the agents' histogram logs).
BenchSnapshot mergeAgentSnapshots(const std::vector<const BenchSnapshot *> &snapshots);

// A snapshot from its JSON line (BenchSnapshot::toJson()); false when `line` is not one.
bool snapshotFromJson(const nlohmann::json &line, BenchSnapshot &snapshot);

} // namespace plimsoll
