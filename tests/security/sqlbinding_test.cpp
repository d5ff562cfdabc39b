// SQL reaches SQLite only through bound parameters. Every statement text the store prepares
// or executes is intercepted (the linker wraps sqlite3_prepare_v2 and sqlite3_exec) while
// every Store entry point is fed strings carrying a marker with SQL metacharacters; the
// marker must never appear in statement text. Data concatenated into SQL anywhere in the
// store fails this test, whatever the code looks like.
#include "model/store/store.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <sqlite3.h>

#include <cstring>

#include <string>
#include <vector>

namespace {
std::vector<std::string> g_statements;
const std::string kMarker = "Pl1msollSqlMarker'\");--";
} // namespace

extern "C" {
int __real_sqlite3_prepare_v2(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
int __real_sqlite3_exec(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **);

int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail)
{
    g_statements.emplace_back(sql, n < 0 ? std::strlen(sql) : size_t(n));
    return __real_sqlite3_prepare_v2(db, sql, n, st, tail);
}

int __wrap_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg,
                        char **err)
{
    g_statements.emplace_back(sql);
    return __real_sqlite3_exec(db, sql, cb, arg, err);
}
}

namespace plimsoll {
namespace {

RunRecord hostileRun(const std::string &suffix)
{
    RunRecord run;
    run.runKey = kMarker + suffix;
    run.timestamp = "2026-03-01T00:00:00Z";
    run.commit = kMarker;
    run.imageDigest = kMarker;
    run.tool = kMarker;
    run.toolVersion = kMarker;
    run.target = kMarker;
    run.environment = {{kMarker, kMarker}};
    run.tuning = {{kMarker, kMarker}};
    run.provenance = kMarker;
    ScenarioRecord s;
    s.name = kMarker + "/step-1";
    s.kind = kMarker;
    s.provenance = kMarker;
    s.topology.compression = kMarker;
    s.topology.acks = kMarker;
    s.metrics.push_back({kMarker, 1.0});
    s.metrics.push_back({"records_per_s", 2.0});
    s.series.push_back({kMarker, {{0.0, 1.0}, {1.0, 2.0}}});
    run.scenarios.push_back(s);
    return run;
}

TEST(SecuritySql, DataNeverBecomesStatementText)
{
    QTemporaryDir dir;
    Store store(dir.filePath("store.db").toStdString());
    SourceRecord source{kMarker, kMarker, kMarker + "sha", kMarker, kMarker, "2026-03-01T00:00:00Z"};
    store.importSource(source, {hostileRun("a"), hostileRun("b")});
    (void)store.hasSourceWithSha256(kMarker);
    RunFilter filter;
    filter.scenarioContains = kMarker;
    filter.commitPrefix = kMarker;
    filter.since = kMarker;
    filter.until = kMarker;
    filter.sample = false;
    (void)store.runs(filter);
    (void)store.runs();
    (void)store.run(kMarker + "a");
    (void)store.run("1");
    (void)store.scenarioNames();
    (void)store.metricNames(kMarker + "/step-1");
    (void)store.series(kMarker + "/step-1", kMarker);
    EXPECT_EQ(store.removeRun(kMarker + "b"), 1);
    (void)store.removeSamples();
    EXPECT_EQ(store.runCount(), 1);
    // Importing the same source again replaces it: the other write path.
    source.sha256 = kMarker + "sha2";
    store.importSource(source, {hostileRun("c")});

    ASSERT_GT(g_statements.size(), 10u) << "the wrap saw nothing: this test would show nothing";
    for (const std::string &sql : g_statements)
        EXPECT_EQ(sql.find("Pl1msollSqlMarker"), std::string::npos) << "data in SQL text: " << sql;
}

} // namespace
} // namespace plimsoll
