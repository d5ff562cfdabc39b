#include "model/core/textpattern.h"

#include <cstdio>
#include <cstdlib>

namespace plimsoll {

namespace {

RE2::Options optionsFor(TextPattern::Case c)
{
    RE2::Options o;
    o.set_log_errors(false);
    o.set_encoding(RE2::Options::EncodingLatin1); // bytes, as tools write them: no UTF-8 checks
    o.set_case_sensitive(c == TextPattern::Case::Sensitive);
    return o;
}

} // namespace

TextPattern::TextPattern(std::string_view pattern, Case c)
    : m_re(re2::StringPiece(pattern.data(), pattern.size()), optionsFor(c))
{
    if (!m_re.ok() || m_re.NumberOfCapturingGroups() >= PatternMatch::kMaxGroups) {
        std::fprintf(stderr, "invalid pattern %.*s: %s\n", int(pattern.size()), pattern.data(),
                     m_re.ok() ? "too many groups" : m_re.error().c_str());
        std::abort();
    }
}

bool TextPattern::match(std::string_view text, RE2::Anchor anchor, PatternMatch *m) const
{
    const re2::StringPiece piece(text.data(), text.size());
    if (!m)
        return m_re.Match(piece, 0, piece.size(), anchor, nullptr, 0);
    m->m_text = text;
    m->m_groups.fill(re2::StringPiece());
    return m_re.Match(piece, 0, piece.size(), anchor, m->m_groups.data(),
                      m_re.NumberOfCapturingGroups() + 1);
}

bool TextPattern::fullMatch(std::string_view text, PatternMatch *m) const
{
    return match(text, RE2::ANCHOR_BOTH, m);
}

bool TextPattern::search(std::string_view text, PatternMatch *m) const
{
    return match(text, RE2::UNANCHORED, m);
}

} // namespace plimsoll
