#pragma once
// Reads a source, detects its format, parses it and commits it as one transaction.
// Shared by `plimsoll import` and the window's import worker.

#include "importers/importer.h"
#include "model/store.h"

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
};

class ImportService
{
public:
    explicit ImportService(Store &store) : m_store(store) {}
    SourceReport importFile(const ImportRequest &request, const Progress &progress = {});
    // For bytes already in memory (bundled samples); `uri` names them.
    SourceReport importBytes(const std::string &uri, const QByteArray &bytes,
                             const ImportRequest &request, const Progress &progress = {});

private:
    Store &m_store;
};

} // namespace plimsoll
