#include "runner/httptext.h"

namespace plimsoll {

std::size_t appendCappedBody(char *data, std::size_t size, std::size_t count, void *out)
{
    auto *text = static_cast<std::string *>(out);
    if (text->size() + size * count > (std::size_t(64) << 20))
        return 0;
    text->append(data, size * count);
    return size * count;
}

std::string urlWithoutUserInfo(const std::string &url)
{
    const auto scheme = url.find("://");
    if (scheme == std::string::npos)
        return url;
    const auto hostEnd = url.find_first_of("/?#", scheme + 3);
    const auto at = url.rfind('@', hostEnd == std::string::npos ? url.size() : hostEnd);
    if (at == std::string::npos || at < scheme + 3)
        return url;
    return url.substr(0, scheme + 3) + "***@" + url.substr(at + 1);
}

} // namespace plimsoll
