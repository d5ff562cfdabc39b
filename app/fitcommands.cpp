// plimsoll fit: a Universal Scalability Law fit, the knee and p99 against load over a sweep —
// the points of one ramp, or of many runs (a result file per cluster configuration) whose
// tuning contracts agree apart from the factor swept. Text for people, --json for scripts (the
// shape is in the README).
#include "app/command.h"
#include "app/optiondomain.h"
#include "app/sizingoptions.h"

#include "model/catalog.h"
#include "model/sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

namespace plimsoll {

void addFitCommands(CLI::App &, Commands &);

namespace {

using nlohmann::json;

// JSON has no infinity: an unbounded value (N* of a fit without coherency) is null.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
json optionalNumber(const std::optional<double> &v) { return v ? number(*v) : json(nullptr); }
json interval(const UslInterval &i) { return json::array({number(i.lo), number(i.hi)}); }

struct FitArgs
{
    RunSelection select;
    std::string samples = "auto";
    std::string prefix, x = "producers", y = "records_per_s", range;
    std::vector<std::string> exclude;
    std::vector<double> predict;
    int resamples = 1000;
    double kneeLatencyFactor = KneeOptions{}.latencyFactor;
    bool json = false;

    static constexpr Domain kPredict = Domain::above(0).withNote("a load factor's value, e.g. producers");
    static constexpr Domain kResamples = Domain::count(0, 100000);
};

// p99 against load: the median p99 of the points at each x.
json p99AgainstLoad(const Sweep &sweep)
{
    json out = json::array();
    for (size_t i = 0; i < sweep.points.size();) {
        std::vector<double> p99s;
        size_t j = i;
        for (; j < sweep.points.size() && sweep.points[j].x == sweep.points[i].x; ++j)
            if (sweep.points[j].p99)
                p99s.push_back(*sweep.points[j].p99);
        if (!p99s.empty()) {
            std::sort(p99s.begin(), p99s.end());
            const size_t n = p99s.size();
            const double median = n % 2 ? p99s[n / 2] : (p99s[n / 2 - 1] + p99s[n / 2]) / 2;
            out.push_back({{"x", sweep.points[i].x}, {"p99_s", median}, {"points", n}});
        }
        i = j;
    }
    return out;
}

json kneeJson(const SweepFit &f)
{
    if (!f.knee)
        return nullptr;
    const KneeResult &k = *f.knee;
    if (!k.ok)
        return {{"ok", false}, {"error", k.error}};
    return {{"ok", true},
            {"rule", toString(k.rule)},
            {"knee_offered", k.kneeStep >= 0 ? json(k.kneeOffered) : json(nullptr)},
            {"knee_achieved", k.kneeStep >= 0 ? json(k.kneeAchieved) : json(nullptr)},
            {"capacity", k.capacity},
            {"bounded", k.bounded},
            {"ceiling", k.ceiling},
            {"baseline_p99_s", number(k.baselineP99)},
            {"reason", k.reason}};
}

json fitJson(const FitArgs &a, const Sweep &sw, const SweepFit &f, const json &predictions)
{
    const UslFit &fit = f.usl;
    json pts = json::array();
    for (const SweepPoint &p : sw.points)
        pts.push_back({{"run", p.runKey},
                       {"scenario", p.scenario},
                       {"timestamp", p.timestamp},
                       {"x", p.x},
                       {"y", p.y},
                       {"p99_s", optionalNumber(p.p99)},
                       {"offered", optionalNumber(p.offered)},
                       {"x_inferred_from", p.xInferredFrom.empty() ? json(nullptr) : json(p.xInferredFrom)}});
    json leftOut = json::array();
    for (const SweepKeyDifference &d : sw.leftOut) {
        json values = json::array();
        for (const auto &v : d.values)
            values.push_back(v ? json(*v) : json(nullptr));
        leftOut.push_back({{"key", d.key}, {"values", values}});
    }
    return {{"model", "usl"},
            {"run", sw.runKeys.front()},
            {"runs", sw.runKeys},
            {"x_factor", a.x},
            {"y_metric", a.y},
            {"contract", sw.contract},
            {"left_out", leftOut},
            {"distinct_x", sw.distinctX},
            {"lambda", fit.params.lambda},
            {"sigma", fit.params.sigma},
            {"kappa", fit.params.kappa},
            {"n_star", number(fit.nStar)},
            {"x_at_n_star", number(fit.xAtNStar)},
            {"n_star_note", fit.nStarNote},
            {"limit", toString(fit.limit)},
            {"r2", fit.r2},
            {"rmse", fit.rmse},
            {"points", fit.points},
            {"distinct_n", fit.distinctN},
            {"weak", fit.weak},
            {"weak_reason", fit.weakReason},
            {"ci",
             {{"level", fit.confidenceLevel},
              {"resamples", fit.resamples},
              {"lambda", interval(fit.lambdaCi)},
              {"sigma", interval(fit.sigmaCi)},
              {"kappa", interval(fit.kappaCi)},
              {"n_star", interval(fit.nStarCi)},
              {"x_at_n_star", interval(fit.xAtNStarCi)}}},
            {"predictions", predictions},
            {"knee", kneeJson(f)},
            {"knee_note", f.kneeNote},
            {"p99_against_load", p99AgainstLoad(sw)},
            {"data", pts}};
}

void printFit(const FitArgs &a, const Sweep &sw, const SweepFit &f, const json &predictions)
{
    const UslFit &fit = f.usl;
    std::printf("USL fit of %s against %s: %d points from %zu run%s, %d distinct %s\n",
                a.y.c_str(), a.x.c_str(), fit.points, sw.runKeys.size(),
                sw.runKeys.size() == 1 ? "" : "s", fit.distinctN, a.x.c_str());
    for (const SweepKeyDifference &d : sw.leftOut)
        std::printf("  left out of the contract, differs among the points: %s\n", d.describe().c_str());
    std::printf("  lambda %.6g [%.6g, %.6g]\n  sigma  %.4g [%.4g, %.4g]\n  kappa  %.4g [%.4g, %.4g]\n",
                fit.params.lambda, fit.lambdaCi.lo, fit.lambdaCi.hi, fit.params.sigma,
                fit.sigmaCi.lo, fit.sigmaCi.hi, fit.params.kappa, fit.kappaCi.lo, fit.kappaCi.hi);
    std::printf("  N* %.4g (X %.6g): %s\n  r2 %.4f; %s: %s\n", fit.nStar, fit.xAtNStar,
                fit.nStarNote.c_str(), fit.r2, toString(fit.limit), fit.limitReason.c_str());
    if (fit.weak)
        std::printf("  weak fit: %s\n", fit.weakReason.c_str());
    for (const auto &p : predictions)
        std::printf("  at %g: %.6g [%.6g, %.6g]\n", p["x"].get<double>(), p["y"].get<double>(),
                    p["lo"].get<double>(), p["hi"].get<double>());
    if (f.knee && f.knee->ok)
        std::printf("  knee: %s\n", f.knee->reason.c_str());
    else
        std::printf("  knee: %s\n", f.knee ? f.knee->error.c_str() : f.kneeNote.c_str());
    std::printf("  %12s %14s %10s  %s\n", a.x.c_str(), a.y.c_str(), "p99", "run / scenario");
    for (const SweepPoint &p : sw.points) {
        char p99[32] = "—";
        if (p.p99)
            std::snprintf(p99, sizeof p99, "%.4g ms", *p.p99 * 1e3);
        std::printf("  %12.6g %14.6g %10s  %s / %s%s\n", p.x, p.y, p99, p.runKey.c_str(),
                    p.scenario.c_str(), p.xInferredFrom.empty() ? "" : (" (x from " + p.xInferredFrom + ")").c_str());
    }
}

std::optional<UslOptions> uslOptions(const FitArgs &a)
{
    UslOptions options;
    options.bootstrapResamples = a.resamples;
    if (a.range.empty())
        return options;
    const auto colon = a.range.find(':');
    try {
        if (colon == std::string::npos)
            throw std::invalid_argument("no colon");
        if (colon > 0)
            options.fitFrom = std::stod(a.range.substr(0, colon));
        if (colon + 1 < a.range.size())
            options.fitTo = std::stod(a.range.substr(colon + 1));
    } catch (const std::exception &) {
        printError("--fit-range '" + a.range + "' is not A:B (e.g. 1:12)");
        return std::nullopt;
    }
    return options;
}

int runFit(const CliContext &c, FitArgs a)
{
    const auto options = uslOptions(a);
    if (!options)
        return kExitUsage;
    if (!a.select.any() && a.prefix.empty()) {
        printError("fit needs runs: --run (repeatable) or a filter (--scenario, --tool, --target, "
                   "--since, --until, --scenarios)");
        return kExitUsage;
    }
    if (!(a.kneeLatencyFactor > 1)) {
        printError("--knee-latency-factor must be more than 1 (p99 over the low-load p99)");
        return kExitUsage;
    }
    if (a.x != kOfferedRateFactor && !findFactor(a.x)) {
        std::string known;
        for (const FactorInfo &f : factorCatalog())
            known += (known.empty() ? "" : ", ") + std::string(f.name);
        printError("--x must be a load factor: " + known + ", or " + kOfferedRateFactor + " (got '" +
                   a.x + "')");
        return kExitUsage;
    }
    std::string error;
    const auto selection = parseRunSelection(a.select, a.samples, &error);
    if (!selection) {
        printError(error);
        return kExitUsage;
    }
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    Evidence evidence;
    try {
        evidence = readEvidence(*store, *selection, false);
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    const std::vector<RunRecord> *runs = &evidence.runs;
    if (!evidence.note.empty() && !a.json)
        std::printf("Evidence: %s (%s)\n", selection->describe().c_str(), evidence.note.c_str());
    SweepSpec spec;
    spec.factor = a.x;
    spec.metric = a.y;
    spec.scenarioPrefix = a.prefix;
    spec.scenarioContains = a.select.scenario;
    spec.excluded = a.exclude;
    spec.policies = ContractPolicies::load(c.storePath);
    const Sweep sweep = assembleSweep(*runs, spec, evidence.sources);
    if (!sweep.ok) {
        printError(sweep.error + " (" + std::to_string(runs->size()) + " runs selected)");
        return kExitFailure;
    }
    KneeOptions knee;
    knee.latencyFactor = a.kneeLatencyFactor;
    const SweepFit f = fitSweep(sweep, *options, knee);
    if (!f.usl.ok) {
        printError("no fit for " + a.y + " against " + a.x + " over " + std::to_string(sweep.points.size()) +
                   " points of " + std::to_string(sweep.runKeys.size()) + " runs: " + f.usl.error);
        return kExitFailure;
    }
    json predictions = json::array();
    for (double n : a.predict) {
        const UslPrediction p = f.usl.predict(n);
        predictions.push_back({{"x", n}, {"y", number(p.y)}, {"lo", number(p.lo)}, {"hi", number(p.hi)}});
    }
    if (a.json)
        std::cout << fitJson(a, sweep, f, predictions).dump(2) << "\n";
    else
        printFit(a, sweep, f, predictions);
    return kExitOk;
}

} // namespace

void addFitCommands(CLI::App &app, Commands &commands)
{
    auto fit = std::make_shared<FitArgs>();
    auto *cmd = app.add_subcommand(
        "fit", "Fit the Universal Scalability Law, the knee and p99 against load over a sweep of "
               "one run or many");
    addRunSelectionOptions(cmd, fit->select, fit->samples,
                           "Runs having a scenario whose name contains this, and only those scenarios");
    cmd->add_option("--scenarios", fit->prefix, "Scenario name prefix (e.g. pipeline/produce/)");
    cmd->add_option("--x", fit->x, "Load factor (producers, brokers, shards, partitions, ..., offered_rate)")
        ->capture_default_str();
    cmd->add_option("--y", fit->y, "Metric (records_per_s, bytes_per_s, ...)")->capture_default_str();
    cmd->add_option("--contract-exclude", fit->exclude,
                    "Leave this contract key (or prefix.*) out, to sweep across runs that differ in it");
    cmd->add_option("--fit-range", fit->range, "Only points with A ≤ x ≤ B (A:B, either may be empty)");
    addNumber(cmd, "--predict", fit->predict, FitArgs::kPredict, "Predict at these N (comma-separated)")
        ->delimiter(',');
    addNumber(cmd, "--resamples", fit->resamples, FitArgs::kResamples, "Bootstrap resamples (0: no intervals)")
        ->capture_default_str();
    cmd->add_option("--knee-latency-factor", fit->kneeLatencyFactor,
                    "The knee's latency rule: p99 above this many times the low-load p99")
        ->capture_default_str();
    cmd->add_flag("--json", fit->json, "Machine-readable output");
    commands.add(cmd, [fit](const CliContext &c) { return runFit(c, *fit); });
}

} // namespace plimsoll
