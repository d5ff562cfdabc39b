#pragma once
// Change points in one series (one metric of one scenario under one tuning contract, oldest
// first): E-divisive means with a Student's t significance test over overlapping windows,
// weak then strong change points, after Fleming et al., "Hunter: Using Change Point Detection
// to Hunt for Performance Regressions" (ICPE 2023), the method of Apache Otava.
//
//  1. Split: windows of `window` points, each starting half a window after the last (or at the
//     last change found). In each window, the split τ (and the end κ of the right-hand part)
//     maximising the energy divergence Q̂ of Matteson & James (α = 1) is a candidate; the
//     candidate stands when a two-sided t-test between its neighbouring segments gives
//     p ≤ the weak threshold (10 × pValue below 0.05), and the window is split again.
//     The union over windows is the set of weak change points.
//  2. Merge: the weak point with the largest p-value is removed while it is ≥ pValue (then the
//     one with the smallest relative change while that is ≤ minMagnitude), and its neighbours
//     are re-tested against their new neighbouring segments, until all remaining points pass.
//     Both neighbours are re-tested; Otava re-tests only the right one, so on rare series a
//     left neighbour keeps a stale p-value there (tests/model/otava shows the two cases).
//
// A change point's index is the first point after the change. Deterministic: no permutation
// test, no random numbers; identical input gives identical output.
//
// Threading: pure functions over values.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

struct ChangePointOptions
{
    int window = 50;          // points per window, ≥ 2
    double pValue = 0.001;    // significance of the final (strong) change points
    double minMagnitude = 0;  // relative change (0.05 = 5 %) a change must exceed to be kept
};

struct ChangePoint
{
    std::size_t index = 0; // first point after the change
    double meanBefore = 0;
    double stddevBefore = 0; // population standard deviation of the segment before
    double meanAfter = 0;
    double stddevAfter = 0;
    double pValue = 1;
    double tStatistic = 0;

    // (after / before − 1) × 100; 0 when the mean before is 0.
    double forwardChangePercent() const;
    // max(|after/before − 1|, |before/after − 1|), the merge step's measure of size.
    double magnitude() const;
    bool operator==(const ChangePoint &) const = default;
};

struct ChangePointResult
{
    std::vector<ChangePoint> weak;   // after the split step, with stats over weak segments
    std::vector<ChangePoint> strong; // after the merge step: the change points to report
};

ChangePointResult detectChangePoints(const std::vector<double> &series,
                                     const ChangePointOptions &options = {});

// What the split step found in a series, kept so that the series, grown by new runs or changed
// in part, is examined again only from the first window the new or changed values reach (a
// night's runs appended to years of history: the last window or two). The merge step, cheap
// beside the split, always runs over the whole series. Plain data; serialize() gives the bytes
// a store keeps, parse() reads them back (nullopt for anything else).
struct ChangePointState
{
    // Values are compared in blocks of this many by a 64-bit hash of their bits: a changed
    // value anywhere sends the examination back to the start of its block.
    static constexpr std::size_t kBlock = 1024;
    struct Window
    {
        std::size_t start = 0;
        std::vector<std::size_t> found; // absolute indexes, sorted
        bool operator==(const Window &) const = default;
    };
    int window = 0; // the options examined with (another window or threshold starts afresh)
    double pValue = 0;
    std::size_t size = 0;                   // values examined
    std::vector<std::uint64_t> blockHashes; // of each whole block of those values
    std::uint64_t tailHash = 0;             // of the values after the last whole block
    // Each whole window (start + window ≤ size) in which the split step found a change; the
    // windows between, which found none, follow from these.
    std::vector<Window> windows;

    std::string serialize() const;
    static std::optional<ChangePointState> parse(std::string_view bytes);
    bool operator==(const ChangePointState &) const = default;
};

// The same result as detectChangePoints(series, options), bit for bit, examining again only
// what changed since `state` was kept; `state` is then that of `series`. `reexaminedFrom`, when
// given, is set to the first value the split step examined again (series.size(): none).
ChangePointResult detectChangePoints(const std::vector<double> &series, const ChangePointOptions &options,
                                     ChangePointState &state, std::size_t *reexaminedFrom = nullptr);

// Two-sided p-value of Student's t-test with pooled variance between two segments described
// by mean, population standard deviation and size. 1 when there are fewer than 3 points.
double tTestPValue(double mean1, double std1, std::size_t n1, double mean2, double std2,
                   std::size_t n2, double *tOut = nullptr);

// P(|T| ≥ |t|) for Student's t with `dof` degrees of freedom.
double studentTTwoSided(double t, double dof);

} // namespace plimsoll
