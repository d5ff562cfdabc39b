// The store's SQL is written once; what each backend runs of it (model/store/dialect.h).
#include "model/store/dialect.h"

#include <gtest/gtest.h>

using namespace plimsoll::sql;

// SQLite runs an insert's RETURNING as a trigger with a statement journal (a third of the
// import rate): a plain insert loses it and reads the id from last_insert_rowid. An upsert
// keeps it (its row may not be written), and so does any other RETURNING.
TEST(StoreDialect, SqliteRunsPlainInsertsWithoutReturning)
{
    bool returnsId = false;
    EXPECT_EQ(sqliteStatement("INSERT INTO runs (run_key) VALUES (?) RETURNING id", returnsId),
              "INSERT INTO runs (run_key) VALUES (?)");
    EXPECT_TRUE(returnsId);
    const std::string_view upsert = "INSERT INTO shared_settings (kind) VALUES (?) ON CONFLICT DO NOTHING RETURNING id";
    EXPECT_EQ(sqliteStatement(upsert, returnsId), upsert);
    EXPECT_FALSE(returnsId);
    const std::string_view deleted = "DELETE FROM shared_settings WHERE kind = ? RETURNING 1";
    EXPECT_EQ(sqliteStatement(deleted, returnsId), deleted);
    EXPECT_FALSE(returnsId);
    const std::string_view select = "SELECT id FROM runs WHERE run_key = ?";
    EXPECT_EQ(sqliteStatement(select, returnsId), select);
    EXPECT_FALSE(returnsId);
}

// PostgreSQL numbers its parameters densely in order of first use; a repeated ?1 is one $k, a
// '?' inside a string literal is text, and SQLite's planner hint is dropped.
TEST(StoreDialect, PostgresParametersAreNumberedInOrderOfFirstUse)
{
    const PostgresStatement s = postgresStatement(
        "SELECT a FROM t INDEXED BY t_by_b WHERE b = ?2 AND c = ?1 AND d = '?' AND e = ?1 AND f = ?");
    EXPECT_EQ(s.text, "SELECT a FROM t WHERE b = $1 AND c = $2 AND d = '?' AND e = $2 AND f = $3");
    EXPECT_EQ(s.count, 3);
    ASSERT_EQ(s.parameters.size(), 4u);
    EXPECT_EQ(s.parameters[1], 2);
    EXPECT_EQ(s.parameters[2], 1);
    EXPECT_EQ(s.parameters[3], 3);
}
