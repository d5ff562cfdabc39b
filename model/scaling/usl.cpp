#include "model/scaling/usl.h"

#include "model/scaling/eigenlm.h"

#include "model/core/catalog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <set>

namespace plimsoll {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Residuals X(N) − y and their Jacobian for Eigen's LM. Parameters that are pinned at 0 are
// left out of the parameter vector; λ is always the first entry. y is pre-scaled to ~1 so the
// three parameters have comparable magnitudes.
struct UslResiduals
{
    using Scalar = double;
    enum
    {
        InputsAtCompileTime = Eigen::Dynamic,
        ValuesAtCompileTime = Eigen::Dynamic
    };
    using InputType = Eigen::VectorXd;
    using ValueType = Eigen::VectorXd;
    using JacobianType = Eigen::MatrixXd;

    const std::vector<double> *n = nullptr;
    const std::vector<double> *y = nullptr;
    bool freeSigma = true;
    bool freeKappa = true;

    int inputs() const { return 1 + int(freeSigma) + int(freeKappa); }
    int values() const { return int(n->size()); }

    UslParameters unpack(const Eigen::VectorXd &p) const
    {
        UslParameters u;
        u.lambda = p[0];
        int i = 1;
        u.sigma = freeSigma ? p[i++] : 0.0;
        u.kappa = freeKappa ? p[i++] : 0.0;
        return u;
    }

    int operator()(const Eigen::VectorXd &p, Eigen::VectorXd &f) const
    {
        const UslParameters u = unpack(p);
        for (int i = 0; i < values(); ++i) {
            const double N = (*n)[i];
            const double d = 1.0 + u.sigma * (N - 1.0) + u.kappa * N * (N - 1.0);
            // A trial step with negative σ/κ can push the denominator through zero; a large
            // residual makes LM reject the step and shrink its trust region instead of stopping.
            f[i] = d > 1e-9 ? u.lambda * N / d - (*y)[i] : 1e6;
        }
        return 0;
    }

