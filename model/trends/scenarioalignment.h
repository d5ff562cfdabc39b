#pragma once
// Which scenario of one run is compared with which of another. Runs of the same benchmark at
// another load rarely share scenario names — OMB's "100-partitions-200K-rate-4-producer" against
// "5000-partitions-200K-rate-4-producer", redis-benchmark's "SET/c-10" against "SET/c-100" — so
// scenarios are aligned, in this order:
//   1. by name, when the runs share any scenario name;
//   2. by the load factor that differs between them (factorCatalog(), or the offered rate): two
//      scenarios align when their names read the same with every number left out and every
//      setting but the load factors agrees, one to one;
//   3. by position, when each run has exactly one scenario.
// Else nothing aligns, and every scenario is in one run only. The factors that differ within
// the aligned pairs are named ("partitions: 100 ↔ 5,000"), so a reader knows what is compared
// with what. When one factor differs (or several in lockstep, as redis-benchmark's clients and
// connections), it leaves the pair's tuning contract (model/trends/runcomparison.h,
// ScenarioPairing) and every other setting must still match; when more differ, the contract
// judges the pair as it judges any two scenarios (incompatible, naming the keys).
//
// Threading: pure functions.

#include "model/core/records.h"
#include "model/trends/runcomparison.h"

#include <string>
#include <vector>

namespace plimsoll {

enum class AlignedBy { Name, LoadFactor, Position, Nothing };

struct ScenarioAlignment
{
    AlignedBy by = AlignedBy::Nothing;
    ScenarioPairing pairing;             // empty pairs when by name
    std::vector<std::string> factors;    // the load factors that differ within the aligned pairs
    std::vector<std::string> baselineValues; // per factor, the baseline's values ("100", "200,000 rec/s")
    std::vector<std::string> currentValues;  // per factor, the other run's
};

ScenarioAlignment alignScenarios(const RunRecord &baseline, const RunRecord &current);

// "name", "partitions", "offered rate", "position"; a factor's name as a reader reads it.
std::string alignedByWord(AlignedBy by);
std::string factorWord(const std::string &factor);
// One factor's value in a scenario as text, or empty when the scenario does not state it.
std::string factorValueText(const RunRecord &run, const ScenarioRecord &scenario, const std::string &factor);

} // namespace plimsoll
