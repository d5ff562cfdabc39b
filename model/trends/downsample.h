#pragma once
// Downsampling a long series for drawing: Largest-Triangle-Three-Buckets (Steinarsson, 2013)
// keeps the shape a line chart shows with a few points per pixel column, and the global
// minimum and maximum are always kept, so a single spike or dip in years of nightly history
// stays visible however far the chart is zoomed out.
//
// Pure computation on the caller's arrays; x must be non-decreasing.

#include <cstddef>
#include <vector>

namespace plimsoll {

// Indices into x/y (ascending) of the points to draw: every index when x.size() ≤ threshold,
// otherwise the first and the last point, one point per bucket chosen by LTTB (threshold − 2
// buckets), and the indices of the smallest and largest y — at most threshold + 2 indices.
// threshold < 3 is taken as 3. x and y must have the same size.
std::vector<std::size_t> lttbIndices(const std::vector<double> &x, const std::vector<double> &y,
                                     std::size_t threshold);

} // namespace plimsoll
