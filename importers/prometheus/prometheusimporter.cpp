#include "importers/prometheus/prometheusimporter.h"

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/textsource.h"
#include "model/formats/prometheusdiff.h"
#include "model/core/textpattern.h"

#include <QDateTime>
#include <QIODevice>

#include <cmath>
#include <map>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"prometheus", "1",
                          "Prometheus text exposition 0.0.4 (/metrics): one scrape, or several in one file giving rates and histogram percentiles per interval (two files: import --scrapes BEFORE AFTER)",
                          "\"# TYPE name counter|gauge|histogram|summary|untyped\" lines, or metric sample lines (name{label=\"v\"} value) throughout"},
                         "Prometheus text", kMaxBytes, TextInput::Whole};

// The histogram the Korvet broker exports for produce request handling, in seconds.
const std::string kKorvetProduce = "korvet_broker_produce_seconds";

// Per target: samples grouped by their `instance` label ("" for none), the label dropped.
std::map<std::string, PromSnapshot> byTarget(const PromSnapshot &snap)
{
    std::map<std::string, PromSnapshot> out;
    PromSnapshot *target = nullptr; // the last sample's, looked up again only when it changes
    std::string_view targetInstance;
    for (const PromFamily &f : snap.families) {
        for (const PromSample &s : f.samples) {
            std::string_view instance;
            for (const auto &[key, value] : s.labels)
                if (key == "instance") {
                    instance = value;
                    break;
                }
            if (!target || instance != targetInstance) {
                target = &out[std::string(instance)];
                targetInstance = instance;
            }
            PromSnapshot &t = *target;
            t.timeMs = snap.timeMs;
            t.line = snap.line;
            // A scrape names each family once and families are copied in order, so f's copy,
            // when this target has one, is the last (no search through every family per sample).
            if (t.families.empty() || t.families.back().name != f.name)
                t.families.push_back({f.name, f.type, f.help, {}, f.line});
            PromSample copy = s;
            std::erase_if(copy.labels, [](const auto &kv) { return kv.first == "instance"; });
            t.families.back().samples.push_back(std::move(copy));
        }
    }
    return out;
}

std::string scenarioBase(const std::string &instance)
{
    return instance.empty() ? std::string("prometheus") : "prometheus/" + instance;
}

std::string targetOf(const std::vector<PromSnapshot> &snapshots)
{
    for (const PromSnapshot &s : snapshots)
        for (const PromFamily &f : s.families) {
            if (f.name.starts_with("korvet_"))
                return "korvet";
        }
    for (const PromSnapshot &s : snapshots)
        for (const PromFamily &f : s.families) {
            if (f.name.starts_with("redis_"))
                return "redis";
            if (f.name.starts_with("kafka_"))
                return "kafka";
        }
    return {};
}

// Metrics are stored as numbers; NaN and infinities (an empty summary's quantiles, +Inf
// gauges) have no place there and are counted instead.
void add(ScenarioRecord &sc, const std::string &name, double value, int64_t &nonFinite)
{
    if (!std::isfinite(value)) {
        ++nonFinite;
        return;
    }
    sc.metrics.push_back({name, value});
}

void addQuantiles(ScenarioRecord &sc, const std::string &series,
                  const std::vector<PromBucket> &buckets, int64_t &nonFinite,
                  std::initializer_list<std::pair<const char *, double>> quantiles)
{
    for (const auto &[suffix, q] : quantiles)
        if (auto v = histogramQuantile(q, buckets))
            add(sc, "prom." + series + "." + suffix, *v, nonFinite);
}

ScenarioRecord snapshotScenario(const PromSnapshot &snap, const std::string &instance,
                                int64_t &nonFinite)
{
    ScenarioRecord sc;
    sc.name = scenarioBase(instance) + (instance.empty() ? "/snapshot" : "");
    sc.kind = "snapshot";
    sc.line = snap.line;
    sc.provenance = "one scrape, from line " + std::to_string(snap.line);
    for (const PromFamily &f : snap.families) {
        std::map<std::string, std::vector<PromBucket>> histograms;
        for (const PromSample &s : f.samples) {
            add(sc, "prom." + promSeriesName(s.name, s.labels), s.value, nonFinite);
            if (f.type == PromType::Histogram && s.name == f.name + "_bucket") {
                const auto le = s.label("le");
                const double b = !le ? NAN : *le == "+Inf" ? INFINITY : parseNumber(*le).value_or(NAN);
                if (!std::isnan(b))
                    histograms[promSeriesName(f.name, s.labels, {"le"})].push_back({b, s.value});
            }
        }
        for (const auto &[series, buckets] : histograms)
            addQuantiles(sc, series, buckets, nonFinite, {{"p50", 0.5}, {"p99", 0.99}, {"p999", 0.999}});
    }
    return sc;
}

