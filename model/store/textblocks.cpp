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

void TextBlocks::take(TextBlocks &&other)
{
    // Before this one's own: the last block stays the one keep() fills.
    m_blocks.insert(m_blocks.begin(), std::make_move_iterator(other.m_blocks.begin()),
                    std::make_move_iterator(other.m_blocks.end()));
    other.m_blocks.clear();
    other.m_used = other.m_size = 0;
}

} // namespace plimsoll
