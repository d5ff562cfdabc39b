#pragma once
// Writes a run as Plimsoll trend records (plimsoll-trend/1, JSON Lines): what exports and the
// bench command produce, and what trendRecordsImporter() reads back into an equal RunRecord.

#include "model/core/records.h"

#include <string>

namespace plimsoll {

// The format tag every line carries; trendRecordsImporter() refuses lines without it.
inline constexpr const char kTrendRecordFormat[] = "plimsoll-trend/1";

// One line per scenario, each ending in '\n', every run-level field repeated on each line as
// the format requires. The run's provenance is carried by its first scenario's line, so a run
// reads back equal only when the two agree; a run without scenarios writes nothing.
// Throws std::invalid_argument for a metric that is not finite (JSON has no NaN).
std::string trendRecordLines(const RunRecord &run);

} // namespace plimsoll
