#include "model/trends/downsample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using plimsoll::lttbIndices;

namespace {

struct Series
{
    std::vector<double> x, y;
};

Series noisy(std::size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 1);
    Series s;
    for (std::size_t i = 0; i < n; ++i) {
        s.x.push_back(double(i) * 600);
        s.y.push_back(100 + 10 * std::sin(double(i) / 1000) + noise(rng));
    }
    return s;
}

} // namespace

TEST(Downsample, ShortSeriesAreKeptWhole)
{
    const Series s = noisy(500, 1);
    const auto kept = lttbIndices(s.x, s.y, 500);
    ASSERT_EQ(kept.size(), 500u);
    for (std::size_t i = 0; i < kept.size(); ++i)
        EXPECT_EQ(kept[i], i);
    EXPECT_TRUE(lttbIndices({}, {}, 10).empty());
}

TEST(Downsample, LongSeriesShrinkToTheThresholdKeepingEnds)
{
    const Series s = noisy(1'000'000, 2);
    const auto kept = lttbIndices(s.x, s.y, 2000);
    EXPECT_GE(kept.size(), 2000u);
    EXPECT_LE(kept.size(), 2002u);
    EXPECT_EQ(kept.front(), 0u);
    EXPECT_EQ(kept.back(), 999'999u);
    EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
    EXPECT_EQ(std::adjacent_find(kept.begin(), kept.end()), kept.end()) << "an index twice";
}

TEST(Downsample, SpikesAndDipsStayVisible)
{
    Series s = noisy(200'000, 3);
    // A lone dip and a lone spike anywhere in the series, plus a dip of a single point that is
    // neither the global minimum nor in an otherwise special place.
    s.y[123'457] = 10;   // the global minimum
    s.y[54'321] = 400;   // the global maximum
    s.y[170'001] = 40;   // a local dip, far below its bucket's noise
    const auto kept = lttbIndices(s.x, s.y, 1000);
    for (std::size_t index : {123'457u, 54'321u, 170'001u})
        EXPECT_TRUE(std::binary_search(kept.begin(), kept.end(), index)) << index;
}

TEST(Downsample, ExtremesAreKeptEvenWhereLttbWouldNot)
{
    // A flat line with its extremes in one bucket beside a steep slope LTTB prefers.
    std::vector<double> x, y;
    for (int i = 0; i < 100; ++i) {
        x.push_back(i);
        y.push_back(i < 50 ? 0 : 1000 * (i - 50));
    }
    y[10] = -0.001; // the minimum, barely below the line
    const auto kept = lttbIndices(x, y, 5);
    EXPECT_TRUE(std::binary_search(kept.begin(), kept.end(), std::size_t{10}));
    EXPECT_TRUE(std::binary_search(kept.begin(), kept.end(), std::size_t{99}));
    EXPECT_LE(kept.size(), 7u);
}
