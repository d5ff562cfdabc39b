#include "model/trends/seriesanalysis.h"

#include "model/trends/incompletebeta.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

namespace plimsoll {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Points each side of a point whose median it is compared with, and each side of it whose
// first differences give its noise.
constexpr std::size_t kNeighbours = 5;
constexpr std::size_t kNoiseReach = 30;
// The longest run the short-run scan looks at, and the fewest points each side of a variance
// split (a variance from fewer is too loose to compare).
constexpr std::size_t kMaxShortRun = 25;
constexpr std::size_t kMinVarianceSide = 10;
// A drift replaces a chain of at least this many level changes in one direction: three steps
// are a staircase a reader can follow, more is a slope.
constexpr std::size_t kMinDriftChanges = 4;

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + long(mid), v.end());
    const double hi = v[mid];
    if (v.size() % 2)
        return hi;
    return (*std::max_element(v.begin(), v.begin() + long(mid)) + hi) / 2;
}

// Standard deviation of normal noise from the median absolute deviation of first differences
// (a difference of two independent points has √2 σ), blind to level changes and outliers.
// With `withMean`, the larger of that and the estimate from the mean absolute difference —
// which an outlier among the differences inflates, so it is asked for only about a point.
double noiseOfDifferences(const std::vector<double> &x, std::size_t from, std::size_t to, bool withMean = true)
{
    std::vector<double> d;
    for (std::size_t i = from + 1; i < to; ++i)
        d.push_back(x[i] - x[i - 1]);
    if (d.size() < 2)
        return 0;
    // The mean absolute difference too: on values that take a few levels in a pattern (a
    // deterministic wiggle, a quantized metric) most differences can be alike and their median
    // absolute deviation 0, while the series is anything but noiseless.
    double meanAbs = 0;
    for (double v : d)
        meanAbs += std::abs(v);
    meanAbs /= double(d.size());
    const double m = median(d);
    for (double &v : d)
        v = std::abs(v - m);
    return std::max(1.4826 * median(d), withMean ? meanAbs * std::sqrt(std::acos(-1.0)) / 2 : 0.0) / std::sqrt(2.0);
}

// Prefix sums for the mean and population standard deviation of any range in O(1).
class RangeStats
{
public:
    explicit RangeStats(const std::vector<double> &x) : m_sum(x.size() + 1, 0), m_sq(x.size() + 1, 0)
    {
        // Centred on the first value so that the sums of squares keep their precision.
        const double c = x.empty() ? 0 : x.front();
        for (std::size_t i = 0; i < x.size(); ++i) {
            m_sum[i + 1] = m_sum[i] + (x[i] - c);
            m_sq[i + 1] = m_sq[i] + (x[i] - c) * (x[i] - c);
        }
        m_centre = c;
    }
    double mean(std::size_t a, std::size_t b) const { return (m_sum[b] - m_sum[a]) / double(b - a) + m_centre; }
    double stddev(std::size_t a, std::size_t b) const
    {
        const double n = double(b - a);
        const double m = (m_sum[b] - m_sum[a]) / n;
        return std::sqrt(std::max(0.0, (m_sq[b] - m_sq[a]) / n - m * m));
    }

private:
    std::vector<double> m_sum, m_sq;
    double m_centre = 0;
};

ChangePoint between(const RangeStats &s, std::size_t from, std::size_t index, std::size_t to)
{
    ChangePoint cp;
    cp.index = index;
    cp.meanBefore = s.mean(from, index);
    cp.stddevBefore = s.stddev(from, index);
    cp.meanAfter = s.mean(index, to);
    cp.stddevAfter = s.stddev(index, to);
    cp.pValue = tTestPValue(cp.meanBefore, cp.stddevBefore, index - from, cp.meanAfter, cp.stddevAfter,
                            to - index, &cp.tStatistic);
    return cp;
}

// The pooled two-sample t statistic of tTestPValue(), without its p-value: the scans below
// compute this for every candidate and the p-value only for the few that could pass.
double tStatistic(double mean1, double std1, std::size_t n1, double mean2, double std2, std::size_t n2)
{
    if (n1 + n2 <= 2)
        return 0;
    const double pooled = ((double(n1) - 1) * std1 * std1 + (double(n2) - 1) * std2 * std2) / double(n1 + n2 - 2);
    const double denom = std::sqrt(pooled * (1.0 / double(n1) + 1.0 / double(n2)));
    const double diff = mean1 - mean2;
    if (denom == 0)
        return diff == 0 ? 0 : (diff > 0 ? kInf : -kInf);
    return diff / denom;
}

