// The store at scale: importing 1M trend records through Store::importSource (what every
// import commits) against a raw loop of prepared SQLite inserts writing the same rows into the
// same schema, reading one metric's series back over the 1M records, what the Scaling and Sizing
// views read before their first frame, and a page of the Library in each of its orders.
//
// PLIMSOLL_PERF_DIR names where the stores are written (default: the working directory); the
// 1M-record store (trend-1m.db) is kept there for the window benchmark.
#include "model/sizing/sizingmodels.h"
#include "model/sizing/budgetrequest.h"
#include "model/store/store.h"
#include "model/store/storeschema.h"
#include "model/trends/trendannotations.h"
#include "perf/perfdata.h"

#include <benchmark/benchmark.h>
#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace {

using namespace plimsoll;

const size_t kRecords = perf::storeRecords();

std::string perfPath(const char *name)
{
    const char *dir = std::getenv("PLIMSOLL_PERF_DIR");
    return (std::filesystem::path(dir && *dir ? dir : ".") / name).string();
}

void removeStore(const std::string &path)
{
    for (const char *suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path + suffix);
}

void BM_StoreImport1M(benchmark::State &state)
{
    const std::string path = perfPath("trend-1m.db");
    for (auto _ : state) {
        state.PauseTiming();
        removeStore(path);
        Store store(path);
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
BENCHMARK(BM_StoreImport1M)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

void check(int rc, sqlite3 *db)
{
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
        throw std::runtime_error(sqlite3_errmsg(db));
}

struct Stmt
{
    Stmt(sqlite3 *db, const char *sql) : db(db) { check(sqlite3_prepare_v2(db, sql, -1, &s, nullptr), db); }
    ~Stmt() { sqlite3_finalize(s); }
    void text(int i, const std::string &v) { sqlite3_bind_text(s, i, v.data(), int(v.size()), SQLITE_TRANSIENT); }
    void run()
    {
        check(sqlite3_step(s), db);
        sqlite3_reset(s);
    }
    sqlite3 *db;
    sqlite3_stmt *s = nullptr;
};

// The floor: the same rows, the same schema, indexes and pragmas (a Store created the file),
// inserted by prepared statements with no checks and no per-row logic beyond binding.
void BM_RawSqliteInsert1M(benchmark::State &state)
{
    const std::string path = perfPath("raw-1m.db");
    for (auto _ : state) {
        state.PauseTiming();
        removeStore(path);
        { Store schema(path); }
        sqlite3 *db = nullptr;
        check(sqlite3_open(path.c_str(), &db), db);
        sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; "
                         "PRAGMA mmap_size=1073741824; PRAGMA cache_size=-65536",
                     nullptr, nullptr, nullptr);
        state.ResumeTiming();
        {
            Stmt src(db, "INSERT INTO sources (uri, format, sha256, importer, importer_version, "
                         "imported_at, sample) VALUES (?,?,?,?,?,?,0)");
            Stmt run(db, "INSERT INTO runs (source_id, run_key, timestamp, commit_sha, image_digest, "
                         "tool, tool_version, target, environment, tuning, sample, provenance) "
                         "VALUES (?,?,?,?,NULL,?,?,?,'{}',?,0,NULL)");
            Stmt sc(db, "INSERT INTO scenarios (run_id, ordinal, name, kind, producers, record_size_bytes, "
                        "run_time) VALUES (?,0,?,?,?,?,?)");
            Stmt met(db, "INSERT INTO metrics (scenario_id, ordinal, name, value) VALUES (?,?,?,?)");
            // The series index holds each metric value again (schema 8): rows the store has too.
            Stmt point(db, "INSERT INTO trend_points (scenario, metric, run_time, run_id, ordinal, "
                           "scenario_id, value) VALUES (?,?,?,?,0,?,?)");
            // And its trend row (schema 10), by the store's own statements.
            Stmt trendInputs(db, trendRowInserts(" WHERE s.id = ?1").inputs.c_str());
            Stmt trendRun(db, trendRowInserts(" WHERE s.id = ?1").row.c_str());
            for (size_t chunk = 0; chunk * perf::kRecordsPerSource < kRecords; ++chunk) {
                state.PauseTiming();
                const auto runs = perf::trendRuns(chunk * perf::kRecordsPerSource, perf::recordsOfSource(chunk, kRecords));
                const SourceRecord source = perf::trendSource(chunk);
                state.ResumeTiming();
                sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
                src.text(1, source.uri);
                src.text(2, source.format);
                src.text(3, source.sha256);
                src.text(4, source.importer);
                src.text(5, source.importerVersion);
                src.text(6, source.importedAt);
                src.run();
                const sqlite3_int64 sourceId = sqlite3_last_insert_rowid(db);
                for (const RunRecord &r : runs) {
                    sqlite3_bind_int64(run.s, 1, sourceId);
                    run.text(2, r.runKey);
                    run.text(3, r.timestamp);
                    run.text(4, r.commit);
                    run.text(5, r.tool);
                    run.text(6, r.toolVersion);
                    run.text(7, r.target);
                    run.text(8, r.tuning.dump());
                    run.run();
                    const sqlite3_int64 runId = sqlite3_last_insert_rowid(db);
                    for (const ScenarioRecord &s : r.scenarios) {
                        sqlite3_bind_int64(sc.s, 1, runId);
                        sc.text(2, s.name);
                        sc.text(3, s.kind);
                        sqlite3_bind_int64(sc.s, 4, *s.topology.producers);
                        sqlite3_bind_int64(sc.s, 5, *s.topology.recordSizeBytes);
                        sc.text(6, r.timestamp);
                        sc.run();
                        const sqlite3_int64 scenarioId = sqlite3_last_insert_rowid(db);
                        for (Stmt *trend : {&trendInputs, &trendRun}) {
                            sqlite3_bind_int64(trend->s, 1, scenarioId);
                            trend->run();
                        }
                        int ordinal = 0;
                        for (const MetricValue &m : s.metrics) {
                            sqlite3_bind_int64(met.s, 1, scenarioId);
                            sqlite3_bind_int(met.s, 2, ordinal++);
                            met.text(3, m.name);
                            sqlite3_bind_double(met.s, 4, m.value);
                            met.run();
                            point.text(1, s.name);
                            point.text(2, m.name);
                            point.text(3, r.timestamp);
                            sqlite3_bind_int64(point.s, 4, runId);
                            sqlite3_bind_int64(point.s, 5, scenarioId);
                            sqlite3_bind_double(point.s, 6, m.value);
                            point.run();
                        }
                    }
                }
                check(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db);
            }
        }
        sqlite3_close(db);
    }
    state.counters["records_per_s"] =
        benchmark::Counter(double(kRecords) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RawSqliteInsert1M)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

// One metric of one scenario over the 1M records, oldest first (Store::series).
void BM_StoreSeriesQuery1M(benchmark::State &state)
{
    const Store store(perfPath("trend-1m.db"));
    size_t points = 0;
    for (auto _ : state) {
        const auto series = store.series(perf::kPerfScenario, perf::kPerfMetric);
        points = series.size();
        benchmark::DoNotOptimize(series.points.data());
    }
    if (points != kRecords)
        state.SkipWithError("the series does not hold every record: run BM_StoreImport1M first");
    state.counters["points"] = double(points);
}
BENCHMARK(BM_StoreSeriesQuery1M)->Iterations(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// What the Trends view reads of the same series (Store::forEachTrendRun: each run's identity,
// tuning and topology beside the value).
void BM_StoreTrendRuns1M(benchmark::State &state)
{
    const Store store(perfPath("trend-1m.db"));
    size_t rows = 0;
    for (auto _ : state) {
        rows = 0;
        store.forEachTrendRun(perf::kPerfScenario, perf::kPerfMetric, [&](TrendRunRow &) { ++rows; });
    }
    if (rows != kRecords)
        state.SkipWithError("the series does not hold every record: run BM_StoreImport1M first");
}
BENCHMARK(BM_StoreTrendRuns1M)->Iterations(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// The Trends view's whole background read of that series (annotateSeries: the rows, contracts,
// change points, LTTB): /0 on a copy of the store that has examined nothing yet (a first open),
// /1 on the same copy again, its change-point state kept from the read before.
void BM_TrendsAnnotate1M(benchmark::State &state)
{
    const bool kept = state.range(0) != 0;
    const std::string path = perfPath("trend-annotate-1m.db");
    std::filesystem::copy_file(perfPath("trend-1m.db"), path, std::filesystem::copy_options::overwrite_existing);
    if (kept)
        annotateSeries(path, perf::kPerfScenario, perf::kPerfMetric);
    size_t points = 0;
    for (auto _ : state) {
        const AnnotatedSeries series = annotateSeries(path, perf::kPerfScenario, perf::kPerfMetric);
        points = series.points.size();
        state.PauseTiming();
        if (!kept)
            std::filesystem::copy_file(perfPath("trend-1m.db"), path,
                                       std::filesystem::copy_options::overwrite_existing);
        state.ResumeTiming();
    }
    std::filesystem::remove(path);
    if (points != kRecords)
        state.SkipWithError("the series does not hold every record: run BM_StoreImport1M first");
}
// The Latency budget view's background work on the 1M-record store: /0 every scenario measuring
// throughput and p99 read (readBudgetPoints), /1 the same and the selection within 10 ms.
void BM_LatencyBudget1M(benchmark::State &state)
{
    const Store store(perfPath("trend-1m.db"));
    LatencyBudget budget;
    budget.p99 = 0.010;
    size_t points = 0;
    for (auto _ : state) {
        const BudgetPoints read = readBudgetPoints(store, {}, PointOrigins::Left); // as the view reads
        points = read.points.size();
        if (state.range(0) != 0) {
            const BudgetResult result = LatencyBudgetSelector(budget).select(read.points);
            benchmark::DoNotOptimize(result.perConfiguration.data());
        }
    }
    if (points != kRecords)
        state.SkipWithError("the store does not hold every record: run BM_StoreImport1M first");
}
BENCHMARK(BM_LatencyBudget1M)->Arg(0)->Arg(1)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK(BM_TrendsAnnotate1M)->Arg(0)->Arg(1)->Iterations(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// What the Scaling, Sizing and Placement views read in the background before their first frame,
// on the 1M-record store (whose runs carry no ramp and no sizing evidence): the ramp runs' keys,
// and the sizing evidence with its fitted models (Placement reads the same).
void BM_ViewFirstReads1M(benchmark::State &state)
{
    const std::string path = perfPath("trend-1m.db");
    size_t runs = 0;
    for (auto _ : state) {
        const Store store(path);
        runs = state.range(0) == 0 ? store.rampRunKeys().size()
                                   : fitEvidence(store, {}).evidence.runs.size();
    }
    state.SetLabel(state.range(0) == 0 ? "Scaling: ramp run keys" : "Sizing: evidence and models");
    state.counters["runs"] = double(runs);
}
BENCHMARK(BM_ViewFirstReads1M)->Arg(0)->Arg(1)->Iterations(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// A page of the Library (1,000 runs of the 1M) in each order the table sorts by, both ways: the
// first page and the one after it (keyset paging from its last run). Time per page.
void BM_LibraryPage1M(benchmark::State &state)
{
    const Store store(perfPath("trend-1m.db"));
    RunPage page;
    page.order = static_cast<RunPage::Order>(state.range(0));
    page.descending = state.range(1) != 0;
    page.limit = 1000;
    std::size_t rows = 0;
    for (auto _ : state) {
        RunPage first = page;
        const auto runs = store.runs({}, first);
        RunPage next = page;
        if (!runs.empty())
            next.after = runs.back();
        rows = runs.size() + store.runs({}, next).size();
    }
    if (rows != 2 * std::size_t(page.limit))
        state.SkipWithError("fewer runs than two pages: run BM_StoreImport1M first");
    state.SetItemsProcessed(int64_t(state.iterations()) * 2);
    state.SetLabel("per 2 pages");
}
BENCHMARK(BM_LibraryPage1M)
    ->ArgsProduct({{int(RunPage::Order::Time), int(RunPage::Order::RunKey), int(RunPage::Order::Tool),
                    int(RunPage::Order::Target), int(RunPage::Order::Commit),
                    int(RunPage::Order::Scenarios), int(RunPage::Order::Sample)},
                   {0, 1}})
    ->Iterations(3)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
