#include "model/core/hdrhistogram.h"
#include "model/core/hdrhistogramcodec.h"
#include "support/tempdir.h"

#include <QByteArray>
#include <QFile>

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <optional>
#include <random>
#include <zlib.h>

using plimsoll::HdrHistogram;

namespace {

std::string fromBase64(const std::string &text)
{
    return QByteArray::fromBase64(QByteArray::fromStdString(text)).toStdString();
}

// The interval lines (start, length, max, base64) of an hlog in the corpus.
struct Line
{
    double max = 0;
    std::string payload;
};
std::vector<Line> corpusLines(const std::string &name)
{
    QFile f(QString::fromStdString(plimsoll::test::corpusPath(name)));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    std::vector<Line> lines;
    while (!f.atEnd()) {
        const QList<QByteArray> fields = f.readLine().trimmed().split(',');
        if (fields.size() != 4 || fields[0].startsWith('#') || fields[0].startsWith('"'))
            continue;
        lines.push_back({fields[2].toDouble(), fromBase64(fields[3].toStdString())});
    }
    return lines;
}

} // namespace

TEST(HdrHistogram, PercentilesFollowHdrSemantics)
{
    HdrHistogram h(1, 3600LL * 1000 * 1000, 3);
    for (int64_t v = 1; v <= 100000; ++v)
        ASSERT_TRUE(h.record(v));
    EXPECT_EQ(h.totalCount(), 100000);
    // 50000 lies in the buckets 32 wide (values 32768..65535 at 2048 sub-buckets): the
    // answer is the highest value of its bucket, 49984..50015.
    EXPECT_EQ(h.valueAtPercentile(50), 50015);
    EXPECT_EQ(h.valueAtPercentile(0), 1);
    EXPECT_EQ(h.valueAtPercentile(100), h.max());
    EXPECT_EQ(h.max(), 100031); // 100000 is in the 64-wide bucket 99968..100031
    EXPECT_EQ(h.min(), 1);
    EXPECT_NEAR(h.valueAtPercentile(99.9), 99900, 99900 * 1e-3);
    EXPECT_NEAR(h.mean(), 50000.5, 50000 * 1e-3);
    EXPECT_EQ(h.lowestEquivalentValue(10007), 10000);
    EXPECT_EQ(h.highestEquivalentValue(10007), 10007);
    EXPECT_EQ(h.highestEquivalentValue(2047), 2047); // unit resolution below 2048
}

TEST(HdrHistogram, RefusesValuesOutsideItsRange)
{
    HdrHistogram h(1, 1000, 2);
    EXPECT_FALSE(h.record(-1));
    EXPECT_FALSE(h.record(int64_t{1} << 40));
    EXPECT_TRUE(h.empty());
    EXPECT_THROW(HdrHistogram(0, 100, 3), std::invalid_argument);
    EXPECT_THROW(HdrHistogram(1, 100, 6), std::invalid_argument);
}

TEST(HdrHistogram, CorrectsCoordinatedOmission)
{
    HdrHistogram h(1, 1000000, 3);
    h.recordCorrected(10000, 1000); // hides requests at 9000, 8000, ... 1000
    EXPECT_EQ(h.totalCount(), 10);
    EXPECT_EQ(h.min(), 1000);
    EXPECT_EQ(h.valueAtPercentile(50), 5003); // 5000 sits in the 4-wide bucket 5000..5003
    h.recordCorrected(500, 1000); // shorter than the interval: nothing hidden
    EXPECT_EQ(h.totalCount(), 11);
}

TEST(HdrHistogram, MergesLosslesslyAcrossLayouts)
{
    HdrHistogram a(1, 1000000, 3), b(1, 1000000, 3), all(1, 1000000, 3);
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> dist(8, 1);
    for (int i = 0; i < 20000; ++i) {
        const auto v = static_cast<int64_t>(dist(rng)) % 1000000;
        (i % 2 ? a : b).record(v);
        all.record(v);
    }
    a.add(b);
    for (double p : {0.0, 50.0, 90.0, 99.0, 99.9, 100.0})
        EXPECT_EQ(a.valueAtPercentile(p), all.valueAtPercentile(p)) << p;
    EXPECT_EQ(a.totalCount(), all.totalCount());
    EXPECT_DOUBLE_EQ(a.mean(), all.mean());

    HdrHistogram wide(1, int64_t{1} << 40, 3); // different bucket count, same layout
    EXPECT_TRUE(wide.add(all));
    EXPECT_EQ(wide.valueAtPercentile(99), all.valueAtPercentile(99));
    a.reset();
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(a.valueAtPercentile(50), 0);
}

