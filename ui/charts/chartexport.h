#pragma once
// Every chart can leave the window: its context menu saves it as PNG or SVG, copies it, and
// copies or saves the points it draws as CSV. The functions under the menu are the ones a test
// (or a report) calls; the menu only asks where.
//
// Threading: GUI thread only (a chart view is a widget).

#include <QString>

class QChart;
class QChartView;
class QWidget;

namespace plimsoll {

// Adds the export menu to `view` (its context menu, on a right click). `name` is the file name
// offered first, without extension ("trend-records_per_s").
void enableChartExport(QChartView *view, const QString &name);

// The points the chart draws, one row a point: series, x, y, headed by the axes' titles. A line
// or scatter series gives its (x, y); a bar set its category and value; a time axis's x is
// written as an ISO-8601 UTC time. Numbers as the chart holds them (SI units), 12 digits.
QString chartDataCsv(const QChart *chart);

// What the menu's items do; "" on success, else why the file was not written (no file is left
// half-written: each is written whole to a temporary file and renamed into place).
QString saveChartPng(QChartView *view, const QString &path);
QString saveChartSvg(QChartView *view, const QString &path);
QString saveChartCsv(const QChart *chart, const QString &path);

} // namespace plimsoll
