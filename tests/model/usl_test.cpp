#include "model/scaling/usl.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace plimsoll;

namespace {

const UslParameters kTruth{1000.0, 0.05, 0.002}; // N* = sqrt(0.95 / 0.002) ≈ 21.8
const std::vector<double> kGrid{1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32};

// The law plus Gaussian noise of fixed spread (the fit's own error model).
std::vector<UslPoint> synthetic(const UslParameters &truth, const std::vector<double> &grid,
                                double noiseSd, uint64_t seed, int repeats = 1)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, noiseSd);
    std::vector<UslPoint> points;
    for (int r = 0; r < repeats; ++r)
        for (double n : grid)
            points.push_back({n, truth.throughputAt(n) + noise(rng)});
    return points;
}

// The seed's 2026-08-11 produce ramp: Logstash producers against 3 brokers / 24 shards.
const std::vector<UslPoint> kSeedRamp{{1, 74506},   {2, 150043},  {4, 286401}, {6, 409528},
                                      {9, 528756},  {12, 597657}, {16, 642352}};

} // namespace

TEST(Usl, RecoversKnownParametersFromNoisyData)
{
    UslOptions options;
    options.bootstrapResamples = 300;
    options.confidenceLevel = 0.99;
    for (uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
        const UslFit fit = UslFitter(options).fit(synthetic(kTruth, kGrid, 50.0, seed));
        ASSERT_TRUE(fit.ok) << fit.error;
        EXPECT_NEAR(fit.params.lambda, kTruth.lambda, 0.03 * kTruth.lambda) << "seed " << seed;
        EXPECT_NEAR(fit.params.sigma, kTruth.sigma, 0.015) << "seed " << seed;
        EXPECT_NEAR(fit.params.kappa, kTruth.kappa, 0.0004) << "seed " << seed;
        EXPECT_TRUE(fit.lambdaCi.contains(kTruth.lambda)) << "seed " << seed;
        EXPECT_TRUE(fit.sigmaCi.contains(kTruth.sigma)) << "seed " << seed;
        EXPECT_TRUE(fit.kappaCi.contains(kTruth.kappa)) << "seed " << seed;
        EXPECT_GT(fit.r2, 0.99);
        EXPECT_FALSE(fit.weak) << fit.weakReason;
        EXPECT_EQ(fit.limit, UslLimit::Coherency) << fit.limitReason;
    }
}

TEST(Usl, BootstrapNinetyPercentIntervalsCoverNearNominal)
{
    UslOptions options;
    options.bootstrapResamples = 100; // enough for 5%/95% percentiles; keeps the suite fast
    options.confidenceLevel = 0.90;
    const UslFitter fitter(options);
    const int datasets = 200;
    int lambdaHits = 0, sigmaHits = 0, kappaHits = 0, nStarHits = 0, predictHits = 0;
    const double nStar = kTruth.peakN();
    for (int d = 0; d < datasets; ++d) {
        const UslFit fit = fitter.fit(synthetic(kTruth, kGrid, 80.0, 1000 + d));
        ASSERT_TRUE(fit.ok) << fit.error;
        lambdaHits += fit.lambdaCi.contains(kTruth.lambda);
        sigmaHits += fit.sigmaCi.contains(kTruth.sigma);
        kappaHits += fit.kappaCi.contains(kTruth.kappa);
        nStarHits += fit.nStarCi.contains(nStar);
        const UslPrediction p = fit.predict(40);
        predictHits += p.lo <= kTruth.throughputAt(40) && kTruth.throughputAt(40) <= p.hi;
    }
    // Binomial spread at p = 0.9, n = 200 is ±2.1%; percentile bootstraps with 12 points run
    // a little short of nominal, so the band allows that and nothing wild either way.
    for (auto [name, hits] : {std::pair{"lambda", lambdaHits}, {"sigma", sigmaHits},
                              {"kappa", kappaHits}, {"nStar", nStarHits},
                              {"predict(40)", predictHits}}) {
        const double coverage = double(hits) / datasets;
        EXPECT_GE(coverage, 0.80) << name;
        EXPECT_LE(coverage, 0.97) << name;
        RecordProperty(name, std::to_string(coverage));
        std::printf("coverage of %s: %.3f\n", name, coverage);
    }
}

