#include "model/store/connection.h"

#include <cmath>

namespace plimsoll::sql {

Statement &Statement::bind(int index, int64_t value)
{
    m_cursor->bindInt64(index, value);
    return *this;
}

Statement &Statement::bind(int index, double value)
{
    // SQLite stores a NaN as NULL; every backend does, so a NOT NULL column refuses it alike.
    if (std::isnan(value))
        m_cursor->bindNull(index);
    else
        m_cursor->bindReal(index, value);
    return *this;
}

Statement &Statement::bind(int index, const std::string &value)
{
    if (value.empty())
        m_cursor->bindNull(index);
    else
        m_cursor->bindText(index, value);
    return *this;
}

Statement &Statement::bindText(int index, const std::string &value)
{
    m_cursor->bindText(index, value);
    return *this;
}

Statement &Statement::bind(int index, const std::optional<int64_t> &value)
{
    if (value)
        return bind(index, *value);
    m_cursor->bindNull(index);
    return *this;
}

Statement &Statement::bind(int index, const std::optional<std::string> &value)
{
    if (value)
        return bindText(index, *value);
    m_cursor->bindNull(index);
    return *this;
}

Statement &Statement::bindBlob(int index, std::string_view bytes)
{
    m_cursor->bindBlob(index, bytes);
    return *this;
}

void Statement::run()
{
    while (step()) {
    }
}

int64_t Cursor::runReturningId()
{
    if (!step())
        throw StoreError("internal: an insert returned no id");
    const int64_t id = int64(0);
    while (step()) {
    }
    return id;
}

int64_t Statement::runReturningId()
{
    return m_cursor->runReturningId();
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

void Connection::copyIn(const std::string &table, const std::string &, std::string_view)
{
    throw StoreError("internal: no bulk copy into " + table + " on this store");
}

bool isPostgresUri(const std::string &location)
{
    return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

} // namespace plimsoll::sql
