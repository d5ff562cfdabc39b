#include "model/scaling/componentsweep.h"

#include "model/core/enumnames.h"
#include "model/scaling/sweep.h"

#include <cmath>
#include <cstdio>

namespace plimsoll {

namespace {

std::string fmt(const char *format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string rateText(double v)
{
    return v >= 1e6 ? fmt("%.3gM", v / 1e6) : v >= 1e3 ? fmt("%.4gk", v / 1e3) : fmt("%.0f", v);
}

template <typename Text>
std::string withInterval(Text text, double v, const UslInterval &ci, bool intervals)
{
    std::string out = text(v);
    if (intervals && std::isfinite(ci.lo) && std::isfinite(ci.hi))
        out += " [" + text(ci.lo) + ", " + text(ci.hi) + "]";
    return out;
}

std::string withInterval(const char *format, double v, const UslInterval &ci, bool intervals)
{
    return withInterval([format](double x) { return fmt(format, x); }, v, ci, intervals);
}

} // namespace

std::optional<int> ComponentSweepModel::unitsFor(double rate, int maxUnits) const
{
    if (!ok || !(rate > 0))
        return std::nullopt;
    const double peak = fit.params.peakN();
    for (int n = 1; n <= maxUnits; ++n) {
        // A hair of tolerance so a rate exactly at a count's throughput does not round up.
        if (fit.params.throughputAt(n) >= rate * (1 - 1e-9))
            return n;
        if (double(n) > peak)
            break; // past N* every further unit costs throughput
    }
    return std::nullopt;
}

std::string ComponentSweepModel::describe() const
{
    if (!ok)
        return error;
    const bool ci = hasIntervals();
    const char *model = fit.model == UslModel::Full        ? "USL"
                        : fit.model == UslModel::Contention ? "USL, contention only,"
                                                            : "A linear fit";
    std::string out = std::string(model) + " over " + factor + " from " + std::to_string(runKeys.size()) +
                      (runKeys.size() == 1 ? " run (" : " runs (") + std::to_string(fit.points) +
                      " points, " + std::to_string(fit.distinctN) + " " + component + " counts): λ " +
                      withInterval(rateText, fit.params.lambda, fit.lambdaCi, ci) + " records/s";
    if (fit.model != UslModel::Linear)
        out += ", σ " + withInterval("%.3g", fit.params.sigma, fit.sigmaCi, ci);
    if (fit.model == UslModel::Full)
        out += ", κ " + withInterval("%.3g", fit.params.kappa, fit.kappaCi, ci);
    if (!ci)
        out += " (no intervals: " + fit.weakReason + ")";
    else
        out += " (" + fmt("%.0f%%", fit.confidenceLevel * 100) + " bootstrap intervals)";
    if (!fit.modelNote.empty())
        out += "; " + fit.modelNote;
    if (fit.peakMeasured())
        out += "; peak " + rateText(fit.xAtNStar) + " records/s at " + fmt("%.3g", fit.nStar) + " " + factor +
               ", between measured counts";
    for (const std::string &l : leftOut)
        out += "; " + l;
    return out;
}

ComponentSweepModel fitComponentSweep(const std::vector<RunRecord> &runs, const std::string &component,
                                      const std::string &factor, int bootstrapResamples)
{
    ComponentSweepModel m;
    m.component = component;
    m.factor = factor;
    const std::vector<Sweep> sweeps = findSweeps(runs, factor);
    if (sweeps.empty()) {
        m.error = "no runs sweep the " + factor + " count (records_per_s at two or more counts "
                  "under one tuning contract)";
        return m;
    }
    // The largest sweep whose points answer with a capacity (the fit's own rules: degenerate
    // and rate-limited points left out, the model no larger than its distinct counts fix).
    UslOptions options;
    options.bootstrapResamples = bootstrapResamples;
    std::string why;
    for (Sweep s : sweeps) {
        const SweepFit f = fitSweep(s, options);
        if (f.answer != SweepAnswer::Capacity) {
            if (why.empty())
                why = "the sweep over " + factor + " (" + s.workload + ") gives no capacity: " +
                      (f.headline.empty() ? f.why : f.headline);
            continue;
        }
        m.fit = f.usl;
        m.leftOut = f.leftOut;
        m.runKeys = s.runKeys;
        m.contract = s.contract;
        m.workload = s.workload;
        m.ok = true;
        return m;
    }
    m.error = why;
    return m;
}

constexpr EnumName<BrokerModel> kBrokerModelNames[] = {{BrokerModel::Auto, "auto"},
                                                       {BrokerModel::Fitted, "fitted"},
                                                       {BrokerModel::Cpu, "cpu"},
                                                       {BrokerModel::Rule, "rule"}};

const char *toString(BrokerModel model)
{
    return nameOf(kBrokerModelNames, model);
}

std::optional<BrokerModel> brokerModelFromString(const std::string &text)
{
    return valueOf(kBrokerModelNames, text);
}

UnitsChoice chooseUnits(const std::string &component, double rate, const ComponentSweepModel &sweep,
                        int cpuUnits, const std::string &cpuReason,
                        const std::vector<std::string> &cpuRuns, bool withRule, BrokerModel asked)
{
    UnitsChoice c;
    UnitsAnswer fitted{"fitted", std::nullopt, {}, sweep.runKeys, false};
    if (sweep.ok) {
        fitted.units = sweep.unitsFor(rate);
        fitted.reasoning =
            fitted.units ? rateText(rate) + " needs " + std::to_string(*fitted.units) + ": X(" +
                               std::to_string(*fitted.units) + ") = " +
                               rateText(sweep.fit.params.throughputAt(*fitted.units)) +
                               (*fitted.units > sweep.fit.maxN
                                    ? " (" + extrapolationNote(sweep.fit, *fitted.units, sweep.factor) + ")"
                                    : std::string()) +
                               " by " + sweep.describe()
                         : "cannot reach " + rateText(rate) + ": throughput tops out at " +
                               rateText(sweep.fit.xAtNStar) + " by " + sweep.describe();
    } else {
        fitted.reasoning = sweep.error;
    }
    c.answers.push_back(fitted);
    c.answers.push_back({"cpu", cpuUnits, cpuReason, cpuRuns, false});
    if (withRule)
        c.answers.push_back({"rule", std::max(1, int(std::ceil(rate / kBrokerRuleRecordsPerS - 1e-9))),
                             rateText(rate) + " at +1 " + component + " per ~200k msg/s (the Korvet "
                             "page's sizing guidance, a rule of thumb)",
                             {}, false});

    auto take = [&](const std::string &model, std::string why) {
        for (UnitsAnswer &a : c.answers)
            if (a.model == model && a.units) {
                a.taken = true;
                c.units = *a.units;
                c.taken = model;
                c.why = std::move(why);
                c.ok = true;
            }
    };
    switch (asked) {
    case BrokerModel::Fitted:
        if (!fitted.units)
            c.error = "the fitted " + component + " model cannot size this: " + fitted.reasoning;
        take("fitted", "as asked (--broker-model fitted)");
        break;
    case BrokerModel::Cpu:
        take("cpu", "as asked (--broker-model cpu)");
        break;
    case BrokerModel::Rule:
        if (!withRule)
            c.error = "there is no rule of thumb for the " + component + " count";
        else
            take("rule", "as asked (--broker-model rule)");
        break;
    case BrokerModel::Auto:
        if (sweep.hasIntervals() && fitted.units && sweep.fit.model != UslModel::Linear)
            take("fitted", "the fit across " + std::to_string(sweep.runKeys.size()) +
                               " runs has intervals and reaches the rate; it sees contention the "
                               "CPU-linear capacity cannot");
        else
            take("cpu", !sweep.ok ? "no run varies the " + sweep.factor + " count, so the CPU-linear "
                                    "capacity of the ramp stands"
                        : !sweep.hasIntervals()
                            ? "the fitted model has no intervals (" + std::to_string(sweep.fit.points) +
                                  " points fix its parameters exactly), so it is shown, not taken; "
                                  "the CPU-linear capacity of the ramp stands"
                        : sweep.fit.model == UslModel::Linear
                            ? "the fit is linear (" + std::to_string(sweep.fit.distinctN) + " " +
                                  sweep.component + " counts cannot fix a contention term), so it sees "
                                  "nothing the CPU-linear capacity does not; the CPU-linear capacity "
                                  "of the ramp stands"
                            : "the fitted model cannot reach the rate; the CPU-linear capacity "
                              "of the ramp stands");
        break;
    }
    if (!c.error.empty())
        c.ok = false;
    return c;
}

} // namespace plimsoll
