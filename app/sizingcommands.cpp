// plimsoll fit | size | placement | budget: the scaling models and the sizing engine from the
// command line. Each prints a table for people or, with --json, one object for scripts (the
// shapes are in the README).
#include "app/clioutput.h"
#include "app/command.h"
#include "app/optiondomain.h"
#include "app/sizingoptions.h"

#include "model/catalog.h"
#include "model/latencybudget.h"
#include "model/placement.h"
#include "model/ramppoints.h"
#include "model/sizing.h"
#include "model/units.h"
#include "model/usl.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

namespace plimsoll {

namespace {

using nlohmann::json;

// JSON has no infinity: an unbounded value (N* of a fit without coherency) is null.
json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json interval(const UslInterval &i)
{
    return json::array({number(i.lo), number(i.hi)});
}

std::optional<double> seconds(const std::string &text, const char *what, const Domain &domain)
{
    std::string error;
    const auto d = parseDuration(text, &error);
    if (!d) {
        printError(std::string(what) + ": " + error);
        return std::nullopt;
    }
    const double s = std::chrono::duration<double>(*d).count();
    if (const auto problem = domain.check(what, s)) {
        printError(*problem);
        return std::nullopt;
    }
    return s;
}

// ---------------------------------------------------------------------------------------- fit

struct FitArgs
{
    std::string run, prefix, x = "producers", y = "records_per_s", range;
    std::vector<double> predict;
    int resamples = 1000;
    bool json = false;

