// The team store at scale, on the PostgreSQL server run-perf.sh starts (tests/services/postgres.sh):
// importing the 1M trend records micro_store imports into SQLite, through Store::importSource,
// against a binary COPY of the same rows into the same schema on the same server (the limit), and
// the per-row prepared-insert loop the import was before; then one metric's series read back over
// the 1M records, to set beside SQLite's.
//
// PLIMSOLL_PERF_PG_URI: the writer's URI (no password: PGPASSFILE holds it). Each benchmark
// writes a schema of its own, chosen through the URI's search_path; perf_trend (the 1M-record
// store) is kept for the window benchmark, perf_copy and perf_raw are dropped once measured.
#include "model/store/copyrows.h"
#include "model/store/dialect.h"
#include "model/store/store.h"
#include "model/store/storeschema.h"
#include "perf/perfdata.h"

#include <benchmark/benchmark.h>
#include <libpq-fe.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace plimsoll;

const size_t kRecords = perf::storeRecords();

std::string serverUri()
{
    const char *uri = std::getenv("PLIMSOLL_PERF_PG_URI");
    return uri ? uri : "";
}

// The server's URI with `schema` first in its search path (the store's tables live there).
std::string schemaUri(const std::string &schema)
{
    const std::string uri = serverUri();
    return uri + (uri.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema;
}

class Pg
{
public:
    explicit Pg(const std::string &uri) : m_conn(PQconnectdb(uri.c_str()))
    {
        PQsetNoticeProcessor(m_conn, [](void *, const char *) {}, nullptr);
        if (PQstatus(m_conn) != CONNECTION_OK)
            throw std::runtime_error(std::string("PostgreSQL: ") + PQerrorMessage(m_conn));
    }
    ~Pg() { PQfinish(m_conn); }
    Pg(const Pg &) = delete;
    Pg &operator=(const Pg &) = delete;

    void exec(const std::string &sql) { check(PQexec(m_conn, sql.c_str())); }
    void prepare(const char *name, const char *sql, int params)
    {
        check(PQprepare(m_conn, name, sql, params, nullptr));
    }
    // Runs a prepared statement (or `sql` as it is); the first column of its first row when it
    // returns one.
    std::string run(const char *name, const std::vector<const char *> &values, const std::string &sql = {})
    {
        PGresult *r = sql.empty()
                          ? PQexecPrepared(m_conn, name, int(values.size()), values.data(), nullptr, nullptr, 0)
                          : PQexec(m_conn, sql.c_str());
        std::string first = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
        check(r);
        return first;
    }

    // `table (columns)` from binary COPY rows.
    void copy(const std::string &target, const std::string &rows)
    {
        PGresult *r = PQexec(m_conn, ("COPY " + target + " FROM STDIN (FORMAT binary)").c_str());
        const bool copying = PQresultStatus(r) == PGRES_COPY_IN;
        if (!copying)
            check(r);
        PQclear(r);
        if (PQputCopyData(m_conn, rows.data(), int(rows.size())) != 1 || PQputCopyEnd(m_conn, nullptr) != 1)
            throw std::runtime_error(std::string("PostgreSQL: ") + PQerrorMessage(m_conn));
        for (PGresult *res = PQgetResult(m_conn); res; res = PQgetResult(m_conn))
            check(res);
    }

private:
    void check(PGresult *r)
    {
        const auto status = PQresultStatus(r);
        const std::string error = PQresultErrorMessage(r);
        PQclear(r);
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
            throw std::runtime_error("PostgreSQL: " + error);
    }
    PGconn *m_conn;
};

// A schema of its own, empty, with the store's tables and indexes in it (a Store created them).
void freshStore(const std::string &schema)
{
    Pg(serverUri()).exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema);
    Store created(schemaUri(schema));
}

bool haveServer(benchmark::State &state)
{
    if (!serverUri().empty())
        return true;
    state.SkipWithError("PLIMSOLL_PERF_PG_URI is not set: run through perf/run-perf.sh");
    return false;
}

