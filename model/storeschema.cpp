#include "model/storeschema.h"

namespace plimsoll {

const std::vector<std::string> &storeMigrations()
{
    static const std::vector<std::string> steps = {
        // 0 -> 1: sources, runs, scenarios, metrics.
        R"sql(
CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    uri TEXT NOT NULL,
    format TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    importer TEXT NOT NULL,
    importer_version TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    sample INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    run_key TEXT NOT NULL UNIQUE,
    timestamp TEXT NOT NULL,
    commit_sha TEXT,
    image_digest TEXT,
    tool TEXT,
    tool_version TEXT,
    target TEXT,
    environment TEXT NOT NULL DEFAULT '{}',
    tuning TEXT NOT NULL DEFAULT '{}',
    sample INTEGER NOT NULL DEFAULT 0,
    provenance TEXT
);
CREATE TABLE scenarios (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT,
    brokers INTEGER, shards INTEGER, partitions INTEGER,
    producers INTEGER, consumers INTEGER, clients INTEGER, connections INTEGER,
    threads INTEGER, pipeline INTEGER,
    record_size_bytes INTEGER, batch_bytes INTEGER,
    compression TEXT, acks TEXT,
    inferred TEXT,
    provenance TEXT
);
CREATE TABLE metrics (
    scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    name TEXT NOT NULL,
    value REAL NOT NULL,
    PRIMARY KEY (scenario_id, name)
) WITHOUT ROWID;
)sql",
        // 1 -> 2: indexes for the trend queries (a metric of a scenario over time) and for
        // cascading deletes, which otherwise scan whole tables.
        R"sql(
CREATE INDEX runs_by_source ON runs(source_id);
CREATE INDEX runs_by_time ON runs(timestamp);
CREATE INDEX scenarios_by_run ON scenarios(run_id);
CREATE INDEX scenarios_by_name ON scenarios(name, run_id);
CREATE INDEX metrics_by_name ON metrics(name, scenario_id);
)sql",
        // 2 -> 3: per-window series a tool reports beside its aggregates (OMB's publishRate,
        // backlog, per-window latency percentiles). Values in SI, like metrics.
        R"sql(
CREATE TABLE series (
    scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    idx INTEGER NOT NULL,
    t_offset_s REAL NOT NULL,
    value REAL NOT NULL,
    PRIMARY KEY (scenario_id, name, idx)
) WITHOUT ROWID;
)sql",
        // 3 -> 4: the line of the source each run and scenario came from (provenance, and how
        // an import streamed in pieces finds a run's earlier lines).
        R"sql(
ALTER TABLE runs ADD COLUMN line INTEGER;
ALTER TABLE scenarios ADD COLUMN line INTEGER;
)sql",
        // 4 -> 5: how many runs of a source were removed since it was imported, so that
        // importing the same bytes again restores them instead of calling them unchanged.
        R"sql(
ALTER TABLE sources ADD COLUMN runs_removed INTEGER NOT NULL DEFAULT 0;
)sql",
    };
    return steps;
}

} // namespace plimsoll
