#pragma once
// Rows for PostgreSQL's COPY … FROM STDIN (FORMAT binary), encoded as they are added: a bulk
// write sends a table's rows as one stream the server stores without parsing a statement or a
// number per row (Connection::copyIn). Every integer column of the store is BIGINT on
// PostgreSQL (model/store/dialect.h), every real DOUBLE PRECISION, so a value goes as 8 bytes
// in network order; text goes as its bytes. NULL is written where the store's binding would
// bind one (Statement::bind): an empty string through text(), a missing optional.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace plimsoll::sql {

class CopyRows
{
public:
    explicit CopyRows(int columns);

    CopyRows &int64(int64_t value);
    CopyRows &real(double value); // NaN writes NULL, as Statement::bind does
    CopyRows &text(std::string_view value); // always text, also when empty
    CopyRows &text(const std::string &value) { return text(std::string_view(value)); }
    CopyRows &text(const char *value) { return text(std::string_view(value)); }
    CopyRows &textOrNull(std::string_view value) // empty: NULL
    {
        return value.empty() ? null() : text(value);
    }
    CopyRows &int64(const std::optional<int64_t> &value) { return value ? int64(*value) : null(); }
    CopyRows &text(const std::optional<std::string> &value) { return value ? text(*value) : null(); }
    CopyRows &null();
    // Ends the row; throws StoreError (internal) when it does not have every column.
    void endRow();

    int64_t rows() const { return m_rows; }
    int columns() const { return m_columns; }
    // The whole stream, its trailer included: what COPY … FROM STDIN (FORMAT binary) reads.
    // Moved out: the rows are then empty.
    std::string finish();

private:
    void begin();
    void put32(uint32_t v);
    void put64(uint64_t v);

    std::string m_bytes;
    int m_columns;
    int m_inRow = 0; // fields of the row being added
    int64_t m_rows = 0;
};

} // namespace plimsoll::sql
