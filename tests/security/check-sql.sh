#!/usr/bin/env bash
# SQL reaches SQLite only through model/store/sqlite.cpp and PostgreSQL only through
# model/store/postgres.cpp, whose statements bind every value (see
# tests/security/sqlbinding_test.cpp for the runtime check of the statements themselves).
# This check keeps the raw APIs from spreading: any other source calling a function that
# takes SQL text (sqlite3_exec, libpq's PQexec, ...), or formatting SQL with sqlite3_mprintf,
# fails it.
# Usage: check-sql.sh SOURCE_DIR
set -euo pipefail
root=${1:?usage: check-sql.sh SOURCE_DIR}
cd "$root"
pattern='sqlite3_(prepare|prepare_v2|prepare_v3|prepare16|exec|get_table|mprintf|vmprintf|snprintf)[[:space:]]*\(|QSqlQuery|QSqlDatabase'
pattern+='|PQ(exec|execParams|prepare|sendQuery|sendQueryParams|sendPrepare)[[:space:]]*\('
hits=$(grep -rnE "$pattern" --include='*.cpp' --include='*.h' model export net importers runner app ui 2>/dev/null |
    grep -v -e '^model/store/sqlite\.cpp:' -e '^model/store/postgres\.cpp:' || true)
if [[ -n $hits ]]; then
    echo "SQL text handed to a store backend outside model/store/sqlite.cpp and postgres.cpp (use sql::Statement and bind):" >&2
    echo "$hits" >&2
    exit 1
fi
echo "SQLite's and libpq's SQL-text APIs are used only in model/store/sqlite.cpp and postgres.cpp"
