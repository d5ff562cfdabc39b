#pragma once
// Many metrics judged at once: the Holm–Bonferroni step-down correction, so that a comparison
// of dozens of metrics flags a change in any of them by chance with probability at most α
// (the family-wise error rate), whatever the dependence between the metrics — p50, p99 and
// p99.9 of one run, or records/s and bytes/s, move together, which the Benjamini–Hochberg
// procedure would have to assume away. Holm is uniformly more powerful than plain Bonferroni.
//
// Pure functions.

#include <cstddef>
#include <vector>

namespace plimsoll {

struct HolmResult
{
    // In the order of the p-values given.
    std::vector<double> adjusted; // Holm-adjusted p-values: rejected exactly when ≤ α
    std::vector<double> level;    // the per-test level Holm holds this one to (see holm())
    std::size_t rejected = 0;     // how many hypotheses are rejected at α
};

// Sorted ascending p₍₁₎ ≤ … ≤ p₍ₘ₎, Holm rejects while p₍ₖ₎ ≤ α / (m − k + 1) and stops at the
// first that is not. adjusted₍ₖ₎ = min(1, maxⱼ≤ₖ (m − j + 1) p₍ⱼ₎). level₍ₖ₎ is α / (m − k + 1)
// for the rejected ones and for the first that is not; a p-value Holm never reaches is held to
// that same level (it would have to pass it first), so that every test is rejected exactly when
// its p-value is at most its level. Ties keep their given order.
HolmResult holm(const std::vector<double> &pValues, double alpha);

// The |t| beyond which the two-sided p-value of Student's t with `dof` degrees of freedom is
// below `alpha` (the inverse of studentTTwoSided): infinity for alpha ≤ 0, 0 for alpha ≥ 1.
double studentTCritical(double alpha, double dof);

} // namespace plimsoll