// The |t| below which no two-sided p-value of Student's t, at any degrees of freedom, is under
// `p`: the normal limit's, whose tails are the thinnest. A candidate below it cannot pass.
double noPassBelowT(double p)
{
    double lo = 0, hi = 40;
    for (int i = 0; i < 60; ++i) {
        const double mid = (lo + hi) / 2;
        (std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
    }
    return lo;
}

std::vector<Outlier> findOutliers(const std::vector<double> &x, double k)
{
    std::vector<Outlier> out;
    const std::size_t n = x.size();
    const double overall = noiseOfDifferences(x, 0, n, false);
    for (std::size_t i = 2; i + 2 < n; ++i) {
        const std::size_t l0 = i >= kNeighbours ? i - kNeighbours : 0;
        const std::size_t r1 = std::min(n, i + 1 + kNeighbours);
        const auto smallMedian = [&](std::size_t a, std::size_t b) {
            std::array<double, kNeighbours> v{};
            std::copy(x.begin() + long(a), x.begin() + long(b), v.begin());
            const std::size_t m = b - a, mid = m / 2;
            std::nth_element(v.begin(), v.begin() + long(mid), v.begin() + long(m));
            if (m % 2)
                return v[mid];
            return (*std::max_element(v.begin(), v.begin() + long(mid)) + v[mid]) / 2;
        };
        const double ml = smallMedian(l0, i), mr = smallMedian(i + 1, r1);
        const double dl = x[i] - ml, dr = x[i] - mr;
        if ((dl > 0) != (dr > 0) || dl == 0 || dr == 0)
            continue;
        // The noise below is at least the whole series': most points end here, cheaply.
        if (overall > 0 && std::min(std::abs(dl), std::abs(dr)) <= k * overall)
            continue;
        const std::vector<double> left(x.begin() + long(l0), x.begin() + long(i));
        const std::vector<double> right(x.begin() + long(i + 1), x.begin() + long(r1));
        // Outside every neighbour, not merely off their medians: one of two bands is no outlier.
        const auto [lo, hi] = std::minmax_element(x.begin() + long(l0), x.begin() + long(r1));
        double nearest = kInf;
        for (std::size_t j = l0; j < r1; ++j)
            if (j != i)
                nearest = std::min(nearest, std::abs(x[j] - x[i]));
        if (x[i] != *lo && x[i] != *hi)
            continue;
        // The largest of the noises before, after and over the whole series: beside a change
        // to noisier runs, the noisier side's; and a few differences alone can be quiet by chance.
        const std::size_t n0 = i >= kNoiseReach ? i - kNoiseReach : 0;
        const std::size_t n1 = std::min(n, i + kNoiseReach + 1);
        double sigma = std::max({noiseOfDifferences(x, n0, i), noiseOfDifferences(x, i + 1, n1), overall});
        const double scale = std::max(std::abs(x[i]), std::abs(ml));
        // Differences at the last digits of a double are rounding, not noise.
        if (sigma <= 1e-12 * scale)
            sigma = 0;
        // A value met again exactly nearby is a band of its own (a quantized or two-level
        // metric), not an outlier; noise never repeats a value.
        if (std::any_of(x.begin() + long(n0), x.begin() + long(n1), [&](const double &v) {
                return &v != &x[i] && std::abs(v - x[i]) <= 1e-9 * std::max(1.0, std::abs(x[i]));
            }))
            continue;
        const double dev = std::min(std::abs(dl), std::abs(dr));
        if (sigma > 0 ? dev <= k * sigma : dev <= 1e-9 * scale || nearest <= 1e-9 * scale)
            continue;
        std::vector<double> around = left;
        around.insert(around.end(), right.begin(), right.end());
        Outlier o;
        o.index = i;
        o.value = x[i];
        o.expected = median(around);
        o.sigmas = sigma > 0 ? (o.value - o.expected) / sigma : (o.value > o.expected ? kInf : -kInf);
        out.push_back(o);
    }
    return out;
}

// Within [from, to): the run shifted most surely against both the points before and after it,
// if it passes the threshold after Bonferroni; then again on either side of it.
void findShortRuns(const std::vector<double> &x, const RangeStats &s, std::size_t from, std::size_t to,
                   std::size_t minSide, double pValue, std::vector<std::size_t> &found)
{
    if (to - from < 2 * minSide)
        return;
    const std::size_t maxRun = std::min(kMaxShortRun, to - from - std::min(to - from, 2 * minSide));
    const double tFloor = noPassBelowT(pValue);
    double bestP = 1;
    std::size_t bestA = 0, bestLen = 0;
    std::size_t candidates = 0;
    for (std::size_t len = 2; len <= maxRun; ++len)
        for (std::size_t a = from + minSide; a + len + minSide <= to; ++a) {
            ++candidates;
            const std::size_t b = a + len;
            const double m = s.mean(a, b), sd = s.stddev(a, b);
            const double ml = s.mean(from, a), sl = s.stddev(from, a), mr = s.mean(b, to), sr = s.stddev(b, to);
            if (std::min(std::abs(tStatistic(ml, sl, a - from, m, sd, len)),
                         std::abs(tStatistic(m, sd, len, mr, sr, to - b))) < tFloor)
                continue;
            double tl = 0, tr = 0;
            const double pl = tTestPValue(ml, sl, a - from, m, sd, len, &tl);
            if (pl >= bestP)
                continue;
            const double pr = tTestPValue(m, sd, len, mr, sr, to - b, &tr);
            // Shifted the same way against both sides: before < run > after, or before > run < after.
            if ((tl < 0) != (tr > 0) || tl == 0 || tr == 0)
                continue;
            const double p = std::max(pl, pr);
            if (p < bestP) {
                bestP = p;
                bestA = a;
                bestLen = len;
            }
        }
    // A step the windows merged away, its segment on either side long enough (a run that
    // lasts to the segment's end).
    double stepP = 1;
    std::size_t stepAt = 0;
    for (std::size_t k = from + minSide; k + minSide <= to; ++k) {
        const double m1 = s.mean(from, k), s1 = s.stddev(from, k), m2 = s.mean(k, to), s2 = s.stddev(k, to);
        if (std::abs(tStatistic(m1, s1, k - from, m2, s2, to - k)) < tFloor)
            continue;
        const double p = tTestPValue(m1, s1, k - from, m2, s2, to - k);
        if (p < stepP) {
            stepP = p;
            stepAt = k;
        }
    }
    const std::size_t steps = to - from - 2 * minSide + 1;
    (void)x;
    const bool run = bestLen > 0 && bestP * double(candidates) < pValue;
    const bool step = stepAt > 0 && stepP * double(steps) < pValue;
    if (step && (!run || stepP * double(steps) < bestP * double(candidates))) {
        found.push_back(stepAt);
        findShortRuns(x, s, from, stepAt, minSide, pValue, found);
        findShortRuns(x, s, stepAt, to, minSide, pValue, found);
        return;
    }
    if (!run)
        return;
    found.push_back(bestA);
    found.push_back(bestA + bestLen);
    findShortRuns(x, s, from, bestA, minSide, pValue, found);
    findShortRuns(x, s, bestA + bestLen, to, minSide, pValue, found);
}

// Two-sided p-value of the F-test that two variances (of `n1` and `n2` residuals about
// known means) are equal.
double fTestPValue(double var1, std::size_t n1, double var2, std::size_t n2)
{
    if (var1 == 0 && var2 == 0)
        return 1;
    if (var1 == 0 || var2 == 0)
        return 0;
    const double d1 = double(n2), d2 = double(n1);
    const double f = var2 / var1;
    const double cdf = regularizedIncompleteBeta(d1 / 2, d2 / 2, d1 * f / (d1 * f + d2));
    return std::min(1.0, 2 * std::min(cdf, 1 - cdf));
}

void findVarianceChanges(const std::vector<double> &r, std::size_t from, std::size_t to, double pValue,
                         std::vector<VarianceChange> &found)
{
    if (to - from < 2 * kMinVarianceSide)
        return;
    std::vector<double> sq(to - from + 1, 0);
    for (std::size_t i = from; i < to; ++i)
        sq[i - from + 1] = sq[i - from] + r[i] * r[i];
    const auto var = [&](std::size_t a, std::size_t b) { return (sq[b - from] - sq[a - from]) / double(b - a); };
    // A variance of exactly 0 would make any split infinitely likely: floor it far below the noise.
    const double floor = std::max(var(from, to) * 1e-12, std::numeric_limits<double>::min());
    const auto nll = [&](std::size_t a, std::size_t b) { return double(b - a) * std::log(std::max(var(a, b), floor)); };
    double best = -kInf;
    std::size_t bestK = 0;
    for (std::size_t k = from + kMinVarianceSide; k + kMinVarianceSide <= to; ++k) {
        const double gain = nll(from, to) - nll(from, k) - nll(k, to);
        if (gain > best) {
            best = gain;
            bestK = k;
        }
    }
    if (bestK == 0)
        return;
    const std::size_t candidates = to - from - 2 * kMinVarianceSide + 1;
    const double v1 = var(from, bestK), v2 = var(bestK, to);
    const double p = fTestPValue(v1, bestK - from, v2, to - bestK);
    if (p * double(candidates) >= pValue)
        return;
    found.push_back({bestK, std::sqrt(v1), std::sqrt(v2), std::min(1.0, p * double(candidates))});
    findVarianceChanges(r, from, bestK, pValue, found);
    findVarianceChanges(r, bestK, to, pValue, found);
}

// A straight line over [from, to) when it explains the points as well as the level changes
// first..last within them do, by the Bayesian information criterion: a mean per segment and a
// position per change against an intercept and a slope.
std::optional<Drift> driftIfLineFits(const std::vector<double> &x, const RangeStats &stats, std::size_t from,
                                     std::size_t to, const std::vector<LevelChange> &changes, std::size_t first,
                                     std::size_t last)
{
    const double len = double(to - from);
    double rssSteps = 0;
    std::size_t s = from;
    for (std::size_t k = first; k <= last + 1; ++k) {
        const std::size_t e = k <= last ? changes[k].change.index : to;
        const double sd = stats.stddev(s, e);
        rssSteps += sd * sd * double(e - s);
        s = e;
    }
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t t = from; t < to; ++t) {
        sx += double(t);
        sy += x[t];
        sxx += double(t) * double(t);
        sxy += double(t) * x[t];
    }
    const double slope = (len * sxy - sx * sy) / (len * sxx - sx * sx);
    const double icept = (sy - slope * sx) / len;
    double rssLine = 0;
    for (std::size_t t = from; t < to; ++t)
        rssLine += (x[t] - icept - slope * double(t)) * (x[t] - icept - slope * double(t));
    const double tiny = std::numeric_limits<double>::min();
    const double params = double(2 * (last - first + 1) + 1);
    const double bicSteps = len * std::log(std::max(rssSteps, tiny) / len) + params * std::log(len);
    const double bicLine = len * std::log(std::max(rssLine, tiny) / len) + 2 * std::log(len);
    if (bicLine > bicSteps)
        return std::nullopt;
    Drift d;
    d.valueFrom = icept + slope * double(from);
    d.valueTo = icept + slope * double(to - 1);
    return d;
}

} // namespace

