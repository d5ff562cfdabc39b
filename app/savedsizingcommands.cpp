// plimsoll sizings [compare NAME NAME... | remove NAME]: the sizings saved in the store with
// `plimsoll size ... --save NAME` (model/store/savedsizing.h), listed, sized again from the store and
// read side by side, or removed.
#include "app/command.h"
#include "app/texttable.h"

#include "model/store/savedsizing.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <set>

namespace plimsoll {

namespace {

using nlohmann::json;

// The saved sizings, or nullopt after saying why they cannot be read.
std::optional<std::vector<SavedSizing>> readSaved(const Store &store)
{
    try {
        return SavedSizings::list(store);
    } catch (const SavedSizingError &e) {
        printError(e.what());
    } catch (const StoreError &e) {
        printError(e.what());
    }
    return std::nullopt;
}

json savedJson(const SavedSizing &s)
{
    return {{"name", s.name},
            {"saved_at", s.savedAt},
            {"rate", s.inputs.rate},
            {"bytes_per_s", s.inputs.bytesPerS},
            {"rate_text", s.rateText()},
            {"selection", s.evidence.describe()},
            {"samples", toString(s.evidence.samples)},
            {"runs", s.evidence.runs.runs}};
}

struct ListArgs
{
    bool json = false;
};

int runList(const CliContext &c, const ListArgs &a)
{
    const auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    const auto saved = readSaved(*store);
    if (!saved)
        return kExitFailure;
    if (a.json) {
        json list = json::array();
        for (const SavedSizing &s : *saved)
            list.push_back(savedJson(s));
        std::cout << json{{"store", c.storePath}, {"sizings", list}}.dump(2) << "\n";
        return kExitOk;
    }
    if (saved->empty()) {
        std::cout << "No saved sizings in " << c.storePath
                  << " yet: `plimsoll size --rate 600k --save NAME` saves one.\n";
        return kExitOk;
    }
    TextTable t({{"Name"}, {"Saved at"}, {"Rate", TextTable::Align::Right}, {"Evidence"}});
    for (const SavedSizing &s : *saved)
        t.addRow({s.name, s.savedAt, s.rateText(), s.evidence.describe()});
    t.print(std::cout);
    return kExitOk;
}

struct CompareArgs
{
    std::vector<std::string> names;
    bool json = false;
};

json comparisonJson(const std::vector<SavedSizing> &chosen, const std::vector<SizingResult> &results,
                    const SizingComparison &comparison)
{
    json sizings = json::array();
    for (size_t i = 0; i < chosen.size(); ++i) {
        const SizingResult &r = results[i];
        json s = savedJson(chosen[i]);
        s["ok"] = r.ok;
        s["error"] = r.error;
        if (r.ok) {
            s["brokers"] = r.brokers;
            s["redis_nodes"] = r.redisNodes;
            s["shards"] = r.shards;
            s["partitions"] = r.partitions;
            s["memory_total_bytes"] = r.memoryTotalBytes;
            s["offload_streams"] = r.offloadStreams;
            s["p99_s"] = r.p99 ? json(*r.p99) : json(nullptr);
            s["bottleneck"] = r.bottleneck;
            s["broker_model"] = r.brokerChoice.taken;
            s["warnings"] = r.warnings;
        }
        sizings.push_back(std::move(s));
    }
    json rows = json::array();
    for (const SizingComparisonRow &row : comparison.rows)
        rows.push_back({{"key", row.key}, {"label", row.label}, {"values", row.values}});
    return {{"names", comparison.names}, {"sizings", sizings}, {"rows", rows}};
}

// The saved sizings `names` asks for, in that order; nullopt (and *exit) when one is unknown
// or named twice.
std::optional<std::vector<SavedSizing>> chooseSaved(const Store &store, const std::vector<std::string> &names,
                                                    int *exit)
{
    const auto saved = readSaved(store);
    if (!saved) {
        *exit = kExitFailure;
        return std::nullopt;
    }
    *exit = kExitUsage;
    if (names.size() < 2) {
        printError("sizings compare needs two or more saved sizings (saved: " + SavedSizings::namesText(*saved) + ")");
        return std::nullopt;
    }
    std::vector<SavedSizing> chosen;
    std::set<std::string> seen;
    for (const std::string &name : names) {
        if (!seen.insert(name).second) {
            printError("'" + name + "' is named twice: compare each saved sizing once");
            return std::nullopt;
        }
        const auto it = std::find_if(saved->begin(), saved->end(), [&](const SavedSizing &s) { return s.name == name; });
        if (it == saved->end()) {
            printError("no sizing named '" + name + "' is saved (saved: " + SavedSizings::namesText(*saved) + ")");
            return std::nullopt;
        }
        chosen.push_back(*it);
    }
    return chosen;
}

int runCompare(const CliContext &c, const CompareArgs &a)
{
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    int exit = kExitOk;
    const auto chosen = chooseSaved(*store, a.names, &exit);
    if (!chosen)
        return exit;
    std::vector<SizingResult> results;
    std::vector<std::pair<std::string, SizingResult>> named;
    try {
        for (const SavedSizing &s : *chosen) {
            results.push_back(sizeSaved(*store, s));
            named.emplace_back(s.name, results.back());
        }
    } catch (const StoreError &e) {
        printError("sizing '" + chosen->at(results.size()).name + "': " + e.what());
        return kExitFailure;
    }
    const SizingComparison comparison = compareSizings(named);
    const bool allOk = std::all_of(results.begin(), results.end(), [](const SizingResult &r) { return r.ok; });
    if (a.json) {
        std::cout << comparisonJson(*chosen, results, comparison).dump(2) << "\n";
        return allOk ? kExitOk : kExitFailure;
    }
    std::vector<TextTable::Column> columns{{""}};
    for (const std::string &name : comparison.names)
        columns.push_back({name, TextTable::Align::Right});
    TextTable t(std::move(columns));
    for (const SizingComparisonRow &row : comparison.rows) {
        std::vector<std::string> cells{row.label};
        cells.insert(cells.end(), row.values.begin(), row.values.end());
        t.addRow(std::move(cells));
    }
    t.print(std::cout);
    for (size_t i = 0; i < chosen->size(); ++i) {
        std::cout << "\n" << (*chosen)[i].name << ": " << (*chosen)[i].evidence.describe() << ", saved at "
                  << (*chosen)[i].savedAt << "\n";
        for (const std::string &w : results[i].warnings)
            std::cout << "  warning: " << w << "\n";
    }
    return allOk ? kExitOk : kExitFailure;
}

int runRemove(const CliContext &c, const std::string &name)
{
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    try {
        SavedSizings::remove(*store, name);
    } catch (const SavedSizingError &e) {
        printError(e.what());
        return e.kind() == SavedSizingError::Kind::UnknownName ? kExitUsage : kExitFailure;
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    std::cout << "Removed the saved sizing '" << name << "'.\n";
    return kExitOk;
}

} // namespace

void addSavedSizingCommands(CLI::App &app, Commands &commands)
{
    auto list = std::make_shared<ListArgs>();
    auto *sizings = app.add_subcommand("sizings", "List the sizings saved with `size --save NAME`; "
                                                  "compare or remove them");
    sizings->require_subcommand(0, 1);
    sizings->add_flag("--json", list->json, "Machine-readable output");

    auto compare = std::make_shared<CompareArgs>();
    auto *compareCmd = sizings->add_subcommand(
        "compare", "Size saved sizings again from the store and show them side by side, component by component");
    compareCmd->add_option("names", compare->names, "Two or more saved sizings")->required();
    compareCmd->add_flag("--json", compare->json, "Machine-readable output");

    auto removeName = std::make_shared<std::string>();
    auto *removeCmd = sizings->add_subcommand("remove", "Remove a saved sizing");
    removeCmd->add_option("name", *removeName, "The saved sizing's name")->required();

    // The nested commands first: `sizings` counts as parsed whenever one of them is.
    commands.add(compareCmd, [compare](const CliContext &c) { return runCompare(c, *compare); });
    commands.add(removeCmd, [removeName](const CliContext &c) { return runRemove(c, *removeName); });
    commands.add(sizings, [list](const CliContext &c) { return runList(c, *list); });
}

} // namespace plimsoll
