#include "model/core/hdrhistogram.h"

#include "model/core/hdrhistogramcodec.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace plimsoll {

HdrHistogram::HdrHistogram(int64_t lowestDiscernibleValue, int64_t highestTrackableValue,
                           int significantDigits)
    : m_lowest(lowestDiscernibleValue), m_highest(highestTrackableValue),
      m_digits(significantDigits)
{
    if (m_lowest < 1)
        throw std::invalid_argument("HdrHistogram: lowest discernible value must be >= 1");
    if (m_highest < 2 * m_lowest)
        throw std::invalid_argument("HdrHistogram: highest trackable value must be >= 2 * lowest");
    if (m_digits < 1 || m_digits > 5)
        throw std::invalid_argument("HdrHistogram: significant digits must be 1..5");

    // The sub-bucket count is the smallest power of two that resolves 2 * 10^digits
    // distinct values, so each bucket keeps `digits` decimal digits of precision.
    const int64_t largestSingleUnitResolution = 2 * static_cast<int64_t>(std::pow(10, m_digits));
    const int subBucketCountMagnitude =
        static_cast<int>(std::ceil(std::log2(static_cast<double>(largestSingleUnitResolution))));
    m_subBucketHalfCountMagnitude = std::max(subBucketCountMagnitude, 1) - 1;
    m_unitMagnitude = static_cast<int>(std::floor(std::log2(static_cast<double>(m_lowest))));
    m_subBucketCount = int64_t{1} << (m_subBucketHalfCountMagnitude + 1);
    m_subBucketHalfCount = m_subBucketCount / 2;
    m_subBucketMask = (m_subBucketCount - 1) << m_unitMagnitude;
    if (m_unitMagnitude + m_subBucketHalfCountMagnitude > 61)
        throw std::invalid_argument("HdrHistogram: lowest value too large for the precision");
    m_leadingZeroCountBase = 64 - m_unitMagnitude - m_subBucketHalfCountMagnitude - 1;

    // Buckets double in width; add them until the range covers highestTrackableValue.
    int64_t smallestUntrackable = m_subBucketCount << m_unitMagnitude;
    int buckets = 1;
    while (smallestUntrackable <= m_highest) {
        if (smallestUntrackable > INT64_MAX / 2) {
            ++buckets;
            break;
        }
        smallestUntrackable <<= 1;
        ++buckets;
    }
    m_bucketCount = buckets;
    m_countsLength = static_cast<size_t>((m_bucketCount + 1) * m_subBucketHalfCount);
    m_counts.assign(m_countsLength, 0);
}

bool HdrHistogram::recordCorrected(int64_t value, int64_t expectedInterval)
{
    if (!record(value))
        return false;
    if (expectedInterval <= 0)
        return true;
    for (int64_t missing = value - expectedInterval; missing >= expectedInterval;
         missing -= expectedInterval)
        record(missing);
    return true;
}

bool HdrHistogram::add(const HdrHistogram &other)
{
    const bool sameLayout = other.m_unitMagnitude == m_unitMagnitude &&
                            other.m_subBucketHalfCountMagnitude == m_subBucketHalfCountMagnitude;
    bool all = true;
    if (sameLayout && other.m_countsLength <= m_countsLength) {
        // Only up to other's largest recorded value: every count above it is zero. An interval
        // histogram of millisecond latencies fills the first third of an hour-wide layout, so
        // merging a run's intervals reads a third of the memory.
        const size_t used = other.m_minValue != INT64_MAX
                                ? std::min(other.m_countsLength, other.countsIndex(other.m_maxValue) + 1)
                                : 0;
        for (size_t i = 0; i < used; ++i)
            m_counts[i] += other.m_counts[i];
        m_totalCount += other.m_totalCount;
        if (other.m_totalCount > 0) {
            m_maxValue = std::max(m_maxValue, other.m_maxValue);
            m_minValue = std::min(m_minValue, other.m_minValue);
        }
        return true;
    }
    // Re-record each bucket at its lowest value: the same bucket when layouts agree, the nearest
    // covering bucket otherwise. forEachRecorded's loop written out: merging a log's intervals
    // calls this once per interval, and the std::function call per bucket cost a fifth of it.
    if (other.m_totalCount == 0)
        return true;
    const size_t limit = other.countsIndexLimitForMax();
    for (size_t i = 0; i < limit; ++i)
        if (other.m_counts[i] != 0 && !record(other.valueFromIndex(i), other.m_counts[i]))
            all = false;
    return all;
}

