#include "model/store/storeschema.h"

#include "model/store/dialect.h"

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
        // 5 -> 6: reads at a million runs. A scenario carries its run's time, and one index
        // walks a scenario's runs in time order (a metric's series without sorting the whole
        // history first). A run carries its scenario count, and each column the Library sorts
        // by has an index in that column's order (the same expression and collation as the
        // page query), so a page in any order is read from an index, not sorted from every run.
        // The metric names each scenario name has (kept exact by the store's writes and
        // removals), so that a scenario's metrics are listed without visiting its every run.
        // Change-point examinations are kept per series (a cache: ChangePointState's bytes), so
        // that new runs are examined, not the years before them.
        R"sql(
ALTER TABLE scenarios ADD COLUMN run_time TEXT;
UPDATE scenarios SET run_time = (SELECT timestamp FROM runs WHERE runs.id = scenarios.run_id);
CREATE INDEX scenarios_by_name_time ON scenarios(name, run_time, run_id, ordinal);
ALTER TABLE runs ADD COLUMN scenario_count INTEGER NOT NULL DEFAULT 0;
UPDATE runs SET scenario_count = (SELECT COUNT(*) FROM scenarios WHERE scenarios.run_id = runs.id);
CREATE INDEX runs_by_scenario_count ON runs(scenario_count);
CREATE INDEX runs_by_key_nocase ON runs(run_key COLLATE NOCASE);
CREATE INDEX runs_by_tool ON runs((COALESCE(tool, '') || ' ' || COALESCE(tool_version, '')) COLLATE NOCASE);
CREATE INDEX runs_by_target ON runs(COALESCE(target, '') COLLATE NOCASE);
CREATE INDEX runs_by_commit ON runs(COALESCE(commit_sha, '') COLLATE NOCASE);
CREATE INDEX runs_by_sample ON runs(sample);
CREATE TABLE scenario_metrics (
    scenario TEXT NOT NULL,
    metric TEXT NOT NULL,
    PRIMARY KEY (scenario, metric)
) WITHOUT ROWID;
INSERT INTO scenario_metrics (scenario, metric)
    SELECT DISTINCT s.name, m.name FROM metrics m JOIN scenarios s ON s.id = m.scenario_id;
CREATE TABLE change_point_states (
    series_key TEXT PRIMARY KEY,
    state BLOB NOT NULL
) WITHOUT ROWID;
)sql",
        // 6 -> 7: what a team shares through its store (tuning-contract choices, saved sizings),
        // kept until now in files beside a SQLite store (moved in by the migration: sharedsettings.h).
        R"sql(
CREATE TABLE shared_settings (
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (kind, name)
) WITHOUT ROWID;
)sql",
        // 7 -> 8: a metric's series read from one index range. Each metric value of each scenario
        // is kept again beside its scenario's name, its metric's name and its run's time, in that
        // order, so that one scenario's metric over time is one ordered range (not a seek into
        // metrics per run). Written with the metric (SourceWriter) and removed with its scenario.
        // And the scenarios by kind and by the load factors the sizing reads, so that the runs
        // carrying sizing evidence are found without examining every run.
        R"sql(
CREATE TABLE trend_points (
    scenario TEXT NOT NULL,
    metric TEXT NOT NULL,
    run_time TEXT NOT NULL,
    run_id INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,
    value REAL NOT NULL,
    PRIMARY KEY (scenario, metric, run_time, run_id, ordinal)
) WITHOUT ROWID;
INSERT INTO trend_points (scenario, metric, run_time, run_id, ordinal, scenario_id, value)
    SELECT s.name, m.name, COALESCE(s.run_time, ''), s.run_id, s.ordinal, s.id, m.value
    FROM metrics m JOIN scenarios s ON s.id = m.scenario_id;
CREATE INDEX trend_points_by_scenario ON trend_points(scenario_id);
CREATE INDEX scenarios_by_kind ON scenarios(kind, run_id);
CREATE INDEX scenarios_by_brokers ON scenarios(run_id) WHERE brokers IS NOT NULL;
CREATE INDEX scenarios_by_shards ON scenarios(run_id) WHERE shards IS NOT NULL;
)sql",
        // 8 -> 9: the load generator's agents a scenario ran on (a fleet's processes or pods),
        // a load factor of its own: a fleet ramp steps it.
        R"sql(
