// The SQLite backend of the store: the embedded default, one file, WAL mode so that the window
// reads while a CLI imports.
#include "model/store/connection.h"
#include "model/store/dialect.h"
#include "model/store/storeschema.h"

#include <QDir>
#include <QFileInfo>

#include <sqlite3.h>
#include <cstdio>
#include <unistd.h>

namespace plimsoll::sql {

namespace {

// How long a writer waits for another process's transaction before reporting "busy".
constexpr int kBusyTimeoutMs = 5000;

const char *const kBusy = "the store is busy (another Plimsoll is writing to it); try again";

[[noreturn]] void throwError(sqlite3 *db, const std::string &what)
{
    // A damaged file: SQLite's own words name no file and no way out of it.
    if ((sqlite3_extended_errcode(db) & 0xff) == SQLITE_CORRUPT) {
        const char *file = sqlite3_db_filename(db, "main");
        const std::string path = file && *file ? file : "the store file";
        throw StoreError("the store " + path + " is damaged (" + sqlite3_errmsg(db) +
                         "): restore it from a backup, or import the results again into a new "
                         "store (--db NEW.db)");
    }
    throw StoreError(what + ": " + sqlite3_errmsg(db));
}

class SqliteCursor final : public Cursor
{
public:
    SqliteCursor(sqlite3 *db, std::string_view storeSql) : m_db(db)
    {
        const std::string_view sql = sqliteStatement(storeSql, m_returnsId);
        if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) !=
            SQLITE_OK)
            throwError(db, "cannot prepare statement");
    }
    ~SqliteCursor() override { sqlite3_finalize(m_stmt); }

    void bindInt64(int index, int64_t value) override { sqlite3_bind_int64(m_stmt, index, value); }
    void bindReal(int index, double value) override { sqlite3_bind_double(m_stmt, index, value); }
    void bindText(int index, std::string_view value) override
    {
        sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()),
                          SQLITE_TRANSIENT);
    }
    void bindBlob(int index, std::string_view bytes) override
    {
        sqlite3_bind_blob(m_stmt, index, bytes.data(), static_cast<int>(bytes.size()),
                          SQLITE_TRANSIENT);
    }
    void bindNull(int index) override { sqlite3_bind_null(m_stmt, index); }

    bool step() override
    {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_DONE)
            return false;
        if (rc == SQLITE_BUSY)
            throw StoreError(kBusy);
        throwError(m_db, "store query failed");
    }
    void reset() override
    {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }

    int64_t runReturningId() override
    {
        if (!m_returnsId)
            return Cursor::runReturningId();
        while (step()) {
        }
        if (sqlite3_changes(m_db) != 1)
            throw StoreError("internal: an insert returned no id");
        return sqlite3_last_insert_rowid(m_db);
    }

    int64_t int64(int column) const override { return sqlite3_column_int64(m_stmt, column); }
    double real(int column) const override { return sqlite3_column_double(m_stmt, column); }
    std::string text(int column) const override { return std::string(textView(column)); }
    std::string_view textView(int column) const override
    {
        const auto *p = sqlite3_column_text(m_stmt, column);
        if (!p)
            return {};
        return {reinterpret_cast<const char *>(p),
                static_cast<size_t>(sqlite3_column_bytes(m_stmt, column))};
    }
    std::string blob(int column) const override
    {
        const auto *p = static_cast<const char *>(sqlite3_column_blob(m_stmt, column));
        if (!p)
            return {};
        return std::string(p, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column)));
    }
    bool isNull(int column) const override
    {
        return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
    }

private:
    sqlite3 *m_db;
    sqlite3_stmt *m_stmt = nullptr;
    bool m_returnsId = false; // prepared without its RETURNING id (sqliteStatement)
};

class SqliteConnection final : public Connection
{
public:
    explicit SqliteConnection(sqlite3 *db) : m_db(db) {}
    ~SqliteConnection() override { sqlite3_close(m_db); }

    Dialect dialect() const override { return Dialect::SQLite; }
    std::unique_ptr<Cursor> prepare(std::string_view sql) override
    {
        return std::make_unique<SqliteCursor>(m_db, sql);
    }
    void exec(const std::string &sql) override
    {
        char *err = nullptr;
        if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
            std::string message = err ? err : "unknown error";
            sqlite3_free(err);
            if (sqlite3_errcode(m_db) == SQLITE_BUSY)
                throw StoreError(kBusy);
            if (sqlite3_errcode(m_db) == SQLITE_CORRUPT)
                throwError(m_db, "store statement failed");
            throw StoreError("store statement failed: " + message);
        }
    }
    void begin(bool wait) override
    {
        // A reader that only keeps what it computed on the way never waits for an import.
        if (!wait)
            sqlite3_busy_timeout(m_db, 0);
        try {
            exec("BEGIN IMMEDIATE");
        } catch (...) {
            sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
            throw;
        }
        sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
    }
    void commit() override { exec("COMMIT"); }
    void rollback() noexcept override { sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr); }
    void beginRead() override
    {
        exec("BEGIN DEFERRED");
        // A deferred transaction takes its snapshot at its first read: take it now.
        try {
            exec("SELECT COUNT(*) FROM sqlite_schema");
        } catch (...) {
            rollback();
            throw;
        }
    }
    int schemaVersion() override { return int(pragma("PRAGMA user_version")); }
    void setSchemaVersion(int version) override
    {
        // PRAGMA takes no bound parameters; both values are integers.
        exec("PRAGMA user_version=" + std::to_string(version));
        exec("PRAGMA application_id=" + std::to_string(kStoreApplicationId));
    }

    int64_t pragma(const char *sql)
    {
        // Scoped: an unfinished statement holds a read transaction open.
        SqliteCursor q(m_db, sql);
        q.step();
        return q.int64(0);
    }
    sqlite3 *handle() const { return m_db; }

