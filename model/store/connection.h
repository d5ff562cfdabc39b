#pragma once
// One connection to a store's database, whichever backend holds it (SQLite file, PostgreSQL
// server), and its prepared statements with bound parameters only (no SQL is ever built from
// data). The store's SQL is written once, in SQLite's spelling with numbered parameters (?N or
// ?); a backend whose dialect differs translates it when preparing (model/store/dialect.cpp
// holds every difference). Errors are thrown as StoreError with the backend's message.
// A connection is used from one thread only.

#include "model/store/store.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll::sql {

enum class Dialect { SQLite, PostgreSQL };

// One backend's prepared statement: what Statement forwards to.
class Cursor
{
public:
    virtual ~Cursor() = default;
    virtual void bindInt64(int index, int64_t value) = 0;
    virtual void bindReal(int index, double value) = 0; // NaN binds NULL on every backend
    virtual void bindText(int index, std::string_view value) = 0;
    virtual void bindBlob(int index, std::string_view bytes) = 0;
    virtual void bindNull(int index) = 0;
    virtual bool step() = 0; // runs the statement on the first call; true while a row is available
    virtual void reset() = 0; // forgets the result and the bound values
    // Runs an INSERT … RETURNING id to completion; the id of the row it wrote.
    virtual int64_t runReturningId();
    // Asked while the statement waits for a server (PostgreSQL): true cancels the server's work
    // and the step throws StoreError. SQLite does its work in the stepping thread, between rows,
    // where the caller can stop by itself.
    virtual void stopWhen(std::function<bool()> stopped) { (void)stopped; }
    virtual int64_t int64(int column) const = 0;
    virtual double real(int column) const = 0;
    virtual std::string text(int column) const = 0; // NULL -> ""
    // The same without a copy: valid until the next step() or reset().
    virtual std::string_view textView(int column) const = 0;
    virtual std::string blob(int column) const = 0; // NULL -> ""
    virtual bool isNull(int column) const = 0;
};

class Connection
{
public:
    virtual ~Connection() = default;
    virtual Dialect dialect() const = 0;
    virtual std::unique_ptr<Cursor> prepare(std::string_view sql) = 0;
    // Statements without parameters, several separated by ';' allowed (a migration step).
    virtual void exec(const std::string &sql) = 0;
    // A write transaction: one writer at a time on a store. wait: wait for another writer
    // (SQLite: up to a few seconds, then "busy"); otherwise "busy" at once.
    virtual void begin(bool wait) = 0;
    virtual void commit() = 0;
    virtual void rollback() noexcept = 0;
    // A read transaction, ended by rollback(): every read until then sees one state of the
    // store, whatever other connections commit meanwhile (SQLite: the snapshot of its first
    // read; PostgreSQL: REPEATABLE READ, READ ONLY). Takes no write lock.
    virtual void beginRead() = 0;
    // The schema version the store's database holds (0: a new, empty store), and its setting
    // (inside a transaction, after the migration steps).
    virtual int schemaVersion() = 0;
    virtual void setSchemaVersion(int version) = 0;
    // Bulk writes (PostgreSQL): `rows` (CopyRows::finish) into `table`'s `columns` (a
    // comma-separated list in the rows' order) by one COPY … FROM STDIN (FORMAT binary), inside
    // the current transaction, with the table's constraints and triggers as an INSERT has them.
    // A backend without one says so (supportsCopy) and throws StoreError here.
    virtual bool supportsCopy() const { return false; }
    virtual void copyIn(const std::string &table, const std::string &columns, std::string_view rows);
};

class Statement
{
public:
    Statement(Connection &db, std::string_view sql) : m_cursor(db.prepare(sql)) {}
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    Statement &bind(int index, int64_t value);
    Statement &bind(int index, double value);
    Statement &bind(int index, const std::string &value);     // empty string binds NULL
    Statement &bindText(int index, const std::string &value); // always text, even when empty
    Statement &bind(int index, const std::optional<int64_t> &value);
    Statement &bind(int index, const std::optional<std::string> &value);
    Statement &bindBlob(int index, std::string_view bytes);

    bool step() { return m_cursor->step(); } // true while a row is available
    void run();                                // steps to completion
    // Runs an INSERT ... RETURNING id to completion and returns the id.
    int64_t runReturningId();
    void reset() { m_cursor->reset(); }
    void stopWhen(std::function<bool()> stopped) { m_cursor->stopWhen(std::move(stopped)); }

    int64_t int64(int column) const { return m_cursor->int64(column); }
    double real(int column) const { return m_cursor->real(column); }
    std::string text(int column) const { return m_cursor->text(column); }
    std::string_view textView(int column) const { return m_cursor->textView(column); }
    bool isNull(int column) const { return m_cursor->isNull(column); }
    std::optional<int64_t> optInt64(int column) const;
    std::optional<std::string> optText(int column) const;
    std::string blob(int column) const { return m_cursor->blob(column); }

private:
    std::unique_ptr<Cursor> m_cursor;
};

inline void exec(Connection &db, const std::string &sql) { db.exec(sql); }

// Commits on commit(), rolls back on destruction otherwise (an exception leaves nothing).
class Transaction
{
public:
    explicit Transaction(Connection &db, bool wait = true) : m_db(db) { db.begin(wait); }
    ~Transaction()
    {
        if (!m_done)
            m_db.rollback();
    }
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit()
    {
        m_db.commit();
        m_done = true;
    }

private:
    Connection &m_db;
    bool m_done = false;
};

// Opening a store's connection. SQLite: the file (created when missing), checked to be a
// Plimsoll store. PostgreSQL: a libpq URI without a password (refused otherwise).
std::unique_ptr<Connection> openSqlite(const std::string &path);
std::unique_ptr<Connection> openPostgres(const std::string &uri);

// Refuses (StoreError) a URI libpq cannot read or one that carries a password, saying where a
// password goes instead. Parses only: no connection is made.
void checkPostgresUri(const std::string &uri);

// The URI with any password in it replaced by ***: what an error may show.
std::string withoutPassword(const std::string &uri);

// True for a team store's location: a postgresql:// or postgres:// URI.
bool isPostgresUri(const std::string &location);

} // namespace plimsoll::sql