TEST(Usl, NStarAndItsThroughputFollowTheLaw)
{
    UslOptions options;
    options.bootstrapResamples = 0;
    std::vector<UslPoint> exact;
    for (double n : kGrid)
        exact.push_back({n, kTruth.throughputAt(n)});
    const UslFit fit = UslFitter(options).fit(exact);
    ASSERT_TRUE(fit.ok);
    EXPECT_NEAR(fit.params.lambda, 1000.0, 1e-4);
    EXPECT_NEAR(fit.params.sigma, 0.05, 1e-8);
    EXPECT_NEAR(fit.params.kappa, 0.002, 1e-9);
    EXPECT_NEAR(fit.nStar, std::sqrt(0.95 / 0.002), 1e-4);
    EXPECT_NEAR(fit.xAtNStar, kTruth.throughputAt(std::sqrt(0.95 / 0.002)), 1e-3);
    // N* is the peak: the curve is lower on either side.
    EXPECT_GT(fit.xAtNStar, fit.params.throughputAt(fit.nStar - 1));
    EXPECT_GT(fit.xAtNStar, fit.params.throughputAt(fit.nStar + 1));
    EXPECT_NEAR(fit.r2, 1.0, 1e-12);
    EXPECT_EQ(fit.peak, UslPeak::Measured);
    EXPECT_NE(fit.nStarNote.find("lies between measured points"), std::string::npos) << fit.nStarNote;
}

TEST(Usl, APeakIsClaimedOnlyWhereMeasuredPointsBracketIt)
{
    UslOptions options;
    options.bootstrapResamples = 0;
    // The same law measured only up to N = 12: its peak (N* ≈ 21.8) was never reached.
    std::vector<UslPoint> rising;
    for (double n : {1.0, 2.0, 4.0, 6.0, 8.0, 12.0})
        rising.push_back({n, kTruth.throughputAt(n)});
    const UslFit early = UslFitter(options).fit(rising);
    ASSERT_TRUE(early.ok) << early.error;
    EXPECT_NEAR(early.nStar, std::sqrt(0.95 / 0.002), 1e-3) << "the law is still recovered";
    EXPECT_EQ(early.peak, UslPeak::Beyond);
    EXPECT_FALSE(early.peakMeasured());
    EXPECT_NE(early.nStarNote.find("not reached in the measured range"), std::string::npos) << early.nStarNote;
    EXPECT_NE(early.nStarNote.find("extrapolated, 1.8× the largest measured N (12)"), std::string::npos)
        << early.nStarNote;
    // Measured only past it: throughput already falls across every point.
    std::vector<UslPoint> late;
    for (double n : {24.0, 28.0, 32.0, 40.0})
        late.push_back({n, kTruth.throughputAt(n)});
    const UslFit past = UslFitter(options).fit(late);
    ASSERT_TRUE(past.ok) << past.error;
    EXPECT_EQ(past.peak, UslPeak::Below) << past.nStarNote;
    EXPECT_NE(past.nStarNote.find("below the smallest measured N (24)"), std::string::npos) << past.nStarNote;
}

TEST(Usl, AModelHasFewerParametersThanDistinctLoads)
{
    // Three client counts (1, 10, 100): three parameters would pass through them exactly, with
    // a "peak" 1.7× the best point. Two parameters leave a residual, and no peak.
    const std::vector<UslPoint> three{{1, 61000}, {10, 170000}, {100, 215000}};
    const UslFit fit = UslFitter().fit(three);
    ASSERT_TRUE(fit.ok) << fit.error;
    EXPECT_EQ(fit.model, UslModel::Contention);
    EXPECT_EQ(fit.params.kappa, 0.0);
    EXPECT_GT(fit.params.sigma, 0.0);
    EXPECT_EQ(fit.peak, UslPeak::None);
    EXPECT_LT(fit.r2, 1.0);
    EXPECT_GT(fit.resamples, 500) << "one residual degree of freedom: an interval";
    EXPECT_LT(fit.sigmaCi.lo, fit.sigmaCi.hi);
    EXPECT_NE(fit.modelNote.find("3 distinct N fix two parameters, not three: κ held at 0"), std::string::npos)
        << fit.modelNote;
    EXPECT_TRUE(fit.weak) << "3 distinct N";
    // Four distinct loads fit all three.
    const UslFit four = UslFitter().fit({{1, 61000}, {10, 170000}, {50, 214000}, {100, 215000}});
    ASSERT_TRUE(four.ok);
    EXPECT_EQ(four.model, UslModel::Full);
    EXPECT_TRUE(four.modelNote.empty());
}

TEST(Usl, NoCoherencyMeansNoPeakAndSaysSo)
{
    UslOptions options;
    options.bootstrapResamples = 0;
    const UslParameters truth{500.0, 0.1, 0.0};
    std::vector<UslPoint> exact;
    for (double n : kGrid)
        exact.push_back({n, truth.throughputAt(n)});
    const UslFit fit = UslFitter(options).fit(exact);
    ASSERT_TRUE(fit.ok);
    EXPECT_EQ(fit.params.kappa, 0.0);
    EXPECT_TRUE(std::isinf(fit.nStar));
    EXPECT_NEAR(fit.xAtNStar, 500.0 / 0.1, 1e-3); // the asymptote λ/σ
    EXPECT_NE(fit.nStarNote.find("no peak: κ = 0, throughput approaches λ/σ = 5,000"), std::string::npos)
        << fit.nStarNote;
    EXPECT_EQ(fit.limit, UslLimit::Contention) << fit.limitReason;
}

