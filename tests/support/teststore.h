#pragma once
// A fresh, empty store for one test on either backend, so that one suite checks both: a file
// in a temporary directory, or a schema of its own in the test PostgreSQL server (the ctest
// fixture "postgres", tests/services/postgres.sh), dropped when the test ends. The server's
// env file is named by PLIMSOLL_TEST_PG_ENV; its passwords reach libpq through PGPASSFILE only.
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace plimsoll::test {

enum class StoreBackend { SQLite, PostgreSQL };

inline std::string backendName(const ::testing::TestParamInfo<StoreBackend> &info)
{
    return info.param == StoreBackend::SQLite ? "SQLite" : "PostgreSQL";
}

// The test server's env file (KEY=VALUE lines); throws when the fixture did not start it.
inline const std::map<std::string, std::string> &postgresEnv()
{
    static const std::map<std::string, std::string> env = [] {
        const char *file = std::getenv("PLIMSOLL_TEST_PG_ENV");
        if (!file || !*file)
            throw std::runtime_error("PLIMSOLL_TEST_PG_ENV is not set: run this test through "
                                     "ctest (fixture \"postgres\")");
        std::ifstream in(file);
        if (!in)
            throw std::runtime_error(std::string("no PostgreSQL env file at ") + file +
                                     " (did services.postgres.start fail?)");
        std::map<std::string, std::string> out;
        for (std::string line; std::getline(in, line);)
            if (const auto eq = line.find('='); eq != std::string::npos && line[0] != '#')
                out[line.substr(0, eq)] = line.substr(eq + 1);
        setenv("PGPASSFILE", out.at("PLIMSOLL_TEST_PG_PASSFILE").c_str(), 1);
        return out;
    }();
    return env;
}

// A URI to the test server's database as `role`, with `schema` first in its search path.
inline std::string postgresUri(const std::string &role, const std::string &schema,
                               const std::string &extra = "sslmode=disable")
{
    const auto &env = postgresEnv();
    std::string uri = "postgresql://" + role + "@" + env.at("PLIMSOLL_TEST_PG_HOST") + ":" +
                      env.at("PLIMSOLL_TEST_PG_PORT") + "/" + env.at("PLIMSOLL_TEST_PG_DB") + "?" +
                      extra;
    if (!schema.empty())
        uri += "&options=-csearch_path%3D" + schema;
    return uri;
}

// Runs SQL on the test server as the writer; throws with the server's message.
inline void postgresExec(const std::string &uri, const std::string &sql)
{
    PGconn *c = PQconnectdb(uri.c_str());
    PQsetNoticeProcessor(c, [](void *, const char *) {}, nullptr); // "drop cascades to ..."
    std::string error;
    if (PQstatus(c) != CONNECTION_OK) {
        error = PQerrorMessage(c);
    } else {
        PGresult *r = PQexec(c, sql.c_str());
        if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
            error = PQresultErrorMessage(r);
        PQclear(r);
    }
    PQfinish(c);
    if (!error.empty())
        throw std::runtime_error("test PostgreSQL: " + error);
}

class TestStoreLocation
{
public:
    explicit TestStoreLocation(StoreBackend backend) : m_backend(backend)
    {
        if (backend == StoreBackend::SQLite) {
            m_location = m_dir.filePath("store.db").toStdString();
            return;
        }
        static std::atomic<int> counter{0};
        std::random_device random;
        m_schema = "t_" + std::to_string(getpid()) + "_" + std::to_string(++counter) + "_" +
                   std::to_string(random() % 1000000);
        m_location = postgresUri(writer(), m_schema);
        postgresExec(postgresUri(writer(), ""), "CREATE SCHEMA " + m_schema);
    }
    ~TestStoreLocation()
    {
        if (m_backend == StoreBackend::PostgreSQL) {
            try {
                postgresExec(postgresUri(writer(), ""), "DROP SCHEMA " + m_schema + " CASCADE");
            } catch (const std::exception &e) {
                ADD_FAILURE() << e.what();
            }
        }
    }
    TestStoreLocation(const TestStoreLocation &) = delete;
    TestStoreLocation &operator=(const TestStoreLocation &) = delete;

    const std::string &location() const { return m_location; }
    const std::string &schema() const { return m_schema; }
    QTemporaryDir &dir() { return m_dir; }
    static std::string writer() { return postgresEnv().at("PLIMSOLL_TEST_PG_WRITER"); }
    static std::string reader() { return postgresEnv().at("PLIMSOLL_TEST_PG_READER"); }
    // The same schema as the read-only role.
    std::string readerLocation() const { return postgresUri(reader(), m_schema); }
    // SQL in this store's schema, as the writer (PostgreSQL only).
    void exec(const std::string &sql) const { postgresExec(m_location, sql); }
    // The integer a query of one value gives, read behind the Store's back (either backend).
    int64_t queryInt(const std::string &sql) const;

private:
    StoreBackend m_backend;
    QTemporaryDir m_dir;
    std::string m_location;
    std::string m_schema;
};

} // namespace plimsoll::test

#include "model/store/storeschema.h"

#include <sqlite3.h>

namespace plimsoll::test {

inline int64_t TestStoreLocation::queryInt(const std::string &sql) const
{
    if (m_backend == StoreBackend::SQLite) {
        sqlite3 *db = nullptr;
        sqlite3_stmt *q = nullptr;
        int64_t value = -1;
        if (sqlite3_open(m_location.c_str(), &db) == SQLITE_OK &&
            sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr) == SQLITE_OK &&
            sqlite3_step(q) == SQLITE_ROW)
            value = sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
        sqlite3_close(db);
        return value;
    }
    PGconn *c = PQconnectdb(m_location.c_str());
    PGresult *r = PQexec(c, sql.c_str());
    const int64_t value = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
                              ? std::strtoll(PQgetvalue(r, 0, 0), nullptr, 10)
                              : -1;
    PQclear(r);
    PQfinish(c);
    return value;
}

// Leaves the location as a store of an earlier schema `version` would: its first steps, that
// version recorded, then `rows` (SQL both dialects read) inserted.
inline void writeStoreAtVersion(TestStoreLocation &loc, StoreBackend backend, int version,
                                const std::string &rows)
{
    if (backend == StoreBackend::SQLite) {
        sqlite3 *db = nullptr;
        ASSERT_EQ(sqlite3_open(loc.location().c_str(), &db), SQLITE_OK);
        std::string sql;
        for (int i = 0; i < version; ++i)
            sql += storeMigrations()[size_t(i)];
        sql += "PRAGMA user_version=" + std::to_string(version) + "; PRAGMA application_id=" +
               std::to_string(kStoreApplicationId) + ";" + rows;
        char *error = nullptr;
        EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
            << (error ? error : "");
        sqlite3_free(error);
        sqlite3_close(db);
        return;
    }
    std::string sql;
    for (int i = 0; i < version; ++i)
        sql += storeMigrations(sql::Dialect::PostgreSQL)[size_t(i)];
    sql += "UPDATE plimsoll_schema SET version = " + std::to_string(version) + ";" + rows;
    // Rows given with their ids: the identities continue after them, as SQLite's rowids do.
    for (const char *table : {"sources", "runs", "scenarios"})
        sql += std::string(";SELECT setval(pg_get_serial_sequence('") + table + "', 'id'), "
               "(SELECT COALESCE(MAX(id), 0) + 1 FROM " + table + "), false)";
    loc.exec(sql);
}

} // namespace plimsoll::test
