#pragma once
// A sizing report as a sequence of blocks — headings, paragraphs, lists, tables, charts — in
// plain text. Composed once from ReportData; the Markdown, HTML and PDF renderers lay the same
// blocks out, each escaping the text for its own format (imported strings such as run keys and
// tool names arrive here verbatim and must never be trusted as markup).
//
// Deterministic: no clock and no randomness here. The one line that changes between runs is
// ReportDocument::generatedAt, which the caller supplies.

#include "model/report/reportdata.h"

#include <string>
#include <vector>

namespace plimsoll {

struct ReportChart
{
    enum class Kind { Scaling, Placement, Spectrum };
    Kind kind = Kind::Scaling;
    int fit = -1; // index into ReportData::fits for a scaling chart or its steps' spectrum
    std::string caption;
};

struct ReportBlock
{
    enum class Kind { Heading, Paragraph, Bullets, Table, Chart };
    Kind kind = Kind::Paragraph;
    int level = 2;                 // heading level, 1..3
    std::string text;              // heading or paragraph
    std::vector<std::string> items; // bullets
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<bool> numeric; // per column: right-aligned
    ReportChart chart;
};

struct ReportDocument
{
    std::string title;
    std::string generatedAt; // "Generated at 2026-08-12T10:00:00Z": the only varying line
    std::vector<ReportBlock> blocks;
};

ReportDocument composeReport(const ReportData &data, const std::string &generatedAtUtc);

// The generated-at time: SOURCE_DATE_EPOCH when set (reproducible builds' convention, so two
// runs can be compared byte for byte), else now; ISO-8601 UTC to the second.
std::string reportTimestamp();

} // namespace plimsoll
