#pragma once
// The store's schema as forward migrations. migrations()[i] takes a store from version i to
// version i + 1; the database holds the version reached (SQLite: PRAGMA user_version;
// PostgreSQL: the table plimsoll_schema). Never edit a published step: append a new one and
// bump Store::kSchemaVersion. The steps are written once, in SQLite's spelling; PostgreSQL's
// are translated from them (model/store/dialect.h).

#include <string>
#include <vector>

#include "model/store/connection.h"

namespace plimsoll {

// 'PLMS': marks a SQLite file as a Plimsoll store (PRAGMA application_id).
inline constexpr int kStoreApplicationId = 0x504C4D53;

// SQLite's steps (what a SQLite file is migrated with).
const std::vector<std::string> &storeMigrations();
// The steps for a backend.
const std::vector<std::string> &storeMigrations(sql::Dialect dialect);

// After runs were deleted: scenario_metrics forgets the (scenario, metric) names no run has any
// more. Inside the caller's transaction.
void forgetVanishedMetricNames(sql::Connection &db);

} // namespace plimsoll
