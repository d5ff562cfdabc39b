#pragma once
// The `plimsoll …` commands the README and the manual (docs/) show, read as a user would copy
// them: the README test runs each one (tests/cli/readme_test.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace plimsoll::test {

struct ReadmeCommand
{
    std::string text; // continuation lines joined, trailing comment dropped, `\|` read as `|`
    int line = 0;
    std::string file; // the page, relative to the source tree
};

// The pages a user reads: README.md, CONTRIBUTING.md and every Markdown page of docs/ but the
// generated reference (docs/reference/, which shows synopses, not commands), sorted. `root` is
// the source tree; the paths returned are relative to it.
inline std::vector<std::string> documentationPages(const std::string &root)
{
    namespace fs = std::filesystem;
    std::vector<std::string> pages = {"README.md", "CONTRIBUTING.md"};
    std::vector<std::string> docs;
    for (const auto &entry : fs::recursive_directory_iterator(fs::path(root) / "docs")) {
        const std::string relative = fs::relative(entry.path(), root).generic_string();
        if (entry.is_regular_file() && entry.path().extension() == ".md" && relative.rfind("docs/reference/", 0) != 0)
            docs.push_back(relative);
    }
    std::sort(docs.begin(), docs.end());
    pages.insert(pages.end(), docs.begin(), docs.end());
    return pages;
}

// Every `plimsoll …` command of a page's ```sh blocks and of its table cells.
inline std::vector<ReadmeCommand> readmeCommands(const std::string &readme, const std::string &name = {})
{
    std::ifstream in(readme);
    EXPECT_TRUE(in) << "cannot read " << readme;
    std::vector<ReadmeCommand> out;
    std::string line, pending;
    int number = 0, pendingLine = 0;
    bool inSh = false, skipBlock = false;
    static const std::regex cell(R"(`(plimsoll(?: (?:[^`\\]|\\.)*)?)`)");
    while (std::getline(in, line)) {
        ++number;
        const std::string trimmed = line.substr(std::min(line.find_first_not_of(' '), line.size()));
        // The nightly CI recipe is run whole, by bash against a team store, in cirecipe_test.cpp.
        if (trimmed == "<!-- ci-recipe -->") {
            skipBlock = true;
            continue;
        }
        if (trimmed.rfind("```", 0) == 0) {
            inSh = !inSh && trimmed == "```sh" && !skipBlock;
            if (!inSh && trimmed == "```" )
                skipBlock = false;
            continue;
        }
        if (inSh) {
            std::string text = trimmed;
            if (const auto hash = text.find(" #"); hash != std::string::npos)
                text.erase(hash);
            while (!text.empty() && text.back() == ' ')
                text.pop_back();
            const bool continues = !text.empty() && text.back() == '\\';
            if (continues)
                text.pop_back();
            if (pending.empty())
                pendingLine = number;
            pending += text;
            if (continues)
                continue;
            // A shell line may chain commands with ';': each plimsoll one counts.
            std::stringstream parts(pending);
            for (std::string part; std::getline(parts, part, ';');) {
                part.erase(0, std::min(part.find_first_not_of(' '), part.size()));
                while (!part.empty() && part.back() == ' ')
                    part.pop_back();
                std::string collapsed;
                for (char c : part)
                    if (!(c == ' ' && !collapsed.empty() && collapsed.back() == ' '))
                        collapsed += c;
                if (collapsed.rfind("plimsoll", 0) == 0)
                    out.push_back({collapsed, pendingLine, name});
            }
            pending.clear();
            continue;
        }
        if (trimmed.rfind("|", 0) != 0)
            continue;
        for (std::sregex_iterator m(line.begin(), line.end(), cell), end; m != end; ++m) {
            std::string text = (*m)[1].str();
            for (size_t at; (at = text.find("\\|")) != std::string::npos;)
                text.replace(at, 2, "|");
            out.push_back({text, number, name});
        }
    }
    return out;
}

// The commands of every page of documentationPages(root).
inline std::vector<ReadmeCommand> documentationCommands(const std::string &root)
{
    std::vector<ReadmeCommand> out;
    for (const std::string &page : documentationPages(root)) {
        auto commands = readmeCommands(root + "/" + page, page);
        out.insert(out.end(), commands.begin(), commands.end());
    }
    return out;
}

} // namespace plimsoll::test
