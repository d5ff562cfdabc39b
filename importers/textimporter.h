#pragma once
// The importer of a format read as one text: the whole source is read (bounded by the
// format's size limit, with progress and cancel), and for a tool's line output lines over
// the line limit are refused (textsource.h), before the format's own reader sees the text.
// A format is then its constants (TextFormat, at the top of its file) and three plain
// functions (TextReader), with no class of its own.

#include "importers/importer.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace plimsoll {

// What the text is: any text (readWholeSource), or a tool's line output, whose over-long
// lines are refused (readToolOutput).
enum class TextInput { Whole, ToolOutput };

// Constants only (a literal type), so a format's `constexpr TextFormat kFormat` is ready before
// any code runs, whichever file's initializer asks for its importer first.
struct TextFormat
{
    struct Identity
    {
        const char *name;          // ImporterIdentity's fields, as literals
        const char *version;
        const char *description;
        const char *detectionRule;
    } identity;
    const char *what;     // the source as messages name it: "HdrHistogram log"
    int64_t maxBytes = 0; // larger sources are refused, naming `what`
    TextInput input = TextInput::Whole;
};

struct TextReader
{
    int (*sniff)(std::string_view head) = nullptr;
    Resemblance (*resemblance)(std::string_view head) = nullptr; // none: resembles nothing
    // The runs of `text`, read from `source` (at its end by now: for its file name and
    // time); `read` holds what reading the source said and is returned with the runs,
    // warnings and error added.
    ImportResult (*parse)(const std::string &text, QIODevice &source, const ImportOptions &options,
                          ImportResult read) = nullptr;
};

class TextImporter final : public Importer
{
public:
    TextImporter(const TextFormat &format, TextReader reader);
    int sniff(std::string_view head) const override;
    Resemblance resemblance(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;

private:
    TextFormat m_format;
    TextReader m_reader;
};

} // namespace plimsoll