    int df(const Eigen::VectorXd &p, Eigen::MatrixXd &jac) const
    {
        const UslParameters u = unpack(p);
        for (int i = 0; i < values(); ++i) {
            const double N = (*n)[i];
            const double d = std::max(1.0 + u.sigma * (N - 1.0) + u.kappa * N * (N - 1.0), 1e-9);
            const double common = -u.lambda * N / (d * d);
            int c = 0;
            jac(i, c++) = N / d;
            if (freeSigma)
                jac(i, c++) = common * (N - 1.0);
            if (freeKappa)
                jac(i, c++) = common * N * (N - 1.0);
        }
        return 0;
    }
};

struct RawFit
{
    bool ok = false;
    UslParameters params; // in scaled units
    double sse = kInf;
    bool sigmaPinned = false;
    bool kappaPinned = false;
};

double sseOf(const UslParameters &u, const std::vector<double> &n, const std::vector<double> &y)
{
    double s = 0;
    for (size_t i = 0; i < n.size(); ++i) {
        const double r = u.throughputAt(n[i]) - y[i];
        s += r * r;
    }
    return s;
}

RawFit fitSubset(const std::vector<double> &n, const std::vector<double> &y,
                 const UslParameters &start, bool freeSigma, bool freeKappa)
{
    UslResiduals functor;
    functor.n = &n;
    functor.y = &y;
    functor.freeSigma = freeSigma;
    functor.freeKappa = freeKappa;
    Eigen::VectorXd p(functor.inputs());
    int i = 0;
    p[i++] = start.lambda;
    if (freeSigma)
        p[i++] = start.sigma;
    if (freeKappa)
        p[i++] = start.kappa;

    Eigen::LevenbergMarquardt<UslResiduals> lm(functor);
    lm.parameters.maxfev = 600;
    lm.parameters.xtol = 1e-12;
    lm.parameters.ftol = 1e-14;
    const auto status = lm.minimize(p);

    RawFit r;
    r.params = functor.unpack(p);
    r.sigmaPinned = !freeSigma;
    r.kappaPinned = !freeKappa;
    const bool finite = std::isfinite(r.params.lambda) && std::isfinite(r.params.sigma) &&
                        std::isfinite(r.params.kappa);
    r.ok = finite && status != Eigen::LevenbergMarquardtSpace::ImproperInputParameters &&
           status != Eigen::LevenbergMarquardtSpace::UserAsked && r.params.lambda > 0;
    r.sse = r.ok ? sseOf(r.params, n, y) : kInf;
    return r;
}

bool feasible(const RawFit &f)
{
    // A hair below zero is LM's rounding on the boundary, not a real violation.
    return f.ok && f.params.sigma >= -1e-12 && f.params.kappa >= -1e-12;
}

// Least squares under σ, κ ≥ 0 by the active-set search described in usl.h.
RawFit fitConstrained(const std::vector<double> &n, const std::vector<double> &y,
                      const UslParameters &start, bool allowSigma, bool allowKappa)
{
    RawFit best = fitSubset(n, y, start, allowSigma, allowKappa);
    if (!feasible(best)) {
        best = RawFit{};
        const bool subsets[3][2] = {{false, true}, {true, false}, {false, false}};
        for (const auto &s : subsets) {
            const bool smaller = (s[0] || s[1]) ? (s[0] <= allowSigma && s[1] <= allowKappa &&
                                                   (s[0] != allowSigma || s[1] != allowKappa))
                                                : (allowSigma || allowKappa);
            if (!smaller)
                continue;
            const RawFit f = fitSubset(n, y, start, s[0], s[1]);
            if (feasible(f) && f.sse < best.sse)
                best = f;
        }
    }
    best.params.sigma = std::max(best.params.sigma, 0.0);
    best.params.kappa = std::max(best.params.kappa, 0.0);
    return best;
}

// λ from the smallest-N point(s): X/N there is one unit's throughput before any penalty.
// σ, κ from the linearised law λ0·N/X − 1 = σ(N−1) + κN(N−1) by least squares, nudged into
// the interior so LM starts where both derivatives are informative.
UslParameters startingValues(const std::vector<double> &n, const std::vector<double> &y)
{
    const double nMin = *std::min_element(n.begin(), n.end());
    const double nMax = *std::max_element(n.begin(), n.end());
    double sum = 0;
    int count = 0;
    for (size_t i = 0; i < n.size(); ++i)
        if (n[i] == nMin) {
            sum += y[i] / n[i];
            ++count;
        }
    UslParameters s;
    s.lambda = sum / count;

    double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
    for (size_t i = 0; i < n.size(); ++i) {
        const double u = n[i] - 1.0, v = n[i] * (n[i] - 1.0);
        const double z = s.lambda * n[i] / std::max(y[i], 1e-300) - 1.0;
        a11 += u * u;
        a12 += u * v;
        a22 += v * v;
        b1 += u * z;
        b2 += v * z;
    }
    const double det = a11 * a22 - a12 * a12;
    if (std::abs(det) > 1e-12 * std::max(a11 * a22, 1e-300)) {
        s.sigma = (b1 * a22 - b2 * a12) / det;
        s.kappa = (a11 * b2 - a12 * b1) / det;
    }
    s.sigma = std::clamp(s.sigma, 1e-3, 10.0);
    s.kappa = std::max(s.kappa, 1e-3 / std::max(nMax * nMax, 1.0));
    return s;
}

// Percentile with linear interpolation; infinities are legal values (N* when κ = 0).
double quantile(const std::vector<double> &sorted, double q)
{
    if (sorted.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const double h = q * double(sorted.size() - 1);
    const size_t lo = size_t(std::floor(h));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double f = h - double(lo);
    if (f == 0.0 || sorted[lo] == sorted[hi])
        return sorted[lo];
    if (!std::isfinite(sorted[lo]) || !std::isfinite(sorted[hi]))
        return sorted[hi];
    return sorted[lo] + f * (sorted[hi] - sorted[lo]);
}

UslInterval percentileInterval(std::vector<double> v, double level)
{
    std::sort(v.begin(), v.end());
    const double a = (1.0 - level) / 2.0;
    return UslInterval{quantile(v, a), quantile(v, 1.0 - a)};
}

double xAtPeak(const UslParameters &u)
{
    const double nStar = u.peakN();
    if (std::isfinite(nStar))
        return u.throughputAt(nStar);
    return u.sigma > 0 ? u.lambda / u.sigma : kInf;
}

// Bracketed: a measured N below N* and one above it.
UslPeak peakAgainst(double nStar, const std::vector<double> &n)
{
    if (!std::isfinite(nStar))
        return UslPeak::None;
    const bool below = std::any_of(n.begin(), n.end(), [&](double x) { return x < nStar; });
    const bool above = std::any_of(n.begin(), n.end(), [&](double x) { return x > nStar; });
    if (below && above)
        return UslPeak::Measured;
    return below ? UslPeak::Beyond : UslPeak::Below;
}

std::string format(const char *fmt, double a, double b = 0)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, a, b);
    return buf;
}

