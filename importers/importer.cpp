#include "importers/importer.h"

#include "importers/korvetresultimporter.h"
#include "importers/trendrecordsimporter.h"

namespace plimsoll {

std::string ImportError::describe(const std::string &file) const
{
    std::string out = file;
    auto part = [&out](const std::string &text) {
        if (text.empty())
            return;
        if (!out.empty())
            out += ": ";
        out += text;
    };
    if (line > 0)
        part("line " + std::to_string(line));
    else if (offset >= 0)
        part("byte " + std::to_string(offset));
    if (!field.empty())
        part("field '" + field + "'");
    part(message);
    return out;
}

const ImporterRegistry &ImporterRegistry::instance()
{
    static const ImporterRegistry registry;
    return registry;
}

ImporterRegistry::ImporterRegistry()
{
    // Registration order breaks ties in detect(): the more specific formats come first.
    static const TrendRecordsImporter trendRecords;
    static const KorvetResultImporter korvetResult;
    m_importers = {&trendRecords, &korvetResult};
}

const Importer *ImporterRegistry::byName(std::string_view name) const
{
    for (const Importer *importer : m_importers) {
        if (importer->name() == name)
            return importer;
    }
    return nullptr;
}

const Importer *ImporterRegistry::detect(std::string_view head) const
{
    const Importer *best = nullptr;
    int bestScore = 0;
    for (const Importer *importer : m_importers) {
        const int score = importer->sniff(head);
        if (score > bestScore) {
            best = importer;
            bestScore = score;
        }
    }
    return best;
}

} // namespace plimsoll
