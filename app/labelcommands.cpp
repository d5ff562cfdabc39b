// `plimsoll name RUN TEXT|--clear` and `plimsoll tag RUN TAG… [--remove]`: the user's labels of
// a run, as the Library's Rename… and Tags… set them (model/store/runlabels.h).
#include "app/command.h"

#include "model/store/runlabels.h"

#include <iostream>

namespace plimsoll {

namespace {

std::string tagList(const std::vector<std::string> &tags)
{
    std::string out;
    for (const std::string &t : tags)
        out += (out.empty() ? "" : ", ") + t;
    return out.empty() ? "none" : out;
}

int runLabels(const CliContext &c, const RunLabelRequest &request, bool tagging)
{
    if (const std::string problem = runLabelProblem(request); !problem.empty()) {
        printError(problem); // it names the field
        return kExitUsage;
    }
    auto store = c.openExistingStore();
    if (!store)
        return kExitFailure;
    RunLabelOutcome outcome;
    try {
        outcome = applyRunLabels(*store, request);
    } catch (const RunLabelError &e) {
        printError(e.what());
        return kExitUsage;
    } catch (const RunAddressError &e) {
        printError(e.what());
        return e.candidates().empty() ? kExitFailure : kExitUsage; // an ambiguous name: say which
    } catch (const StoreError &e) {
        printError(e.what());
        return kExitFailure;
    }
    const RunSummary &run = outcome.run;
    const std::string which = "run " + std::to_string(run.id) + " (" + run.runKey + ")";
    for (const std::string &note : outcome.notes)
        std::cout << note << "\n";
    if (tagging) {
        std::cout << which << " tags: " << tagList(run.tags) << "\n";
    } else if (run.name.empty()) {
        std::cout << which << (outcome.previousName.empty() ? " had no name" : " no longer named '" + outcome.previousName + "'")
                  << "\n";
    } else {
        std::cout << which << " named '" << run.name << "'"
                  << (outcome.previousName.empty() || outcome.previousName == run.name
                          ? std::string()
                          : " (was '" + outcome.previousName + "')")
                  << "\n";
        if (const auto same = store->runsNamed(run.name); same.size() > 1)
            std::cout << same.size() << " runs are named '" << run.name
                      << "' now: address them by id or key (a name addresses a run while one run has it)\n";
    }
    return kExitOk;
}

} // namespace

void addLabelCommands(CLI::App &app, Commands &commands)
{
    auto nameRequest = std::make_shared<RunLabelRequest>();
    auto nameText = std::make_shared<std::vector<std::string>>();
    auto *name = app.add_subcommand("name", "Give a run a name it is shown and found by (or --clear it)");
    name->add_option("run", nameRequest->run, "Run id, run key or its current name")->required();
    name->add_option("text", *nameText,
                     std::string("The name: ") + kRunNameDomain + ". Several runs may share one")
        ->expected(0, 1);
    name->add_flag("--clear", nameRequest->clearName, "Remove the run's name");
    commands.add(name, [nameRequest, nameText](const CliContext &c) {
        RunLabelRequest request = *nameRequest;
        if (!nameText->empty())
            request.name = nameText->front();
        else if (!request.clearName) {
            printError("name: give the run's new name (`plimsoll name RUN TEXT`), or --clear to remove its name");
            return kExitUsage;
        }
        return runLabels(c, request, false);
    });

    auto tagRequest = std::make_shared<RunLabelRequest>();
    auto tags = std::make_shared<std::vector<std::string>>();
    auto remove = std::make_shared<bool>(false);
    auto *tag = app.add_subcommand("tag", "Add tags to a run, or remove them (--remove)");
    tag->add_option("run", tagRequest->run, "Run id, run key or its name")->required();
    tag->add_option("tags", *tags, std::string("Tags: ") + kRunTagDomain + "; at most 32 per run")->required();
    tag->add_flag("--remove", *remove, "Remove these tags instead of adding them");
    commands.add(tag, [tagRequest, tags, remove](const CliContext &c) {
        RunLabelRequest request = *tagRequest;
        (*remove ? request.removeTags : request.addTags) = *tags;
        return runLabels(c, request, true);
    });
}

} // namespace plimsoll
