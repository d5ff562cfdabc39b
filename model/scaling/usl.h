#pragma once
// Universal Scalability Law fits of one ramp: throughput X against one load factor N
// (producers, consumers, brokers, shards, offload streams — whichever the ramp varies).
//
//   X(N) = λN / (1 + σ(N−1) + κN(N−1))
//
// λ is the throughput of one unit (in the ramp's own unit, e.g. records/s per producer),
// σ the contention (serialised fraction), κ the coherency (crosstalk) penalty. Both σ and κ
// are dimensionless and constrained to be ≥ 0.
//
// Threading: UslFitter is immutable after construction and fit() touches no shared state, so
// one fitter can serve several threads. Results are plain values.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

// One measurement. Repeated x (several runs at the same load) are welcome: each is a point.
struct UslPoint
{
    double x = 0; // load factor N, > 0 (a count, but fractional values are accepted)
    double y = 0; // throughput at N, > 0, in the ramp's unit (records/s, bytes/s, ...)
};

struct UslParameters
{
    double lambda = 0; // throughput of one unit, same unit as UslPoint::y
    double sigma = 0;  // contention, dimensionless, ≥ 0
    double kappa = 0;  // coherency, dimensionless, ≥ 0

    double throughputAt(double n) const;
    // The N that maximises X: sqrt((1−σ)/κ). +infinity when κ = 0 (no peak: X rises towards
    // λ/σ, or without bound when σ = 0 too); 1 when σ ≥ 1 (throughput never gains from N > 1).
    double peakN() const;
};

// The law as far as the points can fix it. A model needs more distinct N than parameters, or
// it passes through every point exactly (R² 1, no residual, no interval) and says nothing the
// points did not: four or more distinct N fit λ, σ and κ; three fit λ and σ with κ held at 0
// (Amdahl's law: contention only); two fit λ alone (linear); one fits nothing.
enum class UslModel
{
    Linear,     // λ only: X = λN
    Contention, // λ and σ, κ held at 0
    Full,       // λ, σ and κ
};
const char *toString(UslModel model); // "linear", "contention", "usl"
// The parameters a model fits and the least distinct N it needs (one more than that).
int parameterCount(UslModel model);

// Where the peak of the fitted curve lies against the measured N. A peak is claimed only when
// measured points bracket it: one below N* and one above.
enum class UslPeak
{
    None,     // κ = 0: the curve never turns down (it approaches λ/σ, or grows linearly)
    Measured, // minN < N* < maxN with points on both sides
    Beyond,   // N* > the largest measured N: extrapolated
    Below,    // N* < the smallest measured N: throughput already falls across the points
};
const char *toString(UslPeak peak); // "none", "measured", "extrapolated", "below"

// Which term of the denominator costs more at the largest measured N.
enum class UslLimit
{
    Linear,     // σ(N−1) + κN(N−1) < 5%: the ramp has not reached a limit yet
    Contention, // σ(N−1) ≥ κN(N−1): queueing on a shared resource dominates
    Coherency,  // κN(N−1) > σ(N−1): crosstalk dominates, throughput will turn down past N*
};
const char *toString(UslLimit limit);

struct UslInterval
{
    double lo = std::numeric_limits<double>::quiet_NaN();
    double hi = std::numeric_limits<double>::quiet_NaN();
    bool contains(double v) const { return v >= lo && v <= hi; }
};

struct UslPrediction
{
    double x = 0;  // N asked for
    double y = 0;  // fitted throughput at N
    double lo = 0; // confidence interval of the fitted curve at N (bootstrap percentiles);
    double hi = 0; // equal to y when the fit has no bootstrap. Not a single-run prediction.
};

struct UslOptions
{
    // Residual-bootstrap resamples; 0 turns the intervals off. 1000 keeps the percentile
    // ends (2.5%, 97.5%) stable to about a percent of their width.
    int bootstrapResamples = 1000;
    double confidenceLevel = 0.95; // two-sided, of every interval below
    // Fixed so the same input always gives identical intervals (reports must reproduce).
    uint64_t seed = 0x506c696d736f6c6cULL;
    // Below this many distinct N the three parameters are poorly separated: fit anyway,
    // but mark the fit weak.
    int minDistinctN = 6;
    // Only points with fitFrom ≤ x ≤ fitTo take part (the CLI's --fit-range A:B).
    std::optional<double> fitFrom;
    std::optional<double> fitTo;
};

struct UslFit
{
    bool ok = false;
    std::string error; // why there is no fit, when !ok

    UslParameters params;
    double r2 = 0;   // 1 − SSE/SST over the points used
    double rmse = 0; // sqrt(SSE / points), in the unit of y
    int points = 0;
    int distinctN = 0;
    double minN = 0; // smallest measured N
    double maxN = 0; // largest measured N
    UslModel model = UslModel::Full;
    // Why the model has fewer parameters than the law, in words that go beside the numbers
    // ("3 distinct N fix two parameters: κ held at 0, contention only"); empty for Full.
    std::string modelNote;
    // How σ ≥ 0, κ ≥ 0 was enforced: an unconstrained fit first; if it lands outside, the
    // offending parameters are pinned at 0 and the rest refitted (an active-set search over the
    // four subsets, keeping the best feasible one). Unlike fitting squares (σ = s²), a
    // parameter pinned at 0 is reported as exactly 0, and the gradient never vanishes there.
    bool sigmaPinned = false;
    bool kappaPinned = false;

    bool weak = false;
    std::string weakReason; // "; "-joined reasons, empty when !weak

    double nStar = 0;          // params.peakN()
    double xAtNStar = 0;       // X(N*); λ/σ (the asymptote) when N* is infinite, +inf if σ = 0 too
    UslPeak peak = UslPeak::None;
    // Plain words on N*: none, where it lies, "extrapolated" with the factor when the points do
    // not bracket it.
    std::string nStarNote;
    // True when N* and X(N*) are supported by the points (peak == Measured).
    bool peakMeasured() const { return peak == UslPeak::Measured; }
    UslLimit limit = UslLimit::Linear;
    std::string limitReason;

    // Bootstrap (residual resampling around the fitted curve, residuals centred and inflated by
    // sqrt(n/(n−p)) so their spread matches the noise rather than the smaller fitted residuals).
    int resamples = 0; // refits that converged and entered the intervals
    double confidenceLevel = 0;
    UslInterval lambdaCi, sigmaCi, kappaCi;
    UslInterval nStarCi;    // hi is +inf when enough resamples have κ = 0
    UslInterval xAtNStarCi;
    std::vector<UslParameters> bootstrap; // the refits, kept so predict() can draw the band

    UslPrediction predict(double n) const;
};

class UslFitter
{
public:
    explicit UslFitter(UslOptions options = {});

    // Fits by Levenberg–Marquardt on absolute residuals (y − X(N)); errors are assumed to have
    // the same spread at every N. Deterministic: identical input gives identical output.
    UslFit fit(const std::vector<UslPoint> &points) const;

    const UslOptions &options() const { return m_options; }

private:
    UslOptions m_options;
};

} // namespace plimsoll