// The interval between two consecutive scrapes of one file, from the times they state:
// nullopt (with a warning saying why) when they state none or are out of order.
std::optional<double> statedInterval(const PromSnapshot &a, const PromSnapshot &b,
                                     const std::string &scenario,
                                     std::vector<ImportWarning> &warnings)
{
    if (a.timeMs && b.timeMs) {
        const double s = double(*b.timeMs - *a.timeMs) / 1000.0;
        if (s > 0)
            return s;
        warnings.push_back({"negative-time", b.line,
                            "the scrape at line " + std::to_string(b.line) +
                                " is not later than the one at line " + std::to_string(a.line) +
                                ": no rates for " + scenario});
    } else {
        warnings.push_back({"interval-unknown", b.line,
                            "the scrapes at lines " + std::to_string(a.line) + " and " +
                                std::to_string(b.line) +
                                " state no time (no separator time, no sample timestamps): " +
                                scenario + " keeps increases, not rates"});
    }
    return std::nullopt;
}

std::string windowName(const std::string &instance, int index)
{
    return scenarioBase(instance) + "/window-" + std::to_string(index);
}

// The scenario of one interval: rates over `seconds` (increases when nullopt), percentiles of
// the bucket difference. `resets` counts the counters and histograms that went down.
ScenarioRecord windowScenario(const PromSnapshot &a, const PromSnapshot &b,
                              const std::string &instance, int index,
                              std::optional<double> seconds, const std::string &provenance,
                              int &resets, int64_t &nonFinite)
{
    ScenarioRecord sc;
    sc.name = windowName(instance, index);
    sc.kind = "interval";
    sc.line = b.line;
    sc.provenance = provenance;
    const PromDiff d = diffSnapshots(a, b, seconds.value_or(0));
    if (seconds)
        sc.metrics.push_back({"prom.interval_s", *seconds});
    for (const PromRate &r : d.rates) {
        resets += r.reset ? 1 : 0;
        if (seconds)
            add(sc, "prom." + r.series + ".rate_per_s", r.perSecond, nonFinite);
        else
            add(sc, "prom." + r.series + ".increase", r.delta, nonFinite);
    }
    for (const PromGaugeValue &g : d.gauges)
        add(sc, "prom." + g.series, g.value, nonFinite);
    for (const PromHistogramWindow &h : d.histograms) {
        addQuantiles(sc, h.series, h.buckets, nonFinite,
                     {{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"p999", 0.999}});
        if (h.count > 0)
            add(sc, "prom." + h.series + ".avg", h.sum / h.count, nonFinite);
    }
    if (auto produce = d.mergedHistogram(kKorvetProduce)) {
        for (const auto &[name, q] : {std::pair{"latency_p50_s", 0.5}, {"latency_p95_s", 0.95},
                                      {"latency_p99_s", 0.99}, {"latency_p999_s", 0.999}})
            if (auto v = histogramQuantile(q, produce->buckets))
                add(sc, name, *v, nonFinite);
        if (produce->count > 0)
            add(sc, "latency_avg_s", produce->sum / produce->count, nonFinite);
        if (seconds)
            add(sc, "korvet.produce_requests_per_s", produce->count / *seconds, nonFinite);
    }
    return sc;
}

std::string timestampOf(int64_t ms)
{
    return *normalizeTimestamp(
        QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs).toStdString());
}

// What every run of this importer ends with: the non-finite and zero-only warnings.
void finishRun(RunRecord run, int64_t nonFinite, ImportResult &result)
{
    if (nonFinite > 0)
        result.warnings.push_back({"non-finite", 0,
                                   std::to_string(nonFinite) +
                                       " values are NaN or infinite (empty summaries, +Inf "
                                       "gauges): left out"});
    std::vector<double> rates;
    for (const ScenarioRecord &sc : run.scenarios)
        for (const MetricValue &m : sc.metrics)
            if (m.name.ends_with(".rate_per_s"))
                rates.push_back(m.value);
    warnIfZeroOnly(rates, 0, "every counter's rate", result.warnings);
    result.runs.push_back(std::move(run));
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    const std::string text(head.substr(0, 16384));
    static const TextPattern typeLine(
        R"((^|\n)# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge|histogram|summary|untyped)\s*(\r?\n|$))");
    if (typeLine.search(text))
        return 90;
    // No TYPE lines (some exporters omit them): most lines must be samples.
    static const TextPattern sample(R"(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? [-+0-9.eEInfNa]+( -?[0-9]+)?$)");
    int samples = 0, others = 0;
    for (const TextLine &line : splitLines(text)) {
        const std::string t(trimmed(line.text));
        if (t.empty() || t.front() == '#')
            continue;
        (sample.fullMatch(t) ? samples : others) += 1;
    }
    return samples >= 3 && others == 0 ? 60 : 0;
}

