#include "model/store/runlabels.h"

#include "model/core/nametext.h"
#include "model/store/storerows.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace plimsoll {

namespace {

std::size_t characters(std::string_view text)
{
    return std::size_t(std::count_if(text.begin(), text.end(),
                                     [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

} // namespace

std::string runNameProblem(const std::string &name)
{
    const std::string domain = std::string(" (a run's name is ") + kRunNameDomain + ")";
    if (name.empty())
        return "name is empty: to remove a run's name, give --clear instead (`plimsoll name RUN --clear`; in "
               "the Library, Rename… with an empty field)";
    if (std::string problem = nameProblem(name); !problem.empty())
        return "name " + problem + domain;
    if (std::isspace(static_cast<unsigned char>(name.front())) || std::isspace(static_cast<unsigned char>(name.back())))
        return "name '" + name + "' has a space at its start or end" + domain;
    if (name.find_first_not_of("0123456789") == std::string::npos)
        return "name '" + name + "' is only digits, which `plimsoll show` and the other commands read as a run's id" +
               domain;
    return {};
}

std::string runTagProblem(const std::string &tag)
{
    const std::string domain = std::string(" (a tag is ") + kRunTagDomain + ")";
    if (tag.empty())
        return std::string("tag is empty") + domain;
    if (std::string problem = nameProblem(tag); !problem.empty())
        return "tag " + problem + domain;
    if (tag.find_first_of(" \t\n,") != std::string::npos || tag.find("\xC2\xA0") != std::string::npos)
        return "tag '" + tag + "' holds a space or a comma: give several tags as separate words" + domain;
    if (characters(tag) > kMaxTagChars)
        return "tag '" + shownName(tag) + "…' is " + std::to_string(characters(tag)) + " characters long" + domain;
    return {};
}

namespace {

std::string listed(const std::vector<RunSummary> &runs)
{
    std::string out;
    for (const RunSummary &r : runs)
        out += "\n  " + std::to_string(r.id) + "  " + r.runKey + "  " + r.timestamp +
               (r.tool.empty() ? "" : "  " + r.tool);
    return out;
}

} // namespace

std::string runTitle(const std::string &name, const std::string &runKey)
{
    return name.empty() ? runKey : name + " (" + runKey + ")";
}

std::string runShortTitle(const std::string &name, const std::string &runKey)
{
    return name.empty() ? runKey : name;
}

RunSummary findRun(const Store &store, const std::string &text)
{
    if (const auto detail = store.run(text))
        return detail->summary;
    std::vector<RunSummary> named = text.empty() ? std::vector<RunSummary>() : store.runsNamed(text);
    if (named.size() == 1)
        return named.front();
    if (named.empty())
        throw RunAddressError("no run '" + shownName(text) + "' in " + store.path() +
                                  ": not a run id, key or name (see `plimsoll runs`)",
                              {});
    std::string message = std::to_string(named.size()) + " runs are named '" + text +
                          "'; give the id or key of the one you mean:" + listed(named);
    throw RunAddressError(message, std::move(named));
}

std::string runLabelProblem(const RunLabelRequest &request)
{
    if (request.name && request.clearName)
        return "give a new name or --clear, not both";
    if (request.name)
        if (std::string problem = runNameProblem(*request.name); !problem.empty())
            return problem;
    for (const auto *list : {&request.addTags, &request.removeTags})
        for (const std::string &tag : *list)
            if (std::string problem = runTagProblem(tag); !problem.empty())
                return problem;
    if (request.setTags)
        for (const std::string &tag : *request.setTags)
            if (std::string problem = runTagProblem(tag); !problem.empty())
                return problem;
    if (!request.name && !request.clearName && request.addTags.empty() && request.removeTags.empty() &&
        !request.setTags)
        return "nothing to change: give a name, --clear, or tags";
    return {};
}

RunLabelOutcome applyRunLabels(Store &store, const RunLabelRequest &request)
{
    if (std::string problem = runLabelProblem(request); !problem.empty())
        throw RunLabelError(problem);
    RunLabelOutcome out;
    out.run = findRun(store, request.run);
    out.previousName = out.run.name;
    out.previousTags = out.run.tags;
    std::string name = out.run.name;
    if (request.clearName)
        name.clear();
    if (request.name && *request.name != out.run.name) {
        // A name that is another run's key (or id) would address that run, never this one.
        if (const auto other = store.run(*request.name); other && other->summary.id != out.run.id)
            throw RunLabelError("name '" + *request.name + "' is the key of run " + std::to_string(other->summary.id) +
                                "; `plimsoll show` and the other commands would read it as that run");
        name = *request.name;
    }
    std::set<std::string> tags(out.run.tags.begin(), out.run.tags.end());
    if (request.setTags)
        tags = std::set<std::string>(request.setTags->begin(), request.setTags->end());
    for (const std::string &t : request.addTags)
        if (!tags.insert(t).second)
            out.notes.push_back("'" + t + "' was already one of its tags");
    for (const std::string &t : request.removeTags)
        if (tags.erase(t) == 0)
            out.notes.push_back("'" + t + "' was not one of its tags");
    if (tags.size() > kMaxTagsPerRun)
        throw RunLabelError("a run has at most " + std::to_string(kMaxTagsPerRun) + " tags (this one would have " +
                            std::to_string(tags.size()) + "); remove some with --remove");
    std::vector<std::string> tagList(tags.begin(), tags.end());
    if (name != out.run.name || tagList != out.run.tags) {
        if (!store.setRunLabels(out.run.id, name, tagList))
            throw RunAddressError("run " + out.run.runKey + " left " + store.path() + " meanwhile", {});
    }
    out.run.name = std::move(name);
    out.run.tags = std::move(tagList);
    return out;
}

} // namespace plimsoll
