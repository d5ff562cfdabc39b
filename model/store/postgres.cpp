// The PostgreSQL backend of the store: a team's shared store on a server, through libpq.
// Passwords come only from libpq's own mechanisms (~/.pgpass, PGPASSFILE, PGPASSWORD, a service
// file): a URI carrying one is refused, so no URI the store prints, logs or keeps has one.
// TLS settings (sslmode, sslrootcert, ...) are the URI's and go to libpq as they are.
#include "model/store/connection.h"
#include "model/store/dialect.h"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <map>

namespace plimsoll::sql {

namespace {

constexpr const char *kPasswordSources =
    "~/.pgpass (or the file PGPASSFILE names), the PGPASSWORD environment variable, or a "
    "service file (service=NAME in the URI, from ~/.pg_service.conf or PGSERVICEFILE)";

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

// The message a user reads for a failed statement: what it means for them where the SQLSTATE
// says so, PostgreSQL's own message otherwise.
[[noreturn]] void throwResultError(PGconn *conn, const PGresult *r, const std::string &what)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    const std::string code = state ? state : "";
    if (code == "42501")
        throw StoreError("this store is read-only for user " + std::string(PQuser(conn)));
    if (code == "25006")
        throw StoreError("this store is read-only (the server takes no writes)");
    if (code == "40001" || code == "40P01")
        throw StoreError("another writer changed the store at the same time; try again");
    if (PQstatus(conn) == CONNECTION_BAD)
        throw StoreError("lost the connection to the team store: " +
                         trimmed(PQerrorMessage(conn)));
    const char *primary = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
    throw StoreError(what + ": " + (primary ? primary : trimmed(PQerrorMessage(conn))));
}

struct Prepared
{
    std::string name;
    PostgresStatement statement;
    // Prepared on the server by the first step of a statement of this text, not when the
    // Statement is made: the first step waits as a stoppable read does (a table locked by
    // another session holds the prepare too, until the lock goes).
    bool onServer = false;
};

class PgCursor final : public Cursor
{
public:
    PgCursor(PGconn *conn, Prepared &prepared)
        : m_conn(conn), m_prepared(prepared), m_values(size_t(prepared.statement.count)),
          m_set(size_t(prepared.statement.count), false)
    {
    }
    ~PgCursor() override { PQclear(m_result); }

    void bindInt64(int index, int64_t value) override { set(index, std::to_string(value)); }
    void bindReal(int index, double value) override
    {
        char buf[32];
        const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
        set(index, std::string(buf, end)); // shortest round trip; PostgreSQL reads inf, -inf
    }
    void bindText(int index, std::string_view value) override { set(index, std::string(value)); }
    void bindBlob(int index, std::string_view bytes) override
    {
        static const char *const hex = "0123456789abcdef";
        std::string text = "\\x";
        text.reserve(2 + 2 * bytes.size());
        for (unsigned char b : bytes) {
            text += hex[b >> 4];
            text += hex[b & 15];
        }
        set(index, std::move(text));
    }
    void bindNull(int index) override
    {
        if (const int k = slot(index); k >= 0)
            m_set[size_t(k)] = false;
    }

    bool step() override
    {
        if (!m_result)
            execute();
        return ++m_row < m_rows;
    }
    void stopWhen(std::function<bool()> stopped) override { m_stopped = std::move(stopped); }
    void reset() override
    {
        PQclear(m_result);
        m_result = nullptr;
        m_row = -1;
        m_rows = 0;
        std::fill(m_set.begin(), m_set.end(), false);
    }

