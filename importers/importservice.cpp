#include "importers/importservice.h"

#include "importers/domaincheck.h"
#include "importers/importers.h"
#include "importers/latencyunit.h"
#include "importers/pathfactors.h"
#include "importers/urlfetcher.h"

#include <QBuffer>
#include <QDirIterator>
#include <QRegularExpression>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <functional>
#include <memory>
#include <optional>

namespace plimsoll {

namespace {

// Detection looks at no more than this, as Importer::sniff promises its implementations.
constexpr qint64 kSniffBytes = 64 * 1024;

std::string knownFormats()
{
    std::string out;
    for (const Importer *importer : ImporterRegistry::instance().importers()) {
        out += out.empty() ? "" : ", ";
        out += importer->name();
    }
    return out;
}

void fail(SourceReport &report, const std::string &file, ImportError error)
{
    report.status = "failed";
    report.errorText = error.describe(file);
    report.error = std::move(error);
}

std::string sha256Hex(QIODevice &device)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&device);
    return hash.result().toHex().toStdString();
}

// The importer for a source: the one --format names, else the one its first bytes suggest;
// nullptr with the report failed when there is none.
const Importer *chooseImporter(QIODevice &device, const ImportRequest &request,
                               const std::string &displayName, SourceReport &report)
{
    const ImporterRegistry &registry = ImporterRegistry::instance();
    if (!request.format.empty()) {
        const Importer *importer = registry.byName(request.format);
        if (!importer)
            fail(report, displayName,
                 {"unknown format '" + request.format + "' (known: " + knownFormats() + ")",
                  0, -1, {}});
        return importer;
    }
    const QByteArray head = device.peek(kSniffBytes);
    const std::string_view bytes(head.constData(), size_t(head.size()));
    const Importer *importer = registry.detect(bytes);
    if (!importer)
        fail(report, displayName, {registry.explainRefusal(bytes), 0, -1, {}});
    return importer;
}

// A --hlog-unit against the unit the file states is refused before anything else, so that
// bytes imported before (unchanged, not parsed again) are refused the same way.
std::optional<ImportError> latencyUnitRefusal(const Importer &importer, QIODevice &device,
                                              const ImportRequest &request)
{
    if (request.latencyUnit.empty() ||
        (importer.name() != "hdrhistogram-log" && importer.name() != "hdrhistogram-percentiles"))
        return std::nullopt;
    const QByteArray head = device.peek(kSniffBytes);
    ImportResult check;
    if (resolveLatencyUnit(request.latencyUnit,
                           splitLines(std::string_view(head.constData(), size_t(head.size()))),
                           "ns", check))
        return std::nullopt;
    return *check.error;
}

// Where a source is written: its writer on the user's store, or for a dry run on a scratch
// store that checks what the real import would and is thrown away with this object.
class SourceTarget
{
public:
    // Throws StoreError.
    SourceTarget(Store &store, const SourceRecord &source, bool dryRun)
    {
        Store *target = &store;
        if (dryRun) {
            m_scratchDir.emplace();
            if (!m_scratchDir->isValid())
                throw StoreError("cannot create a scratch store for the dry run: " +
                                 m_scratchDir->errorString().toStdString());
            m_scratch = std::make_unique<Store>(m_scratchDir->filePath("dry-run.db").toStdString());
            target = m_scratch.get();
        }
        m_writer = target->beginSource(source);
    }
    SourceWriter &writer() { return *m_writer; }

private:
    std::optional<QTemporaryDir> m_scratchDir;
    std::unique_ptr<Store> m_scratch;
    std::unique_ptr<SourceWriter> m_writer; // destroyed first: it rolls back on the store
};

// What putting a source's runs into the store gave: the reader's warnings and its error.
struct Filled
{
    std::vector<ImportWarning> warnings;
    std::optional<ImportError> error;
};
using FillSource = std::function<Filled(RunSink &sink)>;

