#pragma once
// Plimsoll's HdrHistogram: a high-dynamic-range histogram with fixed relative precision,
// written from the published format description (bucket math, V0/V1/V2 encodings) so that
// histograms exchange losslessly with other HdrHistogram implementations.
//
// Units are the caller's: the histogram stores integers. The bench runner records
// nanoseconds; interval logs from other tools usually hold microseconds or nanoseconds.
//
// Threading: not synchronised. record() is meant for one thread (a delivery callback);
// merge per-thread histograms with add().
//
// Precision: every value v is counted in a bucket whose width is at most
// v / 10^significantDigits (rounded to a power of two), so percentiles keep
// `significantDigits` decimal digits.

#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

class HdrHistogram
{
public:
    // lowest >= 1 (values below it are counted together with it), highest >= 2 * lowest,
    // significantDigits in 1..5. Throws std::invalid_argument otherwise: a programming error.
    HdrHistogram(int64_t lowestDiscernibleValue, int64_t highestTrackableValue,
                 int significantDigits);

    // Counts `count` occurrences of `value`. Returns false, counting nothing, for a negative
    // value or one beyond the histogram's range. Constant time, no allocation: safe on a hot
    // path (about 2-3 ns per call in a Release build).
    bool record(int64_t value, int64_t count = 1)
    {
        if (value < 0) [[unlikely]]
            return false;
        const size_t index = countsIndex(value);
        if (index >= m_countsLength) [[unlikely]]
            return false;
        m_counts[index] += count;
        m_totalCount += count;
        if (value > m_maxValue)
            m_maxValue = value;
        if (value < m_minValue)
            m_minValue = value;
        return true;
    }

    // Coordinated-omission correction: a value longer than the expected interval between
    // requests hid the requests that would have been sent meanwhile; count them too, at
    // value - k * expectedInterval, as HdrHistogram's recordValueWithExpectedInterval does.
    bool recordCorrected(int64_t value, int64_t expectedInterval);

    // Adds every count of `other` (histograms merge losslessly; percentiles never average).
    // Returns false when some of other's values fall outside this histogram's range; those
    // are skipped.
    bool add(const HdrHistogram &other);

    void reset();

    // HdrHistogram's semantics: the highest value equivalent to the bucket where the
    // cumulative count reaches round(p/100 * total) (at least 1); p=0 gives the lowest
    // equivalent value of the first recorded bucket. 0 for an empty histogram.
    int64_t valueAtPercentile(double percentile) const;
    // Mean of the buckets' median-equivalent values, as HdrHistogram computes it.
    double mean() const;
    double stdDeviation() const;
    int64_t max() const; // highest equivalent value of the largest recorded value
    int64_t min() const; // lowest equivalent value of the smallest recorded value
    int64_t totalCount() const { return m_totalCount; }
    bool empty() const { return m_totalCount == 0; }

    int64_t lowestDiscernibleValue() const { return m_lowest; }
    int64_t highestTrackableValue() const { return m_highest; }
    int significantDigits() const { return m_digits; }

    // Bucket edges: every value in [lowestEquivalentValue(v), highestEquivalentValue(v)]
    // is counted together with v.
    int64_t lowestEquivalentValue(int64_t value) const;
    int64_t highestEquivalentValue(int64_t value) const;
    int64_t medianEquivalentValue(int64_t value) const;

    struct Bucket
    {
        int64_t lowestValue = 0;  // lowest value counted in this bucket
        int64_t highestValue = 0; // highest value counted in this bucket
        int64_t count = 0;
    };
    // Calls `visit` for every non-empty bucket in increasing value order.
    void forEachRecorded(const std::function<void(const Bucket &)> &visit) const;

    // V2 encoding (ZigZag LEB128 counts, 40-byte header), DEFLATE-compressed with the
    // 0x1c849314 cookie: what interval logs and memtier's JSON carry as base64.
    std::string encodeCompressed() const;
    // The uncompressed V2 encoding (cookie 0x1c849313).
    std::string encode() const;

    // Decodes a V0, V1 or V2 encoding, compressed or not. Refuses (nullopt and a message in
    // *error) malformed input, DoubleHistogram encodings, and compressed input that inflates
    // beyond kMaxDecodedBytes, so a hostile file cannot exhaust memory.
    static std::optional<HdrHistogram> decode(std::string_view bytes, std::string *error);
    // decode() into `into` (empty, or as an earlier decodeInto left it), reusing its counts when
    // it has the encoding's layout: a reader of one histogram per line then neither allocates
    // nor clears the whole range per line. False, with *error set and `into` unspecified,
    // where decode() refuses.
    static bool decodeInto(std::string_view bytes, std::optional<HdrHistogram> &into,
                           std::string *error);
    static constexpr size_t kMaxDecodedBytes = 64u << 20; // 64 MiB

private:
    size_t countsIndex(int64_t value) const
    {
        const int bucket = m_leadingZeroCountBase - std::countl_zero(static_cast<uint64_t>(
                                                        value | m_subBucketMask));
        const int64_t subBucket = value >> (bucket + m_unitMagnitude);
        return static_cast<size_t>(((bucket + 1) << m_subBucketHalfCountMagnitude) +
                                   (subBucket - m_subBucketHalfCount));
    }
    int bucketIndex(int64_t value) const;
    int64_t valueFromIndex(size_t index) const;
    int64_t sizeOfEquivalentRange(int64_t value) const;
    size_t countsIndexLimitForMax() const;

    int64_t m_lowest;
    int64_t m_highest;
    int m_digits;
    int m_unitMagnitude = 0;
    int m_subBucketHalfCountMagnitude = 0;
    int64_t m_subBucketCount = 0;
    int64_t m_subBucketHalfCount = 0;
    int64_t m_subBucketMask = 0;
    int m_leadingZeroCountBase = 0;
    int m_bucketCount = 0;
    size_t m_countsLength = 0;
    std::vector<int64_t> m_counts;
    int64_t m_totalCount = 0;
    int64_t m_maxValue = 0;         // largest value recorded (raw), 0 when empty
    int64_t m_minValue = INT64_MAX; // smallest value recorded (raw), INT64_MAX when empty
};

} // namespace plimsoll
