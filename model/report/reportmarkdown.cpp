#include "model/report/reportmarkdown.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string_view>

namespace plimsoll {

namespace {

std::string num(double v, const char *format = "%.4g")
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

void tableOut(std::string &out, const std::vector<std::string> &header,
              const std::vector<std::vector<std::string>> &rows, const std::vector<bool> &numeric)
{
    out += "|";
    for (const std::string &h : header)
        out += " " + escapeMarkdown(h) + " |";
    out += "\n|";
    for (size_t i = 0; i < header.size(); ++i)
        out += i < numeric.size() && numeric[i] ? " ---: |" : " --- |";
    out += "\n";
    for (const auto &row : rows) {
        out += "|";
        for (const std::string &cell : row)
            out += " " + escapeMarkdown(cell) + " |";
        out += "\n";
    }
    out += "\n";
}

// A spectrum's numbers: a row a step, a column a percentile any step states, in ms.
void spectrumTable(std::string &out, const std::vector<SpectrumLine> &lines)
{
    std::set<double> percentiles;
    for (const SpectrumLine &l : lines)
        for (const SpectrumPoint &p : l.points)
            percentiles.insert(p.percentile);
    std::vector<std::string> header{"Step"};
    for (double p : percentiles)
        header.push_back("p" + num(p * 100, "%.6g") + " (ms)");
    std::vector<std::vector<std::string>> rows;
    for (const SpectrumLine &l : lines) {
        std::vector<std::string> row{l.name};
        for (double p : percentiles) {
            const auto at = std::find_if(l.points.begin(), l.points.end(),
                                         [p](const SpectrumPoint &s) { return s.percentile == p; });
            row.push_back(at == l.points.end() ? "—" : num(at->seconds * 1e3, "%.4g"));
        }
        rows.push_back(std::move(row));
    }
    std::vector<bool> numeric(header.size(), true);
    numeric[0] = false;
    tableOut(out, header, rows, numeric);
}

void chartOut(std::string &out, const ReportChart &chart, const ReportData &data)
{
    out += "*Chart: " + escapeMarkdown(chart.caption) + " (drawn in the PDF and HTML reports; its numbers:)*\n\n";
    if (chart.kind == ReportChart::Kind::Placement) {
        std::vector<std::vector<std::string>> rows;
        for (const ShardLoad &s : data.placement.shards)
            rows.push_back({s.shard, std::to_string(s.slotCount), std::to_string(s.partitions.size())});
        tableOut(out, {"Shard", "Slots", "Partitions"}, rows, {false, true, true});
        return;
    }
    if (chart.fit < 0 || size_t(chart.fit) >= data.fits.size())
        return;
    const ReportFit &f = data.fits[size_t(chart.fit)];
    if (chart.kind == ReportChart::Kind::Spectrum) {
        spectrumTable(out, f.spectrum);
        return;
    }
    std::vector<std::vector<std::string>> rows;
    for (const RampPoint &p : f.points) {
        std::vector<std::string> row{p.scenario, num(p.x), num(p.y, "%.0f")};
        if (f.fit.ok) {
            const UslPrediction pr = f.fit.predict(p.x);
            row.push_back(num(pr.y, "%.0f"));
            row.push_back("[" + num(pr.lo, "%.0f") + ", " + num(pr.hi, "%.0f") + "]");
        } else {
            row.push_back("—");
            row.push_back("—");
        }
        rows.push_back(std::move(row));
    }
    tableOut(out, {"Step", f.factor, "Measured " + f.metric, "Fitted", "95 % band"},
             rows, {false, true, true, true, true});
}

} // namespace

std::string escapeMarkdown(const std::string &text)
{
    // Inline punctuation everywhere; block markers (heading, list, quote) only at the start.
    static constexpr std::string_view kSpecial = "\\`*_[]|~";
    std::string out;
    out.reserve(text.size());
    if (!text.empty() && std::string_view("#-+=").find(text.front()) != std::string_view::npos)
        out += '\\';
    for (char c : text) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else if (c == '\n' || c == '\r' || c == '\t')
            out += ' ';
        else {
            if (kSpecial.find(c) != std::string_view::npos)
                out += '\\';
            out += c;
        }
    }
    return out;
}

std::string renderMarkdown(const ReportDocument &doc, const ReportData &data)
{
    std::string out = "# " + escapeMarkdown(doc.title) + "\n\n" + escapeMarkdown(doc.generatedAt) + "\n\n";
    for (const ReportBlock &b : doc.blocks) {
        switch (b.kind) {
        case ReportBlock::Kind::Heading:
            out += std::string(size_t(b.level), '#') + " " + escapeMarkdown(b.text) + "\n\n";
            break;
        case ReportBlock::Kind::Paragraph:
            out += escapeMarkdown(b.text) + "\n\n";
            break;
        case ReportBlock::Kind::Bullets:
            for (const std::string &item : b.items)
                out += "- " + escapeMarkdown(item) + "\n";
            out += "\n";
            break;
        case ReportBlock::Kind::Table:
            tableOut(out, b.header, b.rows, b.numeric);
            break;
        case ReportBlock::Kind::Chart:
            chartOut(out, b.chart, data);
            break;
        }
    }
    return out;
}

} // namespace plimsoll