void HdrHistogram::reset()
{
    std::fill(m_counts.begin(), m_counts.end(), 0);
    m_totalCount = 0;
    m_maxValue = 0;
    m_minValue = INT64_MAX;
}

int HdrHistogram::bucketIndex(int64_t value) const
{
    return m_leadingZeroCountBase - std::countl_zero(static_cast<uint64_t>(value | m_subBucketMask));
}

int64_t HdrHistogram::valueFromIndex(size_t index) const
{
    int bucket = static_cast<int>(index >> m_subBucketHalfCountMagnitude) - 1;
    int64_t subBucket =
        static_cast<int64_t>(index & static_cast<size_t>(m_subBucketHalfCount - 1)) +
        m_subBucketHalfCount;
    if (bucket < 0) {
        subBucket -= m_subBucketHalfCount;
        bucket = 0;
    }
    if (bucket + m_unitMagnitude + 64 - std::countl_zero(static_cast<uint64_t>(subBucket)) > 63)
        return -1; // beyond int64: only reachable from corrupt encodings
    return subBucket << (bucket + m_unitMagnitude);
}

int64_t HdrHistogram::sizeOfEquivalentRange(int64_t value) const
{
    const int bucket = bucketIndex(value);
    const int64_t subBucket = value >> (bucket + m_unitMagnitude);
    const int adjusted = subBucket >= m_subBucketCount ? bucket + 1 : bucket;
    return int64_t{1} << (m_unitMagnitude + adjusted);
}

int64_t HdrHistogram::lowestEquivalentValue(int64_t value) const
{
    const int bucket = bucketIndex(value);
    const int64_t subBucket = value >> (bucket + m_unitMagnitude);
    return subBucket << (bucket + m_unitMagnitude);
}

int64_t HdrHistogram::highestEquivalentValue(int64_t value) const
{
    return lowestEquivalentValue(value) + sizeOfEquivalentRange(value) - 1;
}

int64_t HdrHistogram::medianEquivalentValue(int64_t value) const
{
    return lowestEquivalentValue(value) + (sizeOfEquivalentRange(value) >> 1);
}

int64_t HdrHistogram::valueAtPercentile(double percentile) const
{
    if (m_totalCount == 0)
        return 0;
    const double requested = std::clamp(percentile, 0.0, 100.0);
    const int64_t target = std::max<int64_t>(
        static_cast<int64_t>(requested / 100.0 * static_cast<double>(m_totalCount) + 0.5), 1);
    int64_t cumulative = 0;
    for (size_t i = 0; i < m_countsLength; ++i) {
        cumulative += m_counts[i];
        if (cumulative >= target) {
            const int64_t value = valueFromIndex(i);
            return requested == 0.0 ? lowestEquivalentValue(value) : highestEquivalentValue(value);
        }
    }
    return max();
}

double HdrHistogram::mean() const
{
    if (m_totalCount == 0)
        return 0.0;
    double sum = 0.0;
    forEachRecorded([&](const Bucket &b) {
        sum += static_cast<double>(medianEquivalentValue(b.lowestValue)) *
               static_cast<double>(b.count);
    });
    return sum / static_cast<double>(m_totalCount);
}

double HdrHistogram::stdDeviation() const
{
    if (m_totalCount == 0)
        return 0.0;
    const double m = mean();
    double squares = 0.0;
    forEachRecorded([&](const Bucket &b) {
        const double d = static_cast<double>(medianEquivalentValue(b.lowestValue)) - m;
        squares += d * d * static_cast<double>(b.count);
    });
    return std::sqrt(squares / static_cast<double>(m_totalCount));
}

int64_t HdrHistogram::max() const
{
    return m_totalCount == 0 ? 0 : highestEquivalentValue(m_maxValue);
}

int64_t HdrHistogram::min() const
{
    return m_totalCount == 0 ? 0 : lowestEquivalentValue(m_minValue);
}

void HdrHistogram::forEachRecorded(const std::function<void(const Bucket &)> &visit) const
{
    if (m_totalCount == 0)
        return;
    const size_t limit = std::min(countsIndex(m_maxValue) + 1, m_countsLength);
    for (size_t i = 0; i < limit; ++i) {
        if (m_counts[i] == 0)
            continue;
        const int64_t low = valueFromIndex(i);
        visit(Bucket{low, highestEquivalentValue(low), m_counts[i]});
    }
}

