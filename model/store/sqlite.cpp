#include "model/store/sqlite.h"

namespace plimsoll::sql {

namespace {
[[noreturn]] void throwError(sqlite3 *db, const std::string &what)
{
    throw StoreError(what + ": " + sqlite3_errmsg(db));
}
} // namespace

Statement::Statement(sqlite3 *db, std::string_view sql) : m_db(db)
{
    if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) !=
        SQLITE_OK)
        throwError(db, "cannot prepare statement");
}

Statement::~Statement() { sqlite3_finalize(m_stmt); }

Statement &Statement::bind(int index, int64_t value)
{
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}

Statement &Statement::bind(int index, double value)
{
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}

Statement &Statement::bind(int index, const std::string &value)
{
    if (value.empty())
        sqlite3_bind_null(m_stmt, index);
    else
        sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()),
                          SQLITE_TRANSIENT);
    return *this;
}

Statement &Statement::bindText(int index, const std::string &value)
{
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()),
                      SQLITE_TRANSIENT);
    return *this;
}

Statement &Statement::bind(int index, const std::optional<int64_t> &value)
{
    if (value)
        return bind(index, *value);
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

Statement &Statement::bind(int index, const std::optional<std::string> &value)
{
    if (value)
        return bindText(index, *value);
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

Statement &Statement::bindBlob(int index, std::string_view bytes)
{
    sqlite3_bind_blob(m_stmt, index, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
    return *this;
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    if (rc == SQLITE_BUSY)
        throw StoreError("the store is busy (another Plimsoll is writing to it); try again");
    throwError(m_db, "store query failed");
}

void Statement::run()
{
    while (step()) {
    }
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int64_t Statement::int64(int column) const { return sqlite3_column_int64(m_stmt, column); }
double Statement::real(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string Statement::text(int column) const
{
    const auto *p = sqlite3_column_text(m_stmt, column);
    if (!p)
        return {};
    return std::string(reinterpret_cast<const char *>(p),
                       static_cast<size_t>(sqlite3_column_bytes(m_stmt, column)));
}

std::string Statement::blob(int column) const
{
    const auto *p = static_cast<const char *>(sqlite3_column_blob(m_stmt, column));
    if (!p)
        return {};
    return std::string(p, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column)));
}

bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::optional<int64_t> Statement::optInt64(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return int64(column);
}

std::optional<std::string> Statement::optText(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return text(column);
}

void exec(sqlite3 *db, const char *sql)
{
    char *err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        std::string message = err ? err : "unknown error";
        sqlite3_free(err);
        if (sqlite3_errcode(db) == SQLITE_BUSY)
            throw StoreError("the store is busy (another Plimsoll is writing to it); try again");
        throw StoreError("store statement failed: " + message);
    }
}

Transaction::Transaction(sqlite3 *db) : m_db(db) { exec(db, "BEGIN IMMEDIATE"); }

Transaction::~Transaction()
{
    if (!m_done)
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit()
{
    exec(m_db, "COMMIT");
    m_done = true;
}

} // namespace plimsoll::sql
