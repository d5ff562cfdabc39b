#include "importers/jsonnesting.h"

#include "importers/jsonlocator.h"

#include <string>

namespace plimsoll {

std::optional<ImportError> checkJsonNesting(std::string_view text, int64_t firstLine,
                                            int64_t baseOffset)
{
    int depth = 0;
    bool inString = false;
    bool escaped = false;
    int64_t line = firstLine;
    size_t lineStart = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            break;
        case '[':
        case '{':
            if (++depth > kMaxJsonNesting) {
                ImportError error{"nests arrays and objects deeper than " +
                                      std::to_string(kMaxJsonNesting) +
                                      " levels; refused (no benchmark result nests like this)",
                                  line, baseOffset + int64_t(i), {}};
                error.column = int64_t(i - lineStart) + 1;
                return error;
            }
            break;
        case ']':
        case '}':
            if (depth > 0)
                --depth;
            break;
        case '\n':
            ++line;
            lineStart = i + 1;
            break;
        default:
            break;
        }
    }
    return std::nullopt;
}

std::optional<nlohmann::json> parseJsonDocument(const std::string &text,
                                                const std::string &syntaxPrefix,
                                                std::optional<ImportError> &error)
{
    if ((error = checkJsonNesting(text)))
        return std::nullopt;
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        const JsonPosition at = JsonLocator(text).positionOf(int64_t(e.byte) - 1);
        error = ImportError{syntaxPrefix + jsonParseErrorDetail(e), at.line, at.offset, {}};
        error->column = at.column;
    } catch (const nlohmann::json::out_of_range &) {
        error = ImportError{kJsonNumberOutOfRange, 0, -1, {}};
    }
    return std::nullopt;
}

} // namespace plimsoll
