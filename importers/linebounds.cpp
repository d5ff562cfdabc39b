#include "importers/linebounds.h"

namespace plimsoll {

bool refuseLongLines(std::string_view text, const std::string &what, ImportResult &result)
{
    int64_t line = 1;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        if (end - pos > kMaxToolLineBytes) {
            result.error = ImportError{"is longer than 1 MiB (" + std::to_string(end - pos) +
                                           " bytes); " + what + " has no such lines",
                                       line, int64_t(pos), {}};
            return false;
        }
        ++line;
        pos = end + 1;
    }
    return true;
}

} // namespace plimsoll