double VarianceChange::ratio() const
{
    return stddevBefore == 0 ? (stddevAfter == 0 ? 1 : kInf) : stddevAfter / stddevBefore;
}

std::vector<std::size_t> SeriesAnalysis::markedIndexes() const
{
    std::set<std::size_t> all;
    for (const Outlier &o : outliers)
        all.insert(o.index);
    for (const LevelChange &c : changes)
        if (!c.provisional)
            all.insert(c.change.index);
    for (const VarianceChange &v : varianceChanges)
        all.insert(v.index);
    for (const Drift &d : drifts)
        all.insert(d.from);
    return {all.begin(), all.end()};
}

namespace {

SeriesAnalysis analyze(const std::vector<double> &series, const SeriesAnalysisOptions &options,
                       ChangePointState *state, std::size_t *reexaminedFrom)
{
    SeriesAnalysis a;
    a.minSegment = options.minSegment;
    a.outliers = findOutliers(series, options.outlierSigmas);

    // The series without its outliers, and where each of its points came from.
    std::vector<double> x;
    std::vector<std::size_t> at;
    {
        std::size_t k = 0;
        for (std::size_t i = 0; i < series.size(); ++i) {
            if (k < a.outliers.size() && a.outliers[k].index == i) {
                ++k;
                continue;
            }
            x.push_back(series[i]);
            at.push_back(i);
        }
    }
    const std::size_t n = x.size();
    // Level changes: the windows', then short runs within each of their segments.
    std::vector<ChangePoint> level;
    if (state) {
        std::size_t from = 0;
        level = detectChangePoints(x, options.changePoints, *state, &from).strong;
        if (reexaminedFrom)
            *reexaminedFrom = from < n ? at[from] : series.size();
    } else {
        level = detectChangePoints(x, options.changePoints).strong;
    }
    if (n < 3)
        return a;
    const RangeStats stats(x);
    std::vector<std::size_t> bounds{0};
    for (const ChangePoint &c : level)
        bounds.push_back(c.index);
    bounds.push_back(n);
    std::vector<std::size_t> runs;
    for (std::size_t i = 0; i + 1 < bounds.size(); ++i)
        findShortRuns(x, stats, bounds[i], bounds[i + 1], options.minSegment, options.changePoints.pValue, runs);
    std::vector<LevelChange> changes;
    for (const ChangePoint &c : level)
        changes.push_back({c, false, false});
    if (!runs.empty()) {
        std::vector<std::size_t> all = bounds;
        all.insert(all.end(), runs.begin(), runs.end());
        std::sort(all.begin(), all.end());
        all.erase(std::unique(all.begin(), all.end()), all.end());
        const auto isNew = [&](std::size_t b) { return std::find(runs.begin(), runs.end(), b) != runs.end(); };
        for (std::size_t r : runs) {
            const auto it = std::lower_bound(all.begin(), all.end(), r);
            changes.push_back({between(stats, *(it - 1), r, *(it + 1)), false, true});
        }
        // A change of the windows beside a new one: its segments are now shorter.
        for (LevelChange &c : changes) {
            const auto it = std::lower_bound(all.begin(), all.end(), c.change.index);
            if (!c.shortRun && (isNew(*(it - 1)) || isNew(*(it + 1))))
                c.change = between(stats, *(it - 1), c.change.index, *(it + 1));
        }
        std::sort(changes.begin(), changes.end(),
                  [](const LevelChange &p, const LevelChange &q) { return p.change.index < q.change.index; });
    }
    for (LevelChange &c : changes)
        c.provisional = n - c.change.index < options.minSegment;

    // Drift: a chain of changes one way whose steps a line fits as well as the steps do. The
    // stretch may begin or end at the chain's first or last change (a flat series that starts
    // to drift keeps that change as the drift's start).
    std::vector<bool> inDrift(changes.size(), false);
    const auto up = [&](std::size_t k) { return changes[k].change.meanAfter > changes[k].change.meanBefore; };
    for (std::size_t i = 0; i < changes.size();) {
        std::size_t j = i;
        while (j + 1 < changes.size() && up(j + 1) == up(i))
            ++j;
        for (int variant = 0; variant < 4; ++variant) {
            const bool innerStart = variant & 1, innerEnd = variant & 2;
            const std::size_t first = i + innerStart;
            if (j < first + (innerEnd ? 1 : 0) || j - first + (innerEnd ? 0 : 1) < kMinDriftChanges)
                continue;
            const std::size_t last = innerEnd ? j - 1 : j; // the changes the drift replaces
            const std::size_t from = innerStart ? changes[i].change.index : (i == 0 ? 0 : changes[i - 1].change.index);
            const std::size_t to =
                innerEnd ? changes[j].change.index : (j + 1 < changes.size() ? changes[j + 1].change.index : n);
            const std::optional<Drift> d = driftIfLineFits(x, stats, from, to, changes, first, last);
            if (!d)
                continue;
            Drift drift = *d;
            drift.from = at[from];
            drift.to = at[to - 1] + 1;
            // Per point of the series, outliers included.
            const double span = double(drift.to - 1 - drift.from);
            drift.slopePerPoint = span > 0 ? (drift.valueTo - drift.valueFrom) / span : 0;
            a.drifts.push_back(drift);
            for (std::size_t k = first; k <= last; ++k)
                inDrift[k] = true;
            break;
        }
        i = j + 1;
    }

    // Variance: residuals about the level segments (a drift's about its line would be better;
    // its steps are close enough for the noise to show).
    std::vector<std::size_t> segs{0};
    for (const LevelChange &c : changes)
        segs.push_back(c.change.index);
    segs.push_back(n);
    std::vector<double> resid(n, 0);
    for (std::size_t k = 0; k + 1 < segs.size(); ++k)
        if (segs[k + 1] > segs[k]) {
            const double m = stats.mean(segs[k], segs[k + 1]);
            for (std::size_t t = segs[k]; t < segs[k + 1]; ++t)
                resid[t] = x[t] - m;
        }
    std::vector<VarianceChange> vc;
    findVarianceChanges(resid, 0, n, options.changePoints.pValue, vc);
    std::sort(vc.begin(), vc.end(), [](const VarianceChange &p, const VarianceChange &q) { return p.index < q.index; });
    for (VarianceChange &v : vc) {
        v.index = at[v.index - 1] + 1;
        a.varianceChanges.push_back(v);
    }

    for (std::size_t k = 0; k < changes.size(); ++k) {
        if (inDrift[k])
            continue;
        // An outlier just before the change sits at its first point (it was off the old level).
        LevelChange c = changes[k];
        c.change.index = at[c.change.index - 1] + 1;
        a.changes.push_back(c);
    }
    return a;
}

} // namespace

SeriesAnalysis analyzeSeries(const std::vector<double> &series, const SeriesAnalysisOptions &options)
{
    return analyze(series, options, nullptr, nullptr);
}

SeriesAnalysis analyzeSeries(const std::vector<double> &series, const SeriesAnalysisOptions &options,
                             ChangePointState &state, std::size_t *reexaminedFrom)
{
    return analyze(series, options, &state, reexaminedFrom);
}

} // namespace plimsoll