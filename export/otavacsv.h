#pragma once
// Apache Otava's CSV input: one row per run, a time column, attribute columns and one column
// per metric, so that `otava analyze` (type: csv, time_column: time,
// attributes: [run_key, commit, image_digest, target, tuning]) reads what Plimsoll stored.
//
// Metric columns are named by the metric when the selection holds one scenario, otherwise
// "<scenario>:<metric>". A run that lacks a value leaves its cell empty. Text cells that a
// spreadsheet would read as a formula (starting with = + - @, tab or carriage return) are
// prefixed with a single quote; numbers are written as numbers.
//
// Threading: pure function over an immutable TrendHistory.

#include "model/trends/trendhistory.h"

#include <string>
#include <vector>

namespace plimsoll {

struct OtavaExportOptions
{
    std::string scenarioContains;     // empty: every scenario
    std::vector<std::string> metrics; // empty: every metric of the chosen scenarios
};

struct OtavaExport
{
    std::string csv;
    std::vector<std::string> metricColumns;
    int rows = 0;
};

OtavaExport exportOtavaCsv(const TrendHistory &history, const OtavaExportOptions &options);

// A number as a CSV cell: 17 significant digits, so it reads back as the stored double; empty
// when not finite.
std::string csvNumberCell(double v);
// One CSV cell: formula-like text defused, then quoted when it holds , " or a line break.
std::string csvTextCell(const std::string &text);
// "2026-08-11T03:00:00Z" -> "2026-08-11 03:00:00 +0000", the form Otava's own CSV examples use.
std::string otavaTime(const std::string &isoUtc);

} // namespace plimsoll
