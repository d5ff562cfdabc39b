#pragma once
// What every bench result gets at its end, whichever way it ran (one process, or a fleet
// ramp's steps): its settings as JSON, its tuning contract, and its exit code, partial flag
// and closing warning from its errors and whether it was stopped.

#include "runner/benchconfig.h"
#include "runner/benchphase.h"
#include "runner/benchresult.h"

#include <nlohmann/json.hpp>

namespace plimsoll {

// The run's settings as the result's `config` keeps them (the client properties redacted).
nlohmann::json benchConfigJson(const RunConfig &config);

// A phase's scenario, errors, warnings, failure, stop and in-flight counts, into the result.
void addPhaseOutcome(BenchResult &result, PhaseOutcome outcome);

// Stamps the finish time, the settings and the tuning contract of `config`, and settles the
// exit code (1 on errors, kExitInterrupted when stopped), the partial flag and its note.
void finishBenchResult(BenchResult &result, const RunConfig &config, bool cancelled);

} // namespace plimsoll
