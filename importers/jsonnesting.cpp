#include "importers/jsonnesting.h"

#include "importers/jsonlocator.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

namespace plimsoll {

namespace {

// The keys of one open object, to find one given twice. Most objects have a handful: a vector
// searched in order; past kSmall, a hash set as well (a hostile object of a million keys costs
// a million lookups, not a million squared).
struct ObjectKeys
{
    static constexpr size_t kSmall = 16;
    std::vector<std::string_view> small;
    std::unordered_set<std::string_view> many;
    bool expectKey = true;

    // False when `key` was there already.
    bool insert(std::string_view key)
    {
        if (many.empty()) {
            if (std::find(small.begin(), small.end(), key) != small.end())
                return false;
            small.push_back(key);
            if (small.size() > kSmall)
                many.insert(small.begin(), small.end());
            return true;
        }
        return many.insert(key).second;
    }
};

} // namespace

std::optional<ImportError> checkJsonNesting(std::string_view text, int64_t firstLine,
                                            int64_t baseOffset)
{
    int depth = 0;
    bool inString = false;
    bool escaped = false;
    int64_t line = firstLine;
    size_t lineStart = 0;
    // One entry per open array (nullopt) or object (its keys).
    std::vector<std::optional<ObjectKeys>> open;
    size_t keyStart = std::string_view::npos; // the key being read: its first byte after '"'
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"') {
                inString = false;
                if (keyStart != std::string_view::npos) {
                    const std::string_view key = text.substr(keyStart, i - keyStart);
                    if (!open.back()->insert(key)) {
                        ImportError error{"is given twice in one object; refused rather than "
                                          "keep one of its two values silently (remove the other)",
                                          line, baseOffset + int64_t(keyStart) - 1, std::string(key.substr(0, 200))};
                        error.column = int64_t(keyStart - lineStart);
                        return error;
                    }
                    open.back()->expectKey = false;
                    keyStart = std::string_view::npos;
                }
            }
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            if (!open.empty() && open.back() && open.back()->expectKey)
                keyStart = i + 1;
            break;
        case ',':
            if (!open.empty() && open.back())
                open.back()->expectKey = true;
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
            if (c == '{')
                open.emplace_back(ObjectKeys{});
            else
                open.emplace_back(std::nullopt);
            break;
        case ']':
        case '}':
            if (depth > 0)
                --depth;
            if (!open.empty())
                open.pop_back();
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
