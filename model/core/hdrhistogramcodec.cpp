#include "model/core/hdrhistogramcodec.h"

#include <zlib.h>

#include <cstdio>

namespace plimsoll::hdrcodec {

namespace detail {

bool failWith(std::string *error, const std::string &message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace detail

namespace {

using detail::be32;
using detail::be64;
using detail::failWith;

void putBe32(std::string &out, uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(static_cast<char>((v >> shift) & 0xff));
}

void putBe64(std::string &out, uint64_t v)
{
    putBe32(out, static_cast<uint32_t>(v >> 32));
    putBe32(out, static_cast<uint32_t>(v));
}


std::string hexCookie(uint32_t cookie)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", cookie);
    return text;
}

// Inflates a zlib stream, refusing output beyond maxBytes (a decompression bomb).
bool inflateBounded(std::string_view in, size_t maxBytes, std::string &out, std::string *error)
{
    z_stream zs{};
    if (inflateInit(&zs) != Z_OK)
        return failWith(error, "zlib could not start inflating");
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    out.clear();
    char chunk[16384];
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        zs.next_out = reinterpret_cast<Bytef *>(chunk);
        zs.avail_out = sizeof chunk;
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            inflateEnd(&zs);
            return failWith(error, rc == Z_BUF_ERROR ? "compressed histogram is truncated"
                                                     : "compressed histogram is corrupt (zlib)");
        }
        const size_t produced = sizeof chunk - zs.avail_out;
        if (out.size() + produced > maxBytes) {
            inflateEnd(&zs);
            return failWith(error, "compressed histogram inflates past " +
                                       std::to_string(maxBytes >> 20) + " MiB; refused");
        }
        out.append(chunk, produced);
    }
    inflateEnd(&zs);
    return true;
}

bool parseEncoding(Decoded &out, std::string *error)
{
    const std::string_view b = out.inflated;
    if (b.size() < 8)
        return failWith(error, "histogram encoding shorter than its header");
    const uint32_t cookie = be32(b, 0);
    const uint32_t base = cookie & ~0xf0u;
    if (base == kV2EncodingCookie || base == kV1EncodingCookie) {
        out.version = base == kV2EncodingCookie ? 2 : 1;
        if (b.size() < kV2HeaderSize)
            return failWith(error, "histogram encoding shorter than its 40-byte header");
        const uint32_t payloadLength = be32(b, 4);
        if (be32(b, 8) != 0)
            return failWith(error, "histogram with a normalizing index offset is not supported");
        out.significantDigits = static_cast<int>(be32(b, 12));
        out.lowest = be64(b, 16);
        out.highest = be64(b, 24);
        out.payloadOffset = kV2HeaderSize;
        if (payloadLength > b.size() - kV2HeaderSize)
            return failWith(error, "histogram payload length " + std::to_string(payloadLength) +
                                       " runs past the end of the encoding");
        out.payloadLength = payloadLength;
    } else if (base == kV0EncodingCookie) {
        out.version = 0;
        if (b.size() < 32)
            return failWith(error, "V0 histogram encoding shorter than its 32-byte header");
        out.significantDigits = static_cast<int>(be32(b, 4));
        out.lowest = be64(b, 8);
        out.highest = be64(b, 16);
        out.payloadOffset = 32;
        out.payloadLength = b.size() - 32;
    } else if (base == kDoubleEncodingCookie) {
        return failWith(error, "DoubleHistogram encodings are not supported");
    } else {
        return failWith(error, "not an HdrHistogram encoding (cookie " + hexCookie(cookie) + ")");
    }
    out.wordSize = out.version == 2 ? 9 : static_cast<int>(((cookie & 0xf0) >> 4) & 0xe);
    if (out.wordSize != 2 && out.wordSize != 4 && out.wordSize != 8 && out.wordSize != 9)
        return failWith(error, "histogram encoding with word size " +
                                   std::to_string(out.wordSize) + " is not supported");
    return true;
}

} // namespace

bool decode(std::string_view bytes, size_t maxBytes, Decoded &out, std::string *error)
{
    if (bytes.size() < 8)
        return failWith(error, "histogram shorter than 8 bytes");
    const uint32_t cookie = be32(bytes, 0);
    const uint32_t base = cookie & ~0xf0u;
    if (base == kV2CompressedCookie || base == kV1CompressedCookie ||
        base == kV0CompressedCookie) {
        const uint32_t length = be32(bytes, 4);
        if (length > bytes.size() - 8)
            return failWith(error, "compressed histogram length " + std::to_string(length) +
                                       " runs past the end of the input");
        if (!inflateBounded(bytes.substr(8, length), maxBytes, out.inflated, error))
            return false;
    } else if (base == kDoubleCompressedCookie) {
        return failWith(error, "DoubleHistogram encodings are not supported");
    } else {
        if (bytes.size() > maxBytes)
            return failWith(error, "histogram encoding larger than the limit");
        out.inflated.assign(bytes);
    }
    return parseEncoding(out, error);
}

void putZigZag(std::string &out, int64_t v)
{
    uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
    for (int i = 0; i < 8; ++i) {
        if (z < 0x80) {
            out.push_back(static_cast<char>(z));
            return;
        }
        out.push_back(static_cast<char>((z & 0x7f) | 0x80));
        z >>= 7;
    }
    out.push_back(static_cast<char>(z)); // the ninth byte carries the last 8 bits
}

std::string encodeV2(const std::vector<int64_t> &counts, int significantDigits, int64_t lowest,
                     int64_t highest)
{
    std::string payload;
    for (size_t i = 0; i < counts.size();) {
        const int64_t count = counts[i++];
        if (count != 0) {
            putZigZag(payload, count);
            continue;
        }
        int64_t zeros = 1;
        while (i < counts.size() && counts[i] == 0) {
            ++zeros;
            ++i;
        }
        putZigZag(payload, zeros > 1 ? -zeros : 0);
    }
    std::string out;
    out.reserve(kV2HeaderSize + payload.size());
    putBe32(out, kV2EncodingCookie | 0x10);
    putBe32(out, static_cast<uint32_t>(payload.size()));
    putBe32(out, 0); // normalizing index offset
    putBe32(out, static_cast<uint32_t>(significantDigits));
    putBe64(out, static_cast<uint64_t>(lowest));
    putBe64(out, static_cast<uint64_t>(highest));
    putBe64(out, 0x3ff0000000000000ull); // integer-to-double conversion ratio 1.0
    out += payload;
    return out;
}

std::string compress(const std::string &encoding)
{
    uLongf bound = compressBound(static_cast<uLong>(encoding.size()));
    std::string deflated(bound, '\0');
    compress2(reinterpret_cast<Bytef *>(deflated.data()), &bound,
              reinterpret_cast<const Bytef *>(encoding.data()),
              static_cast<uLong>(encoding.size()), Z_BEST_COMPRESSION);
    deflated.resize(bound);
    std::string out;
    putBe32(out, kV2CompressedCookie | 0x10);
    putBe32(out, static_cast<uint32_t>(deflated.size()));
    out += deflated;
    return out;
}

} // namespace plimsoll::hdrcodec
