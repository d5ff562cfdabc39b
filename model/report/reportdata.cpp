#include "model/report/reportdata.h"

#include "model/store/store.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace plimsoll {

namespace {

std::string fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

ReportFit fitRamp(const RunRecord &run, const RampSaturation &ramp, int resamples)
{
    ReportFit f;
    f.runKey = run.runKey;
    f.prefix = ramp.prefix + "/";
    f.factor = ramp.factor;
    f.metric = "records_per_s";
    f.points = rampPoints(run, f.prefix, f.factor, f.metric);
    std::vector<UslPoint> usl;
    std::vector<SaturationStep> steps;
    for (const RampPoint &p : f.points) {
        usl.push_back({p.x, p.y});
        steps.push_back(p.step);
    }
    UslOptions options;
    options.bootstrapResamples = resamples;
    f.fit = UslFitter(options).fit(usl);
    f.saturation = ramp.result.steps.empty() ? SaturationDetector().detect(std::move(steps))
                                             : ramp.result;
    return f;
}

void addCaveats(ReportData &d, const std::vector<RunRecord> &runs)
{
    const SizingResult &r = d.sizing;
    for (const std::string &w : r.warnings)
        d.caveats.push_back(w);
    for (const std::string &n : d.modelNotes)
        d.caveats.push_back(n);
    for (const ReportFit &f : d.fits) {
        if (!f.fit.ok)
            d.caveats.push_back("no USL fit for " + f.runKey + " " + f.prefix + "*: " + f.fit.error);
        else if (f.fit.weak)
            d.caveats.push_back("weak USL fit for " + f.runKey + " " + f.prefix + "*: " +
                                f.fit.weakReason);
        if (f.extrapolated)
            d.caveats.push_back("the recommended " + f.factor + " lies beyond the largest measured " +
                                f.factor + " of " + f.runKey + " " + f.prefix +
                                "* (" + fixed(f.fit.maxN, 0) + "): extrapolated");
    }
    for (const RunRecord &run : runs) {
        std::set<std::string> fields;
        int scenarios = 0;
        for (const ScenarioRecord &s : run.scenarios) {
            if (s.topology.inferred.empty())
                continue;
            ++scenarios;
            fields.insert(s.topology.inferred.begin(), s.topology.inferred.end());
        }
        if (fields.empty())
            continue;
        std::string list;
        for (const std::string &f : fields)
            list += (list.empty() ? "" : ", ") + f;
        d.caveats.push_back("run " + run.runKey + ": " + list + " inferred (not stated by the source) in " +
                            std::to_string(scenarios) + " scenario" + (scenarios == 1 ? "" : "s"));
    }
}

} // namespace

ReportData collectReport(const Store &store, const ReportRequest &request,
                         const std::string &plimsollVersion)
{
    ReportData d;
    d.inputs = request.inputs;
    d.options = request.options;
    d.plimsollVersion = plimsollVersion;
    // The runs and models `plimsoll size` and the Sizing view rest on (fitSelectedModels): every
    // run read, for the provenance and the latency budget beside the sizing.
    Evidence evidence = readSizingEvidence(store, request.evidence, false);
    std::sort(evidence.runs.begin(), evidence.runs.end(),
              [](const RunRecord &a, const RunRecord &b) { return a.runKey < b.runKey; });
    const SizingModels models = fitSelectedModels(evidence, request.evidence, request.options);
    d.evidence = request.evidence.describe();
    d.evidenceNote = evidence.note;
    d.components = models.components;
    const std::vector<RunRecord> runs = std::move(evidence.runs);
    d.modelNotes = models.notes;
    const Sizer sizer(models);
    d.sizing = sizer.size(request.inputs);
    if (!d.sizing.ok) {
        d.error = d.sizing.error;
        return d;
    }
    d.ok = true;

    std::map<std::string, const RunRecord *> byKey;
    for (const RunRecord &r : runs)
        byKey[r.runKey] = &r;
    for (const RampSaturation &ramp : models.ramps) {
        const auto it = byKey.find(ramp.runKey);
        if (it == byKey.end())
            continue;
        ReportFit f = fitRamp(*it->second, ramp, request.bootstrapResamples);
        if (f.points.empty())
            continue;
        const double recommended = f.factor == "shards"    ? d.sizing.shards
                                   : f.factor == "brokers" ? d.sizing.brokers
                                                           : 0;
        f.extrapolated = f.fit.ok && recommended > f.fit.maxN;
        for (const std::string &family : spectrumFamilies(*it->second))
            if (auto lines = spectrumLines(*it->second, family, f.prefix); !lines.empty()) {
                f.spectrumFamily = family;
                f.spectrum = std::move(lines);
                break;
            }
        d.fits.push_back(std::move(f));
    }
    std::sort(d.fits.begin(), d.fits.end(), [](const ReportFit &a, const ReportFit &b) {
        return std::tie(a.runKey, a.prefix, a.factor) < std::tie(b.runKey, b.prefix, b.factor);
    });

    // One result: the placement, its partition model and the memory are the sizing's own, never
    // computed again here (a second estimate would print a second number for one quantity).
    d.placement = d.sizing.partitionPlan.placement;
    d.placementRecommendation = d.sizing.partitionPlan;
    d.memory = d.sizing.memory;

    const SizingInputs &in = request.inputs;
    d.budget.p99 = in.p99Budget;
    // The budget per component too: the user's own latency points when the selection has any,
    // the samples' otherwise (on auto), said beside it.
    std::vector<RunRecord> budgetRuns;
    const bool ownLatency = std::any_of(runs.begin(), runs.end(), [](const RunRecord &r) {
        return !r.sample && !latencyPoints({r}).empty();
    });
    const bool perComponent = request.evidence.samples == SampleRuns::Auto && request.evidence.runs.runs.empty();
    for (const RunRecord &r : runs)
        if (!perComponent || !ownLatency || !r.sample)
            budgetRuns.push_back(r);
    d.budgetResult = LatencyBudgetSelector(d.budget).select(latencyPoints(budgetRuns, &d.budgetOrigins));
    std::vector<std::string> budgetKeys;
    for (const LatencyPointOrigin &o : d.budgetOrigins)
        budgetKeys.push_back(o.runKey);
    d.budgetEvidence = sourceOf(budgetKeys, models.sampleRunKeys);

    addCaveats(d, runs);

    std::set<std::string> used;
    for (const SizingLine &l : d.sizing.lines)
        used.insert(l.runKeys.begin(), l.runKeys.end());
    for (const ReportFit &f : d.fits)
        used.insert(f.runKey);
    for (const RunRecord &r : runs) {
        ReportRun rr;
        rr.runKey = r.runKey;
        rr.name = r.name;
        rr.timestamp = r.timestamp;
        rr.tool = r.tool;
        rr.toolVersion = r.toolVersion;
        rr.target = r.target;
        rr.commit = r.commit;
        rr.imageDigest = r.imageDigest;
        rr.sample = r.sample;
        if (const auto detail = store.run(r.runKey)) {
            rr.sourceUri = detail->source.uri;
            rr.sourceFormat = detail->source.format;
            rr.sourceSha256 = detail->source.sha256;
            rr.importer = detail->source.importer;
            rr.importerVersion = detail->source.importerVersion;
        }
        rr.usedBySizing = used.count(r.runKey) > 0;
        d.runs.push_back(std::move(rr));
    }
    return d;
}

} // namespace plimsoll
