// plimsoll size | placement | budget: the sizing engine from the command line (fit is in
// fitcommands.cpp). Each prints a table for people or, with --json, one object for scripts (the
// shapes are in docs/sizing.md).
#include "app/clioutput.h"
#include "app/command.h"
#include "app/optiondomain.h"
#include "app/placementcluster.h"
#include "app/sizingoptions.h"
#include "app/texttable.h"

#include "model/core/catalog.h"
#include "model/scaling/evidence.h"
#include "model/sizing/budgetrequest.h"
#include "model/sizing/placementrequest.h"
#include "model/sizing/placement.h"
#include "model/scaling/ramppoints.h"
#include "model/store/savedsizing.h"
#include "model/sizing/sizing.h"
#include "model/sizing/sizingtext.h"
#include "model/core/units.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
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

// --------------------------------------------------------------------------------------- size

struct SizeCommandArgs
{
    SizeArgs sizing;
    bool json = false;
    std::string save; // a name to save the inputs and selection under
    bool saveGiven = false;
    bool replace = false;
};

// Refuses --save of a name already saved (without --replace) before any sizing is done.
std::optional<int> checkSaveName(const Store &store, const SizeCommandArgs &a)
{
    if (a.saveGiven && a.save.empty()) {
        printError("--save needs a name (it was given an empty one): --save NAME, as `plimsoll "
                   "sizings` will list it");
        return kExitUsage;
    }
    if (a.replace && a.save.empty()) {
        printError("--replace replaces a saved sizing: it needs --save NAME");
        return kExitUsage;
    }
    if (a.save.empty())
        return std::nullopt;
    if (const auto bad = SavedSizings::nameError(a.save)) {
        printError("--save: " + *bad);
        return kExitUsage;
    }
    try {
        if (const auto existing = SavedSizings::find(store, a.save); existing && !a.replace) {
            printError("a sizing named '" + a.save + "' is already saved (saved at " + existing->savedAt +
                       "): --replace overwrites it, or choose another name");
            return kExitUsage;
        }
    } catch (const std::runtime_error &e) { // SavedSizingError, StoreError
        printError(e.what());
        return kExitFailure;
    }
    return std::nullopt;
}

// Saves what the sizing was given (not what it computed: a saved sizing is sized again from the
// store when compared). Returns the store, or nullopt after saying why it could not be saved.
std::optional<std::string> saveSizing(Store &store, const SizeCommandArgs &a, const ParsedSizing &parsed)
{
    SavedSizing saved;
    saved.name = a.save;
    saved.inputs = parsed.inputs;
    saved.cpuLimit = parsed.options.cpuLimit;
    saved.evidence = parsed.evidence;
    try {
        SavedSizings::save(store, saved, a.replace);
    } catch (const SavedSizingError &e) {
        printError(e.what());
        return std::nullopt;
    }
    return store.path();
}

