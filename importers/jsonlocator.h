#pragma once
// nlohmann::json keeps no positions, so field errors could not name a line. JsonLocator scans
// the same text once and maps each value's JSON Pointer ("/scenarios/0/avgLatencyMs") to where
// that value starts. Build it only when a message needs a position: the happy path pays nothing.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plimsoll {

struct JsonPosition
{
    int64_t line = 0;    // 1-based
    int64_t column = 0;  // 1-based, in bytes
    int64_t offset = -1; // 0-based byte offset
};

class JsonLocator
{
public:
    // `text` must outlive the locator. `firstLine` and `baseOffset` place a fragment (one line
    // of a JSON Lines file) inside its file, so positions come out file-relative.
    explicit JsonLocator(std::string_view text, int64_t firstLine = 1, int64_t baseOffset = 0);

    // Position of the value at `pointer`; for a pointer that does not exist (a missing field)
    // the position of its nearest existing ancestor, so "missing" errors still name a line.
    JsonPosition locate(const std::string &pointer) const;
    bool contains(const std::string &pointer) const;
    // File-relative position of a byte offset into `text`.
    JsonPosition positionOf(int64_t offsetInText) const;

    // "/a/b~1c" from {"a", "b/c"} (RFC 6901 escaping).
    static std::string pointer(std::initializer_list<std::string_view> tokens);
    static std::string child(const std::string &parent, std::string_view token);
    static std::string child(const std::string &parent, size_t index);
    // The pointer-ish field name errors show: "/scenarios/0/type" -> "scenarios/0/type".
    static std::string fieldName(const std::string &pointer);

private:
    void scanValue(size_t &pos, const std::string &pointer, int depth);
    void skipWhitespace(size_t &pos) const;
    std::string scanString(size_t &pos) const;

    std::string_view m_text;
    int64_t m_firstLine;
    int64_t m_baseOffset;
    std::vector<size_t> m_lineStarts;
    std::unordered_map<std::string, size_t> m_values;
};

// "syntax error while parsing value - invalid literal; last read: 'x'" without nlohmann's
// "[json.exception.parse_error.101] parse error at line 1, column 5: " prefix.
std::string jsonParseErrorDetail(const nlohmann::json::parse_error &e);

// "a string", "a number", "an object", … for messages like "is a string, not a number".
std::string jsonTypePhrase(const nlohmann::json &v);
std::string jsonTypePhrase(const nlohmann::ordered_json &v);

} // namespace plimsoll
