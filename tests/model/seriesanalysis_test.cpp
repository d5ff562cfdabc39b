#include "model/trends/incompletebeta.h"
#include "model/trends/seriesanalysis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace plimsoll;

namespace {

// Normal noise from a fixed seed, so every run of the suite sees the same series.
std::vector<double> noisy(std::vector<std::pair<std::size_t, double>> segments, double sigma, unsigned seed = 7)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, sigma);
    std::vector<double> out;
    for (const auto &[length, mean] : segments)
        for (std::size_t i = 0; i < length; ++i)
            out.push_back(mean + noise(rng));
    return out;
}

std::vector<std::size_t> changeIndexes(const SeriesAnalysis &a, bool provisional = false)
{
    std::vector<std::size_t> out;
    for (const LevelChange &c : a.changes)
        if (c.provisional == provisional)
            out.push_back(c.change.index);
    return out;
}

} // namespace

TEST(IncompleteBeta, MatchesReferenceValues)
{
    // I_x(a, b) from scipy.special.betainc.
    EXPECT_NEAR(regularizedIncompleteBeta(2, 3, 0.4), 0.5248, 1e-4);
    EXPECT_NEAR(regularizedIncompleteBeta(0.5, 0.5, 0.5), 0.5, 1e-12);
    EXPECT_NEAR(regularizedIncompleteBeta(10, 10, 0.3), 0.03255, 1e-4);
    EXPECT_EQ(regularizedIncompleteBeta(2, 3, 0), 0);
    EXPECT_EQ(regularizedIncompleteBeta(2, 3, 1), 1);
}

TEST(SeriesAnalysis, OneNightSpikeIsAnOutlierNotTwoChanges)
{
    auto series = noisy({{120, 100}}, 1.0, 5);
    series[60] = 140; // a noisy neighbour, one night
    const SeriesAnalysis a = analyzeSeries(series);
    ASSERT_EQ(a.outliers.size(), 1u);
    EXPECT_EQ(a.outliers[0].index, 60u);
    EXPECT_GT(a.outliers[0].sigmas, 20) << "40 above a level with unit noise";
    EXPECT_NEAR(a.outliers[0].percent(), 40, 2);
    EXPECT_TRUE(a.changes.empty()) << "the spike is no level change into and out of its run";
}

TEST(SeriesAnalysis, SpikeOnANoiselessSeriesIsAnOutlierOfUnboundedSize)
{
    std::vector<double> series(50, 100);
    series[25] = 150;
    const SeriesAnalysis a = analyzeSeries(series);
    ASSERT_EQ(a.outliers.size(), 1u);
    EXPECT_EQ(a.outliers[0].index, 25u);
    EXPECT_TRUE(std::isinf(a.outliers[0].sigmas) && a.outliers[0].sigmas > 0);
    EXPECT_TRUE(a.changes.empty());
}

TEST(SeriesAnalysis, NoiseAndTwoBandsHaveNoOutliers)
{
    for (unsigned seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u})
        EXPECT_TRUE(analyzeSeries(noisy({{500, 1000}}, 20.0, seed)).outliers.empty()) << "seed " << seed;
    std::mt19937 rng(3);
    std::bernoulli_distribution band(0.3);
    std::vector<double> bands;
    for (int i = 0; i < 200; ++i)
        bands.push_back(band(rng) ? 105 : 100);
    const SeriesAnalysis a = analyzeSeries(bands);
    EXPECT_TRUE(a.outliers.empty());
    EXPECT_TRUE(a.changes.empty());
}

TEST(SeriesAnalysis, StepKeepsItsPlaceWhenAnOutlierSitsOnIt)
{
    auto series = noisy({{60, 100}, {60, 110}}, 1.0, 5);
    series[60] = 150;
    std::vector<std::size_t> core;
    for (const ChangePoint &c : detectChangePoints(series).strong)
        core.push_back(c.index);
    EXPECT_EQ(core, (std::vector<std::size_t>{60, 61})) << "the windows see a change into the spike and out of it";
    const SeriesAnalysis a = analyzeSeries(series);
    ASSERT_EQ(a.outliers.size(), 1u);
    EXPECT_EQ(a.outliers[0].index, 60u);
    EXPECT_EQ(changeIndexes(a), (std::vector<std::size_t>{60}));
    EXPECT_NEAR(a.changes[0].change.meanAfter - a.changes[0].change.meanBefore, 10, 1);
}

TEST(SeriesAnalysis, RegressionFixedTenRunsLaterIsFoundBothWays)
{
    // Within one window of 50 the run and the return to normal, on a series two bands wide.
    std::mt19937 rng(11);
    std::bernoulli_distribution band(0.5);
    std::normal_distribution<double> noise(0, 2);
    std::vector<double> series;
    for (int i = 0; i < 50; ++i)
        series.push_back((band(rng) ? 105 : 100) + (i >= 16 && i < 26 ? 30 : 0) + noise(rng));
    const SeriesAnalysis a = analyzeSeries(series);
    EXPECT_EQ(changeIndexes(a), (std::vector<std::size_t>{16, 26}));
    for (const LevelChange &c : a.changes)
        EXPECT_LT(c.change.pValue, 1e-6);
    ASSERT_EQ(a.changes.size(), 2u);
    EXPECT_GT(a.changes[0].change.meanAfter, a.changes[0].change.meanBefore + 20) << "the regression";
    EXPECT_LT(a.changes[1].change.meanAfter, a.changes[1].change.meanBefore - 20) << "its fix";
}

