// Trend baselines on the command line: `changes` (change points over the history), `compare`
// (two runs, usable as a nightly gate), `export --format otava-csv` and `contract` (which
// settings make runs comparable, per scenario family). JSON shapes are documented in the README.

#include "app/command.h"

#include "app/dataexport.h"
#include "app/optiondomain.h"
#include "model/otavacsv.h"
#include "model/runcomparison.h"
#include "model/trendchanges.h"

#include <QFile>
#include <QSaveFile>

#include <cmath>
#include <iostream>

namespace plimsoll {

namespace {

using nlohmann::json;

// JSON has no infinity or NaN: an unbounded N* or a missing interval end is null.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

const char *directionWord(Direction d)
{
    switch (d) {
    case Direction::HigherIsBetter:
        return "higher";
    case Direction::LowerIsBetter:
        return "lower";
    case Direction::Neutral:
        break;
    }
    return "neutral";
}

json differencesJson(const std::vector<ContractDifference> &diffs)
{
    json out = json::array();
    for (const auto &d : diffs)
        out.push_back({{"key", d.key},
                       {"baseline", d.baseline ? json(*d.baseline) : json(nullptr)},
                       {"current", d.current ? json(*d.current) : json(nullptr)}});
    return out;
}

ContractPolicies policiesFor(const CliContext &c, const std::vector<std::string> &exclude)
{
    ContractPolicies p = ContractPolicies::load(c.storePath);
    p.addGlobalExclusions(exclude);
    return p;
}

struct ChangesArgs
{
    std::string scenario;
    std::vector<std::string> metrics;
    std::string since;
    int window = 50;
    double pvalue = 0.001;
    double minMagnitude = 0;
    std::vector<std::string> exclude;
    bool json = false;

