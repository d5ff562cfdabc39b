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

// The statements that write the trend read's rows (schema 10) from scenarios s and their runs r,
// for the scenarios `where` selects (a " WHERE …" clause): the migration's and SourceWriter's
// one definition of what a trend row holds. `inputs` adds the distinct inputs texts of those
// scenarios (a JSON array: tool, tool version, tuning as text, then the topology's columns
// brokers .. agents in kTopologyColumns' order, model/store/storerows.h); `inputsId` selects
// the id of a scenario's inputs text; `row` adds the rows, each with the id of its inputs text
// (`inputsId` given: that expression instead, a parameter the caller binds to an id it knows).
// (SQLite reads an INSERT … SELECT … ON CONFLICT only with a WHERE before the ON.)
struct TrendRowInserts
{
    std::string inputs, inputsId, row;
};
// `schema` is the version the statements run against, 0 for the current one: the migration to 10
// wrote the inputs of a store that had no replication column yet.
TrendRowInserts trendRowInserts(const std::string &where, const std::string &inputsId = "",
                                int schema = 0);

// After runs were deleted: scenario_metrics forgets the (scenario, metric) names no run has any
// more. Inside the caller's transaction.
void forgetVanishedMetricNames(sql::Connection &db);

} // namespace plimsoll
