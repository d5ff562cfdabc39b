// Change points kept between examinations: a series that grows by new runs (or changes in part)
// is examined again only from where it changed, and gives exactly the change points a fresh
// examination of the whole series gives.
#include "model/trends/changepoints.h"

#include <gtest/gtest.h>

#include <random>

using namespace plimsoll;

namespace {

// Steps every `every` points on normal noise, from a fixed seed: long enough to span several
// of the state's blocks, with change points in many windows.
std::vector<double> steppedSeries(std::size_t n, std::size_t every, unsigned seed = 5)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 1.0);
    std::vector<double> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(100 + 6.0 * double((i / every) % 3) + noise(rng));
    return out;
}

std::vector<double> prefix(const std::vector<double> &v, std::size_t n)
{
    return {v.begin(), v.begin() + std::ptrdiff_t(n)};
}

} // namespace

TEST(KeptChangePoints, GrowingSeriesGivesTheChangePointsOfAFreshExamination)
{
    const auto series = steppedSeries(20000, 300);
    ASSERT_GT(detectChangePoints(series).strong.size(), 40u);

    // Night after night: the series grows in uneven steps, the state kept through its bytes.
    std::string kept;
    std::size_t examinedAgain = 0;
    for (std::size_t n : {40, 1000, 5003, 8192, 8193, 19723, 20000}) {
        ChangePointState state;
        if (!kept.empty()) {
            const auto parsed = ChangePointState::parse(kept);
            ASSERT_TRUE(parsed);
            state = *parsed;
        }
        std::size_t from = 0;
        const auto values = prefix(series, n);
        const ChangePointResult incremental = detectChangePoints(values, {}, state, &from);
        const ChangePointResult whole = detectChangePoints(values);
        EXPECT_EQ(incremental.strong, whole.strong) << n << " values";
        EXPECT_EQ(incremental.weak, whole.weak) << n << " values";
        examinedAgain = values.size() - from;
        kept = state.serialize();
    }
    // The last 277 values were examined, and the windows the series' end had cut short before
    // (at most one window back): not the history.
    EXPECT_GE(examinedAgain, 277u);
    EXPECT_LE(examinedAgain, 277u + 50u);
}

TEST(KeptChangePoints, AChangedValueInTheMiddleIsExaminedFromItsBlock)
{
    constexpr std::size_t kBlock = ChangePointState::kBlock;
    auto series = steppedSeries(5 * kBlock + 300, 250, 9);
    ChangePointState state;
    detectChangePoints(series, {}, state);
    // A run re-imported with another value, far back in the history.
    series[2 * kBlock + 210] += 40;
    std::size_t from = 0;
    const ChangePointResult incremental = detectChangePoints(series, {}, state, &from);
    const ChangePointResult whole = detectChangePoints(series);
    EXPECT_EQ(incremental.strong, whole.strong);
    EXPECT_EQ(incremental.weak, whole.weak);
    EXPECT_LE(from, 2 * kBlock);
    EXPECT_GE(from + 50, 2 * kBlock);
    // Nothing changed: only the windows cut short by the series' end are examined again.
    EXPECT_EQ(detectChangePoints(series, {}, state, &from).strong, whole.strong);
    EXPECT_GE(from + 50, series.size());
}

TEST(KeptChangePoints, ShorterSeriesOrOtherOptionsStartAfresh)
{
    const auto series = steppedSeries(2 * ChangePointState::kBlock + 10, 200, 3);
    ChangePointState state;
    detectChangePoints(series, {}, state);
    // Runs removed: the series is shorter than what was kept.
    const auto shorter = prefix(series, ChangePointState::kBlock + 100);
    ChangePointState s1 = state;
    EXPECT_EQ(detectChangePoints(shorter, {}, s1).strong, detectChangePoints(shorter).strong);
    ChangePointOptions other;
    other.window = 30;
    ChangePointState s2 = state;
    std::size_t from = 1;
    EXPECT_EQ(detectChangePoints(series, other, s2, &from).strong, detectChangePoints(series, other).strong);
    EXPECT_EQ(from, 0u) << "another window examines every value again";
}

TEST(KeptChangePoints, BytesReadBackExactlyAndAnythingElseIsRefused)
{
    ChangePointState state;
    detectChangePoints(steppedSeries(ChangePointState::kBlock + 900, 150, 4), {}, state);
    ASSERT_FALSE(state.windows.empty());
    const std::string bytes = state.serialize();
    EXPECT_EQ(ChangePointState::parse(bytes), state);
    EXPECT_FALSE(ChangePointState::parse(""));
    EXPECT_FALSE(ChangePointState::parse(bytes.substr(0, bytes.size() - 8)));
    EXPECT_FALSE(ChangePointState::parse(bytes + std::string(8, '\0')));
    std::string wrongTag = bytes;
    wrongTag[0] ^= 1;
    EXPECT_FALSE(ChangePointState::parse(wrongTag));
}
