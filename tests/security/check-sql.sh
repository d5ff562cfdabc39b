#!/usr/bin/env bash
# SQL reaches SQLite only through model/store/sqlite.cpp, whose Statement binds every value (see
# tests/security/sqlbinding_test.cpp for the runtime check of the statements themselves).
# This check keeps the raw API from spreading: any other source calling a function that
# takes SQL text, or formatting SQL with sqlite3_mprintf, fails it.
# Usage: check-sql.sh SOURCE_DIR
set -euo pipefail
root=${1:?usage: check-sql.sh SOURCE_DIR}
cd "$root"
pattern='sqlite3_(prepare|prepare_v2|prepare_v3|prepare16|exec|get_table|mprintf|vmprintf|snprintf)[[:space:]]*\(|QSqlQuery|QSqlDatabase'
hits=$(grep -rnE "$pattern" --include='*.cpp' --include='*.h' model export net importers runner app ui 2>/dev/null |
    grep -v '^model/store/sqlite\.cpp:' || true)
if [[ -n $hits ]]; then
    echo "SQL text handed to SQLite outside model/store/sqlite.cpp (use sql::Statement and bind):" >&2
    echo "$hits" >&2
    exit 1
fi
echo "SQLite's SQL-text API is used only in model/store/sqlite.cpp"
