#pragma once
// A thin RAII layer over the SQLite C API: prepared statements with bound parameters only
// (no SQL is ever built from data), and errors thrown as StoreError with SQLite's message.

#include "model/store/store.h"

#include <optional>
#include <string>
#include <string_view>

#include <sqlite3.h>

namespace plimsoll::sql {

class Statement
{
public:
    Statement(sqlite3 *db, std::string_view sql);
    ~Statement();
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    Statement &bind(int index, int64_t value);
    Statement &bind(int index, double value);
    Statement &bind(int index, const std::string &value); // empty string binds NULL
    Statement &bindText(int index, const std::string &value); // always text, even when empty
    Statement &bind(int index, const std::optional<int64_t> &value);
    Statement &bind(int index, const std::optional<std::string> &value);
    Statement &bindBlob(int index, std::string_view bytes);

    bool step(); // true while a row is available
    void run();  // steps to completion
    void reset();

    int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const; // NULL -> ""
    bool isNull(int column) const;
    std::optional<int64_t> optInt64(int column) const;
    std::optional<std::string> optText(int column) const;
    std::string blob(int column) const; // NULL -> ""

private:
    sqlite3 *m_db;
    sqlite3_stmt *m_stmt = nullptr;
};

void exec(sqlite3 *db, const char *sql);

// Commits on commit(), rolls back on destruction otherwise (an exception leaves nothing).
class Transaction
{
public:
    explicit Transaction(sqlite3 *db);
    ~Transaction();
    void commit();

private:
    sqlite3 *m_db;
    bool m_done = false;
};

} // namespace plimsoll::sql