TEST(Usl, ConstraintsHoldWhenTheDataLeanSuperlinear)
{
    // Per-unit throughput rising with N would need σ < 0; the fit must pin σ at 0 instead.
    std::vector<UslPoint> points;
    for (double n : kGrid)
        points.push_back({n, 100.0 * n * (1.0 + 0.004 * n)});
    UslOptions options;
    options.bootstrapResamples = 50;
    const UslFit fit = UslFitter(options).fit(points);
    ASSERT_TRUE(fit.ok);
    EXPECT_EQ(fit.params.sigma, 0.0);
    EXPECT_EQ(fit.params.kappa, 0.0);
    EXPECT_TRUE(fit.sigmaPinned);
    for (const UslParameters &b : fit.bootstrap) {
        EXPECT_GE(b.sigma, 0.0);
        EXPECT_GE(b.kappa, 0.0);
    }
}

TEST(Usl, FewerThanSixDistinctNIsWeakButFitted)
{
    // Repeated measurements: 15 points but only 5 distinct N.
    const UslFit fit =
        UslFitter().fit(synthetic(kTruth, {1, 4, 8, 16, 24}, 50.0, 7, /*repeats=*/3));
    ASSERT_TRUE(fit.ok) << fit.error;
    EXPECT_EQ(fit.points, 15);
    EXPECT_EQ(fit.distinctN, 5);
    EXPECT_TRUE(fit.weak);
    EXPECT_NE(fit.weakReason.find("5 distinct N"), std::string::npos) << fit.weakReason;
    EXPECT_NEAR(fit.params.lambda, 1000.0, 60.0);

    const UslFit six = UslFitter().fit(synthetic(kTruth, {1, 4, 8, 12, 16, 24}, 50.0, 7));
    EXPECT_FALSE(six.weak) << six.weakReason;

    // Two N fix one parameter: a linear fit, λ by least squares through both points.
    const UslFit two = UslFitter().fit({{1, 100}, {4, 350}});
    ASSERT_TRUE(two.ok);
    EXPECT_TRUE(two.weak);
    EXPECT_EQ(two.model, UslModel::Linear);
    EXPECT_EQ(two.params.sigma, 0.0);
    EXPECT_EQ(two.params.kappa, 0.0);
    EXPECT_NEAR(two.params.lambda, (100.0 * 1 + 350.0 * 4) / (1 + 16), 1e-6);
    EXPECT_NE(two.modelNote.find("2 distinct N fix one parameter: linear"), std::string::npos) << two.modelNote;

    // One N measured three times says nothing of scaling: refused.
    const UslFit one = UslFitter().fit({{4, 400}, {4, 420}, {4, 380}});
    EXPECT_FALSE(one.ok);
    EXPECT_NE(one.error.find("every point is at N = 4: a scaling model needs points at two loads"),
              std::string::npos)
        << one.error;
}

TEST(Usl, SameInputGivesIdenticalOutput)
{
    const auto points = synthetic(kTruth, kGrid, 80.0, 42);
    const UslFit a = UslFitter().fit(points);
    const UslFit b = UslFitter().fit(points);
    ASSERT_TRUE(a.ok);
    EXPECT_EQ(a.resamples, 1000);
    EXPECT_EQ(a.params.lambda, b.params.lambda);
    EXPECT_EQ(a.params.sigma, b.params.sigma);
    EXPECT_EQ(a.params.kappa, b.params.kappa);
    EXPECT_EQ(a.lambdaCi.lo, b.lambdaCi.lo);
    EXPECT_EQ(a.kappaCi.hi, b.kappaCi.hi);
    EXPECT_EQ(a.nStarCi.hi, b.nStarCi.hi);
    ASSERT_EQ(a.bootstrap.size(), b.bootstrap.size());
    for (size_t i = 0; i < a.bootstrap.size(); ++i) {
        EXPECT_EQ(a.bootstrap[i].lambda, b.bootstrap[i].lambda);
        EXPECT_EQ(a.bootstrap[i].kappa, b.bootstrap[i].kappa);
    }
    EXPECT_EQ(a.predict(50).lo, b.predict(50).lo);

    // A different seed is a different (but equally valid) bootstrap.
    UslOptions other;
    other.seed = 7;
    const UslFit c = UslFitter(other).fit(points);
    EXPECT_EQ(c.params.lambda, a.params.lambda);
    EXPECT_NE(c.lambdaCi.lo, a.lambdaCi.lo);
}

