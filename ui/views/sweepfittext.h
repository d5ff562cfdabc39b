#pragma once
// The words of a fit across runs as the Scaling view's Across runs panel shows them: every value
// in its unit (records/s grouped, latencies in ms, dimensionless σ and κ without exponents), an
// interval beside each parameter or the reason it has none.

#include "model/scaling/sweepfit.h"

#include <QString>

namespace plimsoll {

// What the points answer, first: the fit's headline (a capacity, the knee of an offered-rate
// sweep, or latency at the rate every point achieved) and the points it left out, and why.
QString sweepAnswerText(const SweepFitResult &result);
// "λ 199,812 rec/s per broker [193,420, 206,010] · σ 0.0812 [0.0620, 0.101] · κ 0 [0, 0.0003] ·
// 95 % intervals from 1000 bootstrap refits": the parameters the model fitted (a linear fit
// has λ alone, a contention-only fit λ and σ), each with its interval or the reason none.
QString sweepParametersText(const SweepFitResult &result, const SweepFitRequest &request);
// R², where N* lies (claimed only between measured points) and where throughput is bound.
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
