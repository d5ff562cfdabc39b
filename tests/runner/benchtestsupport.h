#pragma once
// What the bench suites against the test broker share: topic names of their own, and a
// scenario's metric read without inserting it.

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

} // namespace plimsoll::test
