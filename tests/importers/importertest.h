#pragma once
// Helpers shared by the importer suites: run an importer over bytes or a data file.
#include "importers/importer.h"
#include "support/tempdir.h"

#include <QBuffer>
#include <QFile>

#include <string>

namespace plimsoll::test {

inline std::string readData(const std::string &name)
{
    QFile f(QString::fromStdString(dataPath(name)));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), size_t(bytes.size()));
}

inline std::string readCorpusFile(const std::string &name)
{
    QFile f(QString::fromStdString(corpusPath(name)));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), size_t(bytes.size()));
}

inline ImportResult parseText(const Importer &importer, const std::string &text,
                              const Progress &progress = {})
{
    QBuffer buffer;
    buffer.setData(QByteArray(text.data(), qsizetype(text.size())));
    buffer.open(QIODevice::ReadOnly);
    return importer.parse(buffer, ImportOptions{"memory"}, progress);
}

inline ImportResult parseData(const Importer &importer, const std::string &name)
{
    return parseText(importer, readData(name));
}

inline bool hasWarning(const ImportResult &r, const std::string &kind, int64_t line)
{
    for (const auto &w : r.warnings) {
        if (w.kind == kind && w.line == line)
            return true;
    }
    return false;
}

} // namespace plimsoll::test
