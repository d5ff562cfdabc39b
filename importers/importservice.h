#pragma once
// Reads a source, detects its format, parses it and commits it as one transaction.
// Shared by `plimsoll import` and the window's import worker.

#include "importers/importer.h"
#include "model/store/store.h"

#include <QByteArray>

#include <string>
#include <vector>

namespace plimsoll {

struct SourceReport
{
    std::string uri;
    std::string format;
    std::string status; // "imported", "unchanged", "failed", or "checked" for a dry run
    int64_t runs = 0;
    int64_t scenarios = 0;
    int64_t metrics = 0;
    std::string latestRun; // the key of the newest run the source holds ("" when none)
    std::vector<ImportWarning> warnings;
    std::optional<ImportError> error;
    std::string errorText; // the full human message with the file name, when failed

    nlohmann::json toJson() const;
};

struct ImportRequest
{
    std::string path;
    std::string format; // empty: detect by content
    bool dryRun = false;
    bool sample = false; // mark runs as sample runs
    // Unit of HdrHistogram log and percentile-table values (--hlog-unit): "ns", "us", "ms",
    // "s"; empty for the format's usual unit (ImportOptions::latencyUnit).
    std::string latencyUnit{};
    // For http:// and https:// paths (importers/urlfetcher.h): skip TLS verification, the
    // whole transfer's limit in seconds, the largest body accepted in bytes.
    bool insecure = false;
    int64_t timeoutS = 120;
    int64_t maxBytes = 256LL * 1024 * 1024;
};

// Totals over the sources of one `plimsoll import`, for the line printed at the end.
struct ImportSummary
{
    int64_t sources = 0, imported = 0, unchanged = 0, checked = 0, failed = 0;
    int64_t runs = 0, scenarios = 0, metrics = 0, warnings = 0;

    static ImportSummary of(const std::vector<SourceReport> &reports);
    // "12 sources: 10 imported, 1 unchanged, 1 failed; 10 runs, 14 scenarios, 312 metrics, 3 warnings"
    std::string text() const;
    nlohmann::json toJson() const;
};

// The record of a source `importer` reads, imported now; `sha256` is over its bytes.
SourceRecord sourceRecordOf(const Importer &importer, const std::string &uri,
                            const std::string &sha256, bool sample);

class ImportService
{
public:
    explicit ImportService(Store &store) : m_store(store) {}
    // A path starting with http:// or https:// is fetched (UrlFetcher) and imported from memory;
    // the source uri is the URL with credentials redacted.
    SourceReport importFile(const ImportRequest &request, const Progress &progress = {});
    // A file, or every regular file under a directory (recursively, sorted by path; hidden
    // files and directories skipped), each its own source and transaction. A failed file
    // does not stop the others.
    std::vector<SourceReport> importPath(const ImportRequest &request, const Progress &progress = {});
    // For bytes already in memory (bundled samples); `uri` names them.
    SourceReport importBytes(const std::string &uri, const QByteArray &bytes,
                             const ImportRequest &request, const Progress &progress = {});
    // Runs read otherwise than by one importer from one source (two Prometheus scrapes paired
    // into one run: importers/prometheus/scrapepairimport.h), written as a file's are: one transaction,
    // through the domain check, "unchanged" when the store holds `source.sha256` already, a
    // scratch store for a dry run. `displayName` starts the error's text (may be empty).
    SourceReport importRuns(const SourceRecord &source, const std::vector<RunRecord> &runs,
                            bool dryRun, const std::string &displayName);
    // A run as the store keeps it, by key: after an unchanged import, what the earlier import
    // of the same bytes wrote.
    std::optional<RunRecord> storedRun(const std::string &runKey) const;

private:
    SourceReport importUrl(const ImportRequest &request, const Progress &progress);
    Store &m_store;
};

} // namespace plimsoll
