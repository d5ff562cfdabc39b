#pragma once
// The sizing report as HTML (one self-contained file: inline CSS and inline SVG charts, nothing
// loaded from anywhere) and as PDF (vector charts and text), plus page images for a preview.
// All three lay out the same ReportDocument with the same chart code as the window's views.
//
// Threading: GUI thread only — the charts are QCharts. Rendering is a few hundred
// milliseconds; the store reading and fitting before it (collectReport) and the file writing
// after it belong on a worker thread.
//
// Determinism: identical document and data give identical bytes. PDF: Qt stamps a creation
// date and a document id; both are replaced by values derived from the document (the
// creation date from its generated-at time), so PDFs differ only where the generated-at line
// differs.

#include "model/report/reportdocument.h"

#include <QByteArray>
#include <QImage>

#include <vector>

namespace plimsoll {

QByteArray renderReportHtml(const ReportDocument &doc, const ReportData &data);
QByteArray renderReportPdf(const ReportDocument &doc, const ReportData &data);
// A4 pages at `dpi`, laid out exactly as the PDF.
std::vector<QImage> renderReportPages(const ReportDocument &doc, const ReportData &data, int dpi = 96);

} // namespace plimsoll
