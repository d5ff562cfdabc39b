#pragma once
// What `plimsoll changes` prints: the JSON report (documented in docs/trends.md) and, for people,
// one line per finding under its time (level changes, outliers, noise changes, drifts), the
// baseline changes and the scenarios measured at several loads, then the counts.

#include "model/trends/trendchanges.h"

#include <nlohmann/json.hpp>

namespace plimsoll {

nlohmann::json changesJson(const ChangesReport &r);
void printChanges(const ChangesReport &r);

} // namespace plimsoll
