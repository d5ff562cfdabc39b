// Trend baselines on the command line: `changes` (change points over the history; printed by
// app/changesoutput.cpp), `compare` (runs side by side, two of them usable as a nightly gate),
// `export --format otava-csv` and `contract` (which settings make runs comparable, per scenario
// family). JSON shapes are documented in docs/trends.md.

#include "app/command.h"

#include "app/changesoutput.h"
#include "app/compareoutput.h"
#include "app/dataexport.h"
#include "app/optiondomain.h"
#include "model/store/sharedsettings.h"
#include "model/trends/comparisonhistory.h"
#include "export/filewriter.h"
#include "export/otavacsv.h"
#include "model/trends/runcomparison.h"
#include "model/trends/trendchanges.h"


#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>

namespace plimsoll {

namespace {

using nlohmann::json;

ContractPolicies policiesFor(const Store &store, const std::vector<std::string> &exclude)
{
    ContractPolicies p = loadContractPolicies(store);
    p.addGlobalExclusions(exclude);
    return p;
}

struct ChangesArgs
{
    ChangesRequest request; // the options go straight in; its defaults are the command's
    std::vector<std::string> exclude;
    bool json = false;

    static constexpr Domain kWindow = Domain::count(2, 100000);
    static constexpr Domain kPValue = Domain::aboveUpTo(0, 1);
    static constexpr Domain kMinMagnitude =
        Domain::atLeast(0).withNote("a fraction of the mean before: 0.05 = 5 %");
};

int runChanges(const CliContext &c, const ChangesArgs &a)
{
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    try {
        const TrendHistory history = TrendHistory::load(*store, a.request.scenarioContains);
        const ChangesReport report = findChanges(history, a.request, policiesFor(*store, a.exclude));
        const bool filtered = !a.request.scenarioContains.empty() || !a.request.metrics.empty();
        if (a.json) {
            std::cout << changesJson(report).dump(2) << "\n";
        } else if (report.series.empty() && report.baselineChanges.empty() && filtered && store->runCount() > 0) {
            // A filter that matched nothing: the store is not empty, and the filter is what to change.
            const int64_t held = store->runCount();
            std::string asked;
            if (!a.request.scenarioContains.empty())
                asked += "--scenario '" + a.request.scenarioContains + "'";
            for (const std::string &m : a.request.metrics)
                asked += (asked.empty() ? "" : " ") + std::string("--metric '") + m + "'";
            std::cout << "No series match " << asked << " (the store holds " << held << (held == 1 ? " run" : " runs")
                      << "; `plimsoll show RUN` lists a run's scenarios and metrics).\n";
        } else {
            printChanges(report);
        }
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    return kExitOk;
}

struct CompareArgs
{
    std::vector<std::string> runs; // positional: the first is the baseline unless --baseline names one
    std::string baseline;
    std::string current;
    ComparisonOptions options; // --history and --alpha go straight in
    bool json = false;
    bool failOnRegression = false;
    bool all = false;
    bool previous = false; // the baseline is previousRunOf(current)
    std::vector<std::string> exclude;

    static constexpr Domain kHistory = Domain::count(0, 100000);
};

constexpr const char *kNothingEarlier =
    "no earlier run of its scenarios on its target, so nothing to compare it with yet";

// The runs in the order shown, --baseline first when it is none of them, --current after them.
CompareRequest compareRequestOf(const CompareArgs &a)
{
    CompareRequest request;
    request.options = a.options;
    if (!a.baseline.empty() && std::find(a.runs.begin(), a.runs.end(), a.baseline) == a.runs.end())
        request.runs.push_back(a.baseline);
    request.runs.insert(request.runs.end(), a.runs.begin(), a.runs.end());
    if (!a.current.empty())
        request.runs.push_back(a.current);
    if (!a.baseline.empty())
        request.baseline = static_cast<std::size_t>(
            std::find(request.runs.begin(), request.runs.end(), a.baseline) - request.runs.begin());
    return request;
}

int runCompare(const CliContext &c, const CompareArgs &a)
{
    const double alpha = a.options.alpha;
    if (!(alpha > 0 && alpha < 1)) {
        char text[32];
        const auto written = std::to_chars(text, text + sizeof text, alpha);
        printError("--alpha " + std::string(text, written.ptr) +
                   ": must be above 0 and below 1 (the chance of flagging a change that is noise; "
                   "e.g. 0.05)");
        return kExitUsage;
    }
    if (a.previous && (a.current.empty() || !a.runs.empty())) {
        printError("--previous compares one run, given with --current RUN, with the newest earlier run of its "
                   "scenarios");
        return kExitUsage;
    }
    CompareRequest request = compareRequestOf(a);
    if (!a.previous && request.runs.size() < 2) {
        printError("compare needs two or more runs: `plimsoll compare RUN RUN [RUN...]` (the first is the "
                   "baseline unless --baseline names another), `--baseline RUN --current RUN`, or "
                   "`--current RUN --previous` (see `plimsoll runs`)");
        return kExitUsage;
    }
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    try {
        for (const std::string &run : request.runs) {
            if (!store->run(run)) {
                printError("no run '" + run + "' in " + c.storePath + " (see `plimsoll runs`)");
                return kExitFailure;
            }
        }
        if (a.previous) {
            const auto previous = previousRunOf(*store, a.current);
            if (!previous) {
                if (a.json)
                    std::cout << json{{"baseline", nullptr},
                                      {"current", {{"run_key", store->run(a.current)->record.runKey}}},
                                      {"scenarios", json::array()},
                                      {"note", kNothingEarlier}}
                                     .dump(2)
                              << "\n";
                else
                    std::cout << a.current << ": " << kNothingEarlier << ".\n";
                return kExitOk;
            }
            request.runs = {*previous, a.current};
            request.baseline = 0;
        }
        if (const std::string problem = compareRequestProblem(*store, request); !problem.empty()) {
            printError(problem);
            return kExitUsage;
        }
        const RunsComparison r = compareStoredRuns(*store, request, policiesFor(*store, a.exclude));
        if (a.json)
            std::cout << runsComparisonJson(r).dump(2) << "\n";
        else
            printRunsComparison(std::cout, r, a.all);
        return a.failOnRegression && r.hasRegression() ? kExitFailure : kExitOk;
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
}

struct ExportArgs
{
    std::string format;
    std::string scenario;
    std::vector<std::string> metrics;
    std::string out;
};

int runExport(const CliContext &c, const ExportArgs &a)
{
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    OtavaExport result;
    try {
        result = exportOtavaCsv(TrendHistory::load(*store, a.scenario), {a.scenario, a.metrics});
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    if (result.metricColumns.empty()) {
        printError("nothing to export: no scenario matches '" + a.scenario + "' with the metrics asked for");
        return kExitFailure;
    }
    // Written whole or not at all: a nightly job never picks up half a file.
    const std::string error = a.out == "-" ? writeStandardOutput(result.csv) : writeFileWhole(a.out, result.csv);
    if (!error.empty()) {
        printError(error);
        return kExitFailure;
    }
    if (a.out == "-")
        return kExitOk;
    std::cerr << "wrote " << result.rows << " rows, " << result.metricColumns.size() << " metric columns to "
              << a.out << "\n";
    return kExitOk;
}

struct ContractArgs
{
    std::string family;
    std::vector<std::string> exclude;
    std::vector<std::string> include;
    bool clear = false;
    bool json = false;
};

// The family's exclusions after --clear, --include and --exclude; nullopt (with the message
// printed) when --include names a key the family does not leave out, or a key is in both lists.
std::optional<std::vector<std::string>> changedExclusions(const ContractPolicies &policies, const ContractArgs &a)
{
    std::vector<std::string> keys = a.clear ? std::vector<std::string>{} : policies.excludedOf(a.family);
    for (const std::string &k : a.include) {
        if (std::find(a.exclude.begin(), a.exclude.end(), k) != a.exclude.end()) {
            printError("'" + k + "' is given to both --include and --exclude");
            return std::nullopt;
        }
        const auto it = std::find(keys.begin(), keys.end(), k);
        if (it != keys.end()) {
            keys.erase(it);
            continue;
        }
        std::string message = "--include " + k + ": the contract of " + a.family + " does not leave it out";
        for (const std::string &pattern : keys)
            if (ContractPolicy{a.family, {pattern}}.excludes(k))
                message = "--include " + k + ": " + a.family + " leaves it out by the pattern " + pattern +
                          "; --include " + pattern + " takes the pattern back";
        if (message.ends_with("leave it out")) {
            message += keys.empty() ? " (it leaves out nothing)" : " (it leaves out:";
            for (const std::string &e : keys)
                message += " " + e;
            message += keys.empty() ? "" : ")";
        }
        printError(message);
        return std::nullopt;
    }
    keys.insert(keys.end(), a.exclude.begin(), a.exclude.end()); // set() sorts and drops repeats
    return keys;
}

// Changes the family's choice the arguments ask for, then lists every choice and the contract
// each scenario's latest run has under them. Throws StoreError.
int showContracts(const CliContext &c, const ContractArgs &a, Store &store)
{
    ContractPolicies policies = loadContractPolicies(store);
    if (!a.family.empty() && (a.clear || !a.exclude.empty() || !a.include.empty())) {
        const auto keys = changedExclusions(policies, a);
        if (!keys)
            return kExitUsage;
        saveContractPolicy(store, a.family, *keys);
        policies.set(a.family, *keys);
    }
    json families = json::array();
    for (const ContractPolicy &p : policies.policies())
        families.push_back({{"family", p.family}, {"excluded", p.excluded}});
    // The contract each scenario's latest run has under these choices.
    json scenarios = json::array();
    const TrendHistory history = TrendHistory::load(store, a.family);
    for (const std::string &name : history.scenarioNames(a.family)) {
        for (auto r = history.runs().rbegin(); r != history.runs().rend(); ++r) {
            const auto s = std::find_if(r->scenarios.begin(), r->scenarios.end(),
                                        [&](const ScenarioRecord &sc) { return sc.name == name; });
            if (s == r->scenarios.end())
                continue;
            const ContractPolicy policy = policies.forScenario(name);
            scenarios.push_back({{"scenario", name},
                                 {"family", policy.family},
                                 {"run_key", r->runKey},
                                 {"contract", TuningContract::of(*r, *s, policy).canonical()},
                                 {"keys", TuningContract::allSettings(*r, *s)}});
            break;
        }
    }
    if (a.json) {
        std::cout << json{{"store", c.storePath},
                          {"families", families},
                          {"scenarios", scenarios}}
                         .dump(2)
                  << "\n";
        return kExitOk;
    }
    for (const ContractPolicy &p : policies.policies()) {
        std::cout << p.family << "  leaves out:";
        for (const auto &k : p.excluded)
            std::cout << " " << k;
        std::cout << "\n";
    }
    for (const auto &s : scenarios)
        std::cout << s["scenario"].get<std::string>() << "  " << s["contract"].get<std::string>() << "\n";
    return kExitOk;
}

int runContract(const CliContext &c, const ContractArgs &a)
{
    if (a.family.empty() && (!a.exclude.empty() || !a.include.empty() || a.clear)) {
        printError("--exclude, --include and --clear need --family");
        return kExitUsage;
    }
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    try {
        return showContracts(c, a, *store);
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
}

} // namespace

void addTrendCommands(CLI::App &app, Commands &commands)
{
    auto ch = std::make_shared<ChangesArgs>();
    auto *changes = app.add_subcommand("changes", "Change points in the history of each series "
                                                  "(E-divisive means, t-test, weak then strong)");
    ChangesRequest &rq = ch->request;
    changes->add_option("--scenario", rq.scenarioContains, "Only scenarios whose name contains this");
    changes->add_option("--metric", rq.metrics, "Only these metrics (repeatable)");
    changes->add_option("--since", rq.since, "Report changes at or after this ISO-8601 time or date")
        ->transform(isoTime("--since"));
    addNumber(changes, "--window", rq.options.window, ChangesArgs::kWindow, "Points per window")
        ->capture_default_str();
    addNumber(changes, "--pvalue", rq.options.pValue, ChangesArgs::kPValue, "Significance of a change")
        ->capture_default_str();
    addNumber(changes, "--min-magnitude", rq.options.minMagnitude, ChangesArgs::kMinMagnitude,
              "Keep only changes larger than this fraction (0.05 = 5 %)");
    changes->add_option("--contract-exclude", ch->exclude,
                        "Leave this contract key (or prefix.*) out, for this command only");
    changes->add_flag("--json", ch->json, "Machine-readable report");
    commands.add(changes, [ch](const CliContext &c) { return runChanges(c, *ch); });

    auto cmp = std::make_shared<CompareArgs>();
    auto *compare = app.add_subcommand("compare", "Compare runs side by side: each run's deltas against the "
                                                  "baseline, judged against the noise of their history");
    compare->add_option("runs", cmp->runs,
                        "Runs to compare (id or run key), two or more; the first is the baseline unless "
                        "--baseline names another");
    auto *baseline = compare->add_option("--baseline", cmp->baseline, "Baseline run (id or run key)");
    compare->add_flag("--previous", cmp->previous,
                      "The baseline is the newest earlier run of the current run's scenarios on its "
                      "target (a nightly job's gate); none yet: nothing to compare, exit 0")
        ->excludes(baseline);
    compare->add_option("--current", cmp->current, "A run compared with the baseline (id or run key)");
    addNumber(compare, "--history", cmp->options.historyRuns, CompareArgs::kHistory,
              "Earlier runs the noise band is taken from")
        ->capture_default_str();
    compare->add_option("--contract-exclude", cmp->exclude,
                        "Leave this contract key (or prefix.*) out, for this command only");
    compare->add_option("--alpha", cmp->options.alpha,
                        "Chance of flagging noise as a change, over all metrics at once (Holm)")
        ->capture_default_str();
    compare->add_flag("--all", cmp->all, "Every metric on a row of its own (quantile families unfolded)");
    compare->add_flag("--json", cmp->json, "Machine-readable report");
    compare->add_flag("--fail-on-regression", cmp->failOnRegression,
                      "Exit 1 when any metric or scalability parameter regressed (a nightly gate)");
    commands.add(compare, [cmp](const CliContext &c) { return runCompare(c, *cmp); });

    auto ex = std::make_shared<ExportArgs>();
    auto *exp = app.add_subcommand("export", "Export series for other tools");
    exp->add_option("--format", ex->format, "otava-csv: Apache Otava's CSV input; csv, json, "
                                            "jsonl, hlog: runs, scenarios, metrics; steps: one "
                                            "run's step table (a row per scenario)")
        ->required()
        ->check(CLI::IsMember({"otava-csv", "csv", "json", "jsonl", "hlog", "steps"}));
    exp->add_option("--scenario", ex->scenario, "Only scenarios whose name contains this");
    exp->add_option("--metric", ex->metrics, "Only these metrics (repeatable; every format but hlog)");
    exp->add_option("--out", ex->out, "File to write ('-' for standard output)")->required();
    const auto selection = addDataExportOptions(exp);
    commands.add(exp, [ex, selection](const CliContext &c) {
        if (isRunExportFormat(ex->format)) {
            ExportRequest request = *selection;
            request.format = ex->format;
            request.scenarioContains = ex->scenario;
            request.metrics = ex->metrics;
            return runDataExport(c, request, ex->out);
        }
        // Otava reads every run of a series: a selection of runs would cut its history.
        if (!selection->runs.empty() || !selection->since.empty()) {
            printError("--run and --since select runs for csv, json, jsonl, hlog and steps; otava-csv "
                       "exports every run of each series (select with --scenario and --metric)");
            return kExitUsage;
        }
        return runExport(c, *ex);
    });

    auto ct = std::make_shared<ContractArgs>();
    auto *contract = app.add_subcommand("contract", "Show or choose which settings make runs of a "
                                                    "scenario family comparable");
    contract->add_option("--family", ct->family, "Scenario-name prefix, e.g. pipeline/produce/");
    contract->add_option("--exclude", ct->exclude,
                         "Add keys (or prefix.*) to those the family's contract leaves out (repeatable)");
    contract->add_option("--include", ct->include, "Count a key left out again (repeatable)");
    contract->add_flag("--clear", ct->clear, "Count every key again for the family");
    contract->add_flag("--json", ct->json, "Machine-readable output");
    commands.add(contract, [ct](const CliContext &c) { return runContract(c, *ct); });
}

} // namespace plimsoll
