#include "importers/linebounds.h"

namespace plimsoll {

std::string boundedHead(std::string_view head)
{
    std::string out;
    out.reserve(head.size());
    size_t pos = 0;
    while (pos < head.size()) {
        size_t end = head.find('\n', pos);
        const bool last = end == std::string_view::npos;
        if (last)
            end = head.size();
        out.append(head.substr(pos, std::min(end - pos, kMaxToolLineBytes)));
        if (!last)
            out.push_back('\n');
        pos = end + 1;
    }
    return out;
}

bool refuseLongLines(std::string_view text, const std::string &what, ImportResult &result)
{
    int64_t line = 1;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        if (end - pos > kMaxToolLineBytes) {
            result.error = ImportError{"is longer than " + std::to_string(kMaxToolLineBytes) +
                                           " bytes; " + what + " has no such lines",
                                       line, int64_t(pos), {}};
            return false;
        }
        ++line;
        pos = end + 1;
    }
    return true;
}

} // namespace plimsoll
