#include "model/report/reportdocument.h"

#include "model/store/runlabels.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>

namespace plimsoll {

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

std::string fmt(const char *format, double v)
{
    char buf[96];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string orInf(double v, const char *format)
{
    return std::isfinite(v) ? fmt(format, v) : std::string("∞");
}

std::string interval(const UslInterval &i, const char *format)
{
    if (std::isnan(i.lo) || std::isnan(i.hi))
        return "—";
    return "[" + orInf(i.lo, format) + ", " + orInf(i.hi, format) + "]";
}

// A rate as the sizing's own lines print it ("600k", "1.2M"), so the inputs, the topology
// table and the latency budget say the same number the same way.
std::string rateText(double v)
{
    return v >= 1e6 ? fmt("%.3gM", v / 1e6) : v >= 1e3 ? fmt("%.4gk", v / 1e3) : fmt("%.3g", v);
}

std::string percent(double fraction) { return fmt("%.0f %%", fraction * 100); }

std::string orDash(const std::string &s) { return s.empty() ? "—" : s; }

ReportBlock heading(int level, std::string text)
{
    ReportBlock b;
    b.kind = ReportBlock::Kind::Heading;
    b.level = level;
    b.text = std::move(text);
    return b;
}

ReportBlock paragraph(std::string text)
{
    ReportBlock b;
    b.text = std::move(text);
    return b;
}

ReportBlock table(std::vector<std::string> header, std::vector<bool> numeric)
{
    ReportBlock b;
    b.kind = ReportBlock::Kind::Table;
    b.header = std::move(header);
    b.numeric = std::move(numeric);
    return b;
}

void inputs(ReportDocument &doc, const ReportData &d)
{
    const SizingInputs &in = d.inputs;
    doc.blocks.push_back(heading(2, "Inputs and assumptions"));
    ReportBlock t = table({"Input", "Value"}, {false, false});
    t.rows = {
        {"Target ingest", in.rate > 0 ? rateText(in.rate) + " records/s"
                                      : fmt("%.1f MiB/s", in.bytesPerS / 1048576)},
        {"Record size", fmt("%.0f B as produced", in.recordBytes)},
        {"Compression (produced ÷ wire)", fmt("%.2g : 1", in.compressionRatio)},
        {"Retention in Redis", fmt("%g s", in.retentionS)},
        {"Replication", std::to_string(in.replication) + " copies of each shard"},
        {"Produce p99 budget", fmt("%g ms", in.p99Budget * 1e3)},
        {"Headroom", percent(in.headroom)},
        {"Survive losing one node", in.tolerateNodeLoss ? "yes" : "no"},
        {"Redis Flex", in.flex ? "yes" : "no"},
        {"Tiered offload", in.tiered ? fmt("yes, local retention %g s", in.localRetentionS) : "no"},
        {"Storage-worker trim tick", fmt("%g s", in.trimTickS)},
        {"CPU saturation limit", percent(d.options.cpuLimit)},
        {"Topic", in.topic},
        {"Stream keys", in.keyPattern},
        {"Redis node RAM", fmt("%.0f GiB", in.nodeRamBytes / kGiB) + ", " +
                               percent(in.nodeRamUsable) + " usable"},
        {"Runs fitted", std::to_string(d.runs.size())},
    };
    doc.blocks.push_back(std::move(t));
    doc.blocks.push_back(paragraph(
        "Sizing follows the measured ramps: each component's capacity per unit is set by its "
        "hottest measured step at the CPU limit, memory by rate × retention × stored bytes per "
        "record × replication plus one trim tick, partitions by CRC16 slot placement."));
}

void evidence(ReportDocument &doc, const ReportData &d)
{
    std::string text = "Evidence: " + d.evidence + " (" + std::to_string(d.runs.size()) +
                       (d.runs.size() == 1 ? " run" : " runs") + ")";
    text += d.evidenceNote.empty() ? "." : "; " + d.evidenceNote + ".";
    doc.blocks.push_back(paragraph(text));
}

// Every model's count side by side, the one the sizing took marked, and why it took that one.
void unitsByModel(ReportDocument &doc, const UnitsChoice &choice, const std::string &what)
{
    if (choice.answers.empty())
        return;
    doc.blocks.push_back(heading(3, what + " count by each model"));
    ReportBlock t = table({"Model", "Count", "Taken", "Reasoning"}, {false, true, false, false});
    for (const UnitsAnswer &a : choice.answers)
        t.rows.push_back({a.model, a.units ? std::to_string(*a.units) : "—", a.taken ? "taken" : "",
                          a.reasoning});
    doc.blocks.push_back(std::move(t));
    doc.blocks.push_back(paragraph("The sizing took " + orDash(choice.taken) + ": " + orDash(choice.why) + "."));
}

void topology(ReportDocument &doc, const ReportData &d)
{
    const SizingResult &r = d.sizing;
    doc.blocks.push_back(heading(2, "Recommended topology"));
    // Each quantity as its sizing line prints it: one value, one way of writing it.
    auto shown = [&r](const char *key) {
        const SizingLine *l = r.line(key);
        return l ? l->display + (l->caveat.empty() ? "" : " (⚠ see below)") : std::string("—");
    };
    doc.blocks.push_back(paragraph(shown("brokers") + " Korvet brokers, " + shown("redis_nodes") + " Redis nodes, " +
                                   shown("shards") + " Redis shards, " + shown("partitions") + " partitions, " +
                                   shown("memory_total_bytes") + " of Redis memory. Bottleneck: " +
                                   orDash(r.bottleneck) + "."));
    ReportBlock t = table({"Quantity", "Value", "Evidence", "Reasoning"}, {false, true, false, false});
    for (const SizingLine &l : r.lines) {
        std::string why = l.caveat.empty() ? l.reasoning : "⚠ " + l.caveat + ". " + l.reasoning;
        // A few runs are named; more are counted, and Provenance lists each one.
        if (l.runKeys.size() > 3) {
            why += " (from " + std::to_string(l.runKeys.size()) + " runs, each marked used under Provenance)";
        } else if (!l.runKeys.empty()) {
            why += " (from ";
            for (size_t i = 0; i < l.runKeys.size(); ++i)
                why += (i ? ", " : "") + l.runKeys[i];
            why += ")";
        }
        t.rows.push_back({l.label, l.caveat.empty() ? l.display : l.display + " ⚠", orDash(label(l.evidence)), why});
    }
    doc.blocks.push_back(std::move(t));
    unitsByModel(doc, r.brokerChoice, "Broker");
    unitsByModel(doc, r.shardChoice, "Shard");

    doc.blocks.push_back(heading(2, "Utilization at the target"));
    ReportBlock u = table({"Component", "Utilization", "Limit", "Headroom left", ""},
                          {false, true, true, true, false});
    for (const ComponentLoad &l : r.loads)
        u.rows.push_back({l.component, percent(l.utilization), percent(l.limit),
                          percent(l.headroomLeft()),
                          l.component == r.bottleneck ? "bottleneck" : ""});
    doc.blocks.push_back(std::move(u));
}

// The ramp's steps' latency percentiles, one line a step (the HdrHistogram plot), when they
// state two or more.
void spectrumChart(ReportDocument &doc, const ReportData &d, size_t i)
{
    const ReportFit &f = d.fits[i];
    if (f.spectrum.empty())
        return;
    ReportBlock c;
    c.kind = ReportBlock::Kind::Chart;
    c.chart.kind = ReportChart::Kind::Spectrum;
    c.chart.fit = int(i);
    c.chart.caption = "Latency percentile spectrum (" + f.spectrumFamily + ") of " + std::to_string(f.spectrum.size()) +
                      (f.spectrum.size() == 1 ? " step" : " steps") + ", against 1/(1−p)";
    doc.blocks.push_back(std::move(c));
}

void fitSection(ReportDocument &doc, const ReportData &d, size_t i, const std::string &title)
{
    const ReportFit &f = d.fits[i];
    const UslFit &u = f.fit;
    doc.blocks.push_back(heading(3, title));
    ReportBlock c;
    c.kind = ReportBlock::Kind::Chart;
    c.chart.kind = ReportChart::Kind::Scaling;
    c.chart.fit = int(i);
    c.chart.caption = f.metric + " against " + f.factor + ", " + std::to_string(f.points.size()) +
                      " steps";
    doc.blocks.push_back(std::move(c));
    if (!u.ok) {
        doc.blocks.push_back(paragraph("No fit: " + u.error));
        spectrumChart(doc, d, i);
        return;
    }
    ReportBlock t = table({"Parameter", "Value", "95 % interval"}, {false, true, true});
    // The parameters the points fix, and a peak only where measured points bracket it.
    const bool peak = u.peakMeasured();
    const char *notFitted = "held at 0 (too few distinct N)";
    t.rows = {
        {"λ (records/s per unit)", fmt("%.0f", u.params.lambda), interval(u.lambdaCi, "%.0f")},
        {"σ (contention)", u.model == UslModel::Linear ? notFitted : fmt("%.3g", u.params.sigma),
         u.model == UslModel::Linear ? "" : interval(u.sigmaCi, "%.3g")},
        {"κ (coherency)", u.model != UslModel::Full ? notFitted : fmt("%.3g", u.params.kappa),
         u.model != UslModel::Full ? "" : interval(u.kappaCi, "%.3g")},
        {"N*", peak ? orInf(u.nStar, "%.1f") : std::string(u.peak == UslPeak::None ? "no peak" : "not measured"),
         peak ? interval(u.nStarCi, "%.1f") : ""},
        {"X at N* (records/s)", peak ? orInf(u.xAtNStar, "%.0f") : std::string("—"),
         peak ? interval(u.xAtNStarCi, "%.0f") : ""},
        {"R²", fmt("%.4f", u.r2), ""},
        {"Points (distinct N)", std::to_string(u.points) + " (" + std::to_string(u.distinctN) + ")", ""},
    };
    doc.blocks.push_back(std::move(t));
    std::string text = std::string("Limit: ") + toString(u.limit) + " — " + u.limitReason +
                       ". N*: " + u.nStarNote + ".";
    if (u.weak)
        text += " Weak fit: " + u.weakReason + ".";
    if (!f.saturation.reason.empty())
        text += " Saturation: " + f.saturation.reason;
    doc.blocks.push_back(paragraph(text));
    spectrumChart(doc, d, i);
}

// One section per ramp family (scenario prefix and load factor), not per run: a nightly series
// of ramps shows its latest run and its first (the baseline) in full, the others as table rows.
void fits(ReportDocument &doc, const ReportData &d)
{
    doc.blocks.push_back(heading(2, "Scaling fits"));
    doc.blocks.push_back(paragraph(
        "Universal Scalability Law X(N) = λN / (1 + σ(N−1) + κN(N−1)) fitted to each ramp; the "
        "band is the 95 % bootstrap interval of the curve, N* the load where throughput peaks."));
    if (d.fits.empty())
        doc.blocks.push_back(paragraph("No ramp in the selected runs carries a load factor and "
                                       "records_per_s."));
    std::map<std::string, std::string> timeOf, titleOf;
    for (const ReportRun &r : d.runs) {
        timeOf[r.runKey] = r.timestamp;
        titleOf[r.runKey] = runTitle(r.name, r.runKey); // "name (key)" where the user named it
    }
    const auto title = [&](const std::string &key) {
        const auto it = titleOf.find(key);
        return it == titleOf.end() ? key : it->second;
    };
    std::map<std::pair<std::string, std::string>, std::vector<size_t>> families; // (prefix, factor)
    for (size_t i = 0; i < d.fits.size(); ++i)
        families[{d.fits[i].prefix, d.fits[i].factor}].push_back(i);
    for (auto &[family, members] : families) {
        std::sort(members.begin(), members.end(), [&](size_t a, size_t b) {
            return std::tie(timeOf[d.fits[a].runKey], d.fits[a].runKey) <
                   std::tie(timeOf[d.fits[b].runKey], d.fits[b].runKey);
        });
        if (members.size() <= 2) {
            for (size_t i : members)
                fitSection(doc, d, i, title(d.fits[i].runKey) + ": " + d.fits[i].prefix + "*");
            continue;
        }
        const size_t latest = members.back(), first = members.front();
        fitSection(doc, d, latest, title(d.fits[latest].runKey) + ": " + family.first + "* (latest of " +
                                       std::to_string(members.size()) + " runs)");
        fitSection(doc, d, first, title(d.fits[first].runKey) + ": " + family.first + "* (the first, the baseline)");
        doc.blocks.push_back(heading(3, "Every run of " + family.first + "* against " + family.second));
        ReportBlock t = table({"Run", "Time", "λ", "σ", "κ", "N*", "R²"},
                              {false, false, true, true, true, true, true});
        for (size_t i : members) {
            const ReportFit &f = d.fits[i];
            if (!f.fit.ok) {
                t.rows.push_back({title(f.runKey), timeOf[f.runKey], "no fit", "", "", "", ""});
                continue;
            }
            t.rows.push_back({title(f.runKey), timeOf[f.runKey], fmt("%.0f", f.fit.params.lambda),
                              f.fit.model == UslModel::Linear ? "—" : fmt("%.3g", f.fit.params.sigma),
                              f.fit.model != UslModel::Full ? "—" : fmt("%.3g", f.fit.params.kappa),
                              f.fit.peakMeasured() ? orInf(f.fit.nStar, "%.1f") : std::string("not measured"),
                              fmt("%.4f", f.fit.r2)});
        }
        doc.blocks.push_back(std::move(t));
    }
}

void placementAndMemory(ReportDocument &doc, const ReportData &d)
{
    const PlacementResult &p = d.placement;
    doc.blocks.push_back(heading(2, "Partition placement"));
    if (!p.ok) {
        doc.blocks.push_back(paragraph(p.error));
    } else {
        ReportBlock c;
        c.kind = ReportBlock::Kind::Chart;
        c.chart.kind = ReportChart::Kind::Placement;
        c.chart.caption = std::to_string(p.partitions) + " partitions of '" + d.inputs.topic +
                          "' on " + std::to_string(p.shards.size()) + " shards";
        doc.blocks.push_back(std::move(c));
        std::string text = "The sizing's " + std::to_string(p.partitions) + " partitions on its " +
                           std::to_string(p.shards.size()) + " shards, " + kSlotSplitText + ": " +
                           fmt("mean %.2f partitions per shard", p.mean) + ", max " + std::to_string(p.maxPerShard) +
                           ", min " + std::to_string(p.minPerShard) + fmt(", max/mean skew %.2f", p.maxSkew) + ".";
        if (!d.placementRecommendation.warning.empty())
            text += " ⚠ " + d.placementRecommendation.warning + ".";
        else if (!p.emptyShards.empty())
            text += " ⚠ " + std::to_string(p.emptyShards.size()) + " of the " + std::to_string(p.shards.size()) +
                    " shards hold no partition: they add no capacity for this topic.";
        text += " Recommended: " + d.placementRecommendation.reason;
        doc.blocks.push_back(paragraph(text));
    }

    const MemoryEstimate &m = d.memory;
    doc.blocks.push_back(heading(2, "Memory"));
    ReportBlock t = table({"Part", "Bytes", "GiB"}, {false, true, true});
    auto row = [&t](const char *label, double bytes) {
        t.rows.push_back({label, fmt("%.0f", bytes), fmt("%.2f", bytes / kGiB)});
    };
    t.rows.push_back({"Stored bytes per record", fmt("%.0f", m.storedBytesPerRecord), ""});
    row("Retained (one copy)", m.retainedBytes);
    row("Trim-tick overshoot (one copy)", m.overshootBytes);
    row("Held by Redis (replicas included)", m.usageBytes);
    row("To provision (skew and headroom)", m.provisionBytes);
    row("In the hottest shard (primary or replica)", m.perShardBytes);
    doc.blocks.push_back(std::move(t));
    ReportBlock steps;
    steps.kind = ReportBlock::Kind::Bullets;
    steps.items = m.lines;
    doc.blocks.push_back(std::move(steps));
}

void budget(ReportDocument &doc, const ReportData &d)
{
    doc.blocks.push_back(heading(2, "Latency budget"));
    const auto &r = d.sizing;
    std::string text = fmt("Budget: produce p99 ≤ %g ms. ", d.budget.p99 * 1e3);
    if (d.budgetEvidence != EvidenceSource::None)
        text += std::string("Measured points from ") + label(d.budgetEvidence) + ". ";
    text += r.p99 ? fmt("Predicted p99 at the target: %.3g ms, from the ramp's latency curve.", *r.p99 * 1e3)
                  : std::string("No p99 prediction at the target: the per-unit load is beyond "
                                "the measured latency curve.");
    const BudgetSelection &o = d.budgetResult.overall;
    if (o.found)
        text += " Highest throughput within the budget among the measured points: " +
                rateText(o.best.point.throughput) + " records/s" + " (" + o.best.point.product +
                (o.best.point.configuration.empty() ? "" : ", " + o.best.point.configuration) +
                ", " + std::to_string(o.best.point.connections) + " connections, " +
                fmt("p99 %.3g ms).", o.best.point.p99 * 1e3);
    else
        text += " No measured point meets the budget.";
    doc.blocks.push_back(paragraph(text));
    ReportBlock t = table({"Product", "Configuration", "Choice within budget"}, {false, false, false});
    for (const BudgetSelection &s : d.budgetResult.perConfiguration)
        t.rows.push_back({s.product, orDash(s.configuration),
                          s.found ? rateText(s.best.point.throughput) + "/s at " +
                                        std::to_string(s.best.point.connections) +
                                        fmt(" connections, p99 %.3g ms", s.best.point.p99 * 1e3)
                                  : "none within budget"});
    if (!t.rows.empty())
        doc.blocks.push_back(std::move(t));
}

void caveatsAndProvenance(ReportDocument &doc, const ReportData &d)
{
    doc.blocks.push_back(heading(2, "Caveats"));
    ReportBlock c;
    c.kind = ReportBlock::Kind::Bullets;
    c.items = d.caveats;
    if (c.items.empty())
        c.items.push_back("none: every fit is strong and the target lies within the measured load");
    doc.blocks.push_back(std::move(c));

    doc.blocks.push_back(heading(2, "Provenance"));
    doc.blocks.push_back(paragraph("Plimsoll " + d.plimsollVersion + ". Every run fitted, by run "
                                   "key; 'used' marks the runs a number above came from."));
    ReportBlock t = table({"Run key", "Time", "Tool", "Commit", "Image digest", "Source",
                           "Importer", "Used"},
                          {false, false, false, false, false, false, false, false});
    for (const ReportRun &r : d.runs)
        t.rows.push_back({runTitle(r.name, r.runKey) + (r.sample ? " (sample)" : ""), r.timestamp,
                          orDash(r.tool + (r.toolVersion.empty() ? "" : " " + r.toolVersion)),
                          orDash(r.commit), orDash(r.imageDigest),
                          orDash(r.sourceUri) + (r.sourceFormat.empty() ? "" : " (" + r.sourceFormat + ")"),
                          orDash(r.importer + (r.importerVersion.empty() ? "" : " " + r.importerVersion)),
                          r.usedBySizing ? "yes" : ""});
    doc.blocks.push_back(std::move(t));
}

} // namespace

ReportDocument composeReport(const ReportData &d, const std::string &generatedAtUtc)
{
    ReportDocument doc;
    doc.title = "Plimsoll sizing report";
    doc.generatedAt = "Generated at " + generatedAtUtc;
    if (!d.ok) {
        doc.blocks.push_back(paragraph("No sizing: " + d.error));
        return doc;
    }
    evidence(doc, d);
    inputs(doc, d);
    topology(doc, d);
    fits(doc, d);
    placementAndMemory(doc, d);
    budget(doc, d);
    caveatsAndProvenance(doc, d);
    return doc;
}

std::string reportTimestamp()
{
    QDateTime t = QDateTime::currentDateTimeUtc();
    if (const char *epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
        char *end = nullptr;
        const long long s = std::strtoll(epoch, &end, 10);
        if (end && *end == '\0')
            t = QDateTime::fromSecsSinceEpoch(s, Qt::UTC);
    }
    return t.toString(Qt::ISODate).toStdString();
}

} // namespace plimsoll
