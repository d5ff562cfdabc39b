#include "importers/jsonlocator.h"

#include <algorithm>

namespace plimsoll {

namespace {

// Deeper documents are legal but nothing Plimsoll reads nests like that; stopping keeps a
// hostile file from exhausting the stack.
constexpr int kMaxDepth = 512;

void appendUtf8(std::string &out, uint32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

template <typename Json> std::string typePhrase(const Json &v)
{
    switch (v.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
        return "a number";
    default:
        return "not a JSON value";
    }
}

} // namespace

JsonLocator::JsonLocator(std::string_view text, int64_t firstLine, int64_t baseOffset)
    : m_text(text), m_firstLine(firstLine), m_baseOffset(baseOffset)
{
    m_lineStarts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n')
            m_lineStarts.push_back(i + 1);
    }
    size_t pos = 0;
    // A UTF-8 byte order mark is accepted by nlohmann and skipped here alike.
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        pos = 3;
    skipWhitespace(pos);
    if (pos < text.size())
        scanValue(pos, "", 0);
}

JsonPosition JsonLocator::positionOf(int64_t offsetInText) const
{
    const size_t offset = size_t(std::clamp<int64_t>(offsetInText, 0, int64_t(m_text.size())));
    const auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    const size_t lineIndex = size_t(it - m_lineStarts.begin()) - 1;
    JsonPosition p;
    p.line = m_firstLine + int64_t(lineIndex);
    p.column = int64_t(offset - m_lineStarts[lineIndex]) + 1;
    p.offset = m_baseOffset + int64_t(offset);
    return p;
}

bool JsonLocator::contains(const std::string &pointer) const
{
    return m_values.count(pointer) != 0;
}

JsonPosition JsonLocator::locate(const std::string &pointer) const
{
    std::string p = pointer;
    while (true) {
        if (const auto it = m_values.find(p); it != m_values.end())
            return positionOf(int64_t(it->second));
        if (p.empty())
            return positionOf(0);
        const auto slash = p.rfind('/');
        p.erase(slash == std::string::npos ? 0 : slash);
    }
}

std::string JsonLocator::child(const std::string &parent, std::string_view token)
{
    std::string out = parent;
    out += '/';
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string JsonLocator::child(const std::string &parent, size_t index)
{
    return parent + '/' + std::to_string(index);
}

std::string JsonLocator::pointer(std::initializer_list<std::string_view> tokens)
{
    std::string out;
    for (auto t : tokens)
        out = child(out, t);
    return out;
}

std::string JsonLocator::fieldName(const std::string &pointer)
{
    std::string out;
    for (size_t i = pointer.empty() || pointer[0] != '/' ? 0 : 1; i < pointer.size(); ++i) {
        if (pointer[i] == '~' && i + 1 < pointer.size()) {
            out += pointer[i + 1] == '1' ? '/' : '~';
            ++i;
        } else {
            out += pointer[i];
        }
    }
    return out;
}

void JsonLocator::skipWhitespace(size_t &pos) const
{
    while (pos < m_text.size() && (m_text[pos] == ' ' || m_text[pos] == '\t' ||
                                   m_text[pos] == '\n' || m_text[pos] == '\r'))
        ++pos;
}

std::string JsonLocator::scanString(size_t &pos) const
{
    std::string out;
    ++pos; // opening quote
    while (pos < m_text.size() && m_text[pos] != '"') {
        const char c = m_text[pos];
        if (c != '\\') {
            out += c;
            ++pos;
            continue;
        }
        if (pos + 1 >= m_text.size())
            break;
        const char e = m_text[pos + 1];
        pos += 2;
        switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
            auto readHex = [&](uint32_t &cp) {
                if (pos + 4 > m_text.size())
                    return false;
                cp = 0;
                for (int i = 0; i < 4; ++i) {
                    const int h = hexValue(m_text[pos + size_t(i)]);
                    if (h < 0)
                        return false;
                    cp = cp * 16 + uint32_t(h);
                }
                pos += 4;
                return true;
            };
            uint32_t cp = 0;
            if (!readHex(cp))
                break;
            if (cp >= 0xD800 && cp < 0xDC00 && pos + 1 < m_text.size() && m_text[pos] == '\\' &&
                m_text[pos + 1] == 'u') {
                pos += 2;
                uint32_t low = 0;
                if (readHex(low) && low >= 0xDC00 && low < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            appendUtf8(out, cp);
            break;
        }
        default: out += e; break; // '"', '\\', '/'
        }
    }
    ++pos; // closing quote
    return out;
}

void JsonLocator::scanValue(size_t &pos, const std::string &pointer, int depth)
{
    m_values.emplace(pointer, pos);
    if (pos >= m_text.size() || depth > kMaxDepth)
        return;
    const char c = m_text[pos];
    if (c == '{') {
        ++pos;
        skipWhitespace(pos);
        while (pos < m_text.size() && m_text[pos] != '}') {
            if (m_text[pos] != '"')
                return; // not valid JSON: the caller reports nlohmann's error instead
            const std::string key = scanString(pos);
            skipWhitespace(pos);
            if (pos < m_text.size() && m_text[pos] == ':')
                ++pos;
            skipWhitespace(pos);
            scanValue(pos, child(pointer, key), depth + 1);
            skipWhitespace(pos);
            if (pos < m_text.size() && m_text[pos] == ',') {
                ++pos;
                skipWhitespace(pos);
            }
        }
        ++pos;
    } else if (c == '[') {
        ++pos;
        skipWhitespace(pos);
        size_t index = 0;
        while (pos < m_text.size() && m_text[pos] != ']') {
            scanValue(pos, child(pointer, index++), depth + 1);
            skipWhitespace(pos);
            if (pos < m_text.size() && m_text[pos] == ',') {
                ++pos;
                skipWhitespace(pos);
            } else if (pos < m_text.size() && m_text[pos] != ']') {
                return;
            }
        }
        ++pos;
    } else if (c == '"') {
        scanString(pos);
    } else {
        // number, true, false, null
        while (pos < m_text.size() && m_text[pos] != ',' && m_text[pos] != '}' &&
               m_text[pos] != ']' && m_text[pos] != ' ' && m_text[pos] != '\n' &&
               m_text[pos] != '\r' && m_text[pos] != '\t')
            ++pos;
    }
}

std::string jsonParseErrorDetail(const nlohmann::json::parse_error &e)
{
    std::string what = e.what();
    // nlohmann: "[json.exception.parse_error.101] parse error at line L, column C: detail"
    if (const auto at = what.find("parse error"); at != std::string::npos) {
        if (const auto colon = what.find(": ", at); colon != std::string::npos)
            return what.substr(colon + 2);
    }
    if (what.rfind("[json.exception.", 0) == 0) {
        if (const auto close = what.find("] "); close != std::string::npos)
            return what.substr(close + 2);
    }
    return what;
}

std::string jsonTypePhrase(const nlohmann::json &v)
{
    return typePhrase(v);
}

std::string jsonTypePhrase(const nlohmann::ordered_json &v)
{
    return typePhrase(v);
}

} // namespace plimsoll