TEST(Usl, PredictionBandWidensBeyondTheData)
{
    const UslFit fit = UslFitter().fit(synthetic(kTruth, kGrid, 80.0, 9));
    ASSERT_TRUE(fit.ok);
    const UslPrediction inside = fit.predict(8);
    const UslPrediction outside = fit.predict(64);
    EXPECT_LE(inside.lo, inside.y);
    EXPECT_GE(inside.hi, inside.y);
    EXPECT_GT(outside.hi - outside.lo, inside.hi - inside.lo);
}

TEST(Usl, RampsThatDoNotStartAtOneStillRecoverLambda)
{
    // Shard ramps often start at 3 or 6: λ is then an extrapolation to one unit.
    const std::vector<double> grid{3, 6, 9, 12, 18, 24, 36, 48};
    const UslParameters truth{20000.0, 0.02, 0.0001};
    UslOptions options;
    options.bootstrapResamples = 200;
    const UslFit fit = UslFitter(options).fit(synthetic(truth, grid, 2000.0, 11));
    ASSERT_TRUE(fit.ok) << fit.error;
    EXPECT_NEAR(fit.params.lambda, truth.lambda, 0.05 * truth.lambda);
    EXPECT_TRUE(fit.lambdaCi.contains(truth.lambda));
    EXPECT_NEAR(fit.nStar, truth.peakN(), 0.25 * truth.peakN());
}

TEST(Usl, RetrogradeRampPeaksNearOne)
{
    // Adding units only ever hurt: the fit must still land (finite, constrained) with N* ≈ 1.
    const UslFit fit = UslFitter().fit(
        {{1, 1000}, {2, 930}, {3, 820}, {4, 700}, {5, 610}, {6, 520}, {8, 400}});
    ASSERT_TRUE(fit.ok) << fit.error;
    EXPECT_TRUE(std::isfinite(fit.params.lambda));
    EXPECT_GE(fit.params.sigma, 0.0);
    EXPECT_GE(fit.params.kappa, 0.0);
    EXPECT_LT(fit.nStar, 2.0) << fit.nStarNote;
    EXPECT_GT(fit.r2, 0.95);
    EXPECT_GT(fit.resamples, 900);
}

TEST(Usl, RefusesUnusablePoints)
{
    EXPECT_FALSE(UslFitter().fit({}).ok);
    const UslFit bad = UslFitter().fit({{1, 100}, {0, 50}, {2, 190}});
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.error.find("not usable"), std::string::npos) << bad.error;

    UslOptions range;
    range.fitFrom = 2;
    range.fitTo = 4;
    const UslFit ranged = UslFitter(range).fit({{1, 100}, {2, 190}, {3, 270}, {4, 340}, {8, 500}});
    ASSERT_TRUE(ranged.ok);
    EXPECT_EQ(ranged.points, 3);
}

TEST(Usl, SeedProduceRampFitsSanely)
{
    const UslFit fit = UslFitter().fit(kSeedRamp);
    ASSERT_TRUE(fit.ok) << fit.error;
    // One producer measured 74.5k msg/s; λ is that unit's extrapolated rate.
    EXPECT_NEAR(fit.params.lambda, 75000.0, 5000.0);
    EXPECT_GT(fit.r2, 0.98);
    EXPECT_FALSE(fit.weak) << fit.weakReason; // 7 distinct N
    // The ramp is still rising at 16 producers (642k), so N* is at or beyond the last step
    // and the throughput there is at least what was measured.
    EXPECT_GT(fit.nStar, 14.0);
    EXPECT_GE(fit.xAtNStar, 0.97 * 642352.0);
    EXPECT_TRUE(fit.lambdaCi.contains(fit.params.lambda));
    EXPECT_LE(fit.nStarCi.lo, fit.nStar);
    std::printf("seed ramp: lambda=%.1f sigma=%.5f kappa=%.6f N*=%.2f X(N*)=%.0f r2=%.5f "
                "rmse=%.0f limit=%s\n  lambda CI [%.1f, %.1f] sigma CI [%.5f, %.5f] kappa CI "
                "[%.6f, %.6f] N* CI [%.2f, %.2f]\n  %s; %s; weak: %s\n",
                fit.params.lambda, fit.params.sigma, fit.params.kappa, fit.nStar, fit.xAtNStar,
                fit.r2, fit.rmse, toString(fit.limit), fit.lambdaCi.lo, fit.lambdaCi.hi,
                fit.sigmaCi.lo, fit.sigmaCi.hi, fit.kappaCi.lo, fit.kappaCi.hi, fit.nStarCi.lo,
                fit.nStarCi.hi, fit.nStarNote.c_str(), fit.limitReason.c_str(),
                fit.weakReason.c_str());
}