private:
    sqlite3 *m_db;
};

// Throws when an existing file is not a Plimsoll store; sets the connection's pragmas.
void checkStoreFile(SqliteConnection &c, bool existed)
{
    // Reading the header first turns "file is not a database" into a clear message. One
    // statement, one snapshot: a first open racing another process's migration of a new file
    // sees its tables and its application id together, never the tables without the id.
    int64_t appId = 0, tables = 0;
    {
        SqliteCursor q(c.handle(), "SELECT (SELECT application_id FROM pragma_application_id()), "
                                   "(SELECT COUNT(*) FROM sqlite_master)");
        q.step();
        appId = q.int64(0);
        tables = q.int64(1);
    }
    if (existed && appId != kStoreApplicationId && (appId != 0 || tables > 0))
        throw StoreError("not a Plimsoll store");
    if (c.schemaVersion() <= Store::kSchemaVersion) {
        c.exec("PRAGMA journal_mode=WAL");
        c.exec("PRAGMA foreign_keys=ON");
        c.exec("PRAGMA synchronous=NORMAL");
        // Reads of long series straight from the file's pages, without copying each into
        // SQLite's page cache first (its small default cache re-reads a large store).
        c.exec("PRAGMA mmap_size=1073741824");
        // Room for an import's changed pages (64 MiB, allocated as used): SQLite's 2 MB default
        // spills them to the WAL over and over within one source's transaction, as each
        // metric is written into several indexes.
        c.exec("PRAGMA cache_size=-65536");
    }
}

// The store read as an immutable file (no locks, no WAL index), or nullptr when that fails too.
std::unique_ptr<SqliteConnection> openImmutable(const std::string &path)
{
    std::string uri = "file:";
    for (char ch : path) {
        if (ch == '%' || ch == '?' || ch == '#') {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", unsigned(static_cast<unsigned char>(ch)));
            uri += buf;
        } else {
            uri += ch;
        }
    }
    uri += "?immutable=1";
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return nullptr;
    }
    auto c = std::make_unique<SqliteConnection>(db);
    try {
        SqliteCursor q(c->handle(), "SELECT application_id FROM pragma_application_id()");
        if (!q.step() || q.int64(0) != kStoreApplicationId)
            return nullptr;
    } catch (const StoreError &) {
        return nullptr;
    }
    return c;
}

} // namespace

std::unique_ptr<Connection> openSqlite(const std::string &path)
{
    const QFileInfo info(QString::fromStdString(path));
    const bool existed = info.exists();
    // SQLite's own word for these is "unable to open database file".
    if (info.isDir())
        throw StoreError("cannot open store " + path + ": it is a directory, not a store file; name a "
                         "file in it (" + QDir(info.filePath()).filePath(QStringLiteral("plimsoll.db")).toStdString() +
                         ") or another file");
    sqlite3 *db = nullptr;
    // No mutex of SQLite's own: a connection is used from one thread only (connection.h), and
    // taking it around every column read cost a tenth of a million-row read.
    if (sqlite3_open_v2(path.c_str(), &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) !=
        SQLITE_OK) {
        const std::string why = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw StoreError("cannot open store " + path + ": " + why);
    }
    auto c = std::make_unique<SqliteConnection>(db);
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    try {
        checkStoreFile(*c, existed);
    } catch (const StoreError &e) {
        std::string what = e.what();
        if (what.find("file is not a database") != std::string::npos)
            what = "not a Plimsoll store (not an SQLite database)";
        // A store this user may not write, in a directory where SQLite cannot make the WAL's
        // index beside it (a shared read-only directory, a read-only mount): read as it is.
        const std::string dir = QFileInfo(info.absolutePath()).absoluteFilePath().toStdString();
        if (existed && what.find("readonly") != std::string::npos &&
            (::access(path.c_str(), W_OK) != 0 || ::access(dir.c_str(), W_OK) != 0)) {
            c.reset();
            if (auto readOnly = openImmutable(path))
                return readOnly;
        }
        throw StoreError("cannot open store " + path + ": " + what);
    }
    return c;
}

} // namespace plimsoll::sql