// Puts the runs through the domain check into `writer`; false with the report failed when
// the reader, the check or the store refused them (the writer then rolls back).
bool fillSource(SourceWriter &writer, const FillSource &fill, const std::string &displayName,
                SourceReport &report)
{
    std::vector<ImportWarning> domainWarnings;
    DomainCheckSink checked(writer, domainWarnings);
    Filled filled;
    try {
        filled = fill(checked);
        checked.finish();
        // The runs put before the reader's own error (if any) are checked against the store first:
        // a run it refuses came earlier in the source.
        writer.settle();
    } catch (const DomainError &e) {
        fail(report, displayName, e.error);
        return false; // an impossible value: nothing of this source is written
    } catch (const RunRefused &e) {
        fail(report, displayName, {e.what(), e.line(), -1, e.line() > 0 ? "run_key" : ""});
        return false;
    } catch (const StoreError &e) {
        fail(report, displayName, {e.what(), 0, -1, {}});
        return false;
    } catch (const std::exception &e) {
        // A backstop: importers report errors as values, but a conversion they did not
        // guard must fail this source, not end the process (and a directory import).
        fail(report, displayName, {std::string("cannot be read: ") + e.what(), 0, -1, {}});
        return false;
    }
    report.warnings = std::move(filled.warnings);
    report.warnings.insert(report.warnings.end(), domainWarnings.begin(), domainWarnings.end());
    if (filled.error) {
        fail(report, displayName, *filled.error);
        return false;
    }
    return true;
}

// One source in one transaction: `fill` is asked for its runs unless the store holds these
// bytes already (then "unchanged", nothing read or written).
SourceReport writeSource(Store &store, const SourceRecord &source, bool dryRun,
                         const std::string &displayName, const FillSource &fill)
{
    SourceReport report;
    report.uri = source.uri;
    report.format = source.format;
    try {
        SourceTarget target(store, source, dryRun);
        SourceWriter &writer = target.writer();
        if (!writer.unchanged() && !fillSource(writer, fill, displayName, report))
            return report;
        const ImportOutcome outcome = writer.commit();
        report.runs = outcome.runs;
        report.scenarios = outcome.scenarios;
        report.metrics = outcome.metrics;
        report.latestRun = outcome.latestRunKey;
        if (dryRun) {
            report.status = "checked";
        } else {
            report.status =
                outcome.status == ImportOutcome::Status::Unchanged ? "unchanged" : "imported";
            for (const std::string &note : outcome.notes)
                report.warnings.push_back({"note", 0, note});
        }
    } catch (const StoreError &e) {
        fail(report, displayName, {e.what(), 0, -1, {}});
    }
    return report;
}

// The part shared by files and in-memory bytes: `device` is open and at its start.
SourceReport importDevice(Store &store, QIODevice &device, const std::string &uri,
                          const std::string &displayName, const ImportRequest &request,
                          const Progress &progress)
{
    SourceReport report;
    report.uri = uri;
    const Importer *importer = chooseImporter(device, request, displayName, report);
    if (!importer)
        return report;
    report.format = importer->name();
    if (auto refused = latencyUnitRefusal(*importer, device, request)) {
        fail(report, displayName, *refused);
        return report;
    }
    std::string sha256 = sha256Hex(device);
    if (!device.seek(0)) {
        fail(report, displayName, {"cannot read it twice: " + device.errorString().toStdString(),
                                   0, -1, {}});
        return report;
    }
    // A bench result is known by its document, not its bytes: the file a bench wrote beside
    // storing its run is that run's source again, however it is indented.
    if (importer == &benchResultImporter() && device.size() <= request.maxBytes) {
        const QByteArray bytes = device.readAll();
        if (auto identity = benchResultIdentity(std::string_view(bytes.constData(), size_t(bytes.size()))))
            sha256 = QCryptographicHash::hash(QByteArray::fromStdString(*identity), QCryptographicHash::Sha256)
                         .toHex()
                         .toStdString();
        if (!device.seek(0)) {
            fail(report, displayName, {"cannot read it twice: " + device.errorString().toStdString(),
                                       0, -1, {}});
            return report;
        }
    }
    // A UTF-8 byte-order mark (Windows editors, PowerShell's Out-File) is skipped here, once,
    // so that no importer sees it; detection skipped it too. Byte offsets in messages count
    // from the file's start.
    const bool bom = device.peek(3) == QByteArray(kUtf8Bom);
    if (bom)
        device.read(3);

    ImportOptions options;
    options.uri = uri;
    options.latencyUnit = request.latencyUnit;
    auto parse = [&](RunSink &sink) {
        PathFactorSink withPath(sink, uri);
        ImportResult parsed = importer->parseInto(device, options, progress, withPath);
        if (bom && parsed.error && parsed.error->offset >= 0)
            parsed.error->offset += 3;
        return Filled{std::move(parsed.warnings), std::move(parsed.error)};
    };
    return writeSource(store, sourceRecordOf(*importer, uri, sha256, request.sample),
                       request.dryRun, displayName, parse);
}

} // namespace

