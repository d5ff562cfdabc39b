#pragma once
// Reading the store's rows: what model/store/store.cpp and model/store/storetrends.cpp (the trend and
// change-point reads) share. Internal to the store, not part of its interface.

#include "model/core/records.h"
#include "model/store/sqlite.h"

#include <nlohmann/json.hpp>

#include <string>

namespace plimsoll::storerows {

// How long a writer waits for another process's transaction before reporting "busy".
inline constexpr int kBusyTimeoutMs = 5000;

// The scenario columns from `name` on: name, kind, the topology (brokers .. acks), inferred,
// provenance — as run(), forEachRun() and recentRunsOf() select them.
inline constexpr const char *kScenarioColumns =
    "s.name, s.kind, s.brokers, s.shards, s.partitions, s.producers, s.consumers, s.clients, "
    "s.connections, s.threads, s.pipeline, s.record_size_bytes, s.batch_bytes, s.compression, "
    "s.acks, s.inferred, s.provenance";

// Columns 1 to 7 of a run row, in the order every query of whole runs selects them: run key,
// timestamp, commit, image digest, tool, tool version, target.
void readRunIdentity(const sql::Statement &st, RunRecord &run);
// A stored JSON text; `fallback` when it is empty.
nlohmann::json parseStoredJson(const std::string &text, nlohmann::json fallback);
// A scenario from kScenarioColumns, starting at column `c`.
ScenarioRecord readScenario(const sql::Statement &q, int c);

} // namespace plimsoll::storerows