    // A team store's reads send numbers as text: read by from_chars (no locale, a fraction of
    // strtod's cost on a million rows), and by the C library for what it does not take whole.
    int64_t int64(int column) const override
    {
        const std::string_view text = textView(column);
        int64_t value = 0;
        if (const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            error == std::errc() && end == text.data() + text.size())
            return value;
        return std::strtoll(text.data(), nullptr, 10);
    }
    double real(int column) const override
    {
        const std::string_view text = textView(column);
        double value = 0;
        if (const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            error == std::errc() && end == text.data() + text.size())
            return value;
        return std::strtod(text.data(), nullptr); // "Infinity", "NaN" as the server writes them
    }
    std::string text(int column) const override { return std::string(textView(column)); }
    std::string_view textView(int column) const override
    {
        return {PQgetvalue(m_result, m_row, column), size_t(PQgetlength(m_result, m_row, column))};
    }
    std::string blob(int column) const override
    {
        if (isNull(column))
            return {};
        size_t length = 0;
        unsigned char *bytes = PQunescapeBytea(
            reinterpret_cast<const unsigned char *>(PQgetvalue(m_result, m_row, column)), &length);
        if (!bytes)
            throw StoreError("cannot read a stored byte string: out of memory");
        std::string out(reinterpret_cast<const char *>(bytes), length);
        PQfreemem(bytes);
        return out;
    }
    bool isNull(int column) const override { return PQgetisnull(m_result, m_row, column) != 0; }

private:
    // The $k slot of the store's ?index; -1 when the statement does not use it.
    int slot(int index) const
    {
        const auto &p = m_prepared.statement.parameters;
        if (index <= 0 || size_t(index) >= p.size() || p[size_t(index)] == 0)
            return -1;
        return p[size_t(index)] - 1;
    }
    void set(int index, std::string value)
    {
        if (const int k = slot(index); k >= 0) {
            m_values[size_t(k)] = std::move(value);
            m_set[size_t(k)] = true;
        }
    }
    void execute()
    {
        if (!m_prepared.onServer)
            prepareOnServer();
        std::vector<const char *> values(m_values.size());
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = m_set[i] ? m_values[i].c_str() : nullptr;
        if (m_stopped)
            executeStoppable(values);
        else
            m_result = PQexecPrepared(m_conn, m_prepared.name.c_str(), int(values.size()),
                                      values.data(), nullptr, nullptr, 0);
        const auto status = PQresultStatus(m_result);
        if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
            PGresult *failed = m_result;
            m_result = nullptr;
            try {
                throwResultError(m_conn, failed, "store query failed");
            } catch (...) {
                PQclear(failed);
                throw;
            }
        }
        m_rows = PQntuples(m_result);
        m_row = -1;
    }

    // Waits for the statement sent, asking m_stopped every 50 ms: when it says stop, the server
    // is asked to cancel (its error ends the wait) and `cancelled` says so. The statement's result
    // (the last; a null ends them).
    PGresult *awaitResult(bool &cancelled)
    {
        cancelled = false;
        while (PQisBusy(m_conn)) {
            pollfd fd{PQsocket(m_conn), POLLIN, 0};
            ::poll(&fd, 1, 50);
            if (!cancelled && m_stopped()) {
                cancelled = true;
                if (PGcancel *cancel = PQgetCancel(m_conn)) {
                    char error[256];
                    PQcancel(cancel, error, sizeof error);
                    PQfreeCancel(cancel);
                }
            }
            if (!PQconsumeInput(m_conn))
                break; // the connection failed: PQgetResult says so
        }
        PGresult *last = nullptr;
        for (PGresult *r = PQgetResult(m_conn); r; r = PQgetResult(m_conn)) {
            PQclear(last);
            last = r;
        }
        return last;
    }

    // The statement sent without waiting; when m_stopped says stop, the read ends here.
    void executeStoppable(const std::vector<const char *> &values)
    {
        if (!PQsendQueryPrepared(m_conn, m_prepared.name.c_str(), int(values.size()), values.data(), nullptr,
                                 nullptr, 0))
            throw StoreError("store query failed: " + trimmed(PQerrorMessage(m_conn)));
        bool cancelled = false;
        m_result = awaitResult(cancelled);
        if (cancelled) {
            PQclear(m_result);
            m_result = nullptr;
            throw StoreError(kStopped);
        }
    }

    // The statement's text prepared on the server, as stoppable as its execution.
    void prepareOnServer()
    {
        const PostgresStatement &st = m_prepared.statement;
        PGresult *r = nullptr;
        bool cancelled = false;
        if (m_stopped) {
            if (!PQsendPrepare(m_conn, m_prepared.name.c_str(), st.text.c_str(), st.count, nullptr))
                throw StoreError("cannot prepare statement: " + trimmed(PQerrorMessage(m_conn)));
            r = awaitResult(cancelled);
        } else {
            r = PQprepare(m_conn, m_prepared.name.c_str(), st.text.c_str(), st.count, nullptr);
        }
        // Prepared when the server says so, also when the stop came too late to cancel it.
        m_prepared.onServer = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (cancelled) {
            PQclear(r);
            throw StoreError(kStopped);
        }
        if (!m_prepared.onServer) {
            try {
                throwResultError(m_conn, r, "cannot prepare statement");
            } catch (...) {
                PQclear(r);
                throw;
            }
        }
        PQclear(r);
    }