Resemblance resemblance(std::string_view head)
{
    if (head.find("# HELP ") != std::string_view::npos || head.find("# TYPE ") != std::string_view::npos)
        return {50, "has # HELP/# TYPE comments but no valid TYPE line or sample lines"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &in, const ImportOptions &,
                   ImportResult result)
{
    PromParseResult parsed = parsePrometheusText(text);
    for (const PromParseWarning &w : parsed.warnings)
        result.warnings.push_back({w.kind, w.line, w.detail});
    if (parsed.error) {
        ImportError e{parsed.error->message, parsed.error->line, -1, parsed.error->field};
        e.column = parsed.error->column;
        result.error = e;
        return result;
    }
    ImportResult built = prometheusRunFromSnapshots(parsed.snapshots, text, &in);
    built.warnings.insert(built.warnings.begin(), result.warnings.begin(), result.warnings.end());
    return built;
}

} // namespace

const Importer &prometheusImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

ImportResult prometheusRunFromSnapshots(const std::vector<PromSnapshot> &snapshots,
                                         const std::string &text, QIODevice *in)
{
    ImportResult result;
    if (snapshots.empty()) {
        result.error = ImportError{"holds no metric samples", 0, -1, {}};
        return result;
    }
    RunRecord run;
    run.line = snapshots.front().line;
    run.tool = "prometheus";
    run.target = targetOf(snapshots);
    run.runKey = contentRunKey("prometheus", text);
    if (const auto &t = snapshots.back().timeMs) {
        run.timestamp = timestampOf(*t);
    } else if (in) {
        dateByInference(run, *in, result.warnings);
    } else {
        run.timestamp = nowTimestamp();
        run.timeSource = TimeSource::Imported;
    }
    run.environment["scrapes"] = snapshots.size();
    int64_t nonFinite = 0;
    if (snapshots.size() == 1) {
        for (const auto &[instance, snap] : byTarget(snapshots.front()))
            run.scenarios.push_back(snapshotScenario(snap, instance, nonFinite));
    } else {
        std::vector<std::map<std::string, PromSnapshot>> targets;
        for (const PromSnapshot &s : snapshots)
            targets.push_back(byTarget(s));
        for (size_t i = 1; i < targets.size(); ++i)
            for (const auto &[instance, later] : targets[i]) {
                auto earlier = targets[i - 1].find(instance);
                if (earlier == targets[i - 1].end())
                    continue;
                const PromSnapshot &a = earlier->second;
                const auto seconds =
                    statedInterval(a, later, windowName(instance, int(i)), result.warnings);
                const std::string provenance =
                    "difference of the scrapes at lines " + std::to_string(a.line) + " and " +
                    std::to_string(later.line) +
                    (seconds ? ", " + std::to_string(*seconds) + " s apart" : std::string());
                int resets = 0;
                run.scenarios.push_back(windowScenario(a, later, instance, int(i), seconds,
                                                       provenance, resets, nonFinite));
                if (resets > 0)
                    result.warnings.push_back(
                        {"counter-reset", later.line,
                         std::to_string(resets) + " counters went down between the scrapes "
                         "(the target restarted): their increase counts from zero"});
            }
    }
    finishRun(std::move(run), nonFinite, result);
    return result;
}

ImportResult prometheusRunFromInterval(const PromSnapshot &earlier, const PromSnapshot &later,
                                       double seconds, const std::string &provenance,
                                       const std::string &text)
{
    ImportResult result;
    RunRecord run;
    run.line = later.line;
    run.tool = "prometheus";
    run.target = targetOf({earlier, later});
    run.runKey = contentRunKey("prometheus", text);
    if (later.timeMs)
        run.timestamp = timestampOf(*later.timeMs);
    run.environment["scrapes"] = 2;
    int64_t nonFinite = 0;
    const auto before = byTarget(earlier);
    for (const auto &[instance, after] : byTarget(later)) {
        auto it = before.find(instance);
        if (it == before.end())
            continue;
        int resets = 0;
        run.scenarios.push_back(
            windowScenario(it->second, after, instance, 1, seconds, provenance, resets, nonFinite));
    }
    finishRun(std::move(run), nonFinite, result);
    return result;
}

} // namespace plimsoll
