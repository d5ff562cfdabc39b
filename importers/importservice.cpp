#include "importers/importservice.h"

#include "importers/domaincheck.h"
#include "importers/latencyunit.h"
#include "importers/urlfetcher.h"

#include <QBuffer>
#include <QDirIterator>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

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

// The part shared by files and in-memory bytes: `device` is open and at its start.
SourceReport importDevice(Store &store, QIODevice &device, const std::string &uri,
                          const std::string &displayName, const ImportRequest &request,
                          const Progress &progress)
{
    SourceReport report;
    report.uri = uri;

    const Importer *importer = nullptr;
    if (!request.format.empty()) {
        importer = ImporterRegistry::instance().byName(request.format);
        if (!importer) {
            fail(report, displayName,
                 {"unknown format '" + request.format + "' (known: " + knownFormats() + ")",
                  0, -1, {}});
            return report;
        }
    } else {
        const QByteArray head = device.peek(kSniffBytes);
        importer = ImporterRegistry::instance().detect(
            std::string_view(head.constData(), size_t(head.size())));
        if (!importer) {
            fail(report, displayName,
                 {ImporterRegistry::instance().explainRefusal(
                      std::string_view(head.constData(), size_t(head.size()))),
                  0, -1, {}});
            return report;
        }
    }
    report.format = importer->name();
    // A --hlog-unit against the unit the file states is refused before anything else, so that
    // bytes imported before (unchanged, not parsed again) are refused the same way.
    if (!request.latencyUnit.empty() &&
        (importer->name() == "hdrhistogram-log" || importer->name() == "hdrhistogram-percentiles")) {
        const QByteArray head = device.peek(kSniffBytes);
        ImportResult check;
        if (!resolveLatencyUnit(request.latencyUnit,
                                splitLines(std::string_view(head.constData(), size_t(head.size()))),
                                "ns", check)) {
            fail(report, displayName, *check.error);
            return report;
        }
    }

    const std::string sha256 = sha256Hex(device);
    if (!device.seek(0)) {
        fail(report, displayName, {"cannot read it twice: " + device.errorString().toStdString(),
                                   0, -1, {}});
        return report;
    }
    // A UTF-8 byte-order mark (Windows editors, PowerShell's Out-File) is skipped here, once,
    // so that no importer sees it; detection skipped it too. Byte offsets in messages count
    // from the file's start.
    const bool bom = device.peek(3) == QByteArray(kUtf8Bom);
    if (bom)
        device.read(3);

    SourceRecord source;
    source.uri = uri;
    source.format = importer->name();
    source.sha256 = sha256;
    source.importer = importer->name();
    source.importerVersion = importer->version();
    source.importedAt = nowTimestamp();
    source.sample = request.sample;

    // A dry run goes through the same writer into a scratch store, so that it checks what
    // the real import would and never touches the user's store.
    std::optional<QTemporaryDir> scratchDir;
    std::unique_ptr<Store> scratch;
    std::unique_ptr<SourceWriter> writer;
    try {
        Store *target = &store;
        if (request.dryRun) {
            scratchDir.emplace();
            if (!scratchDir->isValid())
                throw StoreError("cannot create a scratch store for the dry run: " +
                                 scratchDir->errorString().toStdString());
            scratch = std::make_unique<Store>(scratchDir->filePath("dry-run.db").toStdString());
            target = scratch.get();
        }
        writer = target->beginSource(source);
    } catch (const StoreError &e) {
        fail(report, displayName, {e.what(), 0, -1, {}});
        return report;
    }

    ImportResult parsed;
    if (!writer->unchanged()) {
        ImportOptions options;
        options.uri = uri;
        options.latencyUnit = request.latencyUnit;
        std::vector<ImportWarning> domainWarnings;
        DomainCheckSink checked(*writer, domainWarnings);
        try {
            parsed = importer->parseInto(device, options, progress, checked);
            checked.finish();
        } catch (const DomainError &e) {
            fail(report, displayName, e.error);
            return report; // an impossible value: nothing of this source is written
        } catch (const StoreError &e) {
            fail(report, displayName, {e.what(), 0, -1, {}});
            return report; // the writer rolls back: nothing of this source is written
        } catch (const std::exception &e) {
            // A backstop: importers report errors as values, but a conversion they did not
            // guard must fail this source, not end the process (and a directory import).
            fail(report, displayName, {std::string("cannot be read: ") + e.what(), 0, -1, {}});
            return report;
        }
        report.warnings = parsed.warnings;
        report.warnings.insert(report.warnings.end(), domainWarnings.begin(), domainWarnings.end());
        if (!parsed.ok()) {
            if (bom && parsed.error->offset >= 0)
                parsed.error->offset += 3;
            fail(report, displayName, *parsed.error);
            return report;
        }
    }
    try {
        const ImportOutcome outcome = writer->commit();
        report.runs = outcome.runs;
        report.scenarios = outcome.scenarios;
        report.metrics = outcome.metrics;
        if (request.dryRun) {
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

SourceReport ImportService::importFile(const ImportRequest &request, const Progress &progress)
{
    if (UrlFetcher::isUrl(request.path))
        return importUrl(request, progress);
    const QString path = QString::fromStdString(request.path);
    const std::string uri = QFileInfo(path).absoluteFilePath().toStdString();
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
