#pragma once
// Every difference between the store's two SQL dialects, in one place. The store's SQL is
// written once in SQLite's spelling; PostgreSQL's is translated from it here:
//   statements  ?N / ? parameters -> $k; instr( -> strpos(; CROSS JOIN .. ON -> JOIN .. ON;
//               INDEXED BY name (a SQLite planner hint) dropped
//   schema      INTEGER PRIMARY KEY -> BIGINT identity; INTEGER -> BIGINT; REAL -> DOUBLE
//               PRECISION; BLOB -> BYTEA; TEXT -> TEXT COLLATE "C" (SQLite's byte order);
//               WITHOUT ROWID dropped
//   both        COLLATE NOCASE: SQLite's own; on PostgreSQL a case-insensitive ICU collation
//               named nocase, created with the store (kPostgresNewStore)
// Spellings both accept are used as they are: INSERT .. ON CONFLICT, RETURNING id, COALESCE.

#include <string>
#include <string_view>
#include <vector>

namespace plimsoll::sql {

struct PostgresStatement
{
    std::string text;
    // parameters[n] is the $k the store's ?n became (0: ?n does not occur). PostgreSQL numbers
    // them densely in order of first appearance: it must infer a type for every $k.
    std::vector<int> parameters;
    int count = 0; // of $k
};

PostgresStatement postgresStatement(std::string_view sql);
std::string postgresSchemaStep(const std::string &step);

// Run before the first step on PostgreSQL: the collation the schema names and the table of
// the schema version.
inline constexpr const char *kPostgresNewStore =
    "CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', "
    "deterministic = false);\n"
    "CREATE TABLE plimsoll_schema (version INTEGER NOT NULL);\n"
    "INSERT INTO plimsoll_schema (version) VALUES (0);\n";

} // namespace plimsoll::sql