    static constexpr Domain kWindow = Domain::count(2, 100000);
    static constexpr Domain kPValue = Domain::aboveUpTo(0, 1);
    static constexpr Domain kMinMagnitude =
        Domain::atLeast(0).withNote("a fraction of the mean before: 0.05 = 5 %");
};

json changesJson(const ChangesReport &r)
{
    json series = json::array();
    for (const SeriesChanges &s : r.series) {
        json changes = json::array();
        for (const DetectedChange &c : s.changes)
            changes.push_back({{"index", c.change.index},
                               {"time", c.timestamp},
                               {"run_key", c.runKey},
                               {"commit", c.commit},
                               {"image_digest", c.imageDigest},
                               {"mean_before", c.change.meanBefore},
                               {"stddev_before", c.change.stddevBefore},
                               {"mean_after", c.change.meanAfter},
                               {"stddev_after", c.change.stddevAfter},
                               {"forward_change_percent", c.change.forwardChangePercent()},
                               {"pvalue", c.change.pValue},
                               {"verdict", toString(c.verdict)}});
        series.push_back({{"target", s.series.target},
                          {"scenario", s.series.scenario},
                          {"metric", s.series.metric},
                          {"direction", directionWord(s.series.direction)},
                          {"contract", s.series.contract.canonical()},
                          {"points", s.series.points.size()},
                          {"changes", changes}});
    }
    json baselines = json::array();
    for (const BaselineChange &b : r.baselineChanges)
        baselines.push_back({{"target", b.target},
                             {"scenario", b.scenario},
                             {"time", b.timestamp},
                             {"run_key", b.runKey},
                             {"commit", b.commit},
                             {"previous_run_key", b.previousRunKey},
                             {"differences", differencesJson(b.differences)}});
    return {{"window", r.query.options.window},
            {"pvalue", r.query.options.pValue},
            {"min_magnitude", r.query.options.minMagnitude},
            {"since", r.query.since.empty() ? json(nullptr) : json(r.query.since)},
            {"change_count", r.changeCount()},
            {"series", series},
            {"baseline_changes", baselines}};
}

void printChanges(const ChangesReport &r)
{
    for (const SeriesChanges &s : r.series) {
        for (const DetectedChange &c : s.changes) {
            char line[160];
            std::snprintf(line, sizeof line, "%+.1f %% (p=%.2g) %s", c.change.forwardChangePercent(),
                          c.change.pValue, toString(c.verdict));
            std::cout << c.timestamp << "  " << s.series.scenario << "  " << s.series.metric << "  "
                      << line << "  run " << c.runKey << (c.commit.empty() ? "" : " @ " + c.commit)
                      << "\n";
        }
    }
    for (const BaselineChange &b : r.baselineChanges) {
        std::cout << b.timestamp << "  " << b.scenario << "  new baseline (contract changed:";
        for (const auto &d : b.differences)
            std::cout << " " << d.key;
        std::cout << ")  run " << b.runKey << "\n";
    }
    std::cout << r.changeCount() << " change point" << (r.changeCount() == 1 ? "" : "s") << " in "
              << r.series.size() << " series; " << r.baselineChanges.size() << " baseline change"
              << (r.baselineChanges.size() == 1 ? "" : "s") << "\n";
}

int runChanges(const CliContext &c, const ChangesArgs &a)
{
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    try {
        const TrendHistory history = TrendHistory::load(*store, a.scenario);
        ChangesQuery q{a.scenario, a.metrics, a.since, {a.window, a.pvalue, a.minMagnitude}};
        const ChangesReport report = findChanges(history, q, policiesFor(c, a.exclude));
        if (a.json)
            std::cout << changesJson(report).dump(2) << "\n";
        else
            printChanges(report);
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    return kExitOk;
}

struct CompareArgs
{
    std::string baseline;
    std::string current;
    bool json = false;
    bool failOnRegression = false;
    int history = 10;
    std::vector<std::string> exclude;

    static constexpr Domain kHistory = Domain::count(0, 100000);
};

json identityJson(const RunIdentity &r)
{
    return {{"run_key", r.runKey}, {"timestamp", r.timestamp}, {"commit", r.commit},
            {"image_digest", r.imageDigest}, {"target", r.target}, {"tuning", r.tuning}};
}

json comparisonJson(const RunComparison &r)
{
    json scenarios = json::array();
    for (const ScenarioComparison &s : r.scenarios) {
        json j = {{"scenario", s.scenario}, {"status", s.compatible ? "compatible" : "incompatible"}};
        if (!s.compatible) {
            // No delta at all: the numbers of different contracts do not compare.
            j["differences"] = differencesJson(s.differences);
        } else {
            j["contract"] = s.contract;
            json metrics = json::array();
            for (const MetricComparison &m : s.metrics)
                metrics.push_back({{"metric", m.metric},
                                   {"direction", directionWord(m.direction)},
                                   {"baseline", m.baseline},
                                   {"current", m.current},
                                   {"delta", m.delta},
                                   {"delta_percent", m.deltaPercent ? json(*m.deltaPercent) : json(nullptr)},
                                   {"noise_band", m.noiseBand},
                                   {"history_points", m.historyPoints},
                                   {"verdict", toString(m.verdict)}});
            j["metrics"] = metrics;
        }
        scenarios.push_back(j);
    }
    json ramps = json::array();
    for (const RampComparison &rc : r.ramps) {
        json j = {{"family", rc.family}, {"factor", rc.factor}, {"metric", rc.metric},
                  {"status", rc.compatible ? "compatible" : "incompatible"},
                  {"baseline_steps", rc.baselineSteps}, {"current_steps", rc.currentSteps}};
        if (!rc.compatible)
            j["differences"] = differencesJson(rc.differences);
        if (!rc.note.empty())
            j["note"] = rc.note;
        json params = json::array();
        for (const ParameterComparison &p : rc.parameters)
            params.push_back({{"name", p.name},
                              {"direction", directionWord(p.direction)},
                              {"baseline", number(p.baseline)},
                              {"current", number(p.current)},
                              {"baseline_ci", {number(p.baselineCi.lo), number(p.baselineCi.hi)}},
                              {"current_ci", {number(p.currentCi.lo), number(p.currentCi.hi)}},
                              {"verdict", toString(p.verdict)}});
        if (rc.compatible)
            j["parameters"] = params;
        ramps.push_back(j);
    }
    return {{"baseline", identityJson(r.baseline)},
            {"current", identityJson(r.current)},
            {"noise", {{"history_runs", r.options.historyRuns},
                       {"band_sigmas", r.options.bandSigmas},
                       {"min_relative_band", r.options.minRelativeBand}}},
            {"scenarios", scenarios},
            {"scalability", ramps},
            {"only_in_baseline", r.onlyInBaseline},
            {"only_in_current", r.onlyInCurrent},
            {"summary", {{"regressions", r.count(Verdict::Regression)},
                         {"improvements", r.count(Verdict::Improvement)},
                         {"unchanged", r.count(Verdict::Unchanged)},
                         {"changed", r.count(Verdict::Changed)},
                         {"incompatible", r.count(Verdict::Incompatible)}}}};
}

void printComparison(const RunComparison &r)
{
    std::cout << "baseline " << r.baseline.runKey << " (" << r.baseline.timestamp << ")\n"
              << "current  " << r.current.runKey << " (" << r.current.timestamp << ")\n";
    for (const ScenarioComparison &s : r.scenarios) {
        if (!s.compatible) {
            std::cout << s.scenario << ": incompatible baseline, no delta; differing:";
            for (const auto &d : s.differences)
                std::cout << " " << d.key << " (" << d.baseline.value_or("unset") << " -> "
                          << d.current.value_or("unset") << ")";
            std::cout << "\n";
            continue;
        }
        for (const MetricComparison &m : s.metrics) {
            char line[200];
            std::snprintf(line, sizeof line, "%-14s %s -> %s (%+.2f %%, band ±%.3g)", toString(m.verdict),
                          formatMetric(m.metric, m.baseline).c_str(), formatMetric(m.metric, m.current).c_str(),
                          m.deltaPercent.value_or(0), m.noiseBand);
            std::cout << s.scenario << "  " << m.metric << "  " << line << "\n";
        }
    }
    for (const RampComparison &rc : r.ramps) {
        if (!rc.compatible) {
            std::cout << rc.family << "* (USL over " << rc.factor << "): incompatible baseline\n";
            continue;
        }
        for (const ParameterComparison &p : rc.parameters)
            std::cout << rc.family << "* USL " << p.name << "  " << toString(p.verdict) << "  " << p.baseline
                      << " -> " << p.current << "\n";
        if (!rc.note.empty())
            std::cout << rc.family << "* USL: " << rc.note << "\n";
    }
    std::cout << r.count(Verdict::Regression) << " regression(s), " << r.count(Verdict::Improvement)
              << " improvement(s), " << r.count(Verdict::Incompatible) << " incompatible\n";
}

int runCompare(const CliContext &c, const CompareArgs &a)
{
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    try {
        const TrendHistory history = TrendHistory::load(*store);
        for (const std::string *run : {&a.baseline, &a.current}) {
            if (!history.findRun(*run)) {
                printError("no run '" + *run + "' in " + c.storePath + " (see `plimsoll runs`)");
                return kExitFailure;
            }
        }
        ComparisonOptions o;
        o.historyRuns = a.history;
        const RunComparison r = compareRuns(history, a.baseline, a.current, policiesFor(c, a.exclude), o);
        if (a.json)
            std::cout << comparisonJson(r).dump(2) << "\n";
        else
            printComparison(r);
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
    if (a.out == "-") {
        std::cout << result.csv;
        return kExitOk;
    }
    // Written whole or not at all: a nightly job never picks up half a file.
    QSaveFile f(QString::fromStdString(a.out));
    if (!f.open(QIODevice::WriteOnly) || f.write(result.csv.data(), qint64(result.csv.size())) < 0 ||
        !f.commit()) {
        printError("cannot write " + a.out + ": " + f.errorString().toStdString());
        return kExitFailure;
    }
    std::cerr << "wrote " << result.rows << " rows, " << result.metricColumns.size() << " metric columns to "
              << a.out << "\n";
    return kExitOk;
}

struct ContractArgs
{
    std::string family;
    std::vector<std::string> exclude;
    bool clear = false;
    bool json = false;
};

int runContract(const CliContext &c, const ContractArgs &a)
{
    if (a.family.empty() && (!a.exclude.empty() || a.clear)) {
        printError("--exclude and --clear need --family");
        return kExitUsage;
    }
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    ContractPolicies policies = ContractPolicies::load(c.storePath);
    if (!a.family.empty() && (a.clear || !a.exclude.empty())) {
        policies.set(a.family, a.clear ? std::vector<std::string>{} : a.exclude);
        if (!policies.save(c.storePath)) {
            printError("cannot write " + ContractPolicies::settingsPathFor(c.storePath));
            return kExitFailure;
        }
    }
    json families = json::array();
    for (const ContractPolicy &p : policies.policies())
        families.push_back({{"family", p.family}, {"excluded", p.excluded}});
    // The contract each scenario's latest run has under these choices.
    json scenarios = json::array();
    const TrendHistory history = TrendHistory::load(*store, a.family);
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
        std::cout << json{{"settings_file", ContractPolicies::settingsPathFor(c.storePath)},
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

} // namespace

void addTrendCommands(CLI::App &app, Commands &commands)
{
    auto ch = std::make_shared<ChangesArgs>();
    auto *changes = app.add_subcommand("changes", "Change points in the history of each series "
                                                  "(E-divisive means, t-test, weak then strong)");
    changes->add_option("--scenario", ch->scenario, "Only scenarios whose name contains this");
    changes->add_option("--metric", ch->metrics, "Only these metrics (repeatable)");
    changes->add_option("--since", ch->since, "Report changes at or after this ISO-8601 time or date")
        ->transform(isoTime("--since"));
    addNumber(changes, "--window", ch->window, ChangesArgs::kWindow, "Points per window (default 50)");
    addNumber(changes, "--pvalue", ch->pvalue, ChangesArgs::kPValue, "Significance of a change (default 0.001)");
    addNumber(changes, "--min-magnitude", ch->minMagnitude, ChangesArgs::kMinMagnitude,
              "Keep only changes larger than this fraction (0.05 = 5 %)");
    changes->add_option("--contract-exclude", ch->exclude,
                        "Leave this contract key (or prefix.*) out, for this command only");
    changes->add_flag("--json", ch->json, "Machine-readable report");
    commands.add(changes, [ch](const CliContext &c) { return runChanges(c, *ch); });

    auto cmp = std::make_shared<CompareArgs>();
    auto *compare = app.add_subcommand("compare", "Compare two runs: deltas against the noise of "
                                                  "their history, or incompatible baselines");
    compare->add_option("--baseline", cmp->baseline, "Baseline run (id or run key)")->required();
    compare->add_option("--current", cmp->current, "Current run (id or run key)")->required();
    addNumber(compare, "--history", cmp->history, CompareArgs::kHistory,
              "Earlier runs the noise band is taken from (default 10)");
    compare->add_option("--contract-exclude", cmp->exclude,
                        "Leave this contract key (or prefix.*) out, for this command only");
    compare->add_flag("--json", cmp->json, "Machine-readable report");
    compare->add_flag("--fail-on-regression", cmp->failOnRegression,
                      "Exit 1 when any metric or scalability parameter regressed (a nightly gate)");
    commands.add(compare, [cmp](const CliContext &c) { return runCompare(c, *cmp); });

    auto ex = std::make_shared<ExportArgs>();
    auto *exp = app.add_subcommand("export", "Export series for other tools");
    exp->add_option("--format", ex->format, "otava-csv: Apache Otava's CSV input; csv, json, "
                                            "jsonl, hlog: runs, scenarios, metrics (app/dataexport.h)")
        ->required()
        ->check(CLI::IsMember({"otava-csv", "csv", "json", "jsonl", "hlog"}));
    exp->add_option("--scenario", ex->scenario, "Only scenarios whose name contains this");
    exp->add_option("--metric", ex->metrics, "Only these metrics (repeatable; every format but hlog)");
    exp->add_option("--out", ex->out, "File to write ('-' for standard output)")->required();
    const auto selection = addDataExportOptions(exp);
    commands.add(exp, [ex, selection](const CliContext &c) {
        if (isDataExportFormat(ex->format)) {
            selection->metrics = ex->metrics;
            return runDataExport(c, ex->format, ex->scenario, ex->out, *selection);
        }
        // Otava reads every run of a series: a selection of runs would cut its history.
        if (!selection->runs.empty() || !selection->since.empty()) {
            printError("--run and --since select runs for csv, json, jsonl and hlog; otava-csv "
                       "exports every run of each series (select with --scenario and --metric)");
            return kExitUsage;
        }
        return runExport(c, *ex);
    });

    auto ct = std::make_shared<ContractArgs>();
    auto *contract = app.add_subcommand("contract", "Show or choose which settings make runs of a "
                                                    "scenario family comparable");
    contract->add_option("--family", ct->family, "Scenario-name prefix, e.g. pipeline/produce/");
    contract->add_option("--exclude", ct->exclude, "Keys (or prefix.*) the family's contract leaves out");
    contract->add_flag("--clear", ct->clear, "Count every key again for the family");
    contract->add_flag("--json", ct->json, "Machine-readable output");
    commands.add(contract, [ct](const CliContext &c) { return runContract(c, *ct); });
}

} // namespace plimsoll
