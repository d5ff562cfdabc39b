#pragma once
// One table printer for the CLI's text output: column widths come from the cells themselves
// (display width in code points, so "µs", "≤" and "±" count as one), so a table keeps its
// columns whatever the width of a timestamp, a run key or a metric name. Section lines (a
// scenario's name above its rows) stand on their own and do not widen the columns.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

// Width on a terminal of UTF-8 text: one per code point (the CLI prints no wide glyphs).
std::size_t displayWidth(std::string_view utf8);

class TextTable
{
public:
    enum class Align { Left, Right };
    struct Column
    {
        std::string title;
        Align align = Align::Left;
    };

    explicit TextTable(std::vector<Column> columns, std::string indent = "");
    // Fewer cells than columns leave the rest empty.
    void addRow(std::vector<std::string> cells);
    void addSection(std::string line);
    bool empty() const { return m_lines.empty(); }
    // Two spaces between columns; no trailing blanks; no header row when every title is empty.
    void print(std::ostream &out) const;

private:
    struct Line
    {
        bool section = false;
        std::vector<std::string> cells; // one cell, the whole line, for a section
    };
    std::vector<Column> m_columns;
    std::string m_indent;
    std::vector<Line> m_lines;
};

} // namespace plimsoll
