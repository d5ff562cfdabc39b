#include "model/trends/changepoints.h"
#include "model/trends/trendchanges.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace plimsoll;

namespace {

// Normal noise from a fixed seed, so every run of the suite sees the same series.
std::vector<double> noisy(std::vector<std::pair<std::size_t, double>> segments, double sigma,
                          unsigned seed = 7)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    std::vector<double> out;
    for (const auto &[length, mean] : segments)
        for (std::size_t i = 0; i < length; ++i)
            out.push_back(mean + noise(rng));
    return out;
}

std::vector<std::size_t> indexes(const std::vector<ChangePoint> &cps)
{
    std::vector<std::size_t> out;
    for (const auto &c : cps)
        out.push_back(c.index);
    return out;
}

} // namespace

TEST(StudentT, MatchesReferenceValues)
{
    // Reference values of the two-sided t distribution (tables / scipy.stats.t.sf * 2).
    EXPECT_NEAR(studentTTwoSided(2.0, 10), 0.07339, 1e-4);
    EXPECT_NEAR(studentTTwoSided(2.228, 10), 0.05, 1e-4);
    EXPECT_NEAR(studentTTwoSided(0, 5), 1.0, 1e-12);
    EXPECT_NEAR(studentTTwoSided(12.706, 1), 0.05, 1e-4);
    double t = 0;
    // Pooled two-sample test: means 0 and 1, unit spread, ten points each: t = −√5, 18 dof.
    EXPECT_NEAR(tTestPValue(0, 1, 10, 1, 1, 10, &t), 0.03822, 1e-4);
    EXPECT_NEAR(t, -std::sqrt(5.0), 1e-12);
    EXPECT_EQ(tTestPValue(1, 0, 1, 2, 0, 1), 1.0) << "two points give no evidence";
    EXPECT_EQ(tTestPValue(1, 0, 5, 2, 0, 5), 0.0) << "two flat, different segments";
}

TEST(ChangePoints, StepUpFoundAtItsIndex)
{
    const auto series = noisy({{60, 100}, {60, 110}}, 1.0);
    const auto result = detectChangePoints(series);
    ASSERT_EQ(result.strong.size(), 1u);
    EXPECT_EQ(result.strong[0].index, 60u);
    EXPECT_NEAR(result.strong[0].meanBefore, 100, 0.5);
    EXPECT_NEAR(result.strong[0].meanAfter, 110, 0.5);
    EXPECT_NEAR(result.strong[0].forwardChangePercent(), 10, 0.6);
    EXPECT_LE(result.strong[0].pValue, 0.001);
    EXPECT_GE(result.weak.size(), result.strong.size());
}

TEST(ChangePoints, StepDownFoundAtItsIndex)
{
    const auto series = noisy({{35, 500}, {80, 450}}, 5.0, 11);
    const auto result = detectChangePoints(series);
    ASSERT_EQ(result.strong.size(), 1u);
    EXPECT_EQ(result.strong[0].index, 35u);
    EXPECT_LT(result.strong[0].forwardChangePercent(), -9);
}

TEST(ChangePoints, SeveralStepsEachFound)
{
    const auto series = noisy({{40, 10}, {40, 12}, {40, 9}}, 0.3, 3);
    EXPECT_EQ(indexes(detectChangePoints(series).strong), (std::vector<std::size_t>{40, 80}));
}

TEST(ChangePoints, NoiseOnlyGivesNothing)
{
    for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
        const auto series = noisy({{200, 1000}}, 20.0, seed);
        EXPECT_TRUE(detectChangePoints(series).strong.empty()) << "seed " << seed;
    }
}

TEST(ChangePoints, OutliersAreNotChanges)
{
    // Single runs four to five standard deviations off are noise, not a change of level.
    auto series = noisy({{120, 100}}, 1.0, 5);
    series[30] = 105;
    series[71] = 95.5;
    series[95] = 104.5;
    EXPECT_TRUE(detectChangePoints(series).strong.empty());
}