size_t HdrHistogram::countsIndexLimitForMax() const
{
    return std::min(countsIndex(m_maxValue) + 1, m_countsLength);
}

std::string HdrHistogram::encode() const
{
    std::vector<int64_t> counts(m_counts.begin(),
                                m_counts.begin() + static_cast<ptrdiff_t>(countsIndexLimitForMax()));
    return hdrcodec::encodeV2(counts, m_digits, m_lowest, m_highest);
}

std::string HdrHistogram::encodeCompressed() const
{
    return hdrcodec::compress(encode());
}

std::optional<HdrHistogram> HdrHistogram::decode(std::string_view bytes, std::string *error)
{
    std::optional<HdrHistogram> made;
    if (!decodeInto(bytes, made, error))
        return std::nullopt;
    return made;
}

bool HdrHistogram::decodeInto(std::string_view bytes, std::optional<HdrHistogram> &made,
                              std::string *error)
{
    hdrcodec::Decoded decoded;
    if (!hdrcodec::decode(bytes, kMaxDecodedBytes, decoded, error))
        return false;
    auto fail = [&](const std::string &message) {
        if (error)
            *error = message;
        return false;
    };
    if (decoded.significantDigits < 1 || decoded.significantDigits > 5)
        return fail("significant digits " + std::to_string(decoded.significantDigits) +
                    " outside 1..5");
    const int64_t lowest = std::max<int64_t>(decoded.lowest, 1);
    if (decoded.highest / 2 < lowest) // not highest < 2 * lowest: that overflows (fuzz/)
        return fail("highest trackable value " + std::to_string(decoded.highest) +
                    " below twice the lowest");
    if (made && made->m_lowest == lowest && made->m_highest == decoded.highest &&
        made->m_digits == decoded.significantDigits) {
        // Only decodeInto fills `made`, every count it adds raising the max: the counts past
        // the max's index are zero already.
        if (made->m_minValue != INT64_MAX)
            std::fill_n(made->m_counts.begin(), made->countsIndexLimitForMax(), 0);
        made->m_totalCount = 0;
        made->m_maxValue = 0;
        made->m_minValue = INT64_MAX;
    } else {
        // The constructor throws for parameters it cannot honour (a lowest value too large for
        // the precision); decode() promises a refusal instead (found by fuzz/).
        try {
            made.emplace(lowest, decoded.highest, decoded.significantDigits);
        } catch (const std::invalid_argument &e) {
            return fail(e.what());
        }
    }
    HdrHistogram &h = *made;
    // Checked and kept once per histogram rather than per count: counts arrive in increasing
    // index, so the min and max are the first and last counted slots' values, and an index is
    // beyond range from where valueFromIndex passes int64 (bucket + unit magnitude + the
    // sub-bucket's bits > 63) or where the counts end.
    const size_t limit =
        std::min(h.m_countsLength, size_t(64 - h.m_unitMagnitude - h.m_subBucketHalfCountMagnitude)
                                       << h.m_subBucketHalfCountMagnitude);
    constexpr size_t kNone = SIZE_MAX;
    size_t index = 0, first = kNone, last = kNone;
    std::string runError;
    const bool ok = hdrcodec::forEachCount(
        decoded,
        [&](int64_t count, int64_t zeros) {
            if (zeros > 0) {
                if (static_cast<uint64_t>(zeros) > h.m_countsLength - index) {
                    runError = "a run of zero counts passes the histogram's range";
                    return false;
                }
                index += static_cast<size_t>(zeros);
                return true;
            }
            if (count < 0) {
                runError = "negative count at index " + std::to_string(index);
                return false;
            }
            if (count > 0) {
                if (index >= limit) {
                    runError = "count at index " + std::to_string(index) +
                               " beyond the histogram's range";
                    return false;
                }
                h.m_counts[index] += count;
                h.m_totalCount += count;
                first = first == kNone ? index : first;
                last = index;
            }
            ++index;
            return true;
        },
        &runError);
    // Also after a refusal: decodeInto's reuse clears the counts up to the max.
    if (last != kNone) {
        h.m_minValue = std::min(h.m_minValue, h.valueFromIndex(first));
        h.m_maxValue = std::max(h.m_maxValue, h.valueFromIndex(last));
    }
    if (!ok)
        return fail(runError);
    return true;
}

} // namespace plimsoll
