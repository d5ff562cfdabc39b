#pragma once
// The versioned envelope at the start of every value a bench producer writes. It lets a
// consumer prove, record by record, that what it read is what this run sent: the run id
// rules out foreign records, producer id + sequence find duplicates and gaps, the
// scheduled send time gives end-to-end latency on the same monotonic clock, and the
// checksum over the whole value except its own field catches corruption.
//
// Layout, little-endian, 48 bytes, followed by filler up to the record size:
//   0  magic "PLMB"        4  version (2)     5  flags (0)    6  reserved (2 bytes)
//   8  producer id (u32)  12  run id (16 bytes, uuid)
//  28  sequence (u64)     36  scheduled send time (i64, ns of std::chrono::steady_clock)
//  44  checksum (u32)
//
// Version 2 (written): the checksum is CRC-32C (Castagnoli, as in iSCSI and Kafka's own
// record batches: java.util.zip.CRC32C recomputes it). Version 1 (still read): CRC-32 as
// zlib computes it. Both are computed by ISA-L, which picks the CPU's CRC instructions
// (SSE4.2 crc32, PCLMULQDQ folding, ARMv8 CRC/PMULL) at run time and has a portable
// fallback; a 1 KiB value costs ≈ 50–70 ns against zlib's ≈ 650 ns (perf/micro_hdr.cpp).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace plimsoll {

struct Envelope
{
    static constexpr std::size_t kSize = 48;
    static constexpr uint8_t kVersion = 2;       // what EnvelopeWriter writes
    static constexpr uint8_t kOldestVersion = 1; // the oldest readEnvelope accepts

    uint8_t version = kVersion;
    uint32_t producerId = 0;
    std::array<uint8_t, 16> runId{};
    uint64_t sequence = 0;
    int64_t scheduledNs = 0;

    enum class Check { Ok, TooShort, BadMagic, BadVersion, BadChecksum };
    static std::string_view checkName(Check check);

    // Parses the textual uuid ("8-4-4-4-12" hex); false when it is not one.
    static bool runIdFromUuid(std::string_view uuid, std::array<uint8_t, 16> &out);
};

// Builds values of one fixed size for one producer: the filler and its CRC are computed
// once, so each record costs a header write, a CRC of 44 bytes and four table lookups, not
// a CRC of the whole value. Writes the current version (Envelope::kVersion).
class EnvelopeWriter
{
public:
    EnvelopeWriter(const std::array<uint8_t, 16> &runId, uint32_t producerId, std::size_t recordSize);
    // Writes the record into the internal buffer and returns it (valid until the next call).
    std::string_view write(uint64_t sequence, int64_t scheduledNs);
    std::size_t size() const { return m_buffer.size(); }

private:
    std::string m_buffer;
    uint32_t m_fillerCrc = 0; // CRC-32C register after the filler, started from 0
    std::size_t m_fillerLength = 0;
    uint32_t m_appendFiller[4][256] = {}; // CRC state -> state after the filler, by byte

};

// Reads an envelope of any version from kOldestVersion to kVersion; with verifyChecksum
// false only magic and version are checked.
Envelope::Check readEnvelope(std::string_view value, bool verifyChecksum, Envelope &out);

// The checksums by name, for tests and tools that check a value by hand: CRC-32C and CRC-32
// (zlib's) of `length` bytes continuing from `crc` (0 to start), finished as their standards
// define (pre- and post-inverted).
uint32_t crc32cOf(const void *data, std::size_t length, uint32_t crc = 0);
uint32_t crc32Of(const void *data, std::size_t length, uint32_t crc = 0);

} // namespace plimsoll
