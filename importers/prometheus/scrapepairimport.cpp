#include "importers/prometheus/scrapepairimport.h"

#include "importers/importers.h"
#include "importers/prometheus/prometheusimporter.h"
#include "importers/urlfetcher.h"
#include "model/formats/prometheustext.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <chrono>
#include <cmath>
#include <filesystem>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;

ScrapePairReport failed(ScrapePairReport out, ScrapeSide side, const ImportError &error,
                        const std::string &file)
{
    out.report.status = "failed";
    out.report.error = error;
    out.report.errorText = error.describe(file);
    out.errorSide = side;
    return out;
}

// The source of a pair: its uri, and its sha256 over the bytes of both files in order.
SourceRecord pairSource(const std::string &uri, const ScrapeFile &before, const ScrapeFile &after,
                        bool sample)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayView(before.bytes.data(), qsizetype(before.bytes.size())));
    hash.addData(QByteArrayView(after.bytes.data(), qsizetype(after.bytes.size())));
    return sourceRecordOf(prometheusImporter(), uri, hash.result().toHex().toStdString(), sample);
}

// The same bytes keep the run they gave first; the interval is not in the bytes, so say when
// this import would have used another one.
std::optional<ImportWarning> intervalDiffers(const ImportService &service, const ScrapePair &pair)
{
    if (pair.result.runs.empty())
        return std::nullopt;
    const std::string &runKey = pair.result.runs.front().runKey;
    const auto stored = service.storedRun(runKey);
    const nlohmann::json storedInterval =
        stored ? stored->environment.value("interval_s", nlohmann::json()) : nlohmann::json();
    if (!storedInterval.is_number() ||
        std::abs(storedInterval.get<double>() - pair.intervalS) <= 1e-9)
        return std::nullopt;
    return ImportWarning{
        "interval-differs", 0,
        "these scrapes are in the store already, with an interval of " +
            scrapeNumberText(storedInterval.get<double>()) + " s (" +
            stored->environment.value("interval_from", std::string("?")) + "), not " +
            scrapeNumberText(pair.intervalS) + " s (" + pair.intervalFrom +
            "): nothing was written; `plimsoll remove " + runKey + "` first to import them again"};
}

std::string uriOf(const std::string &path)
{
    return UrlFetcher::isUrl(path)
               ? UrlFetcher::redactUrl(path)
               : QFileInfo(QString::fromStdString(path)).absoluteFilePath().toStdString();
}

} // namespace

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

ScrapePairReport importScrapePair(ImportService &service, const ScrapePairRequest &request,
                                  const Progress &progress)
{
    ScrapePairReport out;
    out.beforeName = request.before;
    out.afterName = request.after;
    out.beforeUri = uriOf(request.before);
    out.afterUri = uriOf(request.after);
    out.report.uri = scrapePairUri(out.beforeUri, out.afterUri);
    out.report.format = "prometheus";

    std::string problem;
    const auto before = readScrapeFile(request.before, problem);
    if (!before)
        return failed(out, ScrapeSide::Before, {problem, 0, -1, {}}, {});
    if (progress && !progress(1, 2))
        return failed(out, ScrapeSide::Neither, {"cancelled", 0, -1, {}}, {});
    const auto after = readScrapeFile(request.after, problem);
    if (!after)
        return failed(out, ScrapeSide::After, {problem, 0, -1, {}}, {});
    if (progress && !progress(2, 2))
        return failed(out, ScrapeSide::Neither, {"cancelled", 0, -1, {}}, {});

    ScrapePair pair;
    try {
        pair = pairScrapes(*before, *after, request.intervalS);
    } catch (const std::exception &e) {
        // As ImportService does: an unguarded conversion fails this source, not the process.
        return failed(out, ScrapeSide::Neither,
                      {std::string("cannot be read: ") + e.what(), 0, -1, {}},
                      request.before + " + " + request.after);
    }
    out.report.warnings = pair.result.warnings;
    out.warningSides = pair.warningSides;
    if (!pair.result.ok()) {
        const std::string file = pair.errorSide == ScrapeSide::Before  ? request.before
                                 : pair.errorSide == ScrapeSide::After ? request.after
                                                                       : std::string();
        return failed(out, pair.errorSide, *pair.result.error, file);
    }
    out.intervalS = pair.intervalS;
    out.intervalFrom = pair.intervalFrom;
    for (RunRecord &run : pair.result.runs)
        run.sample = run.sample || request.sample;

    // The pair's own warnings first, then what writing it added (domain checks, notes).
    SourceReport written =
        service.importRuns(pairSource(out.report.uri, *before, *after, request.sample),
                           pair.result.runs, request.dryRun, {});
    written.warnings.insert(written.warnings.begin(), pair.result.warnings.begin(),
                            pair.result.warnings.end());
    if (written.status == "unchanged")
        if (auto differs = intervalDiffers(service, pair))
            written.warnings.push_back(*differs);
    out.warningSides.resize(written.warnings.size(), ScrapeSide::Neither);
    out.report = std::move(written);
    return out;
}

} // namespace plimsoll
