#include "runner/envelope.h"

#include <isa-l/crc.h>

#if defined(__x86_64__)
#include <immintrin.h>
#include <nmmintrin.h>
#endif

#include <algorithm>
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

// ISA-L's AVX-512 CRC routines return with the upper halves of the vector registers in use, and
// every legacy-SSE instruction after them (a 16-byte copy, a memcpy) then waits on those halves:
// on a Xeon with AVX-512 a checked read of a 1 KiB value took 284 ns where its CRC takes 21.
// vzeroupper after each call clears them (one cycle); without AVX there is nothing to clear.
#if defined(__x86_64__)
__attribute__((target("avx"))) void clearUpperHalvesAvx()
{
    _mm256_zeroupper();
}
const bool kHasAvx = __builtin_cpu_supports("avx");
#endif

void clearUpperHalves()
{
#if defined(__x86_64__)
    if (kHasAvx)
        clearUpperHalvesAvx();
#endif
}

// ISA-L's CRC-32C works on the bare register (no inversions) and takes an int length.
uint32_t castagnoliRegister(const char *data, std::size_t length, uint32_t reg)
{
    auto *bytes = reinterpret_cast<unsigned char *>(const_cast<char *>(data));
    while (length > 0) {
        const auto chunk = static_cast<int>(std::min<std::size_t>(length, std::size_t(1) << 30));
        reg = crc32_iscsi(bytes, chunk, reg);
        bytes += chunk;
        length -= static_cast<std::size_t>(chunk);
    }
    clearUpperHalves();
    return reg;
}

// The register after the 44 header bytes, started from all ones. ISA-L's entry costs about as
// much for these 44 bytes as for the 1 KiB after them (dispatch and alignment set-up), so on
// x86-64 with SSE4.2 the header is six crc32 instructions; elsewhere ISA-L.
#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t headerRegisterSse42(const char *data)
{
    uint64_t reg = ~uint32_t(0);
    for (std::size_t at = 0; at + 8 <= kChecksumOffset; at += 8) {
        uint64_t word;
        std::memcpy(&word, data + at, 8);
        reg = _mm_crc32_u64(reg, word);
    }
    uint32_t last;
    std::memcpy(&last, data + 40, 4);
    return _mm_crc32_u32(static_cast<uint32_t>(reg), last);
}
const bool kHeaderBySse42 = __builtin_cpu_supports("sse4.2");
#endif

uint32_t headerRegister(const char *data)
{
    static_assert(kChecksumOffset == 44, "five words and one half-word");
#if defined(__x86_64__)
    if (kHeaderBySse42)
        return headerRegisterSse42(data);
#endif
    return castagnoliRegister(data, kChecksumOffset, ~uint32_t(0));
}

bool checksumMatches(std::string_view value, uint8_t version)
{
    const char *data = value.data();
    const std::size_t fillerLength = value.size() - Envelope::kSize;
    uint32_t crc = 0;
    if (version == 1) {
        crc = crc32Of(data, kChecksumOffset);
        crc = crc32Of(data + Envelope::kSize, fillerLength, crc);
    } else {
        crc = ~castagnoliRegister(data + Envelope::kSize, fillerLength, headerRegister(data));
    }
    return crc == get<uint32_t>(value, kChecksumOffset);
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
    const char *filler = m_buffer.data() + Envelope::kSize;
    m_fillerCrc = castagnoliRegister(filler, m_fillerLength, 0);
    // Running the register r over the filler gives A(r) ^ F, F the register from 0 and A
    // linear over GF(2). A is found on the 32 single bits and tabulated by byte of r, so a
    // record's CRC is the header's 44 bytes and four lookups, whatever the record size.
    uint32_t onBit[32];
    for (uint32_t bit = 0; bit < 32; ++bit)
        onBit[bit] = castagnoliRegister(filler, m_fillerLength, uint32_t(1) << bit) ^ m_fillerCrc;
    for (uint32_t k = 0; k < 4; ++k)
        for (uint32_t b = 0; b < 256; ++b) {
            uint32_t image = 0;
            for (uint32_t bit = 0; bit < 8; ++bit)
                if (b & (1u << bit))
                    image ^= onBit[8 * k + bit];
            m_appendFiller[k][b] = image;
        }
}

std::string_view EnvelopeWriter::write(uint64_t sequence, int64_t scheduledNs)
{
    put<uint64_t>(m_buffer, 28, sequence);
    put<int64_t>(m_buffer, 36, scheduledNs);
    const uint32_t head = headerRegister(m_buffer.data());
    const uint32_t reg = m_appendFiller[0][head & 0xff] ^ m_appendFiller[1][(head >> 8) & 0xff] ^
                         m_appendFiller[2][(head >> 16) & 0xff] ^ m_appendFiller[3][head >> 24] ^
                         m_fillerCrc;
    put<uint32_t>(m_buffer, kChecksumOffset, ~reg);
    return m_buffer;
}

Envelope::Check readEnvelope(std::string_view value, bool verifyChecksum, Envelope &out)
{
    if (value.size() < Envelope::kSize)
        return Envelope::Check::TooShort;
    if (std::memcmp(value.data(), kMagic, 4) != 0)
        return Envelope::Check::BadMagic;
    const auto version = static_cast<uint8_t>(value[4]);
    if (version < Envelope::kOldestVersion || version > Envelope::kVersion)
        return Envelope::Check::BadVersion;
    if (verifyChecksum && !checksumMatches(value, version))
        return Envelope::Check::BadChecksum;
    out.version = version;
    out.producerId = get<uint32_t>(value, 8);
    std::memcpy(out.runId.data(), value.data() + 12, out.runId.size());
    out.sequence = get<uint64_t>(value, 28);
    out.scheduledNs = get<int64_t>(value, 36);
    return Envelope::Check::Ok;
}

uint32_t crc32cOf(const void *data, std::size_t length, uint32_t crc)
{
    return ~castagnoliRegister(static_cast<const char *>(data), length, ~crc);
}

uint32_t crc32Of(const void *data, std::size_t length, uint32_t crc)
{
    // ISA-L's gzip CRC is zlib's crc32(), inversions included.
    crc = crc32_gzip_refl(crc, static_cast<const unsigned char *>(data), length);
    clearUpperHalves();
    return crc;
}

} // namespace plimsoll