// add() reads other's counts only up to its largest recorded value (merging a run's
// intervals stays cheap): the top bucket of each part and the empty part must still merge.
TEST(HdrHistogram, MergeKeepsEachPartsTopBucket)
{
    const int64_t hour = 3600LL * 1000 * 1000;
    HdrHistogram total(1, hour, 3), low(1, hour, 3), high(1, hour, 3), empty(1, hour, 3);
    low.record(1);
    low.record(2047);
    low.record(123456, 3);
    high.record(3'000'000'000);
    empty.record(5);
    empty.reset();
    EXPECT_TRUE(total.add(low));
    EXPECT_TRUE(total.add(empty));
    EXPECT_TRUE(total.add(high));
    EXPECT_EQ(total.totalCount(), 6);
    EXPECT_EQ(total.max(), high.max());
    EXPECT_EQ(total.min(), low.min());
    EXPECT_EQ(total.valueAtPercentile(80), low.valueAtPercentile(100));
    std::vector<int64_t> counts;
    total.forEachRecorded([&](const HdrHistogram::Bucket &b) { counts.push_back(b.count); });
    EXPECT_EQ(counts, (std::vector<int64_t>{1, 1, 3, 1}));
}

TEST(HdrHistogram, EncodingRoundTrips)
{
    HdrHistogram h(1, 3600LL * 1000 * 1000 * 1000, 3);
    std::mt19937_64 rng(3);
    std::exponential_distribution<double> dist(1.0 / 2e6);
    for (int i = 0; i < 50000; ++i)
        h.record(static_cast<int64_t>(dist(rng)));
    const std::string bytes = h.encodeCompressed();
    EXPECT_EQ(uint8_t(bytes[0]), 0x1c);
    EXPECT_EQ(uint8_t(bytes[3]), 0x14); // V2 compressed cookie with the LEB128 word nibble
    std::string error;
    const auto back = HdrHistogram::decode(bytes, &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->totalCount(), h.totalCount());
    EXPECT_EQ(back->max(), h.max());
    EXPECT_EQ(back->min(), h.min());
    for (double p : {1.0, 50.0, 99.0, 99.99})
        EXPECT_EQ(back->valueAtPercentile(p), h.valueAtPercentile(p));
    const auto plain = HdrHistogram::decode(h.encode(), &error);
    ASSERT_TRUE(plain) << error;
    EXPECT_EQ(plain->valueAtPercentile(99), h.valueAtPercentile(99));
}

// The corpus log was written by HdrHistogram's Java implementation: decoding it, then
// encoding the result, must give the Java writer's bytes exactly.
TEST(HdrHistogram, DecodesJavaWrittenLogsAndReencodesTheSameBytes)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const auto lines = corpusLines("hdrhistogram/HdrHistogram__HdrHistogram__jHiccup-2.0.7S.logV2.hlog");
    ASSERT_GT(lines.size(), 50u);
    for (const Line &line : lines) {
        std::string error;
        const auto h = HdrHistogram::decode(line.payload, &error);
        ASSERT_TRUE(h) << error;
        // Interval_Max is the max in milliseconds (the histogram holds nanoseconds).
        EXPECT_DOUBLE_EQ(std::round(static_cast<double>(h->max()) / 1e3) / 1e3, line.max);
        plimsoll::hdrcodec::Decoded java;
        ASSERT_TRUE(plimsoll::hdrcodec::decode(line.payload, 1 << 20, java, &error));
        EXPECT_EQ(h->encode(), java.inflated);
    }
}

