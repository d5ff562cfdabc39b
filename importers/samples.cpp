#include "importers/samples.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace plimsoll {

std::vector<std::string> sampleFiles()
{
    std::vector<std::string> out;
    const QDir dir(QStringLiteral(":/samples"));
    for (const QString &name : dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name))
        out.push_back(dir.filePath(name).toStdString());
    return out;
}

std::vector<SourceReport> installSamples(Store &store)
{
    ImportService service(store);
    std::vector<SourceReport> reports;
    for (const std::string &path : sampleFiles()) {
        QFile file(QString::fromStdString(path));
        if (!file.open(QIODevice::ReadOnly)) {
            SourceReport failed;
            failed.uri = path;
            failed.status = "failed";
            failed.errorText = path + ": cannot read the bundled sample";
            reports.push_back(failed);
            continue;
        }
        ImportRequest request;
        request.path = path;
        request.sample = true;
        // A stable URI, independent of where the binary lives: "samples/pipeline-….jsonl".
        const std::string uri = "plimsoll-samples:" + QFileInfo(file).fileName().toStdString();
        reports.push_back(service.importBytes(uri, file.readAll(), request));
    }
    return reports;
}

} // namespace plimsoll
