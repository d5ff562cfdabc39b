#include "model/store/copyrows.h"

#include "model/store/store.h"

#include <cmath>
#include <cstring>

namespace plimsoll::sql {

namespace {

// The binary COPY format's header: its signature, no flags, no header extension.
constexpr char kSignature[] = "PGCOPY\n\377\r\n";

} // namespace

CopyRows::CopyRows(int columns) : m_columns(columns)
{
    m_bytes.append(kSignature, sizeof kSignature); // with its terminating zero byte, as specified
    put32(0);
    put32(0);
}

void CopyRows::begin()
{
    if (m_inRow == 0) {
        m_bytes += char((m_columns >> 8) & 0xff);
        m_bytes += char(m_columns & 0xff);
    }
    ++m_inRow;
}

void CopyRows::put32(uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        m_bytes += char((v >> shift) & 0xff);
}

void CopyRows::put64(uint64_t v)
{
    for (int shift = 56; shift >= 0; shift -= 8)
        m_bytes += char((v >> shift) & 0xff);
}

CopyRows &CopyRows::int64(int64_t value)
{
    begin();
    put32(8);
    put64(uint64_t(value));
    return *this;
}

CopyRows &CopyRows::real(double value)
{
    if (std::isnan(value))
        return null();
    begin();
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    put32(8);
    put64(bits);
    return *this;
}

CopyRows &CopyRows::text(std::string_view value)
{
    begin();
    put32(uint32_t(value.size()));
    m_bytes.append(value.data(), value.size());
    return *this;
}

CopyRows &CopyRows::null()
{
    begin();
    put32(0xffffffffu); // -1: NULL
    return *this;
}

void CopyRows::endRow()
{
    if (m_inRow != m_columns)
        throw StoreError("internal: a bulk row of " + std::to_string(m_inRow) + " fields for " +
                         std::to_string(m_columns) + " columns");
    m_inRow = 0;
    ++m_rows;
}

std::string CopyRows::finish()
{
    m_bytes += char(0xff); // -1 as a field count: the end of the rows
    m_bytes += char(0xff);
    return std::move(m_bytes);
}

} // namespace plimsoll::sql
