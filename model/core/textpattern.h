#pragma once
// Regular expressions for reading tools' text output, on RE2: matching takes time linear in the
// text and a bounded stack whatever the input (std::regex recursed once per character and
// overflowed the stack on long lines). RE2 speaks Perl's syntax without backreferences or
// lookaround; `^` and `$` anchor at the ends of the text searched, `\s` is [\t\n\f\r ] and `.`
// matches anything but '\n' (write [^\r\n] where a '\r' must stop it).

#include <re2/re2.h>

#include <array>
#include <string>
#include <string_view>

namespace plimsoll {

// The groups of one match; group 0 is the whole match. Views into the text searched.
class PatternMatch
{
public:
    static constexpr int kMaxGroups = 16;

    bool matched(int i) const { return m_groups[size_t(i)].data() != nullptr; }
    std::string_view operator[](int i) const
    {
        return {m_groups[size_t(i)].data(), m_groups[size_t(i)].size()};
    }
    std::string str(int i) const { return std::string((*this)[i]); }
    // Offset of group i in the text searched (its start when the group did not take part).
    size_t position(int i) const { return matched(i) ? size_t(m_groups[size_t(i)].data() - m_text.data()) : 0; }
    // The text after the whole match.
    std::string_view suffix() const { return m_text.substr(position(0) + m_groups[0].size()); }

private:
    friend class TextPattern;
    std::string_view m_text;
    std::array<re2::StringPiece, kMaxGroups> m_groups;
};

// One pattern, compiled once (keep it in a function-local static). Aborts on a pattern RE2
// refuses: patterns are constants of the program, never user input.
class TextPattern
{
public:
    enum class Case { Sensitive, Insensitive };
    explicit TextPattern(std::string_view pattern, Case c = Case::Sensitive);

    // The whole of `text` matches.
    bool fullMatch(std::string_view text, PatternMatch *m = nullptr) const;
    // Some part of `text` matches (the leftmost).
    bool search(std::string_view text, PatternMatch *m = nullptr) const;

private:
    bool match(std::string_view text, RE2::Anchor anchor, PatternMatch *m) const;
    RE2 m_re;
};

} // namespace plimsoll
