// plimsoll fit: a Universal Scalability Law fit, the knee and p99 against load over a sweep —
// the points of one ramp, or of many runs (a result file per cluster configuration) whose
// tuning contracts agree apart from the factor swept. Text for people, --json for scripts (the
// shape is in docs/sizing.md).
#include "app/command.h"
#include "model/core/units.h"
#include "app/optiondomain.h"
#include "app/sizingoptions.h"

#include "model/core/catalog.h"
#include "model/scaling/sweepfit.h"
#include "model/store/sharedsettings.h"

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
    std::string prefix, workload, x = "producers", y = "records_per_s", range;
    std::vector<std::string> exclude;
    std::vector<double> predict;
    int resamples = 1000;
    double kneeLatencyFactor = KneeOptions{}.latencyFactor;
    bool json = false;

    static constexpr Domain kPredict = Domain::above(0).withNote("a load factor's value, e.g. producers");
    static constexpr Domain kResamples = Domain::count(0, 100000);
};

json p99Json(const std::vector<P99AtLoad> &p99s)
{
    json out = json::array();
    for (const P99AtLoad &p : p99s)
        out.push_back({{"x", p.x}, {"p99_s", p.p99}, {"points", p.points}});
    return out;
}

json predictionsJson(const std::vector<UslPrediction> &predictions, const UslFit &fit, const std::string &factor)
{
    json out = json::array();
    for (const UslPrediction &p : predictions) {
        const std::string note = extrapolationNote(fit, p.x, factor);
        out.push_back({{"x", p.x},
                       {"y", number(p.y)},
                       {"lo", number(p.lo)},
                       {"hi", number(p.hi)},
                       {"extrapolated", note.empty() ? json(nullptr) : json(note)}});
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

json fitJson(const FitArgs &a, const SweepFitResult &r)
{
    const Sweep &sw = r.sweep;
    const SweepFit &f = r.fit;
    const UslFit &fit = f.usl;
    const bool capacity = f.answer == SweepAnswer::Capacity;
    json pts = json::array();
    for (const SweepPoint &p : sw.points)
        pts.push_back({{"run", p.runKey},
                       {"scenario", p.scenario},
                       {"timestamp", p.timestamp},
                       {"x", p.x},
                       {"y", p.y},
                       {"p99_s", optionalNumber(p.p99)},
                       {"offered", optionalNumber(p.offered)},
                       {"x_inferred_from", p.xInferredFrom.empty() ? json(nullptr) : json(p.xInferredFrom)},
                       {"left_out", p.leftOut.empty() ? json(nullptr) : json(p.leftOut)}});
    json leftOut = json::array();
    for (const SweepKeyDifference &d : sw.leftOut) {
        json values = json::array();
        for (const auto &v : d.values)
            values.push_back(v ? json(*v) : json(nullptr));
        leftOut.push_back({{"key", d.key}, {"values", values}});
    }
    // Only a capacity fit has parameters; the other answers state none rather than a curve the
    // points cannot support.
    auto param = [capacity](double v) { return capacity ? number(v) : json(nullptr); };
    auto ci = [capacity](const UslInterval &i) { return capacity ? interval(i) : json(nullptr); };
    const std::string model = capacity ? toString(fit.model) : toString(f.answer);
    return {{"model", model},
            {"answer", toString(f.answer)},
            {"headline", f.headline},
            {"left_out_points", f.leftOut},
            {"run", sw.runKeys.front()},
            {"runs", sw.runKeys},
            {"x_factor", a.x},
            {"y_metric", a.y},
            {"workload", sw.workload},
            {"same_as_x", sw.sameAsX},
            {"contract", sw.contract},
            {"left_out", leftOut},
            {"distinct_x", sw.distinctX},
            {"lambda", param(fit.params.lambda)},
            {"sigma", param(fit.params.sigma)},
            {"kappa", param(fit.params.kappa)},
            {"n_star", param(fit.nStar)},
            {"x_at_n_star", param(fit.xAtNStar)},
            {"peak", capacity ? json(toString(fit.peak)) : json(nullptr)},
            {"n_star_note", capacity ? json(fit.nStarNote) : json(nullptr)},
            {"model_note", capacity ? json(fit.modelNote) : json(nullptr)},
            {"limit", capacity ? json(toString(fit.limit)) : json(nullptr)},
            {"r2", param(fit.r2)},
            {"rmse", param(fit.rmse)},
            {"points", capacity ? fit.points : int(sw.points.size()) - f.degenerate},
            {"distinct_n", capacity ? fit.distinctN : sw.distinctX},
            {"weak", capacity && fit.weak},
            {"weak_reason", capacity ? fit.weakReason : std::string()},
            {"ci",
             {{"level", fit.confidenceLevel},
              {"resamples", capacity ? fit.resamples : 0},
              {"lambda", ci(fit.lambdaCi)},
              {"sigma", ci(fit.sigmaCi)},
              {"kappa", ci(fit.kappaCi)},
              {"n_star", ci(fit.nStarCi)},
              {"x_at_n_star", ci(fit.xAtNStarCi)}}},
            {"predictions", predictionsJson(r.predictions, fit, a.x)},
            {"knee", kneeJson(f)},
            {"knee_note", f.kneeNote},
            {"p99_against_load", p99Json(r.p99AgainstLoad)},
            {"data", pts}};
}

void printFit(const FitArgs &a, const SweepFitResult &r)
{
    const Sweep &sw = r.sweep;
    const SweepFit &f = r.fit;
    const UslFit &fit = f.usl;
    std::printf("%s\n", f.headline.c_str());
    std::printf("  %zu points of %s from %zu run%s, %d distinct %s\n", sw.points.size(),
                sw.workload.c_str(), sw.runKeys.size(), sw.runKeys.size() == 1 ? "" : "s", sw.distinctX,
                a.x.c_str());
    for (const std::string &l : f.leftOut)
        std::printf("  %s\n", l.c_str());
    for (const std::string &same : sw.sameAsX)
        std::printf("  topology.%s equals %s at every point: the same load, not a setting that differs\n",
                    same.c_str(), a.x.c_str());
    for (const SweepKeyDifference &d : sw.leftOut)
        std::printf("  left out of the contract, differs among the points: %s\n", d.describe().c_str());
    if (f.answer == SweepAnswer::Capacity) {
        std::printf("  %s fit of %s against %s: %d points, %d distinct %s\n",
                    fit.model == UslModel::Full ? "USL" : fit.model == UslModel::Contention ? "Contention-only" : "Linear",
                    a.y.c_str(), a.x.c_str(), fit.points, fit.distinctN, a.x.c_str());
        std::printf("  lambda %.6g [%.6g, %.6g]\n", fit.params.lambda, fit.lambdaCi.lo, fit.lambdaCi.hi);
        if (fit.model != UslModel::Linear)
            std::printf("  sigma  %.4g [%.4g, %.4g]\n", fit.params.sigma, fit.sigmaCi.lo, fit.sigmaCi.hi);
        if (fit.model == UslModel::Full)
            std::printf("  kappa  %.4g [%.4g, %.4g]\n", fit.params.kappa, fit.kappaCi.lo, fit.kappaCi.hi);
        if (fit.peakMeasured())
            std::printf("  N* %.4g (X %.6g): %s\n", fit.nStar, fit.xAtNStar, fit.nStarNote.c_str());
        else
            std::printf("  N*: %s\n", fit.nStarNote.c_str());
        std::printf("  r2 %.4f; %s: %s\n", fit.r2, toString(fit.limit), fit.limitReason.c_str());
        if (fit.weak)
            std::printf("  weak fit: %s\n", fit.weakReason.c_str());
        for (const UslPrediction &p : r.predictions) {
            const std::string note = extrapolationNote(fit, p.x, a.x);
            std::printf("  at %g: %.6g [%.6g, %.6g]%s\n", p.x, p.y, p.lo, p.hi,
                        note.empty() ? "" : ("  (" + note + ")").c_str());
        }
    }
    if (f.knee && f.knee->ok)
        std::printf("  knee: %s\n", f.knee->reason.c_str());
    else
        std::printf("  knee: %s\n", f.knee ? f.knee->error.c_str() : f.kneeNote.c_str());
    std::printf("  %12s %14s %10s  %s\n", a.x.c_str(), a.y.c_str(), "p99", "run / scenario");
    for (const SweepPoint &p : sw.points) {
        char p99[32] = "—";
        if (p.p99)
            std::snprintf(p99, sizeof p99, "%.4g ms", *p.p99 * 1e3);
        std::string notes;
        if (!p.xInferredFrom.empty())
            notes += " (x from " + p.xInferredFrom + ")";
        if (!p.leftOut.empty())
            notes += " [left out: " + p.leftOut + "]";
        std::printf("  %12.6g %14.6g %10s  %s / %s%s\n", p.x, p.y, p99, p.runKey.c_str(),
                    p.scenario.c_str(), notes.c_str());
    }
}

std::optional<UslOptions> uslOptions(const FitArgs &a)
{
    UslOptions options;
    options.bootstrapResamples = a.resamples;
    if (a.range.empty())
        return options;
    const auto colon = a.range.find(':');
    const std::string from = colon == std::string::npos ? a.range : a.range.substr(0, colon);
    const std::string to = colon == std::string::npos ? std::string() : a.range.substr(colon + 1);
    const auto fromValue = from.empty() ? std::optional<double>() : parseDecimal(from);
    const auto toValue = to.empty() ? std::optional<double>() : parseDecimal(to);
    if (colon == std::string::npos || (!from.empty() && !fromValue) || (!to.empty() && !toValue)) {
        printError("--fit-range '" + a.range + "' is not A:B (e.g. 1:12)");
        return std::nullopt;
    }
    if (fromValue && toValue && *fromValue > *toValue) {
        printError("--fit-range '" + a.range + "': A must not be above B (e.g. " + to + ":" + from + ")");
        return std::nullopt;
    }
    options.fitFrom = fromValue;
    options.fitTo = toValue;
    return options;
}

// The request `fit` runs, from its options; nullopt after printing the usage error.
std::optional<SweepFitRequest> fitRequest(const FitArgs &a)
{
    const auto options = uslOptions(a);
    if (!options)
        return std::nullopt;
    if (!a.select.any() && a.prefix.empty() && a.workload.empty()) {
        printError("fit needs runs: --run (repeatable) or a filter (--scenario, --tool, --target, "
                   "--since, --until, --scenarios)");
        return std::nullopt;
    }
    std::string error;
    const auto selection = parseRunSelection(a.select, a.samples, &error);
    if (!selection) {
        printError(error);
        return std::nullopt;
    }
    SweepFitRequest request;
    request.evidence = *selection;
    request.spec.factor = a.x;
    request.spec.metric = a.y;
    request.spec.scenarioPrefix = a.prefix;
    request.spec.workload = a.workload;
    request.spec.excluded = a.exclude;
    request.usl = *options;
    request.knee.latencyFactor = a.kneeLatencyFactor;
    request.predict = a.predict;
    if (const auto problem = request.validate()) {
        const char *option = problem->field == SweepFitRequest::Problem::Factor              ? "--x"
                             : problem->field == SweepFitRequest::Problem::KneeLatencyFactor ? "--knee-latency-factor"
                                                                                             : "--predict";
        printError(std::string(option) + " " + problem->message);
        return std::nullopt;
    }
    return request;
}

int runFit(const CliContext &c, const FitArgs &a)
{
    auto request = fitRequest(a);
    if (!request)
        return kExitUsage;
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    SweepFitResult result;
    try {
        request->spec.policies = loadContractPolicies(*store);
        result = runSweepFit(*store, *request);
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    if (!result.evidenceNote.empty() && !a.json)
        std::printf("Evidence: %s (%s)\n", result.selection.c_str(), result.evidenceNote.c_str());
    if (!result.ok) {
        printError(result.error);
        return kExitFailure;
    }
    if (a.json)
        std::cout << fitJson(a, result).dump(2) << "\n";
    else
        printFit(a, result);
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
    cmd->add_option("--workload", fit->workload,
                    "Only points of this workload, as a refusal names them (e.g. redis-benchmark/SET/c-*/P-1)");
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
