#include "importers/commandblocks.h"

#include "importers/textsource.h"

#include <algorithm>
#include <utility>

namespace plimsoll {

namespace {

// Shell words: blanks separate, '…' and "…" quote, a backslash escapes the next character.
std::vector<std::string> shellWords(std::string_view line)
{
    std::vector<std::string> out;
    std::string word;
    bool inWord = false;
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                word += c;
            continue;
        }
        if (c == ' ' || c == '\t') {
            if (inWord)
                out.push_back(std::exchange(word, {}));
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == '\'' || c == '"')
            quote = c;
        else if (c == '\\' && i + 1 < line.size())
            word += line[++i];
        else
            word += c;
    }
    if (inWord)
        out.push_back(word);
    return out;
}

bool isPrompt(const std::string &word)
{
    if (word == "+")
        return true; // set -x
    const char last = word.empty() ? 0 : word.back();
    return last == '$' || last == '#' || last == '%' || last == '>';
}

bool isAssignment(const std::string &word)
{
    const size_t eq = word.find('=');
    return eq != std::string::npos && eq > 0 && word.front() != '-';
}

} // namespace

std::optional<std::vector<std::string>> commandArgs(std::string_view line,
                                                    std::initializer_list<std::string_view> tools)
{
    // Most lines are the tool's output: without a tool's name, or a quote or backslash that
    // could spell one, a line is no command line, and is not split into words.
    const auto quoting = [](char c) { return c == '\'' || c == '"' || c == '\\'; };
    if (std::none_of(line.begin(), line.end(), quoting) &&
        std::none_of(tools.begin(), tools.end(),
                     [&](std::string_view t) { return line.find(t) != std::string_view::npos; }))
        return std::nullopt;
    std::vector<std::string> words = shellWords(trimmed(line));
    size_t i = 0;
    bool prompted = false;
    if (i < words.size() && isPrompt(words[i])) {
        prompted = true;
        ++i;
    } else if (!words.empty() && words[0].size() > 1 && isPrompt(words[0].substr(0, 1))) {
        // "$redis-benchmark …": a prompt without its blank.
        words[0].erase(0, 1);
        prompted = true;
    }
    while (i < words.size() && (words[i] == "sudo" || words[i] == "time" || isAssignment(words[i])))
        ++i;
    if (i >= words.size())
        return std::nullopt;
    std::string_view tool = words[i];
    if (const size_t slash = tool.find_last_of('/'); slash != std::string_view::npos)
        tool.remove_prefix(slash + 1);
    if (tool.ends_with(".sh"))
        tool.remove_suffix(3);
    bool known = false;
    for (std::string_view t : tools)
        known |= tool == t;
    if (!known)
        return std::nullopt;
    std::vector<std::string> args(words.begin() + long(i) + 1, words.end());
    if (!prompted && (args.empty() || args.front().empty() || args.front().front() != '-'))
        return std::nullopt;
    return args;
}

std::vector<CommandBlock> commandBlocks(std::string_view text,
                                        std::initializer_list<std::string_view> tools)
{
    std::vector<CommandBlock> blocks;
    bool preambleHasText = false;
    for (const TextLine &line : splitLines(text)) {
        auto args = commandArgs(line.text, tools);
        if (!args) {
            if (blocks.empty() && !trimmed(line.text).empty())
                preambleHasText = true;
            continue;
        }
        const size_t at = size_t(line.offset);
        if (blocks.empty() && preambleHasText)
            blocks.push_back({{}, {}, 0, 0, at});
        if (!blocks.empty())
            blocks.back().end = at;
        CommandBlock b;
        b.command = std::string(trimmed(line.text));
        b.args = std::move(*args);
        b.line = line.number;
        b.begin = at;
        blocks.push_back(std::move(b));
    }
    if (!blocks.empty())
        blocks.back().end = text.size();
    return blocks;
}

bool hasCommandLine(std::string_view head, std::initializer_list<std::string_view> tools)
{
    for (const TextLine &line : splitLines(head))
        if (commandArgs(line.text, tools))
            return true;
    return false;
}

std::span<const TextLine> blockLines(const std::vector<TextLine> &lines, const CommandBlock &block)
{
    auto byOffset = [](const TextLine &l, size_t at) { return size_t(l.offset) < at; };
    const auto first = std::lower_bound(lines.begin(), lines.end(), block.begin, byOffset);
    const auto last = std::lower_bound(first, lines.end(), block.end, byOffset);
    return {first, last};
}

std::optional<std::string> optionValue(const std::vector<std::string> &args,
                                       std::initializer_list<std::string_view> names)
{
    std::optional<std::string> value;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        for (std::string_view n : names) {
            if (a == n) {
                if (i + 1 < args.size())
                    value = args[i + 1];
            } else if (n.size() > 2 && startsWith(a, n) && a.size() > n.size() && a[n.size()] == '=') {
                value = a.substr(n.size() + 1);
            } else if (n.size() == 2 && n[0] == '-' && n[1] != '-' && startsWith(a, n) &&
                       a.size() > 2) {
                value = a.substr(2); // "-c50"
            }
        }
    }
    return value;
}

std::optional<int64_t> integerOption(const std::vector<std::string> &args,
                                     std::initializer_list<std::string_view> names)
{
    const auto v = optionValue(args, names);
    if (!v)
        return std::nullopt;
    return parseInteger(*v);
}

std::optional<int64_t> numberInFileName(const std::string &uri, const TextPattern &pattern)
{
    const size_t slash = uri.find_last_of('/');
    const std::string file = slash == std::string::npos ? uri : uri.substr(slash + 1);
    PatternMatch m;
    if (!pattern.search(file, &m))
        return std::nullopt;
    for (int i = 1; i < PatternMatch::kMaxGroups; ++i)
        if (m.matched(i))
            return std::stoll(m.str(i));
    return std::nullopt;
}

} // namespace plimsoll
