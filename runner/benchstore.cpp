#include "runner/benchstore.h"

#include <QCryptographicHash>

namespace plimsoll {

ImportOutcome storeBenchResult(Store &store, const BenchResult &result, const std::string &toolVersion)
{
    const std::string document = result.toJson().dump();
    SourceRecord source;
    // Not a file: the run itself is the source, named by its id so a re-store is "unchanged".
    source.uri = "plimsoll-bench:" + result.runId;
    source.format = "plimsoll-bench";
    source.sha256 = QCryptographicHash::hash(QByteArray::fromStdString(document), QCryptographicHash::Sha256)
                        .toHex()
                        .toStdString();
    source.importer = "plimsoll bench";
    source.importerVersion = toolVersion;
    source.importedAt = nowTimestamp();
    return store.importSource(source, {result.toRunRecord(toolVersion)});
}

} // namespace plimsoll
