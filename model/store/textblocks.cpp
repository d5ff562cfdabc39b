#include "model/store/textblocks.h"

#include <algorithm>
#include <cstring>

namespace plimsoll {

std::string_view TextBlocks::keep(std::string_view text)
{
    if (text.empty())
        return {};
    if (m_blocks.empty() || m_size - m_used < text.size()) {
        m_size = std::max(kBlockBytes, text.size());
        m_blocks.push_back(std::make_unique_for_overwrite<char[]>(m_size));
        m_used = 0;
    }
    char *at = m_blocks.back().get() + m_used;
    std::memcpy(at, text.data(), text.size());
    m_used += text.size();
    return {at, text.size()};
}

} // namespace plimsoll