    static constexpr const char *kStopped = "the read was stopped: no longer wanted";

    PGconn *m_conn;
    Prepared &m_prepared;
    std::function<bool()> m_stopped;
    std::vector<std::string> m_values;
    std::vector<bool> m_set;
    PGresult *m_result = nullptr;
    int m_row = -1;
    int m_rows = 0;
};

class PgConnection final : public Connection
{
public:
    explicit PgConnection(PGconn *conn) : m_conn(conn) {}
    ~PgConnection() override { PQfinish(m_conn); }

    Dialect dialect() const override { return Dialect::PostgreSQL; }

    // Each text is prepared once per connection and kept (a statement of the server's session,
    // which no rollback undoes): an import runs the same few inserts a million times. The server
    // prepares it at the first step of a statement of that text (Prepared::onServer).
    std::unique_ptr<Cursor> prepare(std::string_view sql) override
    {
        const std::string key(sql);
        auto it = m_prepared.find(key);
        if (it == m_prepared.end()) {
            Prepared p{"plimsoll_" + std::to_string(m_prepared.size() + 1), postgresStatement(sql)};
            it = m_prepared.emplace(key, std::move(p)).first;
        }
        return std::make_unique<PgCursor>(m_conn, it->second);
    }
    void exec(const std::string &sql) override
    {
        check(PQexec(m_conn, sql.c_str()), "store statement failed");
    }
    void begin(bool wait) override
    {
        exec("BEGIN");
        // One writer at a time on a store, like SQLite's: a second import of the same file
        // waits for the first to commit, then finds its sha256 and is unchanged.
        const std::string lock = std::string("SELECT ") +
                                 (wait ? "pg_advisory_xact_lock" : "pg_try_advisory_xact_lock") +
                                 "(1347243347, (SELECT oid::int FROM pg_namespace WHERE "
                                 "nspname = current_schema()))";
        try {
            PGresult *r = PQexec(m_conn, lock.c_str());
            const bool locked = PQresultStatus(r) == PGRES_TUPLES_OK &&
                                (wait || std::string(PQgetvalue(r, 0, 0)) == "t");
            check(r, "cannot take the store's write lock");
            if (!locked)
                throw StoreError("the store is busy (another Plimsoll is writing to it); try again");
        } catch (...) {
            rollback();
            throw;
        }
    }
    void commit() override
    {
        PGresult *r = PQexec(m_conn, "COMMIT");
        // COMMIT of a transaction a failed statement ended reports ROLLBACK, not an error.
        const bool rolledBack = PQresultStatus(r) == PGRES_COMMAND_OK &&
                                std::string(PQcmdStatus(r)) == "ROLLBACK";
        check(r, "cannot commit");
        if (rolledBack)
            throw StoreError("the store rolled the write back after an earlier error");
    }
    void rollback() noexcept override { PQclear(PQexec(m_conn, "ROLLBACK")); }
    bool supportsCopy() const override { return true; }
    void copyIn(const std::string &table, const std::string &columns, std::string_view rows) override
    {
        const std::string what = "cannot write the " + table + " rows";
        PGresult *start = PQexec(m_conn, ("COPY " + table + " (" + columns + ") FROM STDIN (FORMAT binary)").c_str());
        if (PQresultStatus(start) != PGRES_COPY_IN)
            check(start, what); // throws: the server refused the COPY itself
        PQclear(start);
        // In pieces of 1 MiB: libpq buffers what it is given whole before sending any of it.
        constexpr size_t kPiece = size_t(1) << 20;
        bool sent = true;
        for (size_t at = 0; sent && at < rows.size(); at += kPiece)
            sent = PQputCopyData(m_conn, rows.data() + at, int(std::min(kPiece, rows.size() - at))) == 1;
        if (PQputCopyEnd(m_conn, sent ? nullptr : "the client could not send the rows") != 1)
            throw StoreError("lost the connection to the team store: " + trimmed(PQerrorMessage(m_conn)));
        PGresult *last = nullptr;
        for (PGresult *r = PQgetResult(m_conn); r; r = PQgetResult(m_conn)) {
            PQclear(last);
            last = r;
        }
        check(last, what);
    }
    void beginRead() override { exec("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"); }
    int schemaVersion() override
    {
        if (!hasTable("plimsoll_schema"))
            return 0;
        PgCursor q(m_conn, prepared("SELECT MAX(version) FROM plimsoll_schema"));
        q.step();
        return int(q.int64(0));
    }
    void setSchemaVersion(int version) override
    {
        exec("UPDATE plimsoll_schema SET version = " + std::to_string(version));
    }

