#pragma once
// Helpers shared by the importers of tools' text output (kafka perf tools, korvet-dist,
// rdkafka_performance) and OMB JSON: reading the whole source with progress and a size bound,
// splitting lines, locale-free number parsing, and the run's key and time when a tool's
// output states neither.

#include "importers/importer.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

// Reads all of `in` into `text`. On failure (too large, cancelled) sets result.error and
// returns false. `what` names the format in the size message.
bool readWholeSource(QIODevice &in, const Progress &progress, int64_t maxBytes,
                     const std::string &what, std::string &text, ImportResult &result);

// readWholeSource, then refuseLongLines (linebounds.h): how every reader of a tool's line
// output starts. False with result.error set when either refuses the source.
bool readToolOutput(QIODevice &in, const Progress &progress, int64_t maxBytes,
                    const std::string &what, std::string &text, ImportResult &result);

struct TextLine
{
    std::string_view text; // without the line terminator (\n, \r\n or a lone \r)
    int64_t number = 0;    // 1-based
    int64_t offset = 0;    // byte offset of its first character
};

// Lines of `text`; a UTF-8 byte-order mark on the first line is dropped.
std::vector<TextLine> splitLines(std::string_view text);

std::string_view trimmed(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);

// A decimal number as C's printf writes it ("12", "-0.0000", ".50" from bc, "1.5E-7"), the
// whole of `s` after trimming. Never depends on the locale.
std::optional<double> parseNumber(std::string_view s);
std::optional<int64_t> parseInteger(std::string_view s);

// "kafka-producer-perf:3f9a…": a key that is the same for the same bytes and differs for others,
// for outputs that carry no run identity of their own.
std::string contentRunKey(const std::string &format, std::string_view text);

// A local date-time without a zone ("2018-11-23 22:22:09", "2019-09-25 17:10:27:266" with
// the Kafka tools' colon before milliseconds, "2026-05-01T10:00:00") as UTC ISO-8601.
std::optional<std::string> localTimeAsUtc(std::string_view text);

// Seconds since the epoch of a time as localTimeAsUtc writes it ("2018-11-24T06:06:49Z",
// "2018-11-24T06:06:49.266Z"), to the millisecond; read by hand, as it is once a line.
double utcSeconds(std::string_view iso);

// The run's time when its output states none: the file's modification time when `in` is a
// file, else the time of import; `source` (when given) says which. Adds a "timestamp-inferred"
// warning saying which.
std::string inferredRunTime(QIODevice &in, std::vector<ImportWarning> &warnings, TimeSource *source = nullptr);
// Dates `run` so: its timestamp and its timeSource.
void dateByInference(RunRecord &run, QIODevice &in, std::vector<ImportWarning> &warnings);

// Warns "zero-only-run" when every value is zero (a run that measured nothing).
void warnIfZeroOnly(const std::vector<double> &values, int64_t line, const std::string &what,
                    std::vector<ImportWarning> &warnings);

constexpr double kMiB = 1024.0 * 1024.0;

} // namespace plimsoll
