#include "app/texttable.h"

#include <algorithm>

namespace plimsoll {

std::size_t displayWidth(std::string_view utf8)
{
    std::size_t n = 0;
    for (unsigned char c : utf8)
        n += (c & 0xC0) != 0x80 ? 1 : 0; // count lead bytes, not continuation bytes
    return n;
}

TextTable::TextTable(std::vector<Column> columns, std::string indent)
    : m_columns(std::move(columns)), m_indent(std::move(indent))
{
}

void TextTable::addRow(std::vector<std::string> cells)
{
    cells.resize(m_columns.size());
    m_lines.push_back({false, std::move(cells)});
}

void TextTable::addSection(std::string line)
{
    m_lines.push_back({true, {std::move(line)}});
}

void TextTable::print(std::ostream &out) const
{
    std::vector<std::size_t> width(m_columns.size());
    for (std::size_t c = 0; c < m_columns.size(); ++c)
        width[c] = displayWidth(m_columns[c].title);
    for (const Line &l : m_lines)
        if (!l.section)
            for (std::size_t c = 0; c < l.cells.size(); ++c)
                width[c] = std::max(width[c], displayWidth(l.cells[c]));
    auto printCells = [&](const std::vector<std::string> &cells) {
        std::string line = m_indent;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::size_t pad = width[c] - displayWidth(cells[c]);
            if (c > 0)
                line += "  ";
            if (m_columns[c].align == Align::Right)
                line.append(pad, ' ');
            line += cells[c];
            if (m_columns[c].align == Align::Left)
                line.append(pad, ' ');
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << "\n";
    };
    std::vector<std::string> titles;
    bool titled = false;
    for (const Column &c : m_columns) {
        titles.push_back(c.title);
        titled = titled || !c.title.empty();
    }
    if (titled)
        printCells(titles);
    for (const Line &l : m_lines) {
        if (l.section)
            out << l.cells.front() << "\n";
        else
            printCells(l.cells);
    }
}

} // namespace plimsoll
