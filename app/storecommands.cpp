#include "app/clioutput.h"
#include "app/command.h"
#include "app/optiondomain.h"

#include "importers/importservice.h"
#include "importers/samples.h"
#include "importers/prometheus/scrapepairimport.h"
#include "model/store/runlabels.h"
#include "model/store/storecopy.h"
#include "model/core/catalog.h"
#include "model/store/store.h"
#include "model/core/units.h"

#include <chrono>
#include <iostream>

namespace plimsoll {

namespace {

void fail(const std::string &message) { printError(message); }


struct ImportArgs
{
    std::string format;
    bool dryRun = false;
    bool json = false;
    std::vector<std::string> paths;
    std::string hlogUnit;
    bool insecure = false;
    int64_t timeoutS = 120;
    std::vector<std::string> scrapes; // BEFORE AFTER, BEFORE AFTER, …
    std::string interval;

    static constexpr Domain kTimeoutS = Domain::count(1, 86400);
};

// --format must name an importer: a typo is a usage error, not a failed source.
CLI::Validator knownFormat()
{
    return CLI::Validator(
        [](std::string &name) {
            if (ImporterRegistry::instance().byName(name))
                return std::string();
            std::string known;
            for (const Importer *importer : ImporterRegistry::instance().importers())
                known += (known.empty() ? "" : ", ") + importer->name();
            return "--format must be one of " + known + " (got '" + name + "'; see `plimsoll formats`)";
        },
        std::string());
}

int runImport(const CliContext &c, const ImportArgs &args)
{
    if (args.paths.empty() && args.scrapes.empty()) {
        fail("import: give files, directories or URLs to import, or --scrapes BEFORE AFTER "
             "(see `plimsoll import --help`)");
        return kExitUsage;
    }
    std::optional<double> intervalS;
    if (!args.interval.empty()) {
        if (args.scrapes.empty()) {
            fail("import: --interval is the time between two scrapes; it goes with --scrapes "
                 "BEFORE AFTER");
            return kExitUsage;
        }
        std::string why;
        const auto d = parseDuration(args.interval, &why);
        if (!d || d->count() <= 0) {
            fail("import: --interval '" + args.interval + "': " +
                 (d ? std::string("must be longer than zero") : why) +
                 " (e.g. 60s, 1m30s, PT90S)");
            return kExitUsage;
        }
        // Elsewhere a bare number of a duration is milliseconds; scrapes are minutes apart, so
        // a bare "60" here is meant as seconds far more often, and would make every rate 1000x.
        if (args.interval.find_first_not_of("0123456789.") == std::string::npos) {
            fail("import: --interval '" + args.interval + "' has no unit; write " + args.interval +
                 "s or " + args.interval +
                 "ms (or leave --interval out: the scrapes' own times, or the files' modification "
                 "times, give the interval)");
            return kExitUsage;
        }
        intervalS = double(d->count()) / 1e9;
    }
    if (!args.scrapes.empty() && !args.format.empty() && args.format != "prometheus") {
        fail("import: --scrapes pairs Prometheus scrapes; --format " + args.format +
             " does not apply to them");
        return kExitUsage;
    }
    auto store = c.openStore();
    if (!store)
        return 1;
    ImportService service(*store);
    nlohmann::json sources = nlohmann::json::array();
    bool anyFailed = false;
    std::vector<SourceReport> all;
    // Each pair of scrapes is one source and one transaction, reported first.
    for (size_t i = 0; i + 1 < args.scrapes.size(); i += 2) {
        ScrapePairRequest request;
        request.before = args.scrapes[i];
        request.after = args.scrapes[i + 1];
        request.intervalS = intervalS;
        request.dryRun = args.dryRun;
        const ScrapePairReport pair = importScrapePair(service, request);
        anyFailed |= pair.report.status == "failed";
        if (args.json)
            sources.push_back(pair.toJson());
        else
            printScrapePairReport(std::cout, std::cerr, pair);
        all.push_back(pair.report);
    }
    for (const auto &path : args.paths) {
        ImportRequest request{path, args.format, args.dryRun, false};
        request.latencyUnit = args.hlogUnit;
        request.insecure = args.insecure;
        request.timeoutS = args.timeoutS;
        // A directory expands to its files, each its own source and transaction.
        for (const SourceReport &report : service.importPath(request)) {
            anyFailed |= report.status == "failed";
            if (args.json)
                sources.push_back(report.toJson());
            else
                printImportReport(std::cout, std::cerr, report);
            all.push_back(report);
        }
    }
    const ImportSummary summary = ImportSummary::of(all);
    if (args.json)
        std::cout << nlohmann::json{{"sources", sources}, {"summary", summary.toJson()}}.dump(2)
                  << "\n";
    else if (all.size() > 1)
        std::cout << summary.text() << "\n";
    return anyFailed ? 1 : 0;
}

struct RunsArgs
{
    bool json = false;
    RunFilter filter;
    std::string samples = "include";
};

int runRuns(const CliContext &c, RunsArgs args)
{
    auto store = c.openExistingStore();
    if (!store)
        return 1;
    if (args.samples == "only")
        args.filter.sample = true;
    else if (args.samples == "exclude")
        args.filter.sample = false;
    try {
        const auto runs = store->runs(args.filter);
        if (args.json) {
            std::cout << runsToJson(runs).dump(2) << "\n";
        } else if (runs.empty() && store->runCount() > 0) {
            // A filter that matched nothing: the store is not empty, and the filter is what to change.
            const int64_t held = store->runCount();
            std::cout << "No runs match the filter (the store holds " << held
                      << (held == 1 ? " run" : " runs")
                      << "; `plimsoll runs` without --search, --scenario, --commit, --since, --until or "
                         "--samples lists them).\n";
        } else {
            printRunsTable(std::cout, runs);
        }
    } catch (const StoreError &e) {
        fail(e.what());
        return 1;
    }
    return 0;
}

int runShow(const CliContext &c, const std::string &run, bool json)
{
    const std::string &db = c.storePath;
    auto store = c.openExistingStore();
    if (!store)
        return 1;
    try {
        std::optional<RunDetail> detail = store->run(run);
        if (!detail) {
            try {
                // Not an id or key: the one run of that name.
                detail = store->run(std::to_string(findRun(*store, run).id));
            } catch (const RunAddressError &e) {
                fail(e.candidates().empty() ? "no run '" + run + "' in " + db + " (see `plimsoll runs`)"
                                            : std::string(e.what()));
                return e.candidates().empty() ? kExitFailure : kExitUsage;
            }
        }
        if (!detail) {
            fail("no run '" + run + "' in " + db + " (see `plimsoll runs`)");
            return 1;
        }
        if (json)
            std::cout << runDetailToJson(*detail).dump(2) << "\n";
        else
            printRunDetail(std::cout, *detail);
    } catch (const StoreError &e) {
        fail(e.what());
        return 1;
    }
    return 0;
}

int runRemove(const CliContext &c, const std::vector<std::string> &runs)
{
    const std::string &db = c.storePath;
    auto store = c.openExistingStore();
    if (!store)
        return 1;
    int status = 0;
    for (const auto &r : runs) {
        try {
            if (store->removeRun(r) == 0) {
                fail("no run '" + r + "' in " + db);
                status = 1;
            } else {
                std::cout << "removed " << r << "\n";
            }
        } catch (const StoreError &e) {
            fail(e.what());
            status = 1;
        }
    }
    return status;
}

int runSamples(const CliContext &c, const std::string &action, bool json)
{
    auto store = c.openStore();
    if (!store)
        return 1;
    if (action == "remove") {
        try {
            const auto n = store->removeSamples();
            std::cout << "removed " << n << " sample run" << (n == 1 ? "" : "s") << "\n";
            return 0;
        } catch (const StoreError &e) {
            fail(e.what());
            return 1;
        }
    }
    const auto reports = installSamples(*store);
    bool anyFailed = false;
    nlohmann::json sources = nlohmann::json::array();
    for (const auto &r : reports) {
        anyFailed |= r.status == "failed";
        if (json)
            sources.push_back(r.toJson());
        else
            printImportReport(std::cout, std::cerr, r);
    }
    if (json)
        std::cout << nlohmann::json{{"sources", sources}}.dump(2) << "\n";
    return anyFailed ? 1 : 0;
}

struct CopyArgs
{
    std::string from, to;
    bool json = false;
};

// `plimsoll store copy --from A --to B`: A must exist; B is created when missing.
int runStoreCopy(const CopyArgs &a)
{
    const std::unique_ptr<Store> from = CliContext{a.from, false}.openExistingStore();
    if (!from)
        return kExitFailure;
    const std::unique_ptr<Store> to = CliContext{a.to, false}.openStore();
    if (!to)
        return kExitFailure;
    StoreCopyReport report;
    try {
        const auto start = std::chrono::steady_clock::now();
        int64_t shown = 0;
        report = copyStore(*from, *to, [&](int64_t done, int64_t total, int64_t runs) {
            // Every 100 sources, or 10,000 runs (a history in few large sources), and at the end.
            if (a.json || (done != total && done % 100 != 0 && runs - shown < 10'000))
                return;
            shown = runs;
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::cerr << "\rcopied " << done << " of " << total << " sources, " << runs << " runs";
            if (runs > 0 && seconds > 0)
                std::cerr << " (" << int64_t(double(runs) / seconds) << " runs/s)";
            std::cerr << (done == total ? "\n" : "") << std::flush;
        });
    } catch (const StoreError &e) {
        fail(e.what());
        return kExitFailure;
    }
    if (a.json) {
        std::cout << nlohmann::json{{"from", from->path()},
                                    {"to", to->path()},
                                    {"sources_copied", report.sourcesCopied},
                                    {"sources_already_there", report.sourcesAlreadyThere},
                                    {"runs_copied", report.runsCopied},
                                    {"settings_copied", report.settingsCopied},
                                    {"settings_kept", report.settingsKept}}
                         .dump(2)
                  << "\n";
    } else {
        std::cout << "Copied " << report.runsCopied << " runs of " << report.sourcesCopied << " sources and "
                  << report.settingsCopied << " shared settings from " << from->path() << " to " << to->path()
                  << (report.sourcesAlreadyThere ? "; " + std::to_string(report.sourcesAlreadyThere) +
                                                       " sources were there already"
                                                 : std::string())
                  << ".\n";
        for (const std::string &kept : report.settingsKept)
            std::cout << "kept " << kept << " as the destination has it (it differs from the copy's)\n";
    }
    return kExitOk;
}

} // namespace

void addStoreCommands(CLI::App &app, Commands &commands)
{
    auto copyArgs = std::make_shared<CopyArgs>();
    auto *storeCommand = app.add_subcommand("store", "Work on whole stores");
    storeCommand->require_subcommand(1);
    auto *copy = storeCommand->add_subcommand(
        "copy", "Copy every run and shared setting of one store into another, on either backend");
    copy->add_option("--from", copyArgs->from, "The store to copy (a file or a postgresql:// URI)")->required();
    copy->add_option("--to", copyArgs->to, "The store to copy into (created when missing)")->required();
    copy->add_flag("--json", copyArgs->json, "Machine-readable report");
    commands.add(copy, [copyArgs](const CliContext &) { return runStoreCopy(*copyArgs); });

    auto importArgs = std::make_shared<ImportArgs>();
    auto *import = app.add_subcommand("import", "Import benchmark results into the store "
                                                "(format detected by content)");
    import->add_option("--format", importArgs->format, "Force a format (see `plimsoll formats`)")
        ->check(knownFormat());
    import->add_flag("--dry-run", importArgs->dryRun, "Parse and report, write nothing");
    import->add_flag("--json", importArgs->json, "Machine-readable report");
    import->add_option("--hlog-unit", importArgs->hlogUnit,
                       "Unit of HdrHistogram log/percentile values for files that do not "
                       "state it: ns, us, ms or s")
        ->check(CLI::IsMember({"ns", "us", "ms", "s"}));
    import->add_flag("--insecure", importArgs->insecure,
                     "For URLs: do not verify the server's TLS certificate (reported as a warning)");
    addNumber(import, "--timeout", importArgs->timeoutS, ImportArgs::kTimeoutS,
              "For URLs: seconds for the whole transfer")
        ->capture_default_str();
    import->add_option("--scrapes", importArgs->scrapes,
                       "Two Prometheus scrapes of one target saved before and after a workload "
                       "(curl :9404/metrics > before.prom): one run of the rates and histogram "
                       "percentiles over the interval between them. Repeatable")
        ->type_name("BEFORE AFTER")
        ->type_size(2)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    import->add_option("--interval", importArgs->interval,
                       "With --scrapes: the time between the two scrapes, with its unit (60s, PT1M), "
                       "when their own times or the files' modification times are wrong");
    import->add_option("paths", importArgs->paths, "Files, directories or URLs to import");
    commands.add(import, [importArgs](const CliContext &c) { return runImport(c, *importArgs); });

    auto runsArgs = std::make_shared<RunsArgs>();
    auto *runs = app.add_subcommand("runs", "List the runs in the store");
    runs->add_flag("--json", runsArgs->json, "One JSON object per run, as an array");
    runs->add_option("--search", runsArgs->filter.textContains,
                     "Only runs whose key, name, tags, tool, target, commit, scenario names or source "
                     "file's name or path contain this (ignoring case), as the Library's search field");
    runs->add_option("--scenario", runsArgs->filter.scenarioContains,
                     "Only runs with a scenario whose name contains this");
    runs->add_option("--commit", runsArgs->filter.commitPrefix, "Only runs at this commit (prefix)");
    runs->add_option("--since", runsArgs->filter.since, "Only runs at or after this ISO-8601 time or date")
        ->transform(isoTime("--since"));
    runs->add_option("--until", runsArgs->filter.until, "Only runs before this ISO-8601 time or date")
        ->transform(isoTime("--until"));
    runs->add_option("--samples", runsArgs->samples, "include, exclude or only the sample runs")
        ->check(CLI::IsMember({"include", "exclude", "only"}));
    commands.add(runs, [runsArgs](const CliContext &c) { return runRuns(c, *runsArgs); });

    auto showRun = std::make_shared<std::string>();
    auto showJson = std::make_shared<bool>(false);
    auto *show = app.add_subcommand("show", "Show a run with its scenarios and metrics");
    show->add_option("run", *showRun, "Run id, run key or the name one run has")->required();
    show->add_flag("--json", *showJson, "Machine-readable output");
    commands.add(show, [showRun, showJson](const CliContext &c) {
        return runShow(c, *showRun, *showJson);
    });

    auto removeRuns = std::make_shared<std::vector<std::string>>();
    auto *remove = app.add_subcommand("remove", "Remove runs from the store");
    remove->add_option("runs", *removeRuns, "Run ids or run keys")->required();
    commands.add(remove, [removeRuns](const CliContext &c) { return runRemove(c, *removeRuns); });

    auto samplesAction = std::make_shared<std::string>();
    auto samplesJson = std::make_shared<bool>(false);
    auto *samples = app.add_subcommand(
        "samples", "Install or remove the bundled sample runs (transcribed from the Korvet "
                   "benchmark page)");
    samples->add_option("action", *samplesAction, "install or remove")
        ->required()
        ->check(CLI::IsMember({"install", "remove"}));
    samples->add_flag("--json", *samplesJson, "Machine-readable report");
    commands.add(samples, [samplesAction, samplesJson](const CliContext &c) {
        return runSamples(c, *samplesAction, *samplesJson);
    });

    auto metricsJson = std::make_shared<bool>(false);
    auto *metrics = app.add_subcommand("metrics", "List the shared load-factor and metric names");
    metrics->add_flag("--json", *metricsJson, "Machine-readable output");
    commands.add(metrics, [metricsJson](const CliContext &) {
        printCatalog(std::cout, *metricsJson);
        return kExitOk;
    });

    auto formatsJson = std::make_shared<bool>(false);
    auto *formats = app.add_subcommand("formats", "List the formats Plimsoll imports");
    formats->add_flag("--json", *formatsJson, "Machine-readable output");
    commands.add(formats, [formatsJson](const CliContext &) {
        printFormats(std::cout, *formatsJson);
        return kExitOk;
    });
}

} // namespace plimsoll