TEST(ChangePoints, GrossOutlierIsBracketedNotSmeared)
{
    // A run sixty deviations off is a real event (a broken node, a misconfigured night): as in
    // Otava it shows as a change into and out of that one run, and nowhere else.
    auto series = noisy({{120, 100}}, 1.0, 5);
    series[71] = 40;
    // E-divisive may pair the outlier with a neighbour, so "at" means within one index.
    const auto found = indexes(detectChangePoints(series).strong);
    ASSERT_FALSE(found.empty());
    EXPECT_LE(found.size(), 2u);
    for (std::size_t i : found)
        EXPECT_TRUE(i >= 70 && i <= 72) << ::testing::PrintToString(found);
    EXPECT_EQ(found.back(), 72u) << "the level is back right after the outlier";
}

TEST(ChangePoints, StepAmongOutliersStillFound)
{
    auto series = noisy({{50, 100}, {50, 108}}, 1.0, 9);
    series[20] = 150;
    series[75] = 60;
    const auto cps = detectChangePoints(series).strong;
    ASSERT_EQ(cps.size(), 1u);
    EXPECT_EQ(cps[0].index, 50u);
}

TEST(ChangePoints, ShiftInsideHighVarianceStretch)
{
    // Quiet, then a noisy stretch whose mean shifts half way through, then quiet again at the
    // new level: the shift is found inside the stretch, within one index.
    auto series = noisy({{40, 100}}, 0.5, 21);
    const auto wild1 = noisy({{30, 100}}, 6.0, 22);
    const auto wild2 = noisy({{30, 120}}, 6.0, 23);
    const auto tail = noisy({{40, 120}}, 0.5, 24);
    series.insert(series.end(), wild1.begin(), wild1.end());
    series.insert(series.end(), wild2.begin(), wild2.end());
    series.insert(series.end(), tail.begin(), tail.end());
    const auto cps = detectChangePoints(series).strong;
    bool found = false;
    for (const auto &c : cps)
        found = found || (c.index + 1 >= 70 && c.index <= 71);
    EXPECT_TRUE(found) << "changes at " << ::testing::PrintToString(indexes(cps));
}

TEST(ChangePoints, DeterministicOnTheSameInput)
{
    const auto series = noisy({{70, 5}, {30, 5.5}, {60, 4.8}}, 0.2, 13);
    const auto a = detectChangePoints(series);
    const auto b = detectChangePoints(series);
    EXPECT_EQ(a.strong, b.strong);
    EXPECT_EQ(a.weak, b.weak);
    EXPECT_FALSE(a.strong.empty());
}

TEST(ChangePoints, MagnitudeFloorDropsSmallChanges)
{
    const auto series = noisy({{60, 100}, {60, 101}}, 0.1, 17);
    EXPECT_EQ(detectChangePoints(series).strong.size(), 1u);
    ChangePointOptions o;
    o.minMagnitude = 0.05;
    EXPECT_TRUE(detectChangePoints(series, o).strong.empty());
}

TEST(ChangePoints, WindowSmallerThanSeriesStillFindsLateChange)
{
    const auto series = noisy({{150, 20}, {30, 25}}, 0.5, 19);
    ChangePointOptions o;
    o.window = 30;
    EXPECT_EQ(indexes(detectChangePoints(series, o).strong), (std::vector<std::size_t>{150}));
}

TEST(ChangePoints, TinySeries)
{
    EXPECT_TRUE(detectChangePoints({}).strong.empty());
    EXPECT_TRUE(detectChangePoints({1, 2}).strong.empty());
    EXPECT_TRUE(detectChangePoints({5, 5, 5, 5}).strong.empty());
}

TEST(Verdicts, FollowTheMetricsDirection)
{
    EXPECT_EQ(verdictForDelta(Direction::LowerIsBetter, +0.01), Verdict::Regression);
    EXPECT_EQ(verdictForDelta(Direction::LowerIsBetter, -0.01), Verdict::Improvement);
    EXPECT_EQ(verdictForDelta(Direction::HigherIsBetter, +5), Verdict::Improvement);
    EXPECT_EQ(verdictForDelta(Direction::HigherIsBetter, -5), Verdict::Regression);
    EXPECT_EQ(verdictForDelta(Direction::Neutral, -5), Verdict::Changed);
    EXPECT_EQ(verdictForDelta(Direction::HigherIsBetter, 0), Verdict::Unchanged);
}
