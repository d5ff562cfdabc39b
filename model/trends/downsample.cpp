#include "model/trends/downsample.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace plimsoll {

std::vector<std::size_t> lttbIndices(const std::vector<double> &x, const std::vector<double> &y,
                                     std::size_t threshold)
{
    const std::size_t n = std::min(x.size(), y.size());
    threshold = std::max<std::size_t>(threshold, 3);
    std::vector<std::size_t> out;
    if (n <= threshold) {
        out.resize(n);
        std::iota(out.begin(), out.end(), std::size_t{0});
        return out;
    }
    out.reserve(threshold + 2);
    out.push_back(0);
    // Buckets split the points between the first and the last evenly (as real numbers).
    const double every = double(n - 2) / double(threshold - 2);
    std::size_t a = 0; // the point chosen in the previous bucket
    for (std::size_t bucket = 0; bucket < threshold - 2; ++bucket) {
        const auto start = std::size_t(double(bucket) * every) + 1;
        const auto end = std::min(std::size_t(double(bucket + 1) * every) + 1, n - 1);
        // The next bucket's average point is the third corner of each triangle.
        const auto nextStart = end;
        const auto nextEnd = std::min(std::size_t(double(bucket + 2) * every) + 1, n);
        double avgX = 0, avgY = 0;
        for (std::size_t i = nextStart; i < nextEnd; ++i) {
            avgX += x[i];
            avgY += y[i];
        }
        const double count = double(std::max<std::size_t>(nextEnd - nextStart, 1));
        avgX /= count;
        avgY /= count;
        double bestArea = -1;
        std::size_t best = start;
        for (std::size_t i = start; i < end; ++i) {
            // Twice the triangle's area; the factor does not change which is largest.
            const double area =
                std::abs((x[a] - avgX) * (y[i] - y[a]) - (x[a] - x[i]) * (avgY - y[a]));
            if (area > bestArea) {
                bestArea = area;
                best = i;
            }
        }
        out.push_back(best);
        a = best;
    }
    out.push_back(n - 1);

    const auto [lo, hi] = std::minmax_element(y.begin(), y.begin() + std::ptrdiff_t(n));
    for (const auto it : {lo, hi}) {
        const auto index = std::size_t(it - y.begin());
        const auto at = std::lower_bound(out.begin(), out.end(), index);
        if (at == out.end() || *at != index)
            out.insert(at, index);
    }
    return out;
}

} // namespace plimsoll
