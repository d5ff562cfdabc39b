#include "model/changepoints.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace plimsoll {

namespace {

// Continued fraction of the regularized incomplete beta function, evaluated by the modified
// Lentz method. Converges quickly for x < (a + 1) / (a + b + 2); the caller uses the symmetry
// I_x(a, b) = 1 − I_{1−x}(b, a) otherwise.
double betaContinuedFraction(double a, double b, double x)
{
    constexpr int kMaxIterations = 300;
    constexpr double kEpsilon = 1e-15;
    constexpr double kTiny = 1e-300;
    double c = 1;
    double d = 1 - (a + b) * x / (a + 1);
    if (std::abs(d) < kTiny)
        d = kTiny;
    d = 1 / d;
    double f = d;
    for (int m = 1; m <= kMaxIterations; ++m) {
        const double m2 = 2.0 * m;
        // Even step: m (b − m) x / ((a + 2m − 1)(a + 2m)).
        double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + num * d;
        c = 1 + num / c;
        d = std::abs(d) < kTiny ? 1 / kTiny : 1 / d;
        if (std::abs(c) < kTiny)
            c = kTiny;
        f *= d * c;
        // Odd step: −(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + num * d;
        c = 1 + num / c;
        d = std::abs(d) < kTiny ? 1 / kTiny : 1 / d;
        if (std::abs(c) < kTiny)
            c = kTiny;
        const double delta = d * c;
        f *= delta;
        if (std::abs(delta - 1) < kEpsilon)
            break;
    }
    return f;
}

double regularizedIncompleteBeta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double logFront =
        std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
    const double front = std::exp(logFront);
    if (x < (a + 1) / (a + b + 2))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1 - front * betaContinuedFraction(b, a, 1 - x) / b;
}

struct SegmentStats
{
    double mean = 0;
    double stddev = 0;
};

SegmentStats segmentStats(const std::vector<double> &z, std::size_t from, std::size_t to)
{
    SegmentStats s;
    const auto n = static_cast<double>(to - from);
    for (std::size_t i = from; i < to; ++i)
        s.mean += z[i];
    s.mean /= n;
    if (to - from >= 2) {
        double ss = 0;
        for (std::size_t i = from; i < to; ++i)
            ss += (z[i] - s.mean) * (z[i] - s.mean);
        s.stddev = std::sqrt(ss / n);
    }
    return s;
}

ChangePoint testSplit(const std::vector<double> &z, std::size_t from, std::size_t index, std::size_t to)
{
    const SegmentStats l = segmentStats(z, from, index);
    const SegmentStats r = segmentStats(z, index, to);
    ChangePoint cp;
    cp.index = index;
    cp.meanBefore = l.mean;
    cp.stddevBefore = l.stddev;
    cp.meanAfter = r.mean;
    cp.stddevAfter = r.stddev;
    cp.pValue = tTestPValue(l.mean, l.stddev, index - from, r.mean, r.stddev, to - index, &cp.tStatistic);
    return cp;
}

// Within-segment sums of pairwise distances W(a, b) = Σ_{a ≤ i < k < b} |z_i − z_k| for every
// sub-range of one window, so that Q̂ of any (start, τ, κ) costs O(1):
// the between-sum of [s, τ) and [τ, κ) is W(s, κ) − W(s, τ) − W(τ, κ).
class PairSums
{
public:
    PairSums(const std::vector<double> &z, std::size_t first, std::size_t last)
        : m_size(last - first + 1), m_w(m_size * m_size, 0.0)
    {
        const std::size_t len = last - first;
        for (std::size_t b = 1; b <= len; ++b) {
            const double zj = z[first + b - 1];
            // S(a) = Σ_{i=a}^{b-2} |z_i − z_{b−1}|, accumulated from a = b − 1 downwards.
            double s = 0;
            for (std::size_t a = b; a-- > 0;) {
                if (a < b - 1)
                    s += std::abs(z[first + a] - zj);
                at(a, b) = at(a, b - 1) + s;
            }
        }
    }
    double w(std::size_t a, std::size_t b) const { return m_w[a * m_size + b]; }

private:
    double &at(std::size_t a, std::size_t b) { return m_w[a * m_size + b]; }
    std::size_t m_size;
    std::vector<double> m_w;
};

struct Candidate
{
    std::size_t index = 0; // local to the window
    double q = -std::numeric_limits<double>::infinity();
};

// The τ maximising Q̂(Z[s:τ], Z[τ:κ]) over s < τ < κ ≤ e (local indexes); ties keep the first.
Candidate bestSplit(const PairSums &sums, std::size_t s, std::size_t e)
{
    Candidate best;
    for (std::size_t tau = s + 1; tau < e; ++tau) {
        const double n = static_cast<double>(tau - s);
        const double withinX = sums.w(s, tau);
        for (std::size_t kappa = tau + 1; kappa <= e; ++kappa) {
            const double m = static_cast<double>(kappa - tau);
            const double withinY = sums.w(tau, kappa);
            const double between = sums.w(s, kappa) - withinX - withinY;
            double q = 2 * between / (n + m);
            if (n > 1)
                q -= 2 * m * withinX / ((n + m) * (n - 1));
            if (m > 1)
                q -= 2 * n * withinY / ((n + m) * (m - 1));
            if (q > best.q)
                best = {tau, q};
        }
    }
    return best;
}

