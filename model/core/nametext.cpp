#include "model/core/nametext.h"

#include <cstdint>
#include <cstdio>

namespace plimsoll {

// The name as it can be shown: control and format characters as U+XXXX, cut at 60 characters.
std::string shownName(std::string_view name)
{
    std::string out;
    int chars = 0;
    for (size_t i = 0; i < name.size() && chars < 60;) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        const size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
        uint32_t cp = len == 1 ? c : c & (0x7F >> len);
        for (size_t k = 1; k < len && i + k < name.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(name[i + k]) & 0x3F);
        char buf[16];
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || (cp >= 0x200B && cp <= 0x200F) ||
            (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
            std::snprintf(buf, sizeof buf, "<U+%04X>", unsigned(cp));
            out += buf;
        } else {
            out.append(name.substr(i, len));
        }
        i += len;
        ++chars;
    }
    return out;
}

std::string nameProblem(std::string_view name)
{
    size_t chars = 0;
    for (size_t i = 0; i < name.size();) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        const size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > name.size())
            return "is not UTF-8 text (byte " + std::to_string(i + 1) + ")";
        uint32_t cp = len == 1 ? c : c & (0x7F >> len);
        for (size_t k = 1; k < len; ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(name[i + k]) & 0x3F);
        ++chars;
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", unsigned(cp));
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
            return std::string("holds the control character ") + code + " at character " + std::to_string(chars) +
                   " ('" + shownName(name) + "'): names are printed in terminals, CSV and reports; remove it";
        if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F)
            return std::string("holds the bidirectional control ") + code + " at character " + std::to_string(chars) +
                   " ('" + shownName(name) + "'), which makes it read otherwise than it is; remove it";
        i += len;
    }
    if (chars > kMaxNameChars)
        return "is " + std::to_string(chars) + " characters long ('" + shownName(name) + "…'), more than the " +
               std::to_string(kMaxNameChars) + " a name may have; shorten it";
    return {};
}

} // namespace plimsoll
