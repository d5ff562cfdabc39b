#include "runner/clientproperties.h"

// The Java .properties text format, read as java.util.Properties reads it. The translation to
// librdkafka names lives in clientproperties.cpp.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <utility>

namespace plimsoll {

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

void appendUtf8(std::string &out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::optional<char32_t> hex4(std::string_view text, std::size_t at)
{
    if (at + 4 > text.size())
        return std::nullopt;
    char32_t value = 0;
    for (std::size_t i = at; i < at + 4; ++i) {
        const char c = text[i];
        value <<= 4;
        if (c >= '0' && c <= '9')
            value |= static_cast<char32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            value |= static_cast<char32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            value |= static_cast<char32_t>(c - 'A' + 10);
        else
            return std::nullopt;
    }
    return value;
}

// Java's Properties.loadConvert: \t \n \r \f, \uXXXX (UTF-16 code units, so surrogate
// pairs are joined), and a backslash before any other character keeps that character.
std::optional<std::string> unescape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i == text.size())
            break; // a lone trailing backslash is dropped, as Java does
        const char e = text[i];
        switch (e) {
        case 't': out += '\t'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 'f': out += '\f'; break;
        case 'u': {
            auto unit = hex4(text, i + 1);
            if (!unit)
                return std::nullopt;
            i += 4;
            char32_t cp = *unit;
            if (cp >= 0xD800 && cp <= 0xDBFF && text.substr(i + 1, 2) == "\\u") {
                if (auto low = hex4(text, i + 3); low && *low >= 0xDC00 && *low <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (*low - 0xDC00);
                    i += 6;
                }
            }
            appendUtf8(out, cp);
            break;
        }
        default: out += e; break;
        }
    }
    return out;
}

// True when the line ends in an odd number of backslashes: the last one continues it.
bool continues(std::string_view line)
{
    std::size_t count = 0;
    for (auto it = line.rbegin(); it != line.rend() && *it == '\\'; ++it)
        ++count;
    return count % 2 == 1;
}

std::string_view stripLeading(std::string_view line)
{
    std::size_t i = 0;
    while (i < line.size() && isBlank(line[i]))
        ++i;
    return line.substr(i);
}

// The text's natural lines, numbered from 1, and the logical lines they join into.
class LineReader
{
public:
    explicit LineReader(std::string_view text)
        : m_text(text)
    {}

    int lineNumber() const { return m_lineNumber; }

    // Natural lines end at \n, \r or \r\n, as in java.util.Properties.
    bool next(std::string_view &line)
    {
        if (m_pos >= m_text.size())
            return false;
        const std::size_t end = m_text.find_first_of("\r\n", m_pos);
        line = m_text.substr(m_pos, (end == std::string_view::npos ? m_text.size() : end) - m_pos);
        m_pos = end == std::string_view::npos ? m_text.size() : end + 1;
        if (end != std::string_view::npos && m_text[end] == '\r' && m_pos < m_text.size() && m_text[m_pos] == '\n')
            ++m_pos;
        ++m_lineNumber;
        return true;
    }

    // The logical line that starts with `natural`: a continuation drops the backslash and the
    // next line's leading blanks; a comment character there is plain text, not a comment.
    std::string logical(std::string_view natural)
    {
        std::string joined(natural);
        while (continues(joined)) {
            joined.pop_back();
            std::string_view following;
            if (!next(following))
                break;
            joined += stripLeading(following);
        }
        return joined;
    }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_lineNumber = 0;
};

// Where a logical line's key ends and its value starts: the key runs to the first unescaped
// '=', ':' or blank; blanks around the separator (and one '=' or ':' after blanks) are skipped.
std::pair<std::size_t, std::size_t> splitKeyValue(const std::string &logical)
{
    std::size_t keyEnd = 0;
    bool separator = false;
    while (keyEnd < logical.size()) {
        const char c = logical[keyEnd];
        if (c == '\\') {
            keyEnd += 2;
            continue;
        }
        if (c == '=' || c == ':') {
            separator = true;
            break;
        }
        if (isBlank(c))
            break;
        ++keyEnd;
    }
    keyEnd = std::min(keyEnd, logical.size());
    std::size_t valueStart = keyEnd + (separator ? 1 : 0);
    while (valueStart < logical.size()) {
        const char c = logical[valueStart];
        if (!isBlank(c)) {
            if (!separator && (c == '=' || c == ':'))
                separator = true;
            else
                break;
        }
        ++valueStart;
    }
    return {keyEnd, std::min(valueStart, logical.size())};
}

} // namespace

ClientProperties ClientProperties::parse(std::string_view text, std::string sourceName)
{
    ClientProperties result;
    result.m_sourceName = std::move(sourceName);
    std::unordered_map<std::string, std::size_t> indexOfKey;
    LineReader lines(text);
    std::string_view natural;
    while (lines.next(natural)) {
        natural = stripLeading(natural);
        if (natural.empty() || natural.front() == '#' || natural.front() == '!')
            continue;
        const int startLine = lines.lineNumber();
        const std::string logical = lines.logical(natural);
        const auto [keyEnd, valueStart] = splitKeyValue(logical);
        auto key = unescape(std::string_view(logical).substr(0, keyEnd));
        auto value = unescape(std::string_view(logical).substr(valueStart));
        if (!key || !value) {
            const std::string keyText = key ? *key : std::string(logical.substr(0, keyEnd));
            result.m_problems.push_back({result.m_sourceName, startLine, keyText, "malformed \\uXXXX escape"});
            continue;
        }
        // A later duplicate wins, at its own line, as in java.util.Properties.
        if (auto it = indexOfKey.find(*key); it != indexOfKey.end()) {
            result.m_entries[it->second].value = std::move(*value);
            result.m_entries[it->second].line = startLine;
        } else {
            indexOfKey.emplace(*key, result.m_entries.size());
            result.m_entries.push_back({std::move(*key), std::move(*value), startLine});
        }
    }
    return result;
}

ClientProperties ClientProperties::load(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ClientProperties result;
        result.m_sourceName = path;
        std::error_code ec;
        result.m_problems.push_back(
            {path, 0, {}, std::filesystem::exists(path, ec) ? "cannot be read" : "no such file"});
        return result;
    }
    std::ostringstream content;
    content << in.rdbuf();
    return parse(content.str(), path);
}

} // namespace plimsoll
