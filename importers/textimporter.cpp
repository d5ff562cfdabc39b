#include "importers/textimporter.h"

#include "importers/textsource.h"

#include <utility>

namespace plimsoll {

TextImporter::TextImporter(const TextFormat &format, TextReader reader)
    : Importer({format.identity.name, format.identity.version, format.identity.description,
                format.identity.detectionRule}),
      m_format(format), m_reader(reader)
{
}

int TextImporter::sniff(std::string_view head) const
{
    return m_reader.sniff(head);
}

Resemblance TextImporter::resemblance(std::string_view head) const
{
    return m_reader.resemblance ? m_reader.resemblance(head) : Resemblance{};
}

ImportResult TextImporter::parse(QIODevice &in, const ImportOptions &options,
                                 const Progress &progress) const
{
    ImportResult result;
    std::string text;
    const auto read = m_format.input == TextInput::ToolOutput ? readToolOutput : readWholeSource;
    if (!read(in, progress, m_format.maxBytes, m_format.what, text, result))
        return result;
    return m_reader.parse(text, in, options, std::move(result));
}

} // namespace plimsoll
