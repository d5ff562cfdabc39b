#include "importers/prometheus/scrapepair.h"

#include "importers/prometheus/prometheusimporter.h"
#include "importers/textsource.h"
#include "importers/urlfetcher.h"
#include "model/formats/prometheusdiff.h"
#include "model/formats/prometheustext.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;
constexpr size_t kSniffBytes = 64 * 1024;

// A number as the shortest text that reads back as it; never depends on the locale.
std::string num(double v)
{
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

std::string timeOfMs(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs).toStdString();
}

std::string baseName(const std::string &path)
{
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct OneScrape
{
    PromSnapshot snap;
    std::vector<ImportWarning> warnings;
};

// The single scrape a file holds, or why it is not one.
std::optional<ImportError> readOne(const ScrapeFile &f, OneScrape &out)
{
    const std::string_view head(f.bytes.data(), std::min(f.bytes.size(), kSniffBytes));
    PromParseResult parsed = parsePrometheusText(f.bytes);
    if ((parsed.error || parsed.snapshots.empty()) && PrometheusImporter().sniff(head) == 0) {
        if (trimmed(f.bytes).empty())
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

// Every sample by its series name (name and labels), buckets included.
std::map<std::string, const PromSample *> seriesOf(const PromSnapshot &s)
{
    std::map<std::string, const PromSample *> out;
    for (const PromFamily &f : s.families)
        for (const PromSample &sample : f.samples)
            out.emplace(promSeriesName(sample.name, sample.labels), &sample);
    return out;
}

std::map<std::string, const PromFamily *> familiesOf(const PromSnapshot &s)
{
    std::map<std::string, const PromFamily *> out;
    for (const PromFamily &f : s.families)
        if (!f.samples.empty())
            out.emplace(f.name, &f);
    return out;
}

// `instance` label values (empty for samples without one) and the first line of each.
std::map<std::string, int64_t> instancesOf(const PromSnapshot &s)
{
    std::map<std::string, int64_t> out;
    for (const PromFamily &f : s.families)
        for (const PromSample &sample : f.samples)
            out.emplace(sample.label("instance").value_or(""), sample.line);
    return out;
}

std::string instanceText(const std::string &instance)
{
    return instance.empty() ? std::string("samples without an instance label")
                            : "instance \"" + instance + "\"";
}

// The product a scrape comes from, by its families' prefixes, and the line that says so.
std::pair<std::string, int64_t> productOf(const PromSnapshot &s)
{
    for (const char *prefix : {"korvet_", "redis_", "kafka_"})
        for (const PromFamily &f : s.families)
            if (f.name.starts_with(prefix) && !f.samples.empty())
                return {std::string(prefix, std::strlen(prefix) - 1), f.samples.front().line};
    return {};
}

// process_start_time_seconds when the scrape has exactly one: (value, line).
std::optional<std::pair<double, int64_t>> processStart(const PromSnapshot &s)
{
    const PromFamily *f = s.family("process_start_time_seconds");
    if (!f || f->samples.size() != 1 || !std::isfinite(f->samples.front().value))
        return std::nullopt;
    return std::pair{f->samples.front().value, f->samples.front().line};
}

bool isBucket(const PromSample &s) { return s.name.ends_with("_bucket") && s.label("le"); }

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

// `before` with a zero for every counter, histogram or summary series that first appears in
// `after`: exporters create a labelled series on its first event, so one missing from the
// earlier scrape was created inside the interval and all of its value was counted there.
PromSnapshot withNewSeriesAtZero(const PromSnapshot &before, const PromSnapshot &after,
                                 const std::map<std::string, const PromSample *> &beforeSeries)
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

} // namespace

std::string scrapePairUri(const std::string &beforeUri, const std::string &afterUri)
{
    return beforeUri + " + " + afterUri;
}

ScrapePair pairScrapes(const ScrapeFile &before, const ScrapeFile &after,
                       std::optional<double> intervalS)
{
    ScrapePair out;
    const std::string &bn = before.name;
    const std::string &an = after.name;
    auto warn = [&out](ScrapeSide side, const std::string &kind, int64_t line,
                       const std::string &detail) {
        out.result.warnings.push_back({kind, line, detail});
        out.warningSides.push_back(side);
    };
    auto fail = [&out](ScrapeSide side, ImportError error) {
        out.errorSide = side;
        out.result.error = std::move(error);
        out.result.runs.clear();
        return out;
    };

    if (intervalS && !(*intervalS > 0 && std::isfinite(*intervalS)))
        return fail(ScrapeSide::Neither, {"--interval must be a positive duration", 0, -1, {}});
    if (before.uri == after.uri)
        return fail(ScrapeSide::Neither,
                    {"the same file, " + bn + ", is given as both scrapes: give the scrape "
                     "saved before the workload, then the one saved after it",
                     0, -1, {}});
    if (before.bytes == after.bytes && !before.bytes.empty())
        return fail(ScrapeSide::Neither,
                    {an + " has the same bytes as " + bn + ": the same scrape twice, so there is "
                     "no interval between them (was the second curl written to the wrong file?)",
                     0, -1, {}});

    OneScrape b, a;
    if (auto e = readOne(before, b))
        return fail(ScrapeSide::Before, *e);
    for (const ImportWarning &w : b.warnings)
        warn(ScrapeSide::Before, w.kind, w.line, w.detail);
    if (auto e = readOne(after, a))
        return fail(ScrapeSide::After, *e);
    for (const ImportWarning &w : a.warnings)
        warn(ScrapeSide::After, w.kind, w.line, w.detail);

    // One target? Instances first (federation output names them), then the product, then
    // the families both scrapes have.
    const auto instB = instancesOf(b.snap), instA = instancesOf(a.snap);
    bool sharedInstance = false;
    for (const auto &[instance, line] : instA)
        sharedInstance |= instB.contains(instance);
    if (!sharedInstance)
        return fail(ScrapeSide::After,
                    {"not a scrape of the target in " + bn + ": it has " +
                         instanceText(instA.begin()->first) + " (line " +
                         std::to_string(instA.begin()->second) + "), " + bn + " has " +
                         instanceText(instB.begin()->first) + " (line " +
                         std::to_string(instB.begin()->second) + ")",
                     instA.begin()->second, -1, "instance"});
    const auto prodB = productOf(b.snap), prodA = productOf(a.snap);
    if (!prodB.first.empty() && !prodA.first.empty() && prodB.first != prodA.first)
        return fail(ScrapeSide::After,
                    {"not a scrape of the target in " + bn + ": its metrics are " + prodA.first +
                         "_… (from line " + std::to_string(prodA.second) + "), " + bn + "'s are " +
                         prodB.first + "_… (line " + std::to_string(prodB.second) + ")",
                     prodA.second, -1, {}});
    const auto famB = familiesOf(b.snap), famA = familiesOf(a.snap);
    size_t common = 0;
    const PromFamily *onlyB = nullptr, *onlyA = nullptr;
    for (const auto &[name, f] : famB) {
        if (famA.contains(name))
            ++common;
        else if (!onlyB || f->line < onlyB->line)
            onlyB = f;
    }
    for (const auto &[name, f] : famA)
        if (!famB.contains(name) && (!onlyA || f->line < onlyA->line))
            onlyA = f;
    const size_t all = famB.size() + famA.size() - common;
    if (common * 2 < all) {
        std::string detail;
        if (onlyA)
            detail += "; " + onlyA->name + " (line " + std::to_string(onlyA->line) +
                      ") is not in " + bn;
        if (onlyB)
            detail += "; " + bn + "'s " + onlyB->name + " (line " + std::to_string(onlyB->line) +
                      ") is not in " + an;
        return fail(ScrapeSide::After,
                    {"not a scrape of the target in " + bn + ": only " + std::to_string(common) +
                         " of the " + std::to_string(all) +
                         " metric families are in both files" + detail,
                     onlyA ? onlyA->line : 0, -1, onlyA ? onlyA->name : std::string()});
    }
    for (const auto &[name, fa] : famA) {
        auto it = famB.find(name);
        if (it != famB.end() && it->second->type != fa->type)
            warn(ScrapeSide::After, "type-changed", fa->line,
                 name + " is a " + promTypeName(fa->type) + " here but a " +
                     promTypeName(it->second->type) + " in " + bn + " (line " +
                     std::to_string(it->second->line) + ")");
    }

    // Series in one file only (buckets aside: they follow their histogram).
    const auto serB = seriesOf(b.snap), serA = seriesOf(a.snap);
    auto onlyIn = [](const std::map<std::string, const PromSample *> &x,
                     const std::map<std::string, const PromSample *> &y) {
        std::vector<const PromSample *> out;
        for (const auto &[series, sample] : x)
            if (!isBucket(*sample) && !y.contains(series))
                out.push_back(sample);
        std::sort(out.begin(), out.end(),
                  [](const PromSample *p, const PromSample *q) { return p->line < q->line; });
        return out;
    };
    if (const auto gone = onlyIn(serB, serA); !gone.empty())
        warn(ScrapeSide::Before, "series-missing", gone.front()->line,
             std::to_string(gone.size()) + " series of " + bn + " are not in " + an +
                 " (the first: " + promSeriesName(gone.front()->name, gone.front()->labels) +
                 "): left out of the interval");
    if (const auto added = onlyIn(serA, serB); !added.empty())
        warn(ScrapeSide::After, "series-new", added.front()->line,
             std::to_string(added.size()) + " series appear only in " + an + " (the first: " +
                 promSeriesName(added.front()->name, added.front()->labels) +
                 "): created during the interval, the counters and histograms among them count "
                 "from zero");
    const PromSnapshot earlier = withNewSeriesAtZero(b.snap, a.snap, serB);

    // Order: the process that answered, then the scrapes' own times.
    const auto startB = processStart(b.snap), startA = processStart(a.snap);
    const bool sameProcess = startB && startA && std::abs(startA->first - startB->first) < 1e-3;
    const bool restarted = startB && startA && startA->first > startB->first + 1e-3;
    if (startB && startA && startA->first < startB->first - 1e-3)
        return fail(ScrapeSide::After,
                    {"was scraped before " + bn + ": its process started earlier "
                     "(process_start_time_seconds " + num(startA->first) + ", " + bn + " line " +
                         std::to_string(startB->second) + ": " + num(startB->first) +
                         "); give the earlier scrape first",
                     startA->second, -1, "process_start_time_seconds"});
    const auto &tb = b.snap.timeMs, &ta = a.snap.timeMs;
    if (tb && ta && *ta <= *tb)
        return fail(ScrapeSide::After,
                    {std::string(*ta == *tb ? "was scraped at the same time as "
                                            : "was scraped before ") +
                         bn + ": " + timeOfMs(*ta) + " against " + timeOfMs(*tb) + " (" + bn +
                         " line " + std::to_string(b.snap.line) +
                         "); give the earlier scrape first",
                     a.snap.line, -1, {}});

    // The interval.
    std::optional<double> stated;
    if (tb && ta)
        stated = double(*ta - *tb) / 1000.0;
    std::vector<std::string> inferred;
    std::string how;
    if (intervalS) {
        out.intervalS = *intervalS;
        out.intervalFrom = "--interval";
        how = "as given by --interval";
        if (stated && std::abs(*stated - *intervalS) > std::max(0.001, 0.01 * *intervalS))
            warn(ScrapeSide::Neither, "interval-disagrees", 0,
                 "--interval gives " + num(*intervalS) + " s but the scrapes' own times are " +
                     num(*stated) + " s apart (" + bn + " line " + std::to_string(b.snap.line) +
                     ", " + an + " line " + std::to_string(a.snap.line) +
                     "): the rates use --interval");
    } else if (stated) {
        out.intervalS = *stated;
        out.intervalFrom = "scrape times";
        how = "by the scrapes' times";
    } else {
        const std::string which =
            tb ? "only " + bn + " states its time"
               : ta ? "only " + an + " states its time" : std::string("the scrapes state no time");
        if (!before.modifiedNs || !after.modifiedNs)
            return fail(ScrapeSide::Neither,
                        {which + " and the files' modification times are unknown: give "
                                 "--interval (e.g. --interval 60s)",
                         0, -1, {}});
        const int64_t ns = *after.modifiedNs - *before.modifiedNs;
        const std::string times = bn + " " + timeOfMs(*before.modifiedNs / 1000000) + ", " + an +
                                  " " + timeOfMs(*after.modifiedNs / 1000000);
        if (ns < 0)
            return fail(ScrapeSide::After,
                        {"is older than " + bn + " by the files' modification times (" + times +
                             "), and " + which +
                             ": give the earlier scrape first, or --interval when copying "
                             "changed the files' times",
                         0, -1, {}});
        if (ns == 0)
            return fail(ScrapeSide::Neither,
                        {bn + " and " + an + " have the same modification time (" +
                             timeOfMs(*after.modifiedNs / 1000000) + ") and " + which +
                             ": the interval cannot be told; give --interval (e.g. --interval 60s)",
                         0, -1, {}});
        out.intervalS = double(ns) / 1e9;
        out.intervalFrom = "file modification times";
        how = "by the files' modification times (inferred)";
        inferred.push_back("interval_s");
        warn(ScrapeSide::Neither, "interval-inferred", 0,
             which + ": the interval, " + num(out.intervalS) +
                 " s, is inferred from the files' modification times (" + times +
                 "); give --interval if the files were copied or touched since they were saved");
    }

    // Counters that went down.
    const PromDiff diff = diffSnapshots(earlier, a.snap, out.intervalS);
    std::vector<const PromRate *> resets;
    size_t grew = 0;
    for (const PromRate &r : diff.rates) {
        if (r.reset)
            resets.push_back(&r);
        else if (r.delta > 0)
            ++grew;
    }
    auto lineIn = [](const std::map<std::string, const PromSample *> &m, const std::string &s) {
        auto it = m.find(s);
        return it == m.end() ? int64_t(0) : it->second->line;
    };
    auto valueIn = [](const std::map<std::string, const PromSample *> &m, const std::string &s) {
        auto it = m.find(s);
        return it == m.end() ? NAN : it->second->value;
    };
    if (!resets.empty()) {
        std::sort(resets.begin(), resets.end(), [&](const PromRate *x, const PromRate *y) {
            return lineIn(serA, x->series) < lineIn(serA, y->series);
        });
        const PromRate &first = *resets.front();
        if (sameProcess && grew == 0)
            return fail(ScrapeSide::After,
                        {"was scraped before " + bn + ": every counter that changed went down (" +
                             first.series + " from " + num(valueIn(serB, first.series)) + " in " +
                             bn + " line " + std::to_string(lineIn(serB, first.series)) + " to " +
                             num(valueIn(serA, first.series)) +
                             ") while process_start_time_seconds stayed " + num(startA->first) +
                             "; give the earlier scrape first",
                         lineIn(serA, first.series), -1, first.series});
        const std::string why =
            restarted ? "the target restarted between the scrapes (process_start_time_seconds " +
                            num(startB->first) + " in " + bn + ", " + num(startA->first) +
                            " here at line " + std::to_string(startA->second) + ")"
            : sameProcess ? "although process_start_time_seconds is the same in both files"
                          : "the target restarted between the scrapes, or the files are in the "
                            "wrong order";
        warn(ScrapeSide::After, "counter-reset", lineIn(serA, first.series),
             std::to_string(resets.size()) + (resets.size() == 1 ? " counter" : " counters") +
                 " went down since " + bn + ", the first " + first.series + " from " +
                 num(valueIn(serB, first.series)) + " (" + bn + " line " +
                 std::to_string(lineIn(serB, first.series)) + ") to " +
                 num(valueIn(serA, first.series)) + ": " + why +
                 "; their increase counts from zero, so their rates are low");
    } else if (restarted) {
        warn(ScrapeSide::After, "target-restarted", startA->second,
             "the target restarted between the scrapes (process_start_time_seconds " +
                 num(startB->first) + " in " + bn + ", " + num(startA->first) +
                 " here), yet no counter went down: increases span two processes");
    }
    bool sameValues = serA.size() == serB.size();
    for (const auto &[series, sample] : serA) {
        if (!sameValues)
            break;
        auto it = serB.find(series);
        const double was = it == serB.end() ? 0 : it->second->value;
        sameValues = it != serB.end() &&
                     (was == sample->value || (std::isnan(was) && std::isnan(sample->value)));
    }
    if (sameValues)
        warn(ScrapeSide::Neither, "no-change", 0,
             an + " holds the same values as " + bn + " (all " + std::to_string(serA.size()) +
                 " series): nothing was counted between the scrapes; is it the same scrape "
                 "saved twice?");

    const std::string provenance = "difference of the scrapes in " + baseName(before.uri) +
                                   " (line " + std::to_string(b.snap.line) + ") and " +
                                   baseName(after.uri) + " (line " + std::to_string(a.snap.line) +
                                   "), " + num(out.intervalS) + " s apart " + how;
    ImportResult built =
        PrometheusImporter::fromInterval(earlier, a.snap, out.intervalS, provenance,
                                         before.bytes + after.bytes);
    for (const ImportWarning &w : built.warnings)
        warn(ScrapeSide::Neither, w.kind, w.line, w.detail);
    if (built.error)
        return fail(ScrapeSide::Neither, *built.error);
    if (built.runs.empty() || built.runs.front().scenarios.empty())
        return fail(ScrapeSide::Neither,
                    {"no target is in both " + bn + " and " + an, 0, -1, {}});
    RunRecord &run = built.runs.front();
    if (run.timestamp.empty()) {
        if (after.modifiedNs) {
            run.timestamp = *normalizeTimestamp(timeOfMs(*after.modifiedNs / 1000000));
            warn(ScrapeSide::Neither, "timestamp-inferred", 0,
                 "the scrapes state no time; the run is dated by " + an +
                     "'s modification time, " + run.timestamp);
        } else {
            run.timestamp = nowTimestamp();
            warn(ScrapeSide::Neither, "timestamp-inferred", 0,
                 "the scrapes state no time; the run is dated by the time of import, " +
                     run.timestamp);
        }
        inferred.push_back("timestamp");
    }
    run.provenance = "two scrapes of one target: " + before.uri + ", then " + after.uri;
    run.environment["scrape_files"] = {before.uri, after.uri};
    run.environment["interval_s"] = out.intervalS;
    run.environment["interval_from"] = out.intervalFrom;
    if (!inferred.empty())
        run.environment["inferred"] = inferred;
    out.result.runs = std::move(built.runs);
    return out;
}

std::optional<ScrapeFile> readScrapeFile(const std::string &path, std::string &error)
{
    if (UrlFetcher::isUrl(path)) {
        error = UrlFetcher::redactUrl(path) +
                " is a URL: --scrapes pairs two files saved before and after the workload "
                "(curl -s URL > before.prom); fetching both now would give one moment twice";
        return std::nullopt;
    }
    const QString qpath = QString::fromStdString(path);
    const QFileInfo info(qpath);
    QFile file(qpath);
    if (info.isDir() || !file.open(QIODevice::ReadOnly)) {
        error = "cannot open " + path + ": " +
                (info.isDir() ? std::string("is a directory") : file.errorString().toStdString());
        return std::nullopt;
    }
    if (file.size() > kMaxBytes) {
        error = path + ": is larger than 256 MiB, more than a Prometheus scrape";
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    ScrapeFile out;
    out.name = path;
    out.uri = info.absoluteFilePath().toStdString();
    out.bytes.assign(bytes.constData(), size_t(bytes.size()));
    std::error_code ec;
    const auto modified = std::filesystem::last_write_time(std::filesystem::path(path), ec);
    if (!ec)
        out.modifiedNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::file_clock::to_sys(modified).time_since_epoch())
                             .count();
    return out;
}

std::pair<std::string, std::string> scrapeOrder(const std::string &a, const std::string &b)
{
    std::string ignored;
    const auto fa = readScrapeFile(a, ignored), fb = readScrapeFile(b, ignored);
    if (!fa || !fb)
        return {a, b};
    const PromParseResult pa = parsePrometheusText(fa->bytes), pb = parsePrometheusText(fb->bytes);
    if (!pa.error && !pb.error && !pa.snapshots.empty() && !pb.snapshots.empty() &&
        pa.snapshots.front().timeMs && pb.snapshots.front().timeMs &&
        *pa.snapshots.front().timeMs != *pb.snapshots.front().timeMs)
        return *pa.snapshots.front().timeMs < *pb.snapshots.front().timeMs ? std::pair{a, b}
                                                                            : std::pair{b, a};
    if (fa->modifiedNs && fb->modifiedNs && *fb->modifiedNs < *fa->modifiedNs)
        return {b, a};
    return {a, b};
}

nlohmann::json ScrapePairReport::toJson() const
{
    nlohmann::json j = report.toJson();
    auto fileOf = [this](ScrapeSide side) {
        return side == ScrapeSide::Before  ? nlohmann::json(beforeUri)
               : side == ScrapeSide::After ? nlohmann::json(afterUri)
                                           : nlohmann::json();
    };
    j["scrapes"] = {beforeUri, afterUri};
    j["interval_s"] = intervalS ? nlohmann::json(*intervalS) : nlohmann::json();
    j["interval_from"] = intervalFrom.empty() ? nlohmann::json() : nlohmann::json(intervalFrom);
    for (size_t i = 0; i < j["warnings"].size(); ++i)
        j["warnings"][i]["file"] =
            fileOf(i < warningSides.size() ? warningSides[i] : ScrapeSide::Neither);
    if (!j["error"].is_null())
        j["error"]["file"] = fileOf(errorSide);
    return j;
}

std::string ScrapePairReport::fileOfWarning(size_t index) const
{
    const ScrapeSide side = index < warningSides.size() ? warningSides[index] : ScrapeSide::Neither;
    return side == ScrapeSide::Before ? beforeName : side == ScrapeSide::After ? afterName : "";
}

std::string ScrapePairReport::fileOfError() const
{
    return errorSide == ScrapeSide::Before ? beforeName
           : errorSide == ScrapeSide::After ? afterName
                                            : "";
}

ScrapePairReport importScrapePair(Store &store, const ScrapePairRequest &request,
                                  const Progress &progress)
{
    ScrapePairReport out;
    out.beforeName = request.before;
    out.afterName = request.after;
    auto uriOf = [](const std::string &path) {
        return UrlFetcher::isUrl(path)
                   ? UrlFetcher::redactUrl(path)
                   : QFileInfo(QString::fromStdString(path)).absoluteFilePath().toStdString();
    };
    out.beforeUri = uriOf(request.before);
    out.afterUri = uriOf(request.after);
    SourceReport &report = out.report;
    report.uri = scrapePairUri(out.beforeUri, out.afterUri);
    report.format = "prometheus";
    auto fail = [&out](ScrapeSide side, const ImportError &error, const std::string &file) {
        out.report.status = "failed";
        out.report.error = error;
        out.report.errorText = error.describe(file);
        out.errorSide = side;
        return out;
    };

    std::string problem;
    const auto before = readScrapeFile(request.before, problem);
    if (!before)
        return fail(ScrapeSide::Before, {problem, 0, -1, {}}, {});
    if (progress && !progress(1, 2))
        return fail(ScrapeSide::Neither, {"cancelled", 0, -1, {}}, {});
    const auto after = readScrapeFile(request.after, problem);
    if (!after)
        return fail(ScrapeSide::After, {problem, 0, -1, {}}, {});
    if (progress && !progress(2, 2))
        return fail(ScrapeSide::Neither, {"cancelled", 0, -1, {}}, {});

    ScrapePair pair;
    try {
        pair = pairScrapes(*before, *after, request.intervalS);
    } catch (const std::exception &e) {
        // As ImportService does: an unguarded conversion fails this source, not the process.
        return fail(ScrapeSide::Neither, {std::string("cannot be read: ") + e.what(), 0, -1, {}},
                    request.before + " + " + request.after);
    }
    report.warnings = pair.result.warnings;
    out.warningSides = pair.warningSides;
    if (!pair.result.ok()) {
        const std::string file = pair.errorSide == ScrapeSide::Before  ? request.before
                                 : pair.errorSide == ScrapeSide::After ? request.after
                                                                       : std::string();
        return fail(pair.errorSide, *pair.result.error, file);
    }
    out.intervalS = pair.intervalS;
    out.intervalFrom = pair.intervalFrom;
    for (RunRecord &run : pair.result.runs) {
        run.sample = run.sample || request.sample;
        report.runs += 1;
        report.scenarios += int64_t(run.scenarios.size());
        for (const ScenarioRecord &s : run.scenarios)
            report.metrics += int64_t(s.metrics.size());
    }
    if (request.dryRun) {
        report.status = "checked";
        return out;
    }

    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayView(before->bytes.data(), qsizetype(before->bytes.size())));
    hash.addData(QByteArrayView(after->bytes.data(), qsizetype(after->bytes.size())));
    const PrometheusImporter importer;
    SourceRecord source;
    source.uri = report.uri;
    source.format = importer.name();
    source.sha256 = hash.result().toHex().toStdString();
    source.importer = importer.name();
    source.importerVersion = importer.version();
    source.importedAt = nowTimestamp();
    source.sample = request.sample;
    try {
        const ImportOutcome outcome = store.importSource(source, pair.result.runs);
        const bool unchanged = outcome.status == ImportOutcome::Status::Unchanged;
        report.status = unchanged ? "unchanged" : "imported";
        // The same bytes keep the run they gave first; the interval is not in the bytes, so
        // say when this import would have used another one.
        if (unchanged && !pair.result.runs.empty()) {
            const auto stored = store.run(pair.result.runs.front().runKey);
            const nlohmann::json storedInterval =
                stored ? stored->record.environment.value("interval_s", nlohmann::json())
                       : nlohmann::json();
            if (storedInterval.is_number() &&
                std::abs(storedInterval.get<double>() - pair.intervalS) > 1e-9) {
                report.warnings.push_back(
                    {"interval-differs", 0,
                     "these scrapes are in the store already, with an interval of " +
                         num(storedInterval.get<double>()) + " s (" +
                         stored->record.environment.value("interval_from", std::string("?")) +
                         "), not " + num(pair.intervalS) + " s (" + pair.intervalFrom +
                         "): nothing was written; `plimsoll remove " +
                         pair.result.runs.front().runKey + "` first to import them again"});
                out.warningSides.push_back(ScrapeSide::Neither);
            }
        }
        for (const std::string &note : outcome.notes) {
            report.warnings.push_back({"note", 0, note});
            out.warningSides.push_back(ScrapeSide::Neither);
        }
    } catch (const StoreError &e) {
        return fail(ScrapeSide::Neither, {e.what(), 0, -1, {}}, {});
    }
    return out;
}

} // namespace plimsoll
