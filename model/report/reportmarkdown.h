#pragma once
// The sizing report as Markdown (CommonMark with pipe tables). Charts become the table of the
// numbers they plot. Every piece of text is escaped: an imported run key cannot start a list,
// close a table cell, or smuggle raw HTML into a viewer that renders it.

#include "model/report/reportdocument.h"

#include <string>

namespace plimsoll {

std::string renderMarkdown(const ReportDocument &doc, const ReportData &data);

// Markdown-escapes text for a paragraph or a table cell: backslash before the punctuation that
// means something, entities for <, > and &, newlines folded to spaces.
std::string escapeMarkdown(const std::string &text);

} // namespace plimsoll