// E-divisive inside z[first, last): hierarchical splits while the t-test passes `pValue`.
// Returns absolute indexes, sorted.
std::vector<std::size_t> divideWindow(const std::vector<double> &z, std::size_t first,
                                      std::size_t last, double pValue)
{
    const PairSums sums(z, first, last);
    std::vector<std::size_t> cuts; // local, sorted
    const std::size_t len = last - first;
    for (;;) {
        Candidate best;
        std::size_t bestFrom = 0, bestTo = 0;
        std::size_t from = 0;
        for (std::size_t k = 0; k <= cuts.size(); ++k) {
            const std::size_t to = k < cuts.size() ? cuts[k] : len;
            if (to - from > 1) {
                const Candidate c = bestSplit(sums, from, to);
                if (c.q > best.q) {
                    best = c;
                    bestFrom = from;
                    bestTo = to;
                }
            }
            from = to;
        }
        if (best.index == 0)
            break;
        const ChangePoint cp = testSplit(z, first + bestFrom, first + best.index, first + bestTo);
        if (!(cp.pValue <= pValue))
            break;
        cuts.insert(std::upper_bound(cuts.begin(), cuts.end(), best.index), best.index);
    }
    std::vector<std::size_t> out;
    for (std::size_t c : cuts)
        out.push_back(first + c);
    return out;
}

// Stats of each change point against its neighbouring change points (or the series ends).
ChangePoint statsAt(const std::vector<double> &z, const std::vector<ChangePoint> &cps, std::size_t k)
{
    const std::size_t from = k == 0 ? 0 : cps[k - 1].index;
    const std::size_t to = k + 1 < cps.size() ? cps[k + 1].index : z.size();
    return testSplit(z, from, cps[k].index, to);
}

} // namespace

double ChangePoint::forwardChangePercent() const
{
    return meanBefore == 0 ? 0 : (meanAfter / meanBefore - 1) * 100;
}

double ChangePoint::magnitude() const
{
    const double forward = meanBefore == 0 ? 0 : meanAfter / meanBefore - 1;
    const double backward = meanAfter == 0 ? 0 : meanBefore / meanAfter - 1;
    return std::max(std::abs(forward), std::abs(backward));
}

double studentTTwoSided(double t, double dof)
{
    if (std::isnan(t) || dof <= 0)
        return 1;
    if (std::isinf(t))
        return 0;
    return regularizedIncompleteBeta(dof / 2, 0.5, dof / (dof + t * t));
}

double tTestPValue(double mean1, double std1, std::size_t n1, double mean2, double std2,
                   std::size_t n2, double *tOut)
{
    if (tOut)
        *tOut = 0;
    if (n1 == 0 || n2 == 0 || n1 + n2 <= 2)
        return 1;
    const double dof = static_cast<double>(n1 + n2 - 2);
    const double pooled = ((n1 - 1.0) * std1 * std1 + (n2 - 1.0) * std2 * std2) / dof;
    const double denom = std::sqrt(pooled * (1.0 / n1 + 1.0 / n2));
    const double diff = mean1 - mean2;
    if (denom == 0) {
        // Two flat segments: any difference is certain, none is no evidence at all.
        if (diff == 0)
            return 1;
        if (tOut)
            *tOut = diff > 0 ? std::numeric_limits<double>::infinity()
                             : -std::numeric_limits<double>::infinity();
        return 0;
    }
    const double t = diff / denom;
    if (tOut)
        *tOut = t;
    return studentTTwoSided(t, dof);
}

ChangePointResult detectChangePoints(const std::vector<double> &series, const ChangePointOptions &options)
{
    ChangePointResult result;
    const std::size_t n = series.size();
    if (n < 3)
        return result;
    const std::size_t window = static_cast<std::size_t>(std::max(options.window, 2));
    const std::size_t step = window / 2;
    // The split step looks for candidates at a looser threshold, as the Hunter paper does, so
    // that a change one window misses as marginal can still be confirmed by the merge step.
    const double p = options.pValue;
    const double weakP = p < 0.05 ? p * 10 : (p < 0.5 ? p * 2 : p);

    std::vector<std::size_t> weak;
    for (std::size_t start = 0; start < n;) {
        const std::size_t end = std::min(start + window, n);
        const auto found = divideWindow(series, start, end, weakP);
        for (std::size_t idx : found)
            if (std::find(weak.begin(), weak.end(), idx) == weak.end())
                weak.push_back(idx);
        // The next window starts at the last change found, so the segment after it is
        // examined whole, or half a window on.
        start = std::max(found.empty() ? std::size_t(0) : found.back(), start + step);
    }
    std::sort(weak.begin(), weak.end());

    std::vector<ChangePoint> cps;
    for (std::size_t idx : weak) {
        ChangePoint cp;
        cp.index = idx;
        cps.push_back(cp);
    }
    for (std::size_t k = 0; k < cps.size(); ++k)
        cps[k] = statsAt(series, cps, k);
    result.weak = cps;

    while (!cps.empty()) {
        // The weakest point by p-value; when every p passes, the smallest change instead.
        std::size_t weakest = 0;
        for (std::size_t k = 1; k < cps.size(); ++k)
            if (cps[k].pValue > cps[weakest].pValue)
                weakest = k;
        if (cps[weakest].pValue < p) {
            weakest = 0;
            for (std::size_t k = 1; k < cps.size(); ++k)
                if (cps[k].magnitude() < cps[weakest].magnitude())
                    weakest = k;
            if (cps[weakest].magnitude() > options.minMagnitude)
                break;
        }
        cps.erase(cps.begin() + static_cast<std::ptrdiff_t>(weakest));
        // Both neighbours now border a longer segment: test them again against it.
        if (weakest > 0)
            cps[weakest - 1] = statsAt(series, cps, weakest - 1);
        if (weakest < cps.size())
            cps[weakest] = statsAt(series, cps, weakest);
    }
    result.strong = std::move(cps);
    return result;
}

} // namespace plimsoll