// A reader decodes each line into the histogram the line before used: what it holds after
// a large interval then a small one must be the small one alone, as decode() gives it.
TEST(HdrHistogram, DecodingIntoAReusedHistogramKeepsNothingOfTheLastOne)
{
    HdrHistogram wide(1, 3600LL * 1000 * 1000 * 1000, 3), narrow(1, 3600LL * 1000 * 1000 * 1000, 3);
    for (int64_t v = 1; v < 1'000'000'000; v = v * 3 + 7)
        wide.record(v, 5);
    narrow.record(1200);
    narrow.record(1500, 2);
    std::string error;
    std::optional<HdrHistogram> reused;
    ASSERT_TRUE(HdrHistogram::decodeInto(wide.encodeCompressed(), reused, &error)) << error;
    EXPECT_EQ(reused->max(), wide.max());
    ASSERT_TRUE(HdrHistogram::decodeInto(narrow.encodeCompressed(), reused, &error)) << error;
    EXPECT_EQ(reused->totalCount(), 3);
    EXPECT_EQ(reused->max(), narrow.max());
    EXPECT_EQ(reused->min(), narrow.min());
    EXPECT_EQ(reused->valueAtPercentile(99.9), narrow.valueAtPercentile(99.9));
    EXPECT_EQ(reused->encode(), narrow.encode());
    // A different layout is decoded into a new histogram of that layout.
    HdrHistogram coarse(1000, 1'000'000'000, 2);
    coarse.record(250'000);
    ASSERT_TRUE(HdrHistogram::decodeInto(coarse.encodeCompressed(), reused, &error)) << error;
    EXPECT_EQ(reused->significantDigits(), 2);
    EXPECT_EQ(reused->encode(), coarse.encode());
}

TEST(HdrHistogram, DecodesFixedWidthV1AndV0)
{
    HdrHistogram h(1, 100000, 2);
    h.record(3, 5);
    h.record(700, 2);
    auto put = [](std::string &out, uint64_t v, int bytes) {
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8)
            out.push_back(static_cast<char>((v >> shift) & 0xff));
    };
    std::vector<int64_t> counts;
    // The counts array by index, read back from the V2 encoding.
    plimsoll::hdrcodec::Decoded v2;
    std::string error;
    ASSERT_TRUE(plimsoll::hdrcodec::decode(h.encode(), 1 << 20, v2, &error));
    plimsoll::hdrcodec::forEachCount(v2, [&](int64_t c, int64_t z) {
        counts.insert(counts.end(), z > 0 ? z : 1, z > 0 ? 0 : c);
        return true;
    }, &error);

    std::string v1;
    put(v1, 0x1c849341, 4); // V1 encoding, 4-byte words
    put(v1, counts.size() * 4, 4);
    put(v1, 0, 4);
    put(v1, 2, 4);
    put(v1, 1, 8);
    put(v1, 100000, 8);
    put(v1, 0x3ff0000000000000ull, 8);
    for (int64_t c : counts)
        put(v1, static_cast<uint64_t>(c), 4);
    auto d1 = HdrHistogram::decode(v1, &error);
    ASSERT_TRUE(d1) << error;
    EXPECT_EQ(d1->totalCount(), 7);
    EXPECT_EQ(d1->valueAtPercentile(99), h.valueAtPercentile(99));

    std::string v0;
    put(v0, 0x1c849388, 4); // V0 encoding, 8-byte words, 32-byte header
    put(v0, 2, 4);
    put(v0, 1, 8);
    put(v0, 100000, 8);
    put(v0, 7, 8);
    for (int64_t c : counts)
        put(v0, static_cast<uint64_t>(c), 8);
    auto d0 = HdrHistogram::decode(v0, &error);
    ASSERT_TRUE(d0) << error;
    EXPECT_EQ(d0->totalCount(), 7);
    EXPECT_EQ(d0->min(), 3);
}

TEST(HdrHistogram, RefusesMalformedInputAndDecompressionBombs)
{
    std::string error;
    EXPECT_FALSE(HdrHistogram::decode("HIST", &error));
    EXPECT_FALSE(HdrHistogram::decode(std::string(64, 'x'), &error));
    EXPECT_NE(error.find("not an HdrHistogram"), std::string::npos) << error;

    HdrHistogram h(1, 1000000, 3);
    h.record(42);
    std::string truncated = h.encodeCompressed();
    truncated.resize(truncated.size() - 6);
    EXPECT_FALSE(HdrHistogram::decode(truncated, &error));

    // 65 MiB of zeros deflate to ~65 KiB: the decoder must stop at its 64 MiB limit.
    const std::string zeros(65u << 20, '\0');
    uLongf bound = compressBound(static_cast<uLong>(zeros.size()));
    std::string deflated(bound, '\0');
    ASSERT_EQ(compress2(reinterpret_cast<Bytef *>(deflated.data()), &bound,
                        reinterpret_cast<const Bytef *>(zeros.data()), zeros.size(), 9),
              Z_OK);
    deflated.resize(bound);
    std::string bomb("\x1c\x84\x93\x14", 4);
    bomb.push_back(static_cast<char>(bound >> 24));
    bomb.push_back(static_cast<char>((bound >> 16) & 0xff));
    bomb.push_back(static_cast<char>((bound >> 8) & 0xff));
    bomb.push_back(static_cast<char>(bound & 0xff));
    bomb += deflated;
    EXPECT_FALSE(HdrHistogram::decode(bomb, &error));
    EXPECT_NE(error.find("64 MiB"), std::string::npos) << error;
}

// record() sits on the bench runner's delivery path. In a Debug build it is far from its
// Release speed (about 2-3 ns); this guards against allocation or a search sneaking in.
TEST(HdrHistogram, RecordsQuickly)
{
    HdrHistogram h(1, 60LL * 1000 * 1000 * 1000, 3);
    std::vector<int64_t> values(1 << 16);
    std::mt19937_64 rng(11);
    for (auto &v : values)
        v = static_cast<int64_t>(rng() % 50000000);
    const int rounds = 40;
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r)
        for (int64_t v : values)
            h.record(v);
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
                      (rounds * static_cast<double>(values.size()));
    RecordProperty("ns_per_record", std::to_string(ns));
    EXPECT_EQ(h.totalCount(), rounds * static_cast<int64_t>(values.size()));
    EXPECT_LT(ns, 200.0);
}