    bool hasTable(const char *name)
    {
        // Read from the catalog with the statement's snapshot: to_regclass() would trust the
        // session's cache, which misses a table another writer created since (a first open
        // racing another's migration).
        PgCursor q(m_conn, prepared("SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n "
                                    "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
                                    "AND c.relname = ?1)"));
        q.bindText(1, name);
        q.step();
        return q.text(0) == "t";
    }
    // True when the schema holds tables but none is Plimsoll's. One statement, one snapshot:
    // another Plimsoll creating the store meanwhile gives both tables or neither.
    bool hasForeignTables()
    {
        PgCursor q(m_conn, prepared("SELECT COUNT(*) FILTER (WHERE tablename = 'plimsoll_schema'), "
                                    "COUNT(*) FROM pg_tables WHERE schemaname = current_schema()"));
        q.step();
        return q.int64(0) == 0 && q.int64(1) > 0;
    }

private:
    Prepared &prepared(const std::string &sql)
    {
        prepare(sql);
        return m_prepared.find(sql)->second;
    }
    void check(PGresult *r, const std::string &what)
    {
        const auto status = PQresultStatus(r);
        if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
            PQclear(r);
            return;
        }
        try {
            throwResultError(m_conn, r, what);
        } catch (...) {
            PQclear(r);
            throw;
        }
    }

    PGconn *m_conn;
    std::map<std::string, Prepared> m_prepared;
};

void ignoreNotice(void *, const char *) {}

} // namespace

void checkPostgresUri(const std::string &uri)
{
    char *error = nullptr;
    PQconninfoOption *options = PQconninfoParse(uri.c_str(), &error);
    if (!options) {
        const std::string why = error ? trimmed(error) : "out of memory";
        PQfreemem(error);
        throw StoreError("cannot open store " + withoutPassword(uri) + ": not a valid PostgreSQL URI: " + why);
    }
    bool password = false;
    for (PQconninfoOption *o = options; o->keyword; ++o)
        if (std::string(o->keyword) == "password" && o->val && *o->val)
            password = true;
    PQconninfoFree(options);
    if (password)
        throw StoreError("refusing the store URI " + withoutPassword(uri) +
                         ": it carries a password, which would be kept in shell histories, "
                         "logs and the recent stores. Give it to libpq instead: " +
                         kPasswordSources);
}

std::string withoutPassword(const std::string &uri)
{
    std::string out = uri;
    const size_t scheme = out.find("://");
    if (scheme != std::string::npos) {
        const size_t start = scheme + 3;
        const size_t at = out.find('@', start);
        const size_t end = out.find_first_of("/?", start);
        if (at != std::string::npos && (end == std::string::npos || at < end)) {
            const size_t colon = out.find(':', start);
            if (colon != std::string::npos && colon < at)
                out.replace(colon, at - colon, ":***");
        }
    }
    // password=... among the query parameters (or a key=value conninfo string).
    for (size_t p = out.find("password="); p != std::string::npos; p = out.find("password=", p + 1)) {
        const size_t value = p + 9;
        const size_t end = out.find_first_of("& ", value);
        out.replace(value, (end == std::string::npos ? out.size() : end) - value, "***");
    }
    return out;
}

std::unique_ptr<Connection> openPostgres(const std::string &uri)
{
    checkPostgresUri(uri);
    PGconn *conn = PQconnectdb(uri.c_str());
    if (!conn)
        throw StoreError("cannot open store " + uri + ": out of memory");
    auto c = std::make_unique<PgConnection>(conn);
    if (PQstatus(conn) != CONNECTION_OK) {
        std::string why = trimmed(PQerrorMessage(conn));
        if (why.find("no password supplied") != std::string::npos ||
            why.find("password authentication failed") != std::string::npos)
            why += " (Plimsoll takes the password from " + std::string(kPasswordSources) + ")";
        throw StoreError("cannot open store " + uri + ": " + why);
    }
    PQsetNoticeProcessor(conn, ignoreNotice, nullptr);
    try {
        if (c->hasForeignTables())
            throw StoreError("not a Plimsoll store (its schema has other tables and no "
                             "plimsoll_schema)");
    } catch (const StoreError &e) {
        throw StoreError("cannot open store " + uri + ": " + e.what());
    }
    return c;
}

} // namespace plimsoll::sql
