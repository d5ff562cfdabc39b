// The envelope's checksum is CRC-32 (zlib's) over the whole value except its own four bytes:
// what a consumer, or any other tool reading the topic, recomputes. The writer gets there by
// a shortcut (the filler's CRC once, then a table per record); these tests hold it to the
// definition.
#include "runner/envelope.h"

#include <gtest/gtest.h>

#include <zlib.h>

#include <string>

using namespace plimsoll;

namespace {

uint32_t checksumByDefinition(std::string_view value)
{
    uLong crc = crc32(0, reinterpret_cast<const Bytef *>(value.data()), 44);
    crc = crc32(crc, reinterpret_cast<const Bytef *>(value.data()) + Envelope::kSize,
                static_cast<uInt>(value.size() - Envelope::kSize));
    return static_cast<uint32_t>(crc);
}

uint32_t storedChecksum(std::string_view value)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v |= uint32_t(uint8_t(value[size_t(44 + i)])) << (8 * i);
    return v;
}

TEST(Envelope, ChecksumIsCrc32OfTheValueWithoutItsOwnField)
{
    std::array<uint8_t, 16> runId{};
    ASSERT_TRUE(Envelope::runIdFromUuid("0f8e2a44-5b1c-4d2e-9a7f-3c6b1d0e9f21", runId));
    for (size_t size : {size_t(48), size_t(49), size_t(100), size_t(1024), size_t(65536)}) {
        EnvelopeWriter writer(runId, 7, size);
        for (uint64_t sequence : {uint64_t(0), uint64_t(1), uint64_t(255), uint64_t(1) << 40,
                                  ~uint64_t(0)}) {
            const int64_t scheduled = int64_t(sequence * 1000003u) - 17;
            const std::string value(writer.write(sequence, scheduled));
            SCOPED_TRACE("size " + std::to_string(size) + ", sequence " + std::to_string(sequence));
            ASSERT_EQ(value.size(), size);
            EXPECT_EQ(storedChecksum(value), checksumByDefinition(value));
            Envelope read;
            ASSERT_EQ(readEnvelope(value, true, read), Envelope::Check::Ok);
            EXPECT_EQ(read.sequence, sequence);
            EXPECT_EQ(read.scheduledNs, scheduled);
            EXPECT_EQ(read.producerId, 7u);
            EXPECT_EQ(read.runId, runId);
        }
    }
}

TEST(Envelope, ACorruptedByteAnywhereButTheChecksumFailsTheCheck)
{
    std::array<uint8_t, 16> runId{};
    runId[0] = 1;
    EnvelopeWriter writer(runId, 0, 1024);
    const std::string value(writer.write(42, 123456789));
    for (size_t at : {size_t(8), size_t(20), size_t(30), size_t(40), size_t(48), size_t(500),
                      size_t(1023)}) {
        std::string bad = value;
        bad[at] = char(bad[at] ^ 0x10);
        Envelope read;
        EXPECT_EQ(readEnvelope(bad, true, read), Envelope::Check::BadChecksum) << "byte " << at;
        // Without the check only the magic and version are looked at.
        EXPECT_EQ(readEnvelope(bad, false, read), Envelope::Check::Ok) << "byte " << at;
    }
}

} // namespace
