#include "model/trends/changepoints.h"

#include "model/trends/incompletebeta.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <queue>
#include <unordered_set>
#include <utility>

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

} // namespace

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

namespace {


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
// Q̂ = 2/(n+m) · (between − m·W(X)/(n−1) − n·W(Y)/(m−1)) for n = τ − s, m = κ − τ: the inner
// loop multiplies by the window's reciprocals (`inverse[i]` = 1/i) instead of dividing three
// times per pair, most of a search's time.
Candidate bestSplit(const PairSums &sums, std::size_t s, std::size_t e, const std::vector<double> &inverse)
{
    Candidate best;
    for (std::size_t tau = s + 1; tau < e; ++tau) {
        const std::size_t n = tau - s;
        const double withinX = sums.w(s, tau);
        const double xTerm = n > 1 ? withinX * inverse[n - 1] : 0; // W(X)/(n−1)
        for (std::size_t kappa = tau + 1; kappa <= e; ++kappa) {
            const std::size_t m = kappa - tau;
            const double withinY = sums.w(tau, kappa);
            const double between = sums.w(s, kappa) - withinX - withinY;
            const double yTerm = m > 1 ? withinY * inverse[m - 1] : 0; // W(Y)/(m−1)
            const double q = 2 * (between - double(m) * xTerm - double(n) * yTerm) * inverse[n + m];
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
    std::vector<double> inverse(len + 1, 0.0);
    for (std::size_t i = 1; i <= len; ++i)
        inverse[i] = 1.0 / double(i);
    for (;;) {
        Candidate best;
        std::size_t bestFrom = 0, bestTo = 0;
        std::size_t from = 0;
        for (std::size_t k = 0; k <= cuts.size(); ++k) {
            const std::size_t to = k < cuts.size() ? cuts[k] : len;
            if (to - from > 1) {
                const Candidate c = bestSplit(sums, from, to, inverse);
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

namespace {

// The looser threshold the split step looks for candidates at, as the Hunter paper does, so that
// a change one window misses as marginal can still be confirmed by the merge step.
double weakThreshold(double p)
{
    return p < 0.05 ? p * 10 : (p < 0.5 ? p * 2 : p);
}

std::uint64_t rangeHash(const std::vector<double> &series, std::size_t from, std::size_t to)
{
    // FNV-1a over each value's bits: equal bits, equal hash; any changed value, almost surely
    // another.
    std::uint64_t h = 1469598103934665603ULL;
    for (std::size_t i = from; i < to; ++i) {
        std::uint64_t bits = 0;
        static_assert(sizeof bits == sizeof(double));
        std::memcpy(&bits, &series[i], sizeof bits);
        h = (h ^ bits) * 1099511628211ULL;
    }
    return h;
}

std::uint64_t blockHash(const std::vector<double> &series, std::size_t block)
{
    return rangeHash(series, block * ChangePointState::kBlock, (block + 1) * ChangePointState::kBlock);
}

// The first value that may differ from those `state` examined: the start of the first block
// whose hash differs, or the end of what was examined when every kept value is unchanged.
std::size_t firstChanged(const std::vector<double> &series, const ChangePointOptions &options,
                         const ChangePointState &state)
{
    if (state.window != options.window || !(state.pValue == options.pValue))
        return 0;
    const std::size_t blocks = std::min(state.blockHashes.size(), series.size() / ChangePointState::kBlock);
    for (std::size_t b = 0; b < blocks; ++b)
        if (blockHash(series, b) != state.blockHashes[b])
            return b * ChangePointState::kBlock;
    const std::size_t wholeBlocks = blocks * ChangePointState::kBlock;
    if (blocks == state.blockHashes.size() && series.size() >= state.size &&
        rangeHash(series, wholeBlocks, state.size) == state.tailHash)
        return state.size; // runs appended, none changed
    return wholeBlocks;
}

// Step 2: the weak points (sorted) merged into the strong ones. Each round removes the point with
// the largest p-value while that is ≥ pValue (then the smallest change while ≤ minMagnitude),
// the first in series order among equals, and tests its two neighbours again. The points are a
// linked list and two heaps pick each round's point, so a series with a hundred thousand weak
// points merges in k log k, not k²; the rounds, and every number, are those of a scan.
ChangePointResult mergeStep(const std::vector<double> &series, const std::vector<std::size_t> &weak,
                            const ChangePointOptions &options)
{
    ChangePointResult result;
    const std::size_t k = weak.size();
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    std::vector<ChangePoint> cps(k);
    std::vector<std::size_t> prev(k), next(k);
    for (std::size_t i = 0; i < k; ++i) {
        prev[i] = i == 0 ? kNone : i - 1;
        next[i] = i + 1 < k ? i + 1 : kNone;
    }
    const auto stats = [&](std::size_t i) {
        const std::size_t from = prev[i] == kNone ? 0 : weak[prev[i]];
        const std::size_t to = next[i] == kNone ? series.size() : weak[next[i]];
        return testSplit(series, from, weak[i], to);
    };
    for (std::size_t i = 0; i < k; ++i)
        cps[i] = stats(i);
    result.weak = cps;

    // Two heaps pick each round's point: the largest p-value (then the first in series order),
    // and the smallest magnitude (likewise). A point tested again is pushed anew; entries of
    // removed points or of an earlier test are skipped when they come to the top.
    struct Entry
    {
        double key; // −p-value, or the magnitude: the smallest comes first
        std::size_t point;
        std::uint32_t version;
    };
    const auto later = [](const Entry &a, const Entry &b) {
        return a.key != b.key ? a.key > b.key : a.point > b.point;
    };
    using Heap = std::priority_queue<Entry, std::vector<Entry>, decltype(later)>;
    Heap byP(later), byMagnitude(later);
    std::vector<std::uint32_t> version(k, 0);
    std::vector<bool> removed(k, false);
    const auto enter = [&](std::size_t i) {
        byP.push({-cps[i].pValue, i, version[i]});
        byMagnitude.push({cps[i].magnitude(), i, version[i]});
    };
    const auto top = [&](Heap &heap) {
        while (!heap.empty() && (removed[heap.top().point] || heap.top().version != version[heap.top().point]))
            heap.pop();
        return heap.empty() ? kNone : heap.top().point;
    };
    for (std::size_t i = 0; i < k; ++i)
        enter(i);
    for (;;) {
        std::size_t weakest = top(byP);
        if (weakest == kNone)
            break;
        if (cps[weakest].pValue < options.pValue) {
            weakest = top(byMagnitude);
            if (cps[weakest].magnitude() > options.minMagnitude)
                break;
        }
        removed[weakest] = true;
        const std::size_t before = prev[weakest], after = next[weakest];
        if (before != kNone)
            next[before] = after;
        if (after != kNone)
            prev[after] = before;
        // Both neighbours now border a longer segment: test them again against it.
        for (const std::size_t neighbour : {before, after}) {
            if (neighbour == kNone)
                continue;
            cps[neighbour] = stats(neighbour);
            ++version[neighbour];
            enter(neighbour);
        }
    }
    for (std::size_t i = 0; i < k; ++i)
        if (!removed[i])
            result.strong.push_back(cps[i]);
    return result;
}

// Step 1 over the whole series, taking the windows wholly before `reuseBefore` from `kept`
// instead of examining them (kept: nullptr to examine every window). Fills `windows` with the
// whole windows that found a change. False when `kept` does not fit the series (the caller
// examines it afresh).
bool splitStep(const std::vector<double> &series, const ChangePointOptions &options,
               const ChangePointState *kept, std::size_t reuseBefore, std::vector<std::size_t> &weak,
               std::vector<ChangePointState::Window> &windows, std::size_t &reexaminedFrom)
{
    const std::size_t n = series.size();
    const std::size_t window = static_cast<std::size_t>(std::max(options.window, 2));
    const std::size_t step = window / 2;
    const double weakP = weakThreshold(options.pValue);
    std::size_t next = 0; // the next kept window
    std::unordered_set<std::size_t> seen;
    reexaminedFrom = n;
    for (std::size_t start = 0; start < n;) {
        const std::size_t end = std::min(start + window, n);
        std::vector<std::size_t> found;
        if (kept && start + window <= reuseBefore) {
            // The window's values are those examined before: what it found then stands.
            if (next < kept->windows.size() && kept->windows[next].start < start)
                return false; // a kept window the walk stepped over: not this series' state
            if (next < kept->windows.size() && kept->windows[next].start == start)
                found = kept->windows[next++].found;
        } else {
            reexaminedFrom = std::min(reexaminedFrom, start);
            found = divideWindow(series, start, end, weakP);
        }
        if (!found.empty() && start + window <= n)
            windows.push_back({start, found});
        // Overlapping windows may find the same point again: it counts once.
        for (std::size_t idx : found)
            if (seen.insert(idx).second)
                weak.push_back(idx);
        // The next window starts at the last change found, so the segment after it is
        // examined whole, or half a window on.
        start = std::max(found.empty() ? std::size_t(0) : found.back(), start + step);
    }
    std::sort(weak.begin(), weak.end());
    return true;
}

ChangePointResult detect(const std::vector<double> &series, const ChangePointOptions &options,
                         ChangePointState *state, std::size_t *reexaminedFrom)
{
    std::size_t from = series.size();
    std::vector<std::size_t> weak;
    std::vector<ChangePointState::Window> windows;
    // Values before this one are those `state` examined.
    std::size_t reuseBefore = state ? firstChanged(series, options, *state) : 0;
    if (series.size() >= 3 && !splitStep(series, options, state, reuseBefore, weak, windows, from)) {
        weak.clear();
        windows.clear();
        reuseBefore = 0;
        splitStep(series, options, nullptr, 0, weak, windows, from);
    }
    if (reexaminedFrom)
        *reexaminedFrom = from;
    if (state) {
        ChangePointState next;
        next.window = options.window;
        next.pValue = options.pValue;
        next.size = series.size();
        for (std::size_t b = 0; b < series.size() / ChangePointState::kBlock; ++b)
            next.blockHashes.push_back((b + 1) * ChangePointState::kBlock <= reuseBefore
                                           ? state->blockHashes[b]
                                           : blockHash(series, b));
        next.tailHash = rangeHash(series, next.blockHashes.size() * ChangePointState::kBlock, series.size());
        next.windows = std::move(windows);
        *state = std::move(next);
    }
    if (series.size() < 3)
        return {};
    return mergeStep(series, weak, options);
}

} // namespace

ChangePointResult detectChangePoints(const std::vector<double> &series, const ChangePointOptions &options)
{
    return detect(series, options, nullptr, nullptr);
}

ChangePointResult detectChangePoints(const std::vector<double> &series, const ChangePointOptions &options,
                                     ChangePointState &state, std::size_t *reexaminedFrom)
{
    return detect(series, options, &state, reexaminedFrom);
}

// Little-endian 64-bit words: a tag and version, the options, the size, the block hashes, the
// tail's hash, then each window as its start, its count and its indexes.
std::string ChangePointState::serialize() const
{
    std::vector<std::uint64_t> words = {0x3153504350ULL /* "PCPS1" */, std::uint64_t(window)};
    std::uint64_t bits = 0;
    std::memcpy(&bits, &pValue, sizeof bits);
    words.push_back(bits);
    words.push_back(size);
    words.push_back(blockHashes.size());
    words.insert(words.end(), blockHashes.begin(), blockHashes.end());
    words.push_back(tailHash);
    words.push_back(windows.size());
    for (const Window &w : windows) {
        words.push_back(w.start);
        words.push_back(w.found.size());
        words.insert(words.end(), w.found.begin(), w.found.end());
    }
    std::string out;
    out.reserve(words.size() * 8);
    for (std::uint64_t w : words)
        for (int i = 0; i < 8; ++i)
            out.push_back(static_cast<char>((w >> (8 * i)) & 0xff));
    return out;
}

std::optional<ChangePointState> ChangePointState::parse(std::string_view bytes)
{
    if (bytes.size() % 8 != 0)
        return std::nullopt;
    std::size_t at = 0;
    const std::size_t count = bytes.size() / 8;
    const auto word = [&](std::uint64_t &w) {
        if (at >= count)
            return false;
        w = 0;
        for (int i = 0; i < 8; ++i)
            w |= std::uint64_t(static_cast<unsigned char>(bytes[at * 8 + std::size_t(i)])) << (8 * i);
        ++at;
        return true;
    };
    ChangePointState s;
    std::uint64_t tag = 0, window = 0, bits = 0, size = 0, blocks = 0, windows = 0;
    if (!word(tag) || tag != 0x3153504350ULL || !word(window) || window > 1'000'000 || !word(bits) ||
        !word(size) || !word(blocks) || blocks > count || blocks != size / kBlock)
        return std::nullopt;
    s.window = int(window);
    std::memcpy(&s.pValue, &bits, sizeof bits);
    s.size = size;
    s.blockHashes.resize(blocks);
    for (std::uint64_t &h : s.blockHashes)
        if (!word(h))
            return std::nullopt;
    if (!word(s.tailHash) || !word(windows) || windows > count)
        return std::nullopt;
    for (std::uint64_t k = 0; k < windows; ++k) {
        Window w;
        std::uint64_t start = 0, found = 0;
        if (!word(start) || !word(found) || found > count)
            return std::nullopt;
        w.start = start;
        w.found.resize(found);
        for (std::size_t &i : w.found) {
            std::uint64_t v = 0;
            if (!word(v) || v >= size)
                return std::nullopt;
            i = v;
        }
        s.windows.push_back(std::move(w));
    }
    if (at != count)
        return std::nullopt;
    return s;
}

} // namespace plimsoll