nlohmann::json SourceReport::toJson() const
{
    // Unknown parts are null rather than "" or 0, so a script can test for them.
    auto orNull = [](const std::string &s) {
        return s.empty() ? nlohmann::json() : nlohmann::json(s);
    };
    auto lineOrNull = [](int64_t line) {
        return line > 0 ? nlohmann::json(line) : nlohmann::json();
    };
    nlohmann::json j;
    j["uri"] = uri;
    j["format"] = orNull(format);
    j["status"] = status;
    j["runs"] = runs;
    j["scenarios"] = scenarios;
    j["metrics"] = metrics;
    j["latest_run"] = orNull(latestRun);
    j["warnings"] = nlohmann::json::array();
    for (const ImportWarning &w : warnings)
        j["warnings"].push_back(
            {{"kind", w.kind}, {"line", lineOrNull(w.line)}, {"detail", w.detail}});
    if (error) {
        j["error"] = {{"message", errorText.empty() ? error->message : errorText},
                      {"line", lineOrNull(error->line)},
                      {"column", lineOrNull(error->column)},
                      {"field", orNull(error->field)}};
    } else {
        j["error"] = nullptr;
    }
    return j;
}

SourceRecord sourceRecordOf(const Importer &importer, const std::string &uri,
                            const std::string &sha256, bool sample)
{
    SourceRecord source;
    source.uri = uri;
    source.format = importer.name();
    source.sha256 = sha256;
    source.importer = importer.name();
    source.importerVersion = importer.version();
    source.importedAt = nowTimestamp();
    source.sample = sample;
    return source;
}

SourceReport ImportService::importRuns(const SourceRecord &source,
                                       const std::vector<RunRecord> &runs, bool dryRun,
                                       const std::string &displayName)
{
    return writeSource(m_store, source, dryRun, displayName, [&runs](RunSink &sink) {
        for (const RunRecord &run : runs)
            sink.put(run);
        return Filled{};
    });
}

std::optional<RunRecord> ImportService::storedRun(const std::string &runKey) const
{
    auto detail = m_store.run(runKey);
    if (!detail)
        return std::nullopt;
    return std::move(detail->record);
}

SourceReport ImportService::importFile(const ImportRequest &request, const Progress &progress)
{
    if (UrlFetcher::isUrl(request.path))
        return importUrl(request, progress);
    const QString path = QString::fromStdString(request.path);
    const std::string uri = QFileInfo(path).absoluteFilePath().toStdString();
    const auto refuse = [&](const std::string &uriText, const std::string &why) {
        SourceReport report;
        report.uri = uriText;
        fail(report, {}, {why, 0, -1, {}});
        return report;
    };
    // Another scheme would otherwise be looked for as a file ("No such file or directory").
    static const QRegularExpression scheme(QStringLiteral("^([A-Za-z][A-Za-z0-9+.-]*)://"));
    if (const auto m = scheme.match(path); m.hasMatch())
        return refuse(UrlFetcher::redactUrl(request.path),
                      "cannot import " + UrlFetcher::redactUrl(request.path) + ": the URL scheme '" +
                          m.captured(1).toStdString() +
                          "' is not supported (files and http:// or https:// URLs are; for a local "
                          "file, give its path)");
    // A named pipe or a device: a source is read twice (its fingerprint, then its records), and
    // a pipe with no writer would block for ever.
    if (const QFileInfo info(path); info.exists() && !info.isFile() && !info.isDir())
        return refuse(uri, "cannot import " + request.path +
                               ": it is not a regular file (a named pipe, socket or device), which "
                               "cannot be read twice; save its contents to a file and import that");
    QFile file(path);
    // QFile opens a directory "successfully" on Linux and then reads nothing.
    if (QFileInfo(path).isDir() || !file.open(QIODevice::ReadOnly)) {
        SourceReport report;
        report.uri = uri;
        fail(report, {},
             {"cannot open " + request.path + ": " +
                  (QFileInfo(path).isDir() ? std::string("is a directory")
                                           : file.errorString().toStdString()),
              0, -1, {}});
        return report;
    }
    return importDevice(m_store, file, uri, request.path, request, progress);
}

