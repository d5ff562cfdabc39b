// The HdrHistogram decoder: the byte layer (hdrcodec::decode, forEachCount) and the
// histogram built from it (HdrHistogram::decode), as .hlog lines and memtier JSON feed them.
//
// The first byte picks how the rest is read, so one corpus reaches every path:
//   '0' (and 3, 6, …): the rest is an encoding as stored, compressed or not;
//   '1': the rest is base64 text, as an interval log line carries it;
//   '2': the rest is an uncompressed encoding, wrapped with hdrcodec::compress() first, so
//        mutations of header and payload also travel through the inflate path.

#include "fuzz/fuzztarget.h"
#include "model/core/hdrhistogram.h"
#include "model/core/hdrhistogramcodec.h"

#include <QByteArray>

#include <string>

namespace {
// Small enough that the fuzzer reaches the refusal with ordinary inputs; the product bound
// (64 MiB) is checked by tests/security's bomb test.
constexpr size_t kFuzzInflateBound = 1 << 20;
// The walk is linear in the number of slots; stop early so a long run of zeros cannot turn
// one input into a timeout of the harness rather than of the decoder.
constexpr int64_t kMaxVisits = 1 << 22;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace plimsoll;
    if (size == 0)
        return 0;
    const std::string rest(reinterpret_cast<const char *>(data) + 1, size - 1);
    std::string bytes;
    switch (data[0] % 3) {
    case 0:
        bytes = rest;
        break;
    case 1: {
        const QByteArray decoded = QByteArray::fromBase64(QByteArray::fromStdString(rest));
        bytes.assign(decoded.constData(), size_t(decoded.size()));
        break;
    }
    default:
        bytes = hdrcodec::compress(rest);
        break;
    }

    hdrcodec::Decoded decoded;
    std::string error;
    if (hdrcodec::decode(bytes, kFuzzInflateBound, decoded, &error)) {
        int64_t visits = 0;
        hdrcodec::forEachCount(
            decoded, [&visits](int64_t, int64_t) { return ++visits < kMaxVisits; }, &error);
    }

    if (const auto histogram = HdrHistogram::decode(bytes, &error)) {
        // What the importers read from a decoded histogram, and the round trip the
        // bench's histogram log relies on.
        (void)histogram->totalCount();
        (void)histogram->valueAtPercentile(99.0);
        (void)histogram->valueAtPercentile(100.0);
        (void)histogram->max();
        (void)histogram->mean();
        const auto again = HdrHistogram::decode(histogram->encodeCompressed(), &error);
        if (!again || again->totalCount() != histogram->totalCount())
            std::abort(); // what Plimsoll writes, Plimsoll must read back
    }
    return 0;
}
