#pragma once
// The byte layer of HdrHistogram's encodings, kept apart from the bucket math: big-endian
// headers, the V0/V1 fixed-width and V2 ZigZag LEB128 count payloads, and the DEFLATE
// wrapper. Cookies carry the word size in bits 4-7; the base cookie is cookie & ~0xf0.

#include <cstddef>
#include <cstdint>
#include <functional>
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

// Walks the payload: visit(count, 0) for one counts slot, visit(0, n) for a run of n empty
// slots (V2's negative counts). Stops and returns false when visit returns false or the
// payload is malformed (error set).
bool forEachCount(const Decoded &decoded, const std::function<bool(int64_t, int64_t)> &visit,
                  std::string *error);

// The V2 encoding of counts[0..n): header with cookie 0x1c849313, ZigZag LEB128 payload,
// runs of two or more zeros written as their negated length.
std::string encodeV2(const std::vector<int64_t> &counts, int significantDigits, int64_t lowest,
                     int64_t highest);

// Wraps an encoding in the compressed form: cookie 0x1c849314, int32 length, zlib stream.
std::string compress(const std::string &encoding);

// Appends v as ZigZag LEB128 (at most 9 bytes; the ninth carries 8 bits).
void putZigZag(std::string &out, int64_t v);

} // namespace plimsoll::hdrcodec
