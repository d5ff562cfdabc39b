#include "model/scaling/evidence.h"

#include "model/core/enumnames.h"
#include "model/scaling/ramppoints.h"
#include "model/store/store.h"

#include <algorithm>

namespace plimsoll {

constexpr EnumName<SampleRuns> kSampleRunsNames[] = {
    {SampleRuns::Auto, "auto"}, {SampleRuns::Include, "include"}, {SampleRuns::Exclude, "exclude"}};

const char *toString(SampleRuns samples)
{
    return nameOf(kSampleRunsNames, samples);
}

std::optional<SampleRuns> sampleRunsFromString(const std::string &text)
{
    return valueOf(kSampleRunsNames, text);
}

std::string EvidenceSelection::describe() const
{
    std::string out;
    if (!runs.runs.empty())
        out = runs.runs.size() == 1 ? "1 run picked by hand" : std::to_string(runs.runs.size()) + " runs picked by hand";
    std::string filter;
    auto add = [&filter](const std::string &text) { filter += (filter.empty() ? "" : ", ") + text; };
    if (!runs.scenario.empty())
        add("with a scenario containing '" + runs.scenario + "'");
    if (!runs.tool.empty())
        add("of tool '" + runs.tool + "'");
    if (!runs.target.empty())
        add("against '" + runs.target + "'");
    if (!runs.since.empty())
        add("since " + runs.since);
    if (!runs.until.empty())
        add("until " + runs.until);
    if (!filter.empty())
        out = out.empty() ? "runs " + filter : out + ", " + filter;
    if (out.empty())
        out = "every run";
    if (samples == SampleRuns::Include)
        out += ", sample runs included";
    else if (samples == SampleRuns::Exclude)
        out += ", sample runs left out";
    return out;
}

std::optional<RunSelection> normalizedSelection(RunSelection selection, std::string *error)
{
    for (std::string *t : {&selection.since, &selection.until}) {
        if (t->empty())
            continue;
        const auto n = normalizeTimestamp(t->find('T') == std::string::npos ? *t + "T00:00:00Z" : *t);
        if (!n) {
            if (error)
                *error = "'" + *t + "' is not an ISO-8601 date or time";
            return std::nullopt;
        }
        *t = *n;
    }
    return selection;
}

namespace {

void leaveOutSamples(Evidence &e, SampleRuns samples, bool picked, bool perModel)
{
    const int sampleRuns = int(std::count_if(e.runs.begin(), e.runs.end(),
                                             [](const RunRecord &r) { return r.sample; }));
    e.realRuns = int(e.runs.size()) - sampleRuns;
    const int realEvidence = int(std::count_if(e.runs.begin(), e.runs.end(), [](const RunRecord &r) {
        return !r.sample && carriesSizingEvidence(r);
    }));
    if (sampleRuns == 0)
        return;
    const std::string samplesText = sampleRuns == 1 ? "1 sample run" : std::to_string(sampleRuns) + " sample runs";
    const std::string realText = realEvidence == 1 ? "1 run of your own with sizing evidence"
                                                   : std::to_string(realEvidence) + " runs of your own with sizing evidence";
    // Auto for a fit: the samples step aside for real runs that size something, whether the read
    // took every run or only those (readSizingRuns): the two reads then fit alike.
    const bool leaveOut = samples == SampleRuns::Exclude ||
                          (!perModel && samples == SampleRuns::Auto && !picked && realEvidence > 0);
    if (leaveOut) {
        std::erase_if(e.runs, [](const RunRecord &r) { return r.sample; });
        e.samplesLeftOut = sampleRuns;
        e.note = samplesText + " left out" +
                 (samples == SampleRuns::Auto ? ": the selection holds " + realText : std::string(" as asked"));
    } else if (realEvidence == 0) {
        e.note = "the " + samplesText + " only: none of your own carries sizing evidence";
    } else if (!perModel) {
        e.note = samplesText + " included beside " + realText;
    } else if (samples == SampleRuns::Include || picked) {
        // Included, or picked by hand (the user's choice, samples among them): pooled with the rest.
        e.note = samplesText + (picked ? " picked" : " included") + " beside " + realText + ", pooled";
    } else {
        e.note = realText + (realEvidence == 1 ? " replaces" : " replace") + " the " + samplesText +
                 " for what " + (realEvidence == 1 ? "it measures" : "they measure");
    }
}

} // namespace

std::vector<RunSummary> filteredRuns(const Store &store, const RunSelection &sel)
{
    RunFilter filter;
    filter.scenarioContains = sel.scenario;
    filter.since = sel.since;
    filter.until = sel.until;
    std::vector<RunSummary> out = store.runs(filter);
    std::erase_if(out, [&sel](const RunSummary &s) {
        return (!sel.tool.empty() && s.tool != sel.tool) || (!sel.target.empty() && s.target != sel.target);
    });
    return out;
}

namespace {

Evidence readSelected(const Store &store, const EvidenceSelection &selection, bool sizingOnly, bool perModel)
{
    Evidence e;
    const RunSelection &sel = selection.runs;
    auto keep = [&](RunDetail &&d, const RunSelection &rest) {
        if (!rest.matches(d.record))
            return;
        e.sources[d.record.runKey] = d.source.uri;
        e.runs.push_back(std::move(d.record));
    };
    if (!sel.runs.empty()) {
        RunSelection rest = sel;
        rest.runs.clear();
        for (const std::string &key : sel.runs) {
            auto d = store.run(key);
            if (!d)
                throw StoreError("no run '" + key + "' in " + store.path() + " (see `plimsoll runs`)");
            keep(std::move(*d), rest);
        }
    } else if (sizingOnly) {
        for (RunRecord &r : readSizingRuns(store))
            if (sel.matches(r))
                e.runs.push_back(std::move(r));
    } else {
        for (const RunSummary &s : filteredRuns(store, sel))
            if (auto d = store.run(s.runKey))
                keep(std::move(*d), sel);
    }
    leaveOutSamples(e, selection.samples, !sel.runs.empty(), perModel);
    return e;
}

} // namespace

Evidence readEvidence(const Store &store, const EvidenceSelection &selection, bool sizingOnly)
{
    return readSelected(store, selection, sizingOnly, false);
}

Evidence readSizingEvidence(const Store &store, const EvidenceSelection &selection, bool sizingOnly)
{
    return readSelected(store, selection, sizingOnly, true);
}

} // namespace plimsoll