// A value for words: "33.4", "1,392", "2,477,150" — never an exponent.
std::string count(double v)
{
    if (!std::isfinite(v))
        return "∞";
    if (std::fabs(v) >= 1000)
        return groupThousands(v, 0);
    return format("%.3g", v);
}

void appendReason(std::string &to, const std::string &reason)
{
    if (!to.empty())
        to += "; ";
    to += reason;
}

} // namespace

double UslParameters::throughputAt(double n) const
{
    return lambda * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0));
}

double UslParameters::peakN() const
{
    if (sigma >= 1.0)
        return 1.0;
    if (kappa <= 0.0)
        return kInf;
    return std::sqrt((1.0 - sigma) / kappa);
}

const char *toString(UslModel model)
{
    switch (model) {
    case UslModel::Linear:
        return "linear";
    case UslModel::Contention:
        return "contention";
    case UslModel::Full:
        return "usl";
    }
    return "usl";
}

int parameterCount(UslModel model)
{
    return model == UslModel::Full ? 3 : model == UslModel::Contention ? 2 : 1;
}

const char *toString(UslPeak peak)
{
    switch (peak) {
    case UslPeak::None:
        return "none";
    case UslPeak::Measured:
        return "measured";
    case UslPeak::Beyond:
        return "extrapolated";
    case UslPeak::Below:
        return "below";
    }
    return "none";
}

const char *toString(UslLimit limit)
{
    switch (limit) {
    case UslLimit::Linear:
        return "linear";
    case UslLimit::Contention:
        return "contention";
    case UslLimit::Coherency:
        return "coherency";
    }
    return "linear";
}

UslPrediction UslFit::predict(double n) const
{
    UslPrediction p;
    p.x = n;
    p.y = params.throughputAt(n);
    p.lo = p.hi = p.y;
    if (bootstrap.empty())
        return p;
    std::vector<double> ys;
    ys.reserve(bootstrap.size());
    for (const UslParameters &b : bootstrap)
        ys.push_back(b.throughputAt(n));
    const UslInterval ci = percentileInterval(std::move(ys), confidenceLevel);
    p.lo = ci.lo;
    p.hi = ci.hi;
    return p;
}

UslFitter::UslFitter(UslOptions options) : m_options(std::move(options)) {}

