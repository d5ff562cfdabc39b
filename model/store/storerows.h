#pragma once
// Reading the store's rows and writing its run filters as SQL: what model/store/store.cpp and
// model/store/storetrends.cpp (the trend and change-point reads) share. Internal to the store,
// not part of its interface.

#include "model/core/records.h"
#include "model/store/connection.h"
#include "model/store/store.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace plimsoll::storerows {

// The scenario columns from `name` on: name, kind, the topology (brokers .. acks), inferred,
// provenance — as run(), forEachRun() and recentRunsOf() select them.
inline constexpr const char *kScenarioColumns =
    "s.name, s.kind, s.brokers, s.shards, s.partitions, s.producers, s.consumers, s.clients, "
    "s.connections, s.threads, s.pipeline, s.record_size_bytes, s.batch_bytes, s.compression, "
    "s.acks, s.agents, s.replication, s.inferred, s.provenance";

// The topology's columns brokers .. agents alone, in the same order (readTopology reads them).
inline constexpr const char *kTopologyColumns =
    "s.brokers, s.shards, s.partitions, s.producers, s.consumers, s.clients, s.connections, "
    "s.threads, s.pipeline, s.record_size_bytes, s.batch_bytes, s.compression, s.acks, s.agents, "
    "s.replication";
// How many columns kTopologyColumns has.
inline constexpr int kTopologyColumnCount = 15;

// Columns 1 to 7 of a run row, in the order every query of whole runs selects them: run key,
// timestamp, commit, image digest, tool, tool version, target.
void readRunIdentity(const sql::Statement &st, RunRecord &run);
// A stored JSON text; `fallback` when it is empty.
nlohmann::json parseStoredJson(const std::string &text, nlohmann::json fallback);
// The topology's columns brokers .. acks (the kScenarioColumns order), from column `c`, without
// the inferred list.
void readTopology(const sql::Statement &q, int c, Topology &t);
// A scenario from kScenarioColumns, starting at column `c`.
ScenarioRecord readScenario(const sql::Statement &q, int c);

// Columns 0 to 8 of a run row, as kRunSummaryColumns and forEachTrendRun() select them: id, run
// key, timestamp, commit, image digest, tool, tool version, target, sample.
void readIdentity(const sql::Statement &q, StoredRunIdentity &run);
// The columns of a RunSummary, as readSummary() reads them from column 0.
inline constexpr const char *kRunSummaryColumns =
    "r.id, r.run_key, r.timestamp, r.commit_sha, r.image_digest, r.tool, r.tool_version, "
    "r.target, r.sample, r.scenario_count, "
    "src.uri, src.format, r.run_name, r.run_tags";
// How many columns kRunSummaryColumns has.
inline constexpr int kRunSummaryColumnCount = 14;
RunSummary readSummary(const sql::Statement &q);
// The series of one scenario, by name, samples in order (q selects them for scenarioId).
std::vector<SeriesRecord> readSeries(sql::Statement &q, int64_t scenarioId);
// A run's tags as the store keeps them (storeschema.cpp, 12 -> 13): sorted, separated by one
// space; and back.
std::string tagsText(const std::vector<std::string> &tags);
std::vector<std::string> tagsOf(std::string_view text);
// True for a run id given as digits (not a run key).
bool isNumber(const std::string &s);

// RunFilter as SQL: the WHERE conditions over runs r (and sources src), and their values bound
// in the same order.
std::string runFilterConditions(const RunFilter &filter);
void bindRunFilter(sql::Statement &st, const RunFilter &filter);
// RunPage's order as an ORDER BY key, and the cursor after the last row of the previous page.
std::string pageOrderKey(RunPage::Order order);
void bindPageCursor(sql::Statement &st, int index, RunPage::Order order, const RunSummary &after);
// The family of a scenario name: up to its last '/', or empty when it has none.
std::string familyOf(const std::string &scenario);

} // namespace plimsoll::storerows
