#pragma once
// The regularized incomplete beta function I_x(a, b), behind the t-test of the change points
// (model/trends/changepoints.h) and the F-test of variance changes (seriesanalysis.h).
//
// Threading: pure function.

namespace plimsoll {

// I_x(a, b) for a, b > 0; 0 for x ≤ 0, 1 for x ≥ 1.
double regularizedIncompleteBeta(double a, double b, double x);

} // namespace plimsoll
