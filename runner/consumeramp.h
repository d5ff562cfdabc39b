#pragma once
// The consume ramp (bench ramp --ramp consumers): a backlog preloaded once through the
// producer clients (every record acknowledged before the first step), or an existing topic
// read from its beginning; then steps of consumer clients, each step's consumers one group of
// their own reading the whole backlog from its beginning, measured after the warm-up with the
// latency probe alongside and the produce ramp's collectors. A step saturates on CPU, fetch
// p99 over --fetch-p99-limit, errors or a plateau of the consumed rate; a backlog the group
// read within the warm-up ends the ramp as "backlog exhausted", never as saturation.

#include "runner/rampsaturation.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace plimsoll {

struct ConsumeRampTarget
{
    StartOffsets startOffsets; // the probe topic's end
    // The records of the ramp's topic (the broker's watermarks), once the backlog is in
    // place; false (the reason in the run's errors) when they cannot be read or there are none.
    std::function<bool(int64_t &records)> countBacklog;
};

std::vector<PhaseOutcome> runConsumeRamp(const RunConfig &config, const PhaseEnvironment &environment,
                                         const PhaseSpec &base, const std::string &probeTopic,
                                         const ConsumeRampTarget &target);

} // namespace plimsoll
