#include "model/scaling/sweepfit.h"

#include "model/core/catalog.h"
#include "model/store/store.h"

#include <algorithm>
#include <cmath>

namespace plimsoll {

std::optional<SweepFitRequest::Problem> SweepFitRequest::validate() const
{
    if (spec.factor != kOfferedRateFactor && !findFactor(spec.factor)) {
        std::string known;
        for (const FactorInfo &f : factorCatalog())
            known += (known.empty() ? "" : ", ") + std::string(f.name);
        return Problem{Problem::Factor, "must be a load factor: " + known + ", or " + kOfferedRateFactor +
                                            " (got '" + spec.factor + "')"};
    }
    if (!(knee.latencyFactor > 1))
        return Problem{Problem::KneeLatencyFactor, "must be more than 1 (p99 over the low-load p99)"};
    for (double x : predict)
        if (!(x > 0) || !std::isfinite(x))
            return Problem{Problem::Predict, "must be above 0 (a load factor's value, e.g. producers)"};
    return std::nullopt;
}

std::vector<P99AtLoad> p99AgainstLoad(const Sweep &sweep)
{
    std::vector<P99AtLoad> out;
    const std::vector<SweepPoint> &pts = sweep.points; // sorted by x
    for (size_t i = 0; i < pts.size();) {
        std::vector<double> p99s;
        size_t j = i;
        for (; j < pts.size() && pts[j].x == pts[i].x; ++j)
            if (pts[j].p99 && *pts[j].p99 > 0 && !pts[j].degenerate)
                p99s.push_back(*pts[j].p99);
        if (!p99s.empty()) {
            std::sort(p99s.begin(), p99s.end());
            const size_t n = p99s.size();
            const double median = n % 2 ? p99s[n / 2] : (p99s[n / 2 - 1] + p99s[n / 2]) / 2;
            out.push_back({pts[i].x, median, int(n)});
        }
        i = j;
    }
    return out;
}

std::string noIntervalReason(const UslFit &fit, const UslOptions &options)
{
    if (!fit.ok)
        return "no fit";
    if (fit.resamples > 0 && std::isfinite(fit.lambdaCi.lo) && std::isfinite(fit.lambdaCi.hi))
        return {};
    if (options.bootstrapResamples <= 0)
        return "bootstrap turned off";
    if (fit.weakReason.find("no residual degrees of freedom") != std::string::npos)
        return std::to_string(fit.points) + (fit.points == 1 ? " point" : " points") +
               " for as many free parameters: no residual degrees of freedom";
    return "no bootstrap refit converged";
}

SweepFitResult fitSweepOf(const Evidence &evidence, const SweepFitRequest &request)
{
    SweepFitResult out;
    out.selection = request.evidence.describe();
    out.evidenceNote = evidence.note;
    out.runsSelected = int(evidence.runs.size());
    SweepSpec spec = request.spec;
    if (spec.scenarioContains.empty())
        spec.scenarioContains = request.evidence.runs.scenario;
    out.sweep = assembleSweep(evidence.runs, spec, evidence.sources);
    if (!out.sweep.ok) {
        out.error = out.sweep.error + " (" + std::to_string(out.runsSelected) + " runs selected)";
        return out;
    }
    out.fit = fitSweep(out.sweep, request.usl, request.knee);
    out.p99AgainstLoad = p99AgainstLoad(out.sweep);
    if (out.fit.answer == SweepAnswer::None) {
        out.error = "no fit for " + spec.metric + " against " + spec.factor + " over " +
                    std::to_string(out.sweep.points.size()) + " points of " +
                    std::to_string(out.sweep.runKeys.size()) + " runs: " + out.fit.why;
        return out;
    }
    // Predictions are the capacity fit's; the other answers state no curve to predict from.
    if (out.fit.answer == SweepAnswer::Capacity)
        for (double x : request.predict)
            out.predictions.push_back(out.fit.usl.predict(x));
    out.ok = true;
    return out;
}

SweepFitResult runSweepFit(const Store &store, const SweepFitRequest &request)
{
    return fitSweepOf(readEvidence(store, request.evidence, false), request);
}

} // namespace plimsoll
