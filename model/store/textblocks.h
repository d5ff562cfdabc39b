#pragma once
// Text copied into blocks that never move, for a million short strings (a trend's run keys,
// times, commits) without an allocation each: what keep() returns stays valid as long as the
// TextBlocks does.

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace plimsoll {

class TextBlocks
{
public:
    std::string_view keep(std::string_view text);
    // Keeps another's blocks too (what it kept stays where it is).
    void take(TextBlocks &&other);

private:
    static constexpr std::size_t kBlockBytes = std::size_t(1) << 20;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_used = 0, m_size = 0; // of the last block
};

} // namespace plimsoll
