#include "runner/envelope.h"

#include <zlib.h>

#include <cstring>

namespace plimsoll {

namespace {

constexpr char kMagic[4] = {'P', 'L', 'M', 'B'};
constexpr std::size_t kChecksumOffset = 44;

template <typename T> void put(std::string &buffer, std::size_t offset, T value)
{
    for (std::size_t i = 0; i < sizeof(T); ++i)
        buffer[offset + i] = static_cast<char>((static_cast<uint64_t>(value) >> (8 * i)) & 0xff);
}

template <typename T> T get(std::string_view buffer, std::size_t offset)
{
    uint64_t value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        value |= static_cast<uint64_t>(static_cast<uint8_t>(buffer[offset + i])) << (8 * i);
    return static_cast<T>(value);
}

unsigned long crcOf(const char *data, std::size_t length, unsigned long crc = 0)
{
    return crc32(crc, reinterpret_cast<const Bytef *>(data), static_cast<uInt>(length));
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

std::string_view Envelope::checkName(Check check)
{
    switch (check) {
    case Check::Ok: return "ok";
    case Check::TooShort: return "too short";
    case Check::BadMagic: return "bad magic";
    case Check::BadVersion: return "unknown envelope version";
    case Check::BadChecksum: return "bad checksum";
    }
    return "?";
}

bool Envelope::runIdFromUuid(std::string_view uuid, std::array<uint8_t, 16> &out)
{
    std::size_t byte = 0;
    for (std::size_t i = 0; i < uuid.size();) {
        if (uuid[i] == '-') {
            ++i;
            continue;
        }
        if (i + 1 >= uuid.size() || byte >= out.size())
            return false;
        const int high = hexDigit(uuid[i]);
        const int low = hexDigit(uuid[i + 1]);
        if (high < 0 || low < 0)
            return false;
        out[byte++] = static_cast<uint8_t>(high * 16 + low);
        i += 2;
    }
    return byte == out.size();
}

EnvelopeWriter::EnvelopeWriter(const std::array<uint8_t, 16> &runId, uint32_t producerId, std::size_t recordSize)
    : m_buffer(std::max(recordSize, Envelope::kSize), '\0')
{
    std::memcpy(m_buffer.data(), kMagic, 4);
    m_buffer[4] = static_cast<char>(Envelope::kVersion);
    put<uint32_t>(m_buffer, 8, producerId);
    std::memcpy(m_buffer.data() + 12, runId.data(), runId.size());
    // Filler varies along the value so a shifted or truncated copy cannot pass the checksum.
    for (std::size_t i = Envelope::kSize; i < m_buffer.size(); ++i)
        m_buffer[i] = static_cast<char>('a' + (i * 7 + producerId) % 26);
    m_fillerLength = m_buffer.size() - Envelope::kSize;
    m_fillerCrc = crcOf(m_buffer.data() + Envelope::kSize, m_fillerLength);
    // crc32_combine(a, filler) = A(a) ^ fillerCrc, where A — appending the filler's length
    // of zeros — is linear over GF(2): tabulated by byte of `a`, four lookups replace zlib's
    // per-call operator (≈ 450 ns a record to ≈ 40 ns with the header's own CRC).
    const uLong appendFiller = crc32_combine_gen(static_cast<z_off_t>(m_fillerLength));
    for (uint32_t k = 0; k < 4; ++k)
        for (uint32_t b = 0; b < 256; ++b)
            m_appendFiller[k][b] =
                static_cast<uint32_t>(crc32_combine_op(uLong(b) << (8 * k), 0, appendFiller));
}

std::string_view EnvelopeWriter::write(uint64_t sequence, int64_t scheduledNs)
{
    put<uint64_t>(m_buffer, 28, sequence);
    put<int64_t>(m_buffer, 36, scheduledNs);
    const auto head = static_cast<uint32_t>(crcOf(m_buffer.data(), kChecksumOffset));
    const uint32_t crc = m_appendFiller[0][head & 0xff] ^ m_appendFiller[1][(head >> 8) & 0xff] ^
                         m_appendFiller[2][(head >> 16) & 0xff] ^ m_appendFiller[3][head >> 24] ^
                         static_cast<uint32_t>(m_fillerCrc);
    put<uint32_t>(m_buffer, kChecksumOffset, crc);
    return m_buffer;
}

Envelope::Check readEnvelope(std::string_view value, bool verifyChecksum, Envelope &out)
{
    if (value.size() < Envelope::kSize)
        return Envelope::Check::TooShort;
    if (std::memcmp(value.data(), kMagic, 4) != 0)
        return Envelope::Check::BadMagic;
    if (static_cast<uint8_t>(value[4]) != Envelope::kVersion)
        return Envelope::Check::BadVersion;
    if (verifyChecksum) {
        unsigned long crc = crcOf(value.data(), kChecksumOffset);
        crc = crcOf(value.data() + Envelope::kSize, value.size() - Envelope::kSize, crc);
        if (static_cast<uint32_t>(crc) != get<uint32_t>(value, kChecksumOffset))
            return Envelope::Check::BadChecksum;
    }
    out.producerId = get<uint32_t>(value, 8);
    std::memcpy(out.runId.data(), value.data() + 12, out.runId.size());
    out.sequence = get<uint64_t>(value, 28);
    out.scheduledNs = get<int64_t>(value, 36);
    return Envelope::Check::Ok;
}

} // namespace plimsoll
