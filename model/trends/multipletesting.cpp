#include "model/trends/multipletesting.h"

#include "model/trends/changepoints.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace plimsoll {

HolmResult holm(const std::vector<double> &pValues, double alpha)
{
    const std::size_t m = pValues.size();
    HolmResult out;
    out.adjusted.assign(m, 1.0);
    out.level.assign(m, alpha);
    std::vector<std::size_t> order(m);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return pValues[a] < pValues[b]; });
    double running = 0;
    bool stopped = false;
    double stopLevel = alpha;
    for (std::size_t k = 0; k < m; ++k) {
        const std::size_t i = order[k];
        const double factor = static_cast<double>(m - k); // m − (k + 1) + 1
        running = std::max(running, std::min(1.0, factor * pValues[i]));
        out.adjusted[i] = running;
        if (!stopped) {
            out.level[i] = alpha / factor;
            // Decided on the adjusted value, so that "rejected" and "adjusted ≤ α" never part
            // in the last bit.
            if (running <= alpha) {
                ++out.rejected;
            } else {
                stopped = true;
                stopLevel = out.level[i];
            }
        } else {
            out.level[i] = stopLevel;
        }
    }
    return out;
}

double studentTCritical(double alpha, double dof)
{
    if (!(alpha > 0))
        return std::numeric_limits<double>::infinity();
    if (alpha >= 1 || !(dof > 0))
        return 0;
    // studentTTwoSided falls as |t| grows: bracket, then bisect to a relative 1e-12.
    double lo = 0, hi = 1;
    while (studentTTwoSided(hi, dof) > alpha) {
        lo = hi;
        hi *= 2;
        if (hi > 1e300)
            return std::numeric_limits<double>::infinity();
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = (lo + hi) / 2;
        (studentTTwoSided(mid, dof) > alpha ? lo : hi) = mid;
    }
    return hi;
}

} // namespace plimsoll