std::vector<SourceReport> ImportService::importPath(const ImportRequest &request,
                                                   const Progress &progress)
{
    const QString path = QString::fromStdString(request.path);
    if (!QFileInfo(path).isDir())
        return {importFile(request, progress)};
    QStringList files;
    QDirIterator it(path, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.push_back(it.next());
    files.sort();
    if (files.isEmpty())
        return {[&] {
            SourceReport report;
            report.uri = QFileInfo(path).absoluteFilePath().toStdString();
            fail(report, {},
                 {"cannot import " + request.path + ": the directory holds no files (name the "
                  "directory the results are in, or the files themselves)", 0, -1, {}});
            return report;
        }()};
    std::vector<SourceReport> reports;
    for (const QString &file : files) {
        ImportRequest one = request;
        one.path = file.toStdString();
        reports.push_back(importFile(one, progress));
    }
    return reports;
}

ImportSummary ImportSummary::of(const std::vector<SourceReport> &reports)
{
    ImportSummary s;
    for (const SourceReport &r : reports) {
        ++s.sources;
        if (r.status == "imported")
            ++s.imported;
        else if (r.status == "unchanged")
            ++s.unchanged;
        else if (r.status == "checked")
            ++s.checked;
        else
            ++s.failed;
        s.runs += r.runs;
        s.scenarios += r.scenarios;
        s.metrics += r.metrics;
        s.warnings += int64_t(r.warnings.size());
    }
    return s;
}

std::string ImportSummary::text() const
{
    std::string out = std::to_string(sources) + (sources == 1 ? " source: " : " sources: ");
    std::string parts;
    auto add = [&parts](int64_t n, const char *what) {
        if (n == 0)
            return;
        parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + what;
    };
    add(imported, "imported");
    add(unchanged, "unchanged");
    add(checked, "checked");
    add(failed, "failed");
    out += parts.empty() ? std::string("none") : parts;
    out += "; " + std::to_string(runs) + " runs, " + std::to_string(scenarios) + " scenarios, " +
           std::to_string(metrics) + " metrics, " + std::to_string(warnings) + " warnings";
    return out;
}

nlohmann::json ImportSummary::toJson() const
{
    return {{"sources", sources},     {"imported", imported}, {"unchanged", unchanged},
            {"checked", checked},     {"failed", failed},     {"runs", runs},
            {"scenarios", scenarios}, {"metrics", metrics},   {"warnings", warnings}};
}

SourceReport ImportService::importUrl(const ImportRequest &request, const Progress &progress)
{
    FetchOptions fetch;
    fetch.insecure = request.insecure;
    fetch.timeoutS = request.timeoutS;
    fetch.maxBytes = request.maxBytes;
    const std::string uri = UrlFetcher::redactUrl(request.path);
    const FetchResult fetched = UrlFetcher::fetch(request.path, fetch);
    SourceReport report;
    if (!fetched.ok) {
        report.uri = uri;
        fail(report, {}, {fetched.error, 0, -1, {}});
    } else {
        QBuffer buffer;
        buffer.setData(fetched.body);
        buffer.open(QIODevice::ReadOnly);
        report = importDevice(m_store, buffer, uri, uri, request, progress);
    }
    if (request.insecure)
        report.warnings.insert(report.warnings.begin(),
                               {"tls-unverified", 0,
                                "--insecure: the server's TLS certificate was not verified"});
    return report;
}

SourceReport ImportService::importBytes(const std::string &uri, const QByteArray &bytes,
                                        const ImportRequest &request, const Progress &progress)
{
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    return importDevice(m_store, buffer, uri, uri, request, progress);
}

} // namespace plimsoll
