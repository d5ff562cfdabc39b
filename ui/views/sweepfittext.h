#pragma once
// The words of a fit across runs as the Scaling view's Across runs panel shows them: every value
// in its unit (records/s grouped, latencies in ms, dimensionless σ and κ without exponents), an
// interval beside each parameter or the reason it has none.

#include "model/scaling/sweepfit.h"

#include <QString>

namespace plimsoll {

// "λ 199,812 rec/s per broker [193,420 rec/s, 206,010 rec/s]" (λ's unit is the metric's, per
// unit of the factor).
QString sweepLambdaText(const SweepFitResult &result, const SweepFitRequest &request);
// "σ 0.0812 [0.0620, 0.101]", "κ 0 [0, 0.000310]"; without brackets when the fit has no
// intervals, which sweepIntervalNote() then explains.
QString sweepSigmaText(const SweepFitResult &result, const SweepFitRequest &request);
QString sweepKappaText(const SweepFitResult &result, const SweepFitRequest &request);
// "95 % intervals from 1000 bootstrap refits", or "no interval (2 points for as many free
// parameters: no residual degrees of freedom)".
QString sweepIntervalNote(const SweepFitResult &result, const SweepFitRequest &request);
// R², N* and where throughput is bound, one line.
QString sweepShapeText(const SweepFitResult &result, const SweepFitRequest &request);
// The knee when every point has an offered rate, else why there is none.
QString sweepKneeText(const SweepFitResult &result);
// "1 broker 4.00 ms · 2 brokers 8.00 ms · …"; empty when no point has a p99.
QString sweepP99Text(const SweepFitResult &result, const QString &factor);
// The contract the points share and the keys left out of it.
QString sweepContractText(const SweepFitResult &result);
// A value of the load factor: counts without decimals, rates grouped.
QString factorValueText(double x, const std::string &factor);

} // namespace plimsoll