TEST(SeriesAnalysis, ChangeAmongTheLastPointsIsProvisional)
{
    const auto series = noisy({{200, 100}, {3, 120}}, 1.0, 13);
    const SeriesAnalysis a = analyzeSeries(series);
    EXPECT_EQ(a.minSegment, 5u);
    EXPECT_TRUE(changeIndexes(a).empty());
    EXPECT_EQ(changeIndexes(a, true), (std::vector<std::size_t>{200}));
    EXPECT_TRUE(std::find(a.markedIndexes().begin(), a.markedIndexes().end(), 200u) == a.markedIndexes().end());

    // Once enough runs follow, the same change is confident.
    const SeriesAnalysis later = analyzeSeries(noisy({{200, 100}, {10, 120}}, 1.0, 13));
    EXPECT_EQ(changeIndexes(later), (std::vector<std::size_t>{200}));
}

TEST(SeriesAnalysis, NoiseThatQuadruplesIsAVarianceChangeNotALevelChange)
{
    auto series = noisy({{150, 100}}, 1.0, 21);
    const auto louder = noisy({{150, 100}}, 4.0, 22);
    series.insert(series.end(), louder.begin(), louder.end());
    const SeriesAnalysis a = analyzeSeries(series);
    EXPECT_TRUE(a.changes.empty());
    ASSERT_EQ(a.varianceChanges.size(), 1u);
    EXPECT_NEAR(double(a.varianceChanges[0].index), 150, 5);
    EXPECT_NEAR(a.varianceChanges[0].ratio(), 4, 1);
    EXPECT_LT(a.varianceChanges[0].pValue, 1e-6);
    EXPECT_TRUE(a.outliers.empty()) << "the louder runs are noise, not outliers";
}

TEST(SeriesAnalysis, SteadyNoiseHasNoVarianceChange)
{
    for (unsigned seed : {1u, 2u, 3u, 4u, 5u})
        EXPECT_TRUE(analyzeSeries(noisy({{400, 50}}, 3.0, seed)).varianceChanges.empty()) << "seed " << seed;
}

TEST(SeriesAnalysis, SlowDriftIsOneTrendNotAStaircase)
{
    std::mt19937 rng(3);
    std::normal_distribution<double> noise(0, 2);
    std::vector<double> series;
    for (int i = 0; i < 200; ++i)
        series.push_back(100 + (i >= 80 ? 0.5 * (i - 80) : 0) + noise(rng));
    const SeriesAnalysis a = analyzeSeries(series);
    ASSERT_EQ(a.drifts.size(), 1u);
    EXPECT_NEAR(a.drifts[0].slopePerPoint, 0.5, 0.05);
    EXPECT_NEAR(double(a.drifts[0].from), 80, 10);
    EXPECT_EQ(a.drifts[0].to, 200u);
    EXPECT_LE(a.changes.size(), 1u) << "at most the change where the drift begins";
}

TEST(SeriesAnalysis, ThreeStepsStayThreeSteps)
{
    const SeriesAnalysis a = analyzeSeries(noisy({{125, 100}, {125, 110}, {125, 120}, {125, 130}}, 2.0, 42));
    EXPECT_TRUE(a.drifts.empty());
    EXPECT_EQ(changeIndexes(a), (std::vector<std::size_t>{125, 250, 375}));
}

TEST(SeriesAnalysis, LevelChangesAreTheCoreDetectorsOnASeriesWithoutOutliers)
{
    // Nothing is added to or taken from the windows' changes on a plain series of steps.
    const auto series = noisy({{40, 10}, {40, 12}, {40, 9}}, 0.3, 3);
    std::vector<std::size_t> core;
    for (const ChangePoint &c : detectChangePoints(series).strong)
        core.push_back(c.index);
    EXPECT_EQ(changeIndexes(analyzeSeries(series)), core);
    EXPECT_EQ(core, (std::vector<std::size_t>{40, 80}));
}

TEST(SeriesAnalysis, DeterministicWiggleOfAFewLevelsHasNoOutliers)
{
    // Five levels repeating: most successive differences are equal, their median absolute
    // deviation 0, yet no run stands out.
    std::vector<double> series;
    for (int d = 1; d <= 60; ++d)
        series.push_back(0.050 * (1 - ((d * 7) % 5 - 2) * 0.002));
    const SeriesAnalysis a = analyzeSeries(series);
    EXPECT_TRUE(a.outliers.empty());
    EXPECT_TRUE(a.changes.empty());
    series[30] = 0.060;
    const SeriesAnalysis spiked = analyzeSeries(series);
    ASSERT_EQ(spiked.outliers.size(), 1u);
    EXPECT_EQ(spiked.outliers[0].index, 30u);
}