json sizingToJson(const SizingResult &r)
{
    json loads = json::array();
    for (const ComponentLoad &l : r.loads)
        loads.push_back({{"component", l.component}, {"utilization", l.utilization}, {"limit", l.limit}});
    json lines = json::array();
    for (const SizingLine &l : r.lines)
        lines.push_back({{"key", l.key}, {"label", l.label}, {"value", number(l.value)},
                         {"display", l.display}, {"reasoning", l.reasoning}, {"runs", l.runKeys},
                         {"evidence", toString(l.evidence)},
                         {"caveat", l.caveat.empty() ? json(nullptr) : json(l.caveat)}});
    auto choice = [](const UnitsChoice &c) {
        json answers = json::array();
        for (const UnitsAnswer &a : c.answers)
            answers.push_back({{"model", a.model},
                               {"units", a.units ? json(*a.units) : json(nullptr)},
                               {"taken", a.taken},
                               {"reasoning", a.reasoning},
                               {"runs", a.runKeys}});
        return json{{"taken", c.taken}, {"why", c.why}, {"units", c.units}, {"answers", answers}};
    };
    json consume = nullptr;
    if (r.line("consume_rate"))
        consume = {{"records_per_s", r.consumeRate},
                   {"measured", r.consumeMeasured},
                   {"margin", r.consumeMargin},
                   {"fetch_p99_s", r.fetchP99 ? json(*r.fetchP99) : json(nullptr)}};
    return {{"rate", r.rate},
            {"consume", consume},
            {"broker_models", choice(r.brokerChoice)},
            {"shard_models", choice(r.shardChoice)},
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

json evidenceJson(const EvidenceSelection &selection, const Evidence &e, const SizingModels &models)
{
    json keys = json::array();
    for (const RunRecord &r : e.runs)
        keys.push_back(r.runKey);
    json components = json::array();
    for (const ComponentEvidence &c : models.components)
        components.push_back({{"component", c.component}, {"evidence", toString(c.source)}, {"runs", c.runKeys}});
    return {{"selection", selection.describe()},
            {"samples", toString(selection.samples)},
            {"runs", keys},
            {"samples_left_out", e.samplesLeftOut},
            {"components", components},
            {"note", e.note}};
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
    if (const auto refused = checkSaveName(*store, a))
        return *refused;
    std::unique_ptr<Sizer> sizer;
    Evidence evidence;
    try {
        FittedEvidence fitted = fitEvidence(*store, parsed->evidence, parsed->options);
        evidence = std::move(fitted.evidence);
        sizer = std::make_unique<Sizer>(fitted.models);
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    const SizingResult r = sizer->size(in);
    if (!r.ok) {
        printError(r.error + (evidence.samplesLeftOut > 0 ? " (" + evidence.note + "; --samples include uses them)" : ""));
        return kExitFailure;
    }
    std::optional<std::string> savedTo;
    if (!a.save.empty() && !(savedTo = saveSizing(*store, a, *parsed)))
        return kExitFailure;
    if (a.json) {
        json out = sizingToJson(r);
        out["evidence"] = evidenceJson(parsed->evidence, evidence, sizer->models());
        if (savedTo)
            out["saved"] = {{"name", a.save}, {"store", *savedTo}};
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    std::printf("Evidence: %s (%zu run%s%s%s)\n\n", parsed->evidence.describe().c_str(), evidence.runs.size(),
                evidence.runs.size() == 1 ? "" : "s", evidence.note.empty() ? "" : "; ", evidence.note.c_str());
    // Whose runs each number rests on beside it, and what qualifies it under it.
    TextTable table({{"Quantity"}, {"Value"}, {"Evidence"}, {"Reasoning"}});
    for (const SizingLine &l : r.lines) {
        table.addRow({l.label, l.display, *label(l.evidence) ? label(l.evidence) : "—", l.reasoning});
        if (!l.caveat.empty())
            table.addSection("  ⚠ " + l.label + ": " + l.caveat);
    }
    std::fflush(stdout);
    table.print(std::cout);
    std::cout.flush();
    std::printf("\nBroker count by each model (the sizing took %s: %s)\n", r.brokerChoice.taken.c_str(),
                r.brokerChoice.why.c_str());
    for (const UnitsAnswer &a : r.brokerChoice.answers)
        std::printf("  %s %-7s %-6s %s\n", a.taken ? "*" : " ", a.model.c_str(),
                    a.units ? std::to_string(*a.units).c_str() : "—", a.reasoning.c_str());
    for (const std::string &w : r.warnings)
        std::printf("warning: %s\n", w.c_str());
    if (savedTo)
        std::printf("\nSaved as '%s' in %s (`plimsoll sizings compare` sizes it again beside others).\n",
                    a.save.c_str(), savedTo->c_str());
    return kExitOk;
}

// ---------------------------------------------------------------------------------- placement

struct PlacementArgs
{
    PlacementRequest request;
    std::string cluster;  // HOST:PORT of a live Redis Cluster: its slot map
    bool measure = false; // and the stream keys it holds
    int timeoutMs = 5000;
    bool json = false;
    std::string load, loadStep; // a stored ramp run (and step) whose partitions' measured rates
    bool topicGiven = false;

    static constexpr Domain kTimeoutMs = Domain::count(1, 3600000).withNote("milliseconds");
};

std::string placementOptionName(PlacementRequest::Problem::Field field)
{
    switch (field) {
    case PlacementRequest::Problem::Partitions: return "--partitions";
    case PlacementRequest::Problem::Brokers: return "--brokers";
    case PlacementRequest::Problem::KeyPattern: return "--key-pattern";
    case PlacementRequest::Problem::SkewTarget: return "--skew-target";
    }
    return "?";
}

// The measured load's lines under the shards: each shard's records/s, the skews side by side.
void printMeasuredLoad(const PlacementLoadComparison &c, const MeasuredPartitionLoad &load)
{
    std::printf("measured load: run %s, step %s: %s records/s over %zu partitions\n", load.runKey.c_str(),
                load.scenario.c_str(), sizingtext::grouped(c.total).c_str(), load.rates.size());
    for (const ShardMeasuredLoad &s : c.shards)
        std::printf("  %-10s %3d partition%s %12s records/s\n", s.shard.c_str(), s.partitions,
                    s.partitions == 1 ? " " : "s", sizingtext::grouped(s.recordsPerS).c_str());
    std::printf("shards max/mean: %.2f measured, %.2f predicted from partition counts (partitions "
                "max/mean %.2f measured)\n",
                c.measuredSkew, c.predictedSkew, c.partitionSkew);
}

int runPlacement(const CliContext &c, const PlacementArgs &a)
{
    PlacementRequest request = a.request;
    if (a.load.empty() && !a.loadStep.empty()) {
        printError("--load-step names a step of the run --load gives: it needs --load RUN");
        return kExitUsage;
    }
    std::optional<MeasuredPartitionLoad> load;
    if (!a.load.empty()) {
        auto store = c.openExistingStore();
        if (!store)
            return kExitFailure;
        PartitionLoadRead read;
        try {
            read = readPartitionLoad(*store, a.load, a.loadStep);
        } catch (const StoreError &e) {
            printError(e.what());
            return kExitFailure;
        }
        if (!read.load) {
            printError("--load: " + read.error);
            return kExitFailure;
        }
        load = std::move(read.load);
        // The run's own partitions and topic, unless stated: the keys its partitions hashed to.
        if (request.partitions == 0)
            request.partitions = int(load->rates.size());
        if (!a.topicGiven && !load->topic.empty())
            request.topic = load->topic;
    } else if (request.partitions == 0) {
        printError("placement needs --partitions N (or --load RUN, whose measured partitions it takes)");
        return kExitUsage;
    }
    if (const auto problem = request.validate()) {
        std::string option = placementOptionName(problem->field);
        if (problem->field == PlacementRequest::Problem::KeyPattern)
            option += " '" + request.keyPattern + "'";
        printError(option + " " + problem->message);
        return kExitUsage;
    }
    if (a.cluster.empty() == (request.shards == 0)) {
        printError(a.cluster.empty() ? "placement needs --shards N or --cluster HOST:PORT"
                                     : "--shards and --cluster exclude each other (the cluster's "
                                       "slot map says where its shards are)");
        return kExitUsage;
    }
    if (a.measure && a.cluster.empty()) {
        printError("--measure reads the keys of a live cluster: it needs --cluster HOST:PORT");
        return kExitUsage;
    }
    std::optional<ClusterPlacement> cluster;
    if (!a.cluster.empty()) {
        cluster = readClusterPlacement(a.cluster, a.measure, request.keyPattern, request.topic, a.timeoutMs);
        if (!cluster)
            return kExitFailure;
    }
    // The recommendation is the sizing's own partition model: without a stated target it takes
    // the skew of the configuration the store's ramp measured. A missing store is not created
    // here: without one the default skew target stands.
    MeasuredConfiguration measured;
    if (!request.skewTarget && std::filesystem::exists(c.storePath)) {
        auto store = c.openExistingStore();
        if (!store)
            return kExitFailure;
        try {
            measured = readMeasuredConfiguration(*store);
        } catch (const StoreError &e) {
            printError(e.what());
            return kExitFailure;
        }
    }
    const PlacementAnswer answer =
        cluster ? planPlacement(request, Placement(cluster->map.ranges, request.keyPattern), measured)
                : planPlacement(request, measured);
    const PlacementResult &p = answer.placement;
    if (!p.ok) {
        printError(p.error);
        return kExitUsage;
    }
    const PartitionPlan &rec = answer.recommended;
    std::optional<PlacementLoadComparison> comparison;
    if (load) {
        std::string error;
        comparison = compareLoad(p, *load, error);
        if (!comparison) {
            printError("--load: " + error + ": give --partitions " + std::to_string(load->rates.size()));
            return kExitUsage;
        }
    }
    if (a.json) {
        json shards = json::array();
        for (const ShardLoad &s : p.shards)
            shards.push_back({{"shard", s.shard}, {"slots", s.slotCount},
                              {"count", s.partitions.size()}, {"partitions", s.partitions}});
        json out = {{"topic", request.topic},
                    {"key_pattern", request.keyPattern},
                          {"partitions", p.partitions},
                          {"shards", shards},
                          {"mean", p.mean},
                          {"max", p.maxPerShard},
                          {"min", p.minPerShard},
                          {"max_skew", p.maxSkew},
                          {"empty_shards", p.emptyShards},
                          {"slot_split", answer.split},
                          {"warning", answer.warning.empty() ? json(nullptr) : json(answer.warning)},
                          {"recommended",
                           {{"partitions", rec.partitions}, {"skew", rec.skew},
                            {"found", rec.found}, {"brokers", request.brokers},
                            {"skew_target", rec.target}, {"basis", rec.basis},
                            {"reason", rec.reason}}}};
        if (cluster)
            addClusterJson(out, p, *cluster, request.keyPattern, request.topic);
        if (comparison) {
            json perShard = json::array();
            for (const ShardMeasuredLoad &s : comparison->shards)
                perShard.push_back({{"shard", s.shard}, {"partitions", s.partitions}, {"records_per_s", s.recordsPerS}});
            json rates = json::object();
            for (const auto &[partition, rate] : load->rates)
                rates[std::to_string(partition)] = rate;
            out["measured_load"] = {{"run", load->runKey},           {"step", load->scenario},
                                    {"records_per_s", comparison->total}, {"shards", perShard},
                                    {"partitions", rates},           {"max_skew", comparison->measuredSkew},
                                    {"predicted_skew", comparison->predictedSkew},
                                    {"partition_skew", comparison->partitionSkew}};
        }
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    std::printf("%d partitions of '%s' on %d shards (%s): mean %.2f, max %d, min %d, max/mean skew %.2f\n",
                p.partitions, request.topic.c_str(), int(p.shards.size()), answer.split.c_str(), p.mean,
                p.maxPerShard, p.minPerShard, p.maxSkew);
    if (!answer.warning.empty())
        std::printf("warning: %s\n", answer.warning.c_str());
    for (const ShardLoad &s : p.shards)
        std::printf("  %-10s %3zu %s\n", s.shard.c_str(), s.partitions.size(),
                    std::string(s.partitions.size(), '#').c_str());
    if (comparison)
        printMeasuredLoad(*comparison, *load);
    std::printf("recommended: %s\n", rec.reason.c_str());
    if (cluster)
        printClusterPlacement(p, *cluster, request.keyPattern, request.topic);
    return kExitOk;
}

// ------------------------------------------------------------------------------------- budget

struct BudgetArgs
{
    std::string p99, p999;
    BudgetRequest request; // the runs and the Little's law tolerance go straight in
    bool json = false;
};

json budgetedToJson(const BudgetedPoint &b, const LatencyPointOrigin &origin)
{
    return {{"product", b.point.product},
            {"configuration", b.point.configuration},
            {"connections", b.point.connections},
            {"pipeline", b.point.pipeline},
            {"throughput", b.point.throughput},
            {"p99_s", b.point.p99},
            {"p999_s", b.point.p999 ? json(*b.point.p999) : json(nullptr)},
            {"avg_latency_s", b.point.avgLatency ? json(*b.point.avgLatency) : json(nullptr)},
            {"qualifies", b.qualifies},
            {"left_out", b.leftOut},
            {"reason", b.reason},
            {"little", {{"checked", b.little.checked}, {"not_applicable", b.little.notApplicable},
                        {"outstanding", b.little.outstanding},
                        {"expected", b.little.expected}, {"ratio", b.little.ratio},
                        {"flagged", b.little.flagged}}},
            {"run", origin.runKey},
            {"scenario", origin.scenario}};
}

json budgetToJson(const BudgetAnswer &answer)
{
    const BudgetResult &r = answer.result;
    auto selection = [&](const BudgetSelection &s) {
        return json{{"product", s.product}, {"configuration", s.configuration},
                    {"found", s.found},
                    {"best", s.found ? budgetedToJson(s.best, answer.originOf(s.best)) : json(nullptr)},
                    {"missed_because", s.found ? json(nullptr) : json(s.missedBecause)},
                    {"all_left_out", s.allLeftOut}};
    };
    json pts = json::array(), perConfig = json::array(), perProduct = json::array(), leftOut = json::array();
    for (const BudgetedPoint &b : r.points) {
        pts.push_back(budgetedToJson(b, answer.originOf(b)));
        if (b.leftOut)
            leftOut.push_back({{"run", answer.originOf(b).runKey},
                               {"scenario", answer.originOf(b).scenario},
                               {"product", b.point.product},
                               {"configuration", b.point.configuration},
                               {"reason", b.reason}});
    }
    for (const auto &s : r.perConfiguration)
        perConfig.push_back(selection(s));
    for (const auto &s : r.perProduct)
        perProduct.push_back(selection(s));
    return {{"points", pts},
            {"qualifying", std::count_if(r.points.begin(), r.points.end(),
                                         [](const BudgetedPoint &b) { return b.qualifies; })},
            {"per_configuration", perConfig},
            {"per_product", perProduct},
            {"overall", selection(r.overall)},
            {"flagged_points", r.flaggedPoints},
            {"left_out", leftOut}};
}

int budgetCommand(const CliContext &c, BudgetArgs a)
{
    LatencyBudget &budget = a.request.budget;
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
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    BudgetAnswer answer;
    try {
        answer = runBudget(*store, a.request);
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    if (a.json) {
        json out = {{"budget", {{"p99_s", budget.p99},
                                {"p999_s", budget.p999 ? json(*budget.p999) : json(nullptr)},
                                {"little_tolerance", budget.littleTolerance}}}};
        out.update(budgetToJson(answer));
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    printBudget(std::cout, budget, answer.result, answer.read.origins);
    return kExitOk;
}

} // namespace

void addSizingCommands(CLI::App &app, Commands &commands)
{
    auto size = std::make_shared<SizeCommandArgs>();
    auto *sizeCmd = app.add_subcommand("size", "Size a deployment for a target ingest rate");
    addSizingOptions(sizeCmd, size->sizing);
    sizeCmd->add_flag("--json", size->json, "Machine-readable output");
    sizeCmd->add_option("--save", size->save,
                        "After sizing, save the inputs and run selection under this name, beside the "
                        "store (see `plimsoll sizings`)")
        ->each([size](const std::string &) { size->saveGiven = true; });
    sizeCmd->add_flag("--replace", size->replace, "With --save: overwrite a sizing saved under that name");
    commands.add(sizeCmd, [size](const CliContext &c) { return runSize(c, *size); });

    auto place = std::make_shared<PlacementArgs>();
    auto *placeCmd = app.add_subcommand("placement", "Where a topic's partitions land on Redis shards");
    addNumber(placeCmd, "--shards", place->request.shards, kPlacementShards,
              "Shards (even slot ranges); or --cluster");
    placeCmd->add_option("--cluster", place->cluster,
                         "A live Redis Cluster (HOST:PORT of a node): its slot map, by CLUSTER "
                         "SHARDS or CLUSTER SLOTS");
    placeCmd->add_flag("--measure", place->measure,
                       "With --cluster: the topic's stream keys there (SCAN, MEMORY USAGE) beside "
                       "the prediction");
    addNumber(placeCmd, "--timeout", place->timeoutMs, PlacementArgs::kTimeoutMs,
              "With --cluster: milliseconds per node")
        ->capture_default_str();
    addNumber(placeCmd, "--partitions", place->request.partitions, kPlacementPartitions,
              "Partitions (with --load: the run's measured partitions unless given)");
    placeCmd->add_option("--topic", place->request.topic, "Topic name (with --load: the run's topic unless given)")
        ->capture_default_str()
        ->each([place](const std::string &) { place->topicGiven = true; });
    placeCmd->add_option("--load", place->load,
                         "A stored ramp run against a Korvet: each partition's measured records/s (from its "
                         "high watermarks) summed per shard, beside the skew the partition counts predict");
    placeCmd->add_option("--load-step", place->loadStep,
                         "With --load: the step to read (default: the one whose partitions carried the most)");
    addNumber(placeCmd, "--brokers", place->request.brokers, kPlacementBrokers, "Brokers to spread leadership over")
        ->capture_default_str();
    addNumber(placeCmd, "--skew-target", place->request.skewTarget, kPlacementSkewTarget,
              "Max/mean skew to recommend within (default: the skew of the measured "
              "configuration, as the sizing; 1.25 without one)");
    placeCmd->add_option("--key-pattern", place->request.keyPattern, "Stream key pattern")->capture_default_str();
    placeCmd->add_flag("--json", place->json, "Machine-readable output");
    commands.add(placeCmd, [place](const CliContext &c) { return runPlacement(c, *place); });

    auto budget = std::make_shared<BudgetArgs>();
    auto *budgetCmd = app.add_subcommand("budget", "The highest throughput within a latency budget");
    budgetCmd->add_option("--p99", budget->p99, "p99 budget (e.g. 1ms)")->required();
    budgetCmd->add_option("--p999", budget->p999, "p99.9 budget");
    budgetCmd->add_option("--run", budget->request.runs, "Only these runs (default: all)");
    addNumber(budgetCmd, "--little-tolerance", budget->request.budget.littleTolerance, LatencyBudget::kLittleTolerance,
              "Little's law tolerance: flag a point whose throughput × average latency misses "
              "connections × pipeline by more than this fraction")
        ->capture_default_str();
    budgetCmd->add_flag("--json", budget->json, "Machine-readable output");
    commands.add(budgetCmd, [budget](const CliContext &c) { return budgetCommand(c, *budget); });
}

} // namespace plimsoll