UslFit UslFitter::fit(const std::vector<UslPoint> &points) const
{
    UslFit out;
    out.confidenceLevel = m_options.confidenceLevel;
    std::vector<double> n, y;
    for (const UslPoint &p : points) {
        if (m_options.fitFrom && p.x < *m_options.fitFrom)
            continue;
        if (m_options.fitTo && p.x > *m_options.fitTo)
            continue;
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.x <= 0 || p.y <= 0) {
            out.error = format("point (%g, %g) is not usable: N and throughput must be finite "
                               "and > 0",
                               p.x, p.y);
            return out;
        }
        n.push_back(p.x);
        y.push_back(p.y);
    }
    if (n.empty()) {
        out.error = "no points to fit";
        return out;
    }
    out.points = int(n.size());
    out.distinctN = int(std::set<double>(n.begin(), n.end()).size());
    out.minN = *std::min_element(n.begin(), n.end());
    out.maxN = *std::max_element(n.begin(), n.end());
    if (out.distinctN < 2) {
        out.error = format(out.points == 1 ? "one point, at N = %g: a scaling model needs points at "
                                             "two loads or more"
                                           : "every point is at N = %g: a scaling model needs points "
                                             "at two loads or more",
                           out.maxN);
        return out;
    }

    // No more parameters than the distinct N can fix with one to spare (usl.h, UslModel).
    out.model = out.distinctN >= parameterCount(UslModel::Full) + 1         ? UslModel::Full
                : out.distinctN >= parameterCount(UslModel::Contention) + 1 ? UslModel::Contention
                                                                            : UslModel::Linear;
    const bool allowSigma = out.model != UslModel::Linear;
    const bool allowKappa = out.model == UslModel::Full;
    if (out.model == UslModel::Contention)
        out.modelNote = format("%g distinct N fix two parameters, not three: κ held at 0 (contention "
                               "only); a peak needs 4 or more",
                               out.distinctN);
    else if (out.model == UslModel::Linear)
        out.modelNote = format("%g distinct N fix one parameter: linear (σ and κ held at 0); "
                               "contention needs 3 or more",
                               out.distinctN);
    if (out.distinctN < m_options.minDistinctN)
        appendReason(out.weakReason, format("only %g distinct N (fewer than %g)",
                                            out.distinctN, m_options.minDistinctN));

    const double scale = *std::max_element(y.begin(), y.end());
    std::vector<double> ys(y.size());
    for (size_t i = 0; i < y.size(); ++i)
        ys[i] = y[i] / scale;

    UslParameters start = startingValues(n, ys);
    const RawFit best = fitConstrained(n, ys, start, allowSigma, allowKappa);
    if (!best.ok) {
        out.error = "the Levenberg–Marquardt fit did not converge";
        return out;
    }
    out.ok = true;
    out.params = best.params;
    out.params.lambda *= scale;
    out.sigmaPinned = best.sigmaPinned && allowSigma;
    out.kappaPinned = best.kappaPinned && allowKappa;

    const double mean = std::accumulate(y.begin(), y.end(), 0.0) / double(y.size());
    double sse = 0, sst = 0;
    std::vector<double> fitted(n.size()), residuals(n.size());
    for (size_t i = 0; i < n.size(); ++i) {
        fitted[i] = best.params.throughputAt(n[i]); // scaled
        residuals[i] = ys[i] - fitted[i];
        sse += residuals[i] * residuals[i] * scale * scale;
        sst += (y[i] - mean) * (y[i] - mean);
    }
    out.rmse = std::sqrt(sse / double(n.size()));
    out.r2 = sst > 0 ? 1.0 - sse / sst : 1.0;

    out.nStar = out.params.peakN();
    out.xAtNStar = xAtPeak(out.params);
    out.peak = peakAgainst(out.nStar, n);
    switch (out.peak) {
    case UslPeak::None:
        out.nStarNote = out.params.sigma > 0
                            ? "no peak: κ = 0, throughput approaches λ/σ = " + count(out.xAtNStar) +
                                  " (an asymptote, never measured)"
                            : "no peak: σ = κ = 0, throughput grows linearly";
        break;
    case UslPeak::Below:
        out.nStarNote = out.params.sigma >= 1.0
                            ? "σ ≥ 1: throughput never gains from N > 1"
                            : "N* = " + count(out.nStar) + format(" lies below the smallest measured N (%g): "
                                                                  "throughput already falls across the "
                                                                  "points; the peak is extrapolated",
                                                                  out.minN);
        break;
    case UslPeak::Beyond:
        out.nStarNote = "not reached in the measured range: N* = " + count(out.nStar) +
                        format(" is extrapolated, %.2g× the largest measured N (%g)", out.nStar / out.maxN,
                               out.maxN);
        break;
    case UslPeak::Measured:
        out.nStarNote = "N* = " + count(out.nStar) +
                        format(" lies between measured points (N %g to %g)", out.minN, out.maxN);
        break;
    }

    const double N = out.maxN;
    const double contention = out.params.sigma * (N - 1.0);
    const double coherency = out.params.kappa * N * (N - 1.0);
    if (contention + coherency < 0.05) {
        out.limit = UslLimit::Linear;
        out.limitReason =
            format("near-linear: at N = %g the law loses only %.1f%% to σ and κ", N,
                   100.0 * (contention + coherency) / (1.0 + contention + coherency));
    } else if (contention >= coherency) {
        out.limit = UslLimit::Contention;
        out.limitReason = format("contention-limited: at N = %g σ(N−1) = %.3g", N, contention) +
                          format(" ≥ κN(N−1) = %.3g", coherency);
    } else {
        out.limit = UslLimit::Coherency;
        out.limitReason = format("coherency-limited: at N = %g κN(N−1) = %.3g", N, coherency) +
                          format(" > σ(N−1) = %.3g", contention);
    }

    // Residual bootstrap. Indices come from the raw 64-bit stream (modulo, bias < 1e-17) rather
    // than std::uniform_int_distribution, whose algorithm differs between standard libraries.
    const int p = 1 + int(allowSigma && !out.sigmaPinned) + int(allowKappa && !out.kappaPinned);
    const int m = int(n.size());
    if (m_options.bootstrapResamples > 0 && m > p) {
        const double rMean = std::accumulate(residuals.begin(), residuals.end(), 0.0) / m;
        const double inflate = std::sqrt(double(m) / double(m - p));
        std::vector<double> pool(m);
        for (int i = 0; i < m; ++i)
            pool[i] = (residuals[i] - rMean) * inflate;

        std::mt19937_64 rng(m_options.seed);
        std::vector<double> yb(m);
        std::vector<double> lambdas, sigmas, kappas, nStars, xStars;
        out.bootstrap.reserve(m_options.bootstrapResamples);
        for (int b = 0; b < m_options.bootstrapResamples; ++b) {
            for (int i = 0; i < m; ++i)
                yb[i] = fitted[i] + pool[size_t(rng() % uint64_t(m))];
            RawFit f = fitConstrained(n, yb, best.params, allowSigma, allowKappa);
            if (!f.ok)
                continue;
            f.params.lambda *= scale;
            out.bootstrap.push_back(f.params);
            lambdas.push_back(f.params.lambda);
            sigmas.push_back(f.params.sigma);
            kappas.push_back(f.params.kappa);
            nStars.push_back(f.params.peakN());
            xStars.push_back(xAtPeak(f.params));
        }
        out.resamples = int(out.bootstrap.size());
        if (out.resamples > 0) {
            const double level = m_options.confidenceLevel;
            out.lambdaCi = percentileInterval(std::move(lambdas), level);
            out.sigmaCi = percentileInterval(std::move(sigmas), level);
            out.kappaCi = percentileInterval(std::move(kappas), level);
            out.nStarCi = percentileInterval(std::move(nStars), level);
            out.xAtNStarCi = percentileInterval(std::move(xStars), level);
        }
        if (out.resamples < m_options.bootstrapResamples / 2)
            appendReason(out.weakReason,
                         format("only %g of %g bootstrap refits converged", out.resamples,
                                m_options.bootstrapResamples));
    } else if (m_options.bootstrapResamples > 0) {
        appendReason(out.weakReason, "no residual degrees of freedom: no intervals");
    }

    out.weak = !out.weakReason.empty();
    return out;
}

} // namespace plimsoll