    static constexpr Domain kPredict = Domain::above(0).withNote("a load factor's value, e.g. producers");
    static constexpr Domain kResamples = Domain::count(0, 100000);
};

int runFit(const CliContext &c, const FitArgs &a)
{
    UslOptions options;
    options.bootstrapResamples = a.resamples;
    if (!a.range.empty()) {
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
            return kExitUsage;
        }
        if (options.fitFrom && options.fitTo && *options.fitFrom > *options.fitTo) {
            printError("--fit-range '" + a.range + "': A must not be above B (e.g. 1:12)");
            return kExitUsage;
        }
    }
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    std::vector<RunRecord> runs;
    try {
        runs = readRunRecords(*store, {a.run});
    } catch (const StoreError &e) {
        printError(std::string(e.what()) + " (see `plimsoll runs`)");
        return kExitFailure;
    }
    const std::vector<RampPoint> ramp = rampPoints(runs.front(), a.prefix, a.x, a.y);
    std::vector<UslPoint> points;
    for (const RampPoint &p : ramp)
        points.push_back({p.x, p.y});
    const UslFit fit = UslFitter(options).fit(points);
    if (!fit.ok) {
        printError("no fit for " + a.y + " against " + a.x + " in " + a.run + " scenarios '" +
                   a.prefix + "*' (" + std::to_string(ramp.size()) + " points): " + fit.error);
        return kExitFailure;
    }
    json predictions = json::array();
    for (double n : a.predict) {
        const UslPrediction p = fit.predict(n);
        predictions.push_back({{"x", n}, {"y", number(p.y)}, {"lo", number(p.lo)}, {"hi", number(p.hi)}});
    }
    if (a.json) {
        json pts = json::array();
        for (const RampPoint &p : ramp)
            pts.push_back({{"scenario", p.scenario}, {"x", p.x}, {"y", p.y}});
        const json out = {
            {"model", "usl"},
            {"run", runs.front().runKey},
            {"x_factor", a.x},
            {"y_metric", a.y},
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
            {"data", pts}};
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    std::printf("USL fit of %s against %s, %s '%s*': %d points, %d distinct\n", a.y.c_str(),
                a.x.c_str(), runs.front().runKey.c_str(), a.prefix.c_str(), fit.points,
                fit.distinctN);
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
    return kExitOk;
}

// --------------------------------------------------------------------------------------- size

struct SizeCommandArgs
{
    SizeArgs sizing;
    bool json = false;
};

json sizingToJson(const SizingResult &r)
{
    json loads = json::array();
    for (const ComponentLoad &l : r.loads)
        loads.push_back({{"component", l.component}, {"utilization", l.utilization}, {"limit", l.limit}});
    json lines = json::array();
    for (const SizingLine &l : r.lines)
        lines.push_back({{"key", l.key}, {"label", l.label}, {"value", number(l.value)},
                         {"display", l.display}, {"reasoning", l.reasoning}, {"runs", l.runKeys}});
    return {{"rate", r.rate},
            {"brokers", r.brokers},
            {"redis_nodes", r.redisNodes},
            {"shards", r.shards},
            {"partitions", r.partitions},
            {"partition_skew", r.partitionSkew},
            {"memory_usage_bytes", r.memoryUsageBytes},
            {"memory_total_bytes", r.memoryTotalBytes},
            {"memory_per_shard_bytes", r.memoryPerShardBytes},
            {"flex_ram_bytes", r.flexRamBytes},
            {"flex_databases", r.flexDatabases},
            {"offload_streams", r.offloadStreams},
            {"p99_s", r.p99 ? json(*r.p99) : json(nullptr)},
            {"bottleneck", r.bottleneck},
            {"utilization", loads},
            {"lines", lines},
            {"warnings", r.warnings}};
}

int runSize(const CliContext &c, const SizeCommandArgs &a)
{
    std::string error;
    const auto parsed = parseSizingArgs(a.sizing, &error);
    if (!parsed) {
        printError(error);
        return kExitUsage;
    }
    const SizingInputs &in = parsed->inputs;
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    std::unique_ptr<Sizer> sizer;
    try {
        sizer = std::make_unique<Sizer>(fitSizingModels(readRunRecords(*store, a.sizing.runs), parsed->options));
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    const SizingResult r = sizer->size(in);
    if (!r.ok) {
        printError(r.error);
        return kExitFailure;
    }
    if (a.json) {
        std::cout << sizingToJson(r).dump(2) << "\n";
        return kExitOk;
    }
    for (const SizingLine &l : r.lines)
        std::printf("%-28s %-14s %s\n", l.label.c_str(), l.display.c_str(), l.reasoning.c_str());
    for (const std::string &w : r.warnings)
        std::printf("warning: %s\n", w.c_str());
    return kExitOk;
}

// ---------------------------------------------------------------------------------- placement

struct PlacementArgs
{
    int shards = 0, partitions = 0, brokers = 1;
    std::string topic = "logs", pattern = kKorvetStreamKeyPattern;
    double skewTarget = 1.25;
    bool json = false;
};

int runPlacement(const PlacementArgs &a)
{
    const Placement placement = Placement::evenShards(a.shards, a.pattern);
    const PlacementResult p = placement.place(a.topic, a.partitions);
    if (!p.ok) {
        printError(p.error);
        return kExitUsage;
    }
    const PartitionRecommendation rec =
        placement.recommendPartitions(a.brokers, a.topic, a.skewTarget);
    if (a.json) {
        json shards = json::array();
        for (const ShardLoad &s : p.shards)
            shards.push_back({{"shard", s.shard}, {"slots", s.slotCount},
                              {"count", s.partitions.size()}, {"partitions", s.partitions}});
        const json out = {{"topic", a.topic},
                          {"partitions", p.partitions},
                          {"shards", shards},
                          {"mean", p.mean},
                          {"max", p.maxPerShard},
                          {"min", p.minPerShard},
                          {"max_skew", p.maxSkew},
                          {"empty_shards", p.emptyShards},
                          {"recommended",
                           {{"partitions", rec.partitions}, {"skew", rec.skew},
                            {"found", rec.found}, {"brokers", a.brokers},
                            {"skew_target", a.skewTarget}, {"reason", rec.reason}}}};
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    std::printf("%d partitions of '%s' on %d shards: mean %.2f, max %d, min %d, max/mean skew %.2f\n",
                p.partitions, a.topic.c_str(), a.shards, p.mean, p.maxPerShard, p.minPerShard,
                p.maxSkew);
    for (const ShardLoad &s : p.shards)
        std::printf("  %-10s %3zu %s\n", s.shard.c_str(), s.partitions.size(),
                    std::string(s.partitions.size(), '#').c_str());
    std::printf("recommended: %s\n", rec.reason.c_str());
    return kExitOk;
}

// ------------------------------------------------------------------------------------- budget

struct BudgetArgs
{
    std::string p99, p999;
    std::vector<std::string> runs;
    double tolerance = 0.10;
    bool json = false;
};

json budgetedToJson(const BudgetedPoint &b, const LatencyPointOrigin *origin)
{
    json j = {{"product", b.point.product},
              {"configuration", b.point.configuration},
              {"connections", b.point.connections},
              {"pipeline", b.point.pipeline},
              {"throughput", b.point.throughput},
              {"p99_s", b.point.p99},
              {"p999_s", b.point.p999 ? json(*b.point.p999) : json(nullptr)},
              {"avg_latency_s", b.point.avgLatency ? json(*b.point.avgLatency) : json(nullptr)},
              {"qualifies", b.qualifies},
              {"reason", b.reason},
              {"little", {{"checked", b.little.checked}, {"outstanding", b.little.outstanding},
                          {"expected", b.little.expected}, {"ratio", b.little.ratio},
                          {"flagged", b.little.flagged}}}};
    if (origin) {
        j["run"] = origin->runKey;
        j["scenario"] = origin->scenario;
    }
    return j;
}

int runBudget(const CliContext &c, const BudgetArgs &a)
{
    LatencyBudget budget;
    const auto p99 = seconds(a.p99, "--p99", LatencyBudget::kP99);
    if (!p99)
        return kExitUsage;
    budget.p99 = *p99;
    if (!a.p999.empty()) {
        const auto p999 = seconds(a.p999, "--p999", LatencyBudget::kP999);
        if (!p999)
            return kExitUsage;
        budget.p999 = *p999;
    }
    budget.littleTolerance = a.tolerance;
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    std::vector<LatencyPointOrigin> origins;
    std::vector<LatencyPoint> points;
    try {
        points = latencyPoints(readRunRecords(*store, a.runs), &origins);
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    const BudgetResult r = LatencyBudgetSelector(budget).select(points);
    // Selections keep a copy of their point: find its origin by identity of the values.
    auto originOf = [&](const BudgetedPoint &b) -> const LatencyPointOrigin * {
        for (size_t i = 0; i < r.points.size(); ++i) {
            const LatencyPoint &p = r.points[i].point;
            if (p.product == b.point.product && p.configuration == b.point.configuration &&
                p.connections == b.point.connections && p.throughput == b.point.throughput &&
                p.p99 == b.point.p99)
                return &origins[i];
        }
        return nullptr;
    };
    auto selection = [&](const BudgetSelection &s) {
        return json{{"product", s.product}, {"configuration", s.configuration},
                    {"found", s.found},
                    {"best", s.found ? budgetedToJson(s.best, originOf(s.best)) : json(nullptr)}};
    };
    if (a.json) {
        json pts = json::array(), perConfig = json::array(), perProduct = json::array();
        for (size_t i = 0; i < r.points.size(); ++i)
            pts.push_back(budgetedToJson(r.points[i], &origins[i]));
        for (const auto &s : r.perConfiguration)
            perConfig.push_back(selection(s));
        for (const auto &s : r.perProduct)
            perProduct.push_back(selection(s));
        const json out = {{"budget", {{"p99_s", budget.p99},
                                      {"p999_s", budget.p999 ? json(*budget.p999) : json(nullptr)},
                                      {"little_tolerance", budget.littleTolerance}}},
                          {"points", pts},
                          {"qualifying", std::count_if(r.points.begin(), r.points.end(),
                                                       [](const BudgetedPoint &b) { return b.qualifies; })},
                          {"per_configuration", perConfig},
                          {"per_product", perProduct},
                          {"overall", selection(r.overall)},
                          {"flagged_points", r.flaggedPoints}};
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    printBudget(std::cout, budget, r);
    return kExitOk;
}

} // namespace

void addSizingCommands(CLI::App &app, Commands &commands)
{
    auto fit = std::make_shared<FitArgs>();
    auto *fitCmd = app.add_subcommand("fit", "Fit the Universal Scalability Law to a ramp");
    fitCmd->add_option("--run", fit->run, "Run id or key")->required();
    fitCmd->add_option("--scenarios", fit->prefix, "Scenario name prefix (e.g. pipeline/produce/)")
        ->required();
    fitCmd->add_option("--x", fit->x, "Load factor (producers, shards, ...)")
        ->capture_default_str()
        ->check(CLI::Validator(
            [](std::string &x) {
                if (Topology().setFactor(x, 0))
                    return std::string();
                std::string known;
                for (const FactorInfo &f : factorCatalog())
                    known += (known.empty() ? "" : ", ") + std::string(f.name);
                return "--x must be a load factor: " + known + " (got '" + x + "')";
            },
            std::string()));
    fitCmd->add_option("--y", fit->y, "Metric (records_per_s, bytes_per_s, ...)")->capture_default_str();
    fitCmd->add_option("--fit-range", fit->range, "Only points with A ≤ x ≤ B (A:B, either may be empty)");
    addNumber(fitCmd, "--predict", fit->predict, FitArgs::kPredict, "Predict at these N (comma-separated)")
        ->delimiter(',');
    addNumber(fitCmd, "--resamples", fit->resamples, FitArgs::kResamples, "Bootstrap resamples (0: no intervals)")
        ->capture_default_str();
    fitCmd->add_flag("--json", fit->json, "Machine-readable output");
    commands.add(fitCmd, [fit](const CliContext &c) { return runFit(c, *fit); });

    auto size = std::make_shared<SizeCommandArgs>();
    auto *sizeCmd = app.add_subcommand("size", "Size a deployment for a target ingest rate");
    addSizingOptions(sizeCmd, size->sizing);
    sizeCmd->add_flag("--json", size->json, "Machine-readable output");
    commands.add(sizeCmd, [size](const CliContext &c) { return runSize(c, *size); });

    auto place = std::make_shared<PlacementArgs>();
    auto *placeCmd = app.add_subcommand("placement", "Where a topic's partitions land on Redis shards");
    addNumber(placeCmd, "--shards", place->shards, kPlacementShards, "Shards (even slot ranges)")->required();
    addNumber(placeCmd, "--partitions", place->partitions, kPlacementPartitions, "Partitions")->required();
    placeCmd->add_option("--topic", place->topic, "Topic name")->capture_default_str();
    addNumber(placeCmd, "--brokers", place->brokers, kPlacementBrokers, "Brokers to spread leadership over")
        ->capture_default_str();
    addNumber(placeCmd, "--skew-target", place->skewTarget, kPlacementSkewTarget, "Max/mean skew to recommend within")
        ->capture_default_str();
    placeCmd->add_option("--key-pattern", place->pattern, "Stream key pattern")->capture_default_str();
    placeCmd->add_flag("--json", place->json, "Machine-readable output");
    commands.add(placeCmd, [place](const CliContext &) { return runPlacement(*place); });

    auto budget = std::make_shared<BudgetArgs>();
    auto *budgetCmd = app.add_subcommand("budget", "The highest throughput within a latency budget");
    budgetCmd->add_option("--p99", budget->p99, "p99 budget (e.g. 1ms)")->required();
    budgetCmd->add_option("--p999", budget->p999, "p99.9 budget");
    budgetCmd->add_option("--run", budget->runs, "Only these runs (default: all)");
    addNumber(budgetCmd, "--little-tolerance", budget->tolerance, LatencyBudget::kLittleTolerance,
              "Little's law tolerance: flag a point whose throughput × average latency misses "
              "connections × pipeline by more than this fraction")
        ->capture_default_str();
    budgetCmd->add_flag("--json", budget->json, "Machine-readable output");
    commands.add(budgetCmd, [budget](const CliContext &c) { return runBudget(c, *budget); });
}

} // namespace plimsoll
