#pragma once
// What the bench suites against the test broker share: topic names of their own, and a
// scenario's metric read without inserting it.

#include "runner/benchconfig.h"
#include "runner/benchresult.h"

#include <random>
#include <string>

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
