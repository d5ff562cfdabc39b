#pragma once
// What the bench suites against the test broker share: topic names of their own, and a
// scenario's metric read without inserting it.

#include "runner/benchconfig.h"
#include "runner/benchresult.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <sys/types.h>

namespace plimsoll::test {

// "<prefix>-<purpose>-<random>": a topic no other test or run uses.
inline std::string uniqueTopic(const std::string &prefix, const std::string &purpose)
{
    std::random_device device;
    return prefix + "-" + purpose + "-" + std::to_string(device());
}

// The metric's value, or -1 when the scenario has none by that name.
inline double metricOf(const ScenarioResult &s, const std::string &name)
{
    auto it = s.metrics.find(name);
    return it == s.metrics.end() ? -1 : it->second;
}

// The pid of the process whose command line holds every one of `words`, or -1.
inline pid_t processWith(const std::vector<std::string> &words)
{
    for (const auto &entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        std::string cmdline = text.str();
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        bool all = true;
        for (const auto &w : words)
            all = all && cmdline.find(w) != std::string::npos;
        if (all)
            return static_cast<pid_t>(std::stol(name));
    }
    return -1;
}

// A run of `workload` on the test broker at `bootstrap`: a topic of its own, created with 4
// partitions, a fresh run id, a 30 s timeout.
inline RunConfig brokerRun(Workload workload, const std::string &bootstrap, const std::string &topic)
{
    RunConfig c;
    c.workload = workload;
    c.bootstrapServers = bootstrap;
    c.topic = topic;
    c.createTopic = true;
    c.partitions = 4;
    c.timeout = std::chrono::seconds(30);
    c.runId = makeUuid();
    return c;
}

} // namespace plimsoll::test