void BM_TeamStoreImport1M(benchmark::State &state)
{
    if (!haveServer(state))
        return;
    for (auto _ : state) {
        state.PauseTiming();
        freshStore("perf_trend");
        Store store(schemaUri("perf_trend"));
        state.ResumeTiming();
        for (size_t chunk = 0; chunk * perf::kRecordsPerSource < kRecords; ++chunk) {
            state.PauseTiming(); // generating the records is not the store's work
            const auto runs = perf::trendRuns(chunk * perf::kRecordsPerSource, perf::recordsOfSource(chunk, kRecords));
            state.ResumeTiming();
            store.importSource(perf::trendSource(chunk), runs);
        }
    }
    state.counters["records_per_s"] =
        benchmark::Counter(double(kRecords) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TeamStoreImport1M)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

// The limit on this server: the same rows into the same schema and indexes, one transaction per
// source, each table's rows by one binary COPY with ids the loop counts itself (no sequence, no
// lookup, no check): what PostgreSQL's bulk path writes, and nothing a store must do besides.
void BM_RawPostgresCopy1M(benchmark::State &state)
{
    if (!haveServer(state))
        return;
    using sql::CopyRows;
    for (auto _ : state) {
        state.PauseTiming();
        freshStore("perf_copy");
        Pg db(schemaUri("perf_copy"));
        db.prepare("src",
                   "INSERT INTO sources (uri, format, sha256, importer, importer_version, imported_at, "
                   "sample) VALUES ($1,$2,$3,$4,$5,$6,0) RETURNING id",
                   6);
        state.ResumeTiming();
        int64_t id = 0;
        std::string inputsId;
        for (size_t chunk = 0; chunk * perf::kRecordsPerSource < kRecords; ++chunk) {
            state.PauseTiming();
            const auto runs = perf::trendRuns(chunk * perf::kRecordsPerSource, perf::recordsOfSource(chunk, kRecords));
            const SourceRecord source = perf::trendSource(chunk);
            state.ResumeTiming();
            db.exec("BEGIN");
            const std::string sourceText =
                db.run("src", {source.uri.c_str(), source.format.c_str(), source.sha256.c_str(),
                               source.importer.c_str(), source.importerVersion.c_str(), source.importedAt.c_str()});
            const int64_t sourceId = std::stoll(sourceText);
            if (inputsId.empty()) { // every generated run is tuned alike: one inputs text
                const RunRecord &r = runs.front();
                const auto &t = r.scenarios.front().topology;
                const nlohmann::json inputs = {r.tool, r.toolVersion, r.tuning.dump(), nullptr, nullptr, nullptr,
                                               *t.producers, nullptr, nullptr, nullptr, nullptr, nullptr,
                                               *t.recordSizeBytes, nullptr, nullptr, nullptr, nullptr};
                inputsId = db.run("inputs", {}, "INSERT INTO trend_inputs (inputs) VALUES ('" + inputs.dump() +
                                                    "') RETURNING id");
                db.exec("INSERT INTO scenario_metrics (scenario, metric) VALUES ('" + std::string(perf::kPerfScenario) +
                        "', 'records_per_s'), ('" + perf::kPerfScenario + "', 'latency_p99_s')");
            }
            CopyRows runRows(11), scenarioRows(8), metricRows(4), pointRows(7), trendRows(10);
            for (const RunRecord &r : runs) {
                const int64_t runId = ++id; // a run and its one scenario share an id
                runRows.int64(runId).int64(sourceId).text(r.runKey).text(r.timestamp).text(r.commit).text(r.tool);
                runRows.text(r.toolVersion).text(r.target).text(r.tuning.dump()).int64(0).int64(1);
                runRows.endRow();
                const ScenarioRecord &s = r.scenarios.front();
                scenarioRows.int64(runId).int64(runId).int64(0).text(s.name).text(s.kind);
                scenarioRows.int64(*s.topology.producers).int64(*s.topology.recordSizeBytes).text(r.timestamp);
                scenarioRows.endRow();
                trendRows.text(s.name).text(r.timestamp).int64(runId).int64(0).int64(runId).text(r.runKey);
                trendRows.text(r.commit).text(r.target).int64(0).int64(std::stoll(inputsId));
                trendRows.endRow();
                int64_t ordinal = 0;
                for (const MetricValue &m : s.metrics) {
                    metricRows.int64(runId).int64(ordinal++).text(m.name).real(m.value);
                    metricRows.endRow();
                    pointRows.text(s.name).text(m.name).text(r.timestamp).int64(runId).int64(0).int64(runId).real(m.value);
                    pointRows.endRow();
                }
            }
            db.copy("runs (id, source_id, run_key, timestamp, commit_sha, tool, tool_version, target, tuning, sample, "
                    "scenario_count)",
                    runRows.finish());
            db.copy("scenarios (id, run_id, ordinal, name, kind, producers, record_size_bytes, run_time)", scenarioRows.finish());
            db.copy("metrics (scenario_id, ordinal, name, value)", metricRows.finish());
            db.copy("trend_points (scenario, metric, run_time, run_id, ordinal, scenario_id, value)", pointRows.finish());
            db.copy("trend_runs (scenario, run_time, run_id, ordinal, scenario_id, run_key, commit_sha, target, "
                    "sample, inputs)",
                    trendRows.finish());
            db.exec("COMMIT");
        }
        state.PauseTiming();
        Pg(serverUri()).exec("DROP SCHEMA perf_copy CASCADE"); // a second copy of the records is not kept
        state.ResumeTiming();
    }
    state.counters["records_per_s"] =
        benchmark::Counter(double(kRecords) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RawPostgresCopy1M)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

// What the import was before it wrote by COPY, for the record: the same rows by prepared
// statements, a round trip each, taking their ids back (RETURNING, as any loop that links a
// scenario to its run must). On kPerRowRecords of the records: at ~1,200 records/s, 1M would
// take a quarter of an hour.
constexpr size_t kPerRowRecords = 20'000;

void BM_PerRowPostgresInsert(benchmark::State &state)
{
    if (!haveServer(state))
        return;
    const size_t records = std::min(kRecords, kPerRowRecords);
    for (auto _ : state) {
        state.PauseTiming();
        freshStore("perf_raw");
        Pg db(schemaUri("perf_raw"));
        db.prepare("src",
                   "INSERT INTO sources (uri, format, sha256, importer, importer_version, imported_at, "
                   "sample) VALUES ($1,$2,$3,$4,$5,$6,0) RETURNING id",
                   6);
        db.prepare("run",
                   "INSERT INTO runs (source_id, run_key, timestamp, commit_sha, tool, tool_version, target, "
                   "environment, tuning, sample, scenario_count) VALUES ($1,$2,$3,$4,$5,$6,$7,'{}',$8,0,1) "
                   "RETURNING id",
                   8);
        db.prepare("scenario",
                   "INSERT INTO scenarios (run_id, ordinal, name, kind, producers, record_size_bytes, "
                   "run_time) VALUES ($1,0,$2,$3,$4,$5,$6) RETURNING id",
                   6);
        db.prepare("metric", "INSERT INTO metrics (scenario_id, ordinal, name, value) VALUES ($1,$2,$3,$4)", 4);
        // The series index holds each metric value again (schema 8): rows the store has too.
        db.prepare("point",
                   "INSERT INTO trend_points (scenario, metric, run_time, run_id, ordinal, scenario_id, "
                   "value) VALUES ($1,$2,$3,$4,0,$5,$6)",
                   6);
        // And its trend row (schema 10), by the store's own statements.
        db.prepare("trendinputs", plimsoll::sql::postgresStatement(trendRowInserts(" WHERE s.id = ?1").inputs).text.c_str(), 1);
        db.prepare("trendrun", plimsoll::sql::postgresStatement(trendRowInserts(" WHERE s.id = ?1").row).text.c_str(), 1);
        db.prepare("name", "INSERT INTO scenario_metrics (scenario, metric) VALUES ($1,$2) ON CONFLICT DO NOTHING",
                   2);
        state.ResumeTiming();
        for (size_t chunk = 0; chunk * perf::kRecordsPerSource < records; ++chunk) {
            state.PauseTiming();
            const auto runs = perf::trendRuns(chunk * perf::kRecordsPerSource, perf::recordsOfSource(chunk, records));
            const SourceRecord source = perf::trendSource(chunk);
            state.ResumeTiming();
            db.exec("BEGIN");
            const std::string sourceId =
                db.run("src", {source.uri.c_str(), source.format.c_str(), source.sha256.c_str(),
                               source.importer.c_str(), source.importerVersion.c_str(), source.importedAt.c_str()});
            bool named = false;
            for (const RunRecord &r : runs) {
                const std::string tuning = r.tuning.dump();
                const std::string runId =
                    db.run("run", {sourceId.c_str(), r.runKey.c_str(), r.timestamp.c_str(), r.commit.c_str(),
                                   r.tool.c_str(), r.toolVersion.c_str(), r.target.c_str(), tuning.c_str()});
                for (const ScenarioRecord &s : r.scenarios) {
                    const std::string producers = std::to_string(*s.topology.producers),
                                      size = std::to_string(*s.topology.recordSizeBytes);
                    const std::string scenarioId =
                        db.run("scenario", {runId.c_str(), s.name.c_str(), s.kind.c_str(), producers.c_str(),
                                            size.c_str(), r.timestamp.c_str()});
                    db.run("trendinputs", {scenarioId.c_str()});
                    db.run("trendrun", {scenarioId.c_str()});
                    int ordinal = 0;
                    for (const MetricValue &m : s.metrics) {
                        const std::string o = std::to_string(ordinal++);
                        char v[32];
                        *std::to_chars(v, v + sizeof v - 1, m.value).ptr = '\0';
                        db.run("metric", {scenarioId.c_str(), o.c_str(), m.name.c_str(), v});
                        db.run("point", {s.name.c_str(), m.name.c_str(), r.timestamp.c_str(), runId.c_str(),
                                         scenarioId.c_str(), v});
                        if (!named)
                            db.run("name", {s.name.c_str(), m.name.c_str()});
                    }
                    named = true;
                }
            }
            db.exec("COMMIT");
        }
        state.PauseTiming();
        Pg(serverUri()).exec("DROP SCHEMA perf_raw CASCADE");
        state.ResumeTiming();
    }
    state.counters["records_per_s"] =
        benchmark::Counter(double(records) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PerRowPostgresInsert)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

// One metric of one scenario over the 1M records, oldest first (Store::series), as
// BM_StoreSeriesQuery1M reads it from SQLite.
void BM_TeamStoreSeriesQuery1M(benchmark::State &state)
{
    if (!haveServer(state))
        return;
    const Store store(schemaUri("perf_trend"));
    size_t points = 0;
    for (auto _ : state) {
        const auto series = store.series(perf::kPerfScenario, perf::kPerfMetric);
        points = series.size();
        benchmark::DoNotOptimize(series.points.data());
    }
    if (points != kRecords)
        state.SkipWithError("the series does not hold every record: run BM_TeamStoreImport1M first");
    state.counters["points"] = double(points);
}
BENCHMARK(BM_TeamStoreSeriesQuery1M)->Iterations(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// What the Trends view reads of the same series (Store::forEachTrendRun: each run's identity,
// tuning and topology beside the value), as BM_StoreTrendRuns1M reads it from SQLite.
void BM_TeamStoreTrendRuns1M(benchmark::State &state)
{
    if (!haveServer(state))
        return;
    const Store store(schemaUri("perf_trend"));
    size_t rows = 0;
    for (auto _ : state) {
        rows = 0;
        store.forEachTrendRun(perf::kPerfScenario, perf::kPerfMetric, [&](TrendRunRow &) { ++rows; });
    }
    if (rows != kRecords)
        state.SkipWithError("the series does not hold every record: run BM_TeamStoreImport1M first");
}
BENCHMARK(BM_TeamStoreTrendRuns1M)->Iterations(2)->UseRealTime()->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
