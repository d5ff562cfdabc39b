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
//   SQLite      a plain INSERT .. RETURNING id runs without its RETURNING, the id read from
//               sqlite3_last_insert_rowid (sqliteStatement)
// Spellings both accept are used as they are: INSERT .. ON CONFLICT, RETURNING, COALESCE.

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

// The statement SQLite runs. SQLite makes RETURNING a trigger, so every such insert keeps a
// statement journal of the pages it touches: a 1M-record import ran at a third of a plain
// insert loop's rate. A plain INSERT (no ON CONFLICT) ending in RETURNING id loses the clause,
// and `returnsId` says the id is sqlite3_last_insert_rowid's.
std::string_view sqliteStatement(std::string_view sql, bool &returnsId);
std::string postgresSchemaStep(const std::string &step);

// Run before the first step on PostgreSQL: the collation the schema names and the table of
// the schema version.
inline constexpr const char *kPostgresNewStore =
    "CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', "
    "deterministic = false);\n"
    "CREATE TABLE plimsoll_schema (version INTEGER NOT NULL);\n"
    "INSERT INTO plimsoll_schema (version) VALUES (0);\n";

} // namespace plimsoll::sql
