#pragma once
// The byte layer of HdrHistogram's encodings, kept apart from the bucket math: big-endian
// headers, the V0/V1 fixed-width and V2 ZigZag LEB128 count payloads, and the DEFLATE
// wrapper. Cookies carry the word size in bits 4-7; the base cookie is cookie & ~0xf0.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll::hdrcodec {

inline constexpr uint32_t kV0EncodingCookie = 0x1c849308;
inline constexpr uint32_t kV0CompressedCookie = 0x1c849309;
inline constexpr uint32_t kV1EncodingCookie = 0x1c849301;
inline constexpr uint32_t kV1CompressedCookie = 0x1c849302;
inline constexpr uint32_t kV2EncodingCookie = 0x1c849303;
inline constexpr uint32_t kV2CompressedCookie = 0x1c849304;
inline constexpr uint32_t kDoubleEncodingCookie = 0x0c72124e;
inline constexpr uint32_t kDoubleCompressedCookie = 0x0c72124f;
inline constexpr size_t kV2HeaderSize = 40;

// A decoded header and the payload it introduces.
struct Decoded
{
    int version = 2;       // 0, 1 or 2
    int wordSize = 9;      // bytes per count: 2, 4 or 8 (V0/V1); 9 marks V2's LEB128
    int significantDigits = 0;
    int64_t lowest = 1;
    int64_t highest = 2;
    std::string inflated;  // the uncompressed encoding (header + payload)
    size_t payloadOffset = 0;
    size_t payloadLength = 0;
};

// Parses a compressed or uncompressed encoding. Compressed input that inflates past
// maxBytes is refused.
bool decode(std::string_view bytes, size_t maxBytes, Decoded &out, std::string *error);

namespace detail {
inline uint32_t be32(std::string_view b, size_t at)
{
    return (uint32_t(uint8_t(b[at])) << 24) | (uint32_t(uint8_t(b[at + 1])) << 16) |
           (uint32_t(uint8_t(b[at + 2])) << 8) | uint32_t(uint8_t(b[at + 3]));
}
inline int64_t be64(std::string_view b, size_t at)
{
    return static_cast<int64_t>((uint64_t(be32(b, at)) << 32) | be32(b, at + 4));
}
bool failWith(std::string *error, const std::string &message); // false, *error set
} // namespace detail

// Walks the payload: visit(count, 0) for one counts slot, visit(0, n) for a run of n empty
// slots (V2's negative counts). Stops and returns false when visit returns false or the
// payload is malformed (error set). A template, so that `visit` is inlined: an interval log
// decodes one histogram a line, and a call through std::function per slot was a fifth of that.
template <class Visit>
bool forEachCount(const Decoded &decoded, Visit &&visit, std::string *error)
{
    const std::string_view p =
        std::string_view(decoded.inflated).substr(decoded.payloadOffset, decoded.payloadLength);
    size_t pos = 0;
    if (decoded.wordSize == 9) {
        while (pos < p.size()) {
            uint64_t raw = 0;
            for (int i = 0; i < 9; ++i) {
                if (pos >= p.size())
                    return detail::failWith(error, "histogram payload ends inside a count");
                const uint8_t byte = static_cast<uint8_t>(p[pos++]);
                if (i < 8) {
                    raw |= uint64_t(byte & 0x7f) << (7 * i);
                    if (!(byte & 0x80))
                        break;
                } else {
                    raw |= uint64_t(byte) << 56;
                }
            }
            const int64_t value = static_cast<int64_t>((raw >> 1) ^ (~(raw & 1) + 1));
            if (value == INT64_MIN)
                return detail::failWith(error, "histogram payload holds an impossible zero run");
            const bool more = value < 0 ? visit(int64_t(0), -value) : visit(value, int64_t(0));
            if (!more)
                return false;
        }
        return true;
    }
    const size_t word = static_cast<size_t>(decoded.wordSize);
    for (; pos + word <= p.size(); pos += word) {
        int64_t count = 0;
        if (word == 2)
            count = static_cast<int16_t>((uint8_t(p[pos]) << 8) | uint8_t(p[pos + 1]));
        else if (word == 4)
            count = static_cast<int32_t>(detail::be32(p, pos));
        else
            count = detail::be64(p, pos);
        if (!visit(count, int64_t(0)))
            return false;
    }
    return true;
}

// The V2 encoding of counts[0..n): header with cookie 0x1c849313, ZigZag LEB128 payload,
// runs of two or more zeros written as their negated length.
std::string encodeV2(const std::vector<int64_t> &counts, int significantDigits, int64_t lowest,
                     int64_t highest);

// Wraps an encoding in the compressed form: cookie 0x1c849314, int32 length, zlib stream.
std::string compress(const std::string &encoding);

// Appends v as ZigZag LEB128 (at most 9 bytes; the ninth carries 8 bits).
void putZigZag(std::string &out, int64_t v);

} // namespace plimsoll::hdrcodec
