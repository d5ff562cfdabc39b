// One Prometheus scrape of a --scrapes pair, read and indexed (importers/prometheus/scrapeindex.h).
#include "importers/prometheus/scrapeindex.h"

#include "importers/importers.h"
#include "importers/prometheus/prometheusimporter.h"
#include "importers/textsource.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace plimsoll {

namespace {

constexpr size_t kSniffBytes = 64 * 1024;

// A sample that only grows while its process lives (model/formats/prometheusdiff.cpp reads the same).
bool countsUp(const PromFamily &f, const PromSample &s)
{
    switch (f.type) {
    case PromType::Counter:
        return true;
    case PromType::Histogram:
        return s.name == f.name + "_bucket" || s.name == f.name + "_count" ||
               s.name == f.name + "_sum";
    case PromType::Summary:
        return s.name == f.name + "_count" || s.name == f.name + "_sum";
    case PromType::Untyped:
        return s.name.ends_with("_total");
    case PromType::Gauge:
        break;
    }
    return false;
}

} // namespace

std::optional<ImportError> readOneScrape(const std::string &bytes, OneScrape &out)
{
    const std::string_view head(bytes.data(), std::min(bytes.size(), kSniffBytes));
    PromParseResult parsed = parsePrometheusText(bytes);
    if ((parsed.error || parsed.snapshots.empty()) && prometheusImporter().sniff(head) == 0) {
        if (trimmed(bytes).empty())
            return ImportError{"is empty, not a scrape (was the target reachable when it was "
                               "saved?)",
                               0, -1, {}};
        if (const Importer *other = ImporterRegistry::instance().detect(head))
            return ImportError{"is " + other->name() + " output, not a Prometheus scrape", 0, -1,
                               {}};
        return ImportError{"is not a Prometheus scrape: " +
                               ImporterRegistry::instance().explainRefusal(head),
                           0, -1, {}};
    }
    if (parsed.error) {
        ImportError e{parsed.error->message, parsed.error->line, -1, parsed.error->field};
        e.column = parsed.error->column;
        return e;
    }
    if (parsed.snapshots.empty())
        return ImportError{"holds no metric samples", 0, -1, {}};
    if (parsed.snapshots.size() > 1) {
        std::string lines;
        for (const PromSnapshot &s : parsed.snapshots)
            lines += (lines.empty() ? "" : ", ") + std::to_string(s.line);
        return ImportError{"holds " + std::to_string(parsed.snapshots.size()) +
                               " scrapes (from lines " + lines +
                               "), --scrapes pairs one scrape per file: import this file on its "
                               "own for an interval between each two of its scrapes",
                           parsed.snapshots[1].line, -1, {}};
    }
    const auto &families = parsed.snapshots.front().families;
    if (std::none_of(families.begin(), families.end(),
                     [](const PromFamily &f) { return !f.samples.empty(); }))
        return ImportError{"holds no metric samples", 0, -1, {}};
    out.snap = std::move(parsed.snapshots.front());
    for (const PromParseWarning &w : parsed.warnings)
        out.warnings.push_back({w.kind, w.line, w.detail});
    return std::nullopt;
}

ScrapeSeries scrapeSeries(const PromSnapshot &s)
{
    ScrapeSeries out;
    for (const PromFamily &f : s.families)
        for (const PromSample &sample : f.samples)
            out.emplace(promSeriesName(sample.name, sample.labels), &sample);
    return out;
}

std::map<std::string, const PromFamily *> scrapeFamilies(const PromSnapshot &s)
{
    std::map<std::string, const PromFamily *> out;
    for (const PromFamily &f : s.families)
        if (!f.samples.empty())
            out.emplace(f.name, &f);
    return out;
}

std::map<std::string, int64_t> scrapeInstances(const PromSnapshot &s)
{
    std::map<std::string, int64_t> out;
    for (const PromFamily &f : s.families)
        for (const PromSample &sample : f.samples)
            out.emplace(sample.label("instance").value_or(""), sample.line);
    return out;
}

std::pair<std::string, int64_t> scrapeProduct(const PromSnapshot &s)
{
    for (const char *prefix : {"korvet_", "redis_", "kafka_"})
        for (const PromFamily &f : s.families)
            if (f.name.starts_with(prefix) && !f.samples.empty())
                return {std::string(prefix, std::strlen(prefix) - 1), f.samples.front().line};
    return {};
}

std::optional<std::pair<double, int64_t>> scrapeProcessStart(const PromSnapshot &s)
{
    const PromFamily *f = s.family("process_start_time_seconds");
    if (!f || f->samples.size() != 1 || !std::isfinite(f->samples.front().value))
        return std::nullopt;
    return std::pair{f->samples.front().value, f->samples.front().line};
}

bool isBucketSample(const PromSample &s) { return s.name.ends_with("_bucket") && s.label("le"); }

PromSnapshot withNewSeriesAtZero(const PromSnapshot &before, const PromSnapshot &after,
                                 const ScrapeSeries &beforeSeries)
{
    PromSnapshot out = before;
    for (const PromFamily &fa : after.families) {
        PromFamily *fb = nullptr;
        for (PromFamily &f : out.families)
            if (f.name == fa.name)
                fb = &f;
        if (fb && fb->type != fa.type)
            continue;
        for (const PromSample &s : fa.samples) {
            if (!countsUp(fa, s) || beforeSeries.contains(promSeriesName(s.name, s.labels)))
                continue;
            if (!fb) {
                out.families.push_back({fa.name, fa.type, fa.help, {}, 0});
                fb = &out.families.back();
            }
            PromSample zero = s;
            zero.value = 0;
            zero.timestampMs.reset();
            zero.line = 0;
            fb->samples.push_back(std::move(zero));
        }
    }
    return out;
}


} // namespace plimsoll