ALTER TABLE scenarios ADD COLUMN agents INTEGER;
)sql",
        // 9 -> 10: the trend read's rows, kept ready. A scenario's runs in time order with what
        // a trend shows of each (its run's key, commit, image, target, sample flag) and what its
        // tuning contract is made of (the run's tool, tool version and tuning, the scenario's
        // topology), that as the id of its distinct text in trend_inputs (TrendRowInserts
        // below): a scenario's history is one ordered range of short rows, not a seek into
        // scenarios and into runs per run with 26 columns each. Written with each scenario
        // (SourceWriter) and removed with it.
        std::string(R"sql(
CREATE TABLE trend_inputs (
    id INTEGER PRIMARY KEY,
    inputs TEXT NOT NULL UNIQUE
);
CREATE TABLE trend_runs (
    scenario TEXT NOT NULL,
    run_time TEXT NOT NULL,
    run_id INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,
    run_key TEXT NOT NULL,
    commit_sha TEXT,
    image_digest TEXT,
    target TEXT,
    sample INTEGER NOT NULL,
    inputs INTEGER NOT NULL REFERENCES trend_inputs(id),
    PRIMARY KEY (scenario, run_time, run_id, ordinal)
) WITHOUT ROWID;
)sql") + trendRowInserts(" WHERE true", "", 10).inputs + ";\n" + trendRowInserts("", "", 10).row + R"sql(;
CREATE INDEX trend_runs_by_scenario ON trend_runs(scenario_id);
)sql",
        // 10 -> 11: a topic's replication factor, a load factor of its own (harnesses state it in
        // their directory names: "3-replicas/…"). A scenario without one keeps the inputs text
        // it had (trendRowInserts), so no trend row is rewritten.
        R"sql(
ALTER TABLE scenarios ADD COLUMN replication INTEGER;
)sql",
        // 11 -> 12: how a run's time is known, when its source did not state it (RunRecord::timeSource):
        // 'file-modified' or 'imported'; NULL for a stated time. Kept in the trend read's rows
        // too, so a trend marks such runs and searches no change point through them without a
        // seek into runs. (Runs imported before this step read as stated: their importers'
        // warnings were not kept.)
        R"sql(
ALTER TABLE runs ADD COLUMN time_source TEXT;
ALTER TABLE trend_runs ADD COLUMN time_source TEXT;
)sql",
        // 12 -> 13: what the user calls a run and their tags for it (`plimsoll name`, `plimsoll tag`,
        // the Library's Rename… and Tags…), the tags as one text, sorted, separated by single
        // spaces (a tag has none: model/store/runlabels.h). The Library sorts by name from an
        // index as by the other columns (the page query's expression and collation). A counter
        // of label writes, so that a window's probe of the store notices a rename elsewhere
        // (Store::changeToken) without reading every run's labels.
        R"sql(
ALTER TABLE runs ADD COLUMN run_name TEXT;
ALTER TABLE runs ADD COLUMN run_tags TEXT;
CREATE INDEX runs_by_name ON runs(COALESCE(run_name, '') COLLATE NOCASE);
CREATE TABLE store_revisions (part TEXT PRIMARY KEY, revision INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO store_revisions (part, revision) VALUES ('labels', 0);
)sql",
    };
    return steps;
}

TrendRowInserts trendRowInserts(const std::string &where, const std::string &inputsId, int schema)
{
    // json_array keeps NULL apart from '' and a number apart from a text: two scenarios have the
    // same inputs text only when their contract's inputs are the same. (`text` in lower case: a
    // PostgreSQL schema step gives the TEXT of a column its collation.) The replication factor
    // (10 -> 11) is appended only where stated, so the inputs written before it stay the same.
    const std::string columns =
        "r.tool, r.tool_version, r.tuning, s.brokers, s.shards, s.partitions, "
        "s.producers, s.consumers, s.clients, s.connections, s.threads, s.pipeline, "
        "s.record_size_bytes, s.batch_bytes, s.compression, s.acks, s.agents";
    const std::string inputs =
        schema != 0 && schema < 11 ? "CAST(json_array(" + columns + ") AS text)"
                    : "CAST(CASE WHEN s.replication IS NULL THEN json_array(" + columns +
                          ") ELSE json_array(" + columns + ", s.replication) END AS text)";
    const std::string from = " FROM scenarios s JOIN runs r ON r.id = s.run_id" + where;
    const std::string idOf = "(SELECT i.id FROM trend_inputs i WHERE i.inputs = " + inputs + ")";
    return {"INSERT INTO trend_inputs (inputs) SELECT DISTINCT " + inputs + from + " ON CONFLICT DO NOTHING",
            "SELECT " + idOf + from,
            "INSERT INTO trend_runs (scenario, run_time, run_id, ordinal, scenario_id, run_key, "
            "commit_sha, image_digest, target, sample, inputs) "
            "SELECT s.name, COALESCE(s.run_time, ''), s.run_id, s.ordinal, s.id, r.run_key, "
            "r.commit_sha, r.image_digest, r.target, r.sample, " +
                (inputsId.empty() ? idOf : inputsId) + from};
}

const std::vector<std::string> &storeMigrations(sql::Dialect dialect)
{
    if (dialect == sql::Dialect::SQLite)
        return storeMigrations();
    static const std::vector<std::string> steps = [] {
        std::vector<std::string> out;
        for (const std::string &step : storeMigrations())
            out.push_back(sql::postgresSchemaStep(step));
        out.front() = sql::kPostgresNewStore + out.front();
        return out;
    }();
    return steps;
}

} // namespace plimsoll
