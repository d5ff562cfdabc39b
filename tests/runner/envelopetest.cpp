// The envelope's checksum covers the whole value except its own four bytes: CRC-32C in
// version 2 (what every producer writes), CRC-32 as zlib computes it in version 1 (still
// read). It is what a consumer, or any other tool reading the topic, recomputes. The writer
// gets there by a shortcut (the filler's CRC once, then a table per record) and both run on
// the CPU's CRC instructions; these tests hold them to the definitions: CRC-32C bit by bit
// from its polynomial, CRC-32 by zlib.
#include "runner/envelope.h"

#include <gtest/gtest.h>

#include <zlib.h>

#include <cstring>
#include <random>
#include <string>

using namespace plimsoll;

namespace {

// CRC-32C by its definition: reflected polynomial 0x82F63B78, register and result inverted.
uint32_t crc32cBitByBit(std::string_view data, uint32_t crc = 0)
{
    crc = ~crc;
    for (const char c : data) {
        crc ^= static_cast<uint8_t>(c);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return ~crc;
}

uint32_t checksumByDefinition(std::string_view value)
{
    return crc32cBitByBit(value.substr(Envelope::kSize), crc32cBitByBit(value.substr(0, 44)));
}

uint32_t zlibChecksum(std::string_view value)
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

void storeChecksum(std::string &value, uint32_t crc)
{
    for (int i = 0; i < 4; ++i)
        value[size_t(44 + i)] = char((crc >> (8 * i)) & 0xff);
}

TEST(Envelope, ChecksumIsCrc32cOfTheValueWithoutItsOwnField)
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
            EXPECT_EQ(uint8_t(value[4]), 2);
            EXPECT_EQ(storedChecksum(value), checksumByDefinition(value));
            Envelope read;
            ASSERT_EQ(readEnvelope(value, true, read), Envelope::Check::Ok);
            EXPECT_EQ(read.version, 2);
            EXPECT_EQ(read.sequence, sequence);
            EXPECT_EQ(read.scheduledNs, scheduled);
            EXPECT_EQ(read.producerId, 7u);
            EXPECT_EQ(read.runId, runId);
        }
    }
}

TEST(Envelope, TheChecksumsMatchTheirStandardsCheckValues)
{
    // The check values of the CRC catalogue ("123456789"), and random data of every length
    // up to two folding blocks against the definitions, continued from a previous CRC.
    EXPECT_EQ(crc32cOf("123456789", 9), 0xE3069283u);
    EXPECT_EQ(crc32Of("123456789", 9), 0xCBF43926u);
    std::mt19937 random(7);
    std::string data(600, '\0');
    for (char &c : data)
        c = char(random());
    for (size_t length = 0; length <= data.size(); length += (length < 80 ? 1 : 37)) {
        const std::string_view part(data.data(), length);
        EXPECT_EQ(crc32cOf(part.data(), length, 0x1234u), crc32cBitByBit(part, 0x1234u)) << length;
        EXPECT_EQ(crc32Of(part.data(), length, 0x1234u),
                  uint32_t(crc32(0x1234u, reinterpret_cast<const Bytef *>(part.data()), uInt(length))))
            << length;
    }
}

TEST(Envelope, VersionOneValuesWithZlibsCrc32AreStillRead)
{
    std::array<uint8_t, 16> runId{};
    runId[3] = 9;
    EnvelopeWriter writer(runId, 3, 1024);
    std::string old(writer.write(77, 5'000'000));
    old[4] = 1; // what a producer before version 2 wrote: the same layout, zlib's CRC-32
    storeChecksum(old, zlibChecksum(old));
    Envelope read;
    ASSERT_EQ(readEnvelope(old, true, read), Envelope::Check::Ok);
    EXPECT_EQ(read.version, 1);
    EXPECT_EQ(read.sequence, 77u);
    EXPECT_EQ(read.producerId, 3u);
    old[600] = char(old[600] ^ 1);
    EXPECT_EQ(readEnvelope(old, true, read), Envelope::Check::BadChecksum);

    // A version-2 value carrying a version-1 checksum (or the reverse) fails: the version
    // decides which CRC is checked.
    std::string mixed(writer.write(78, 5'000'001));
    storeChecksum(mixed, zlibChecksum(mixed));
    EXPECT_EQ(readEnvelope(mixed, true, read), Envelope::Check::BadChecksum);
    for (const uint8_t unknown : {uint8_t(0), uint8_t(3), uint8_t(255)}) {
        std::string future(writer.write(79, 0));
        future[4] = char(unknown);
        EXPECT_EQ(readEnvelope(future, false, read), Envelope::Check::BadVersion) << int(unknown);
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
