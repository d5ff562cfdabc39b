#pragma once
// The store's schema as forward migrations. migrations()[i] takes a store from version i to
// version i + 1; PRAGMA user_version holds the version reached. Never edit a published step:
// append a new one and bump Store::kSchemaVersion.

#include <string>
#include <vector>

struct sqlite3;

namespace plimsoll {

// 'PLMS': marks a SQLite file as a Plimsoll store (PRAGMA application_id).
inline constexpr int kStoreApplicationId = 0x504C4D53;

const std::vector<std::string> &storeMigrations();

// After runs were deleted: scenario_metrics forgets the (scenario, metric) names no run has any
// more. Inside the caller's transaction.
void forgetVanishedMetricNames(sqlite3 *db);

} // namespace plimsoll
