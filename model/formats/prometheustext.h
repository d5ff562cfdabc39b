#pragma once
// Prometheus text exposition format 0.0.4: a pure parser from the bytes of one /metrics
// response (or a file holding several scrapes one after another) to metric families.
// Shared by the "prometheus" importer and the bench runner's /metrics collector.
//
// Accepted beyond the strict grammar, because real exporters write it: a trailing comma in
// label sets (old jmx_exporter: {request="Produce",}), `untyped` TYPE lines, samples with no
// TYPE (untyped), CRLF line ends, and OpenMetrics' "# EOF" terminator.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace plimsoll {

enum class PromType { Counter, Gauge, Histogram, Summary, Untyped };

std::string promTypeName(PromType type);

using PromLabels = std::vector<std::pair<std::string, std::string>>; // in source order, unescaped

struct PromSample
{
    std::string name; // the sample's own name: "x_bucket", "x_sum", "x_count" for histograms
    PromLabels labels;
    double value = 0; // as written; may be +Inf, -Inf or NaN
    std::optional<int64_t> timestampMs; // milliseconds since the epoch, when written
    int64_t line = 0;                   // 1-based

    std::optional<std::string> label(std::string_view key) const;
};

struct PromFamily
{
    std::string name;
    PromType type = PromType::Untyped;
    std::string help;
    std::vector<PromSample> samples;
    int64_t line = 0; // of its first HELP, TYPE or sample line
};

// One scrape. Scrapes in one text are told apart by a "# EOF" line, by a separator line that
// carries the scrape's time (a bare "2026-08-11 03:00:05" or ISO-8601 stamp a harness wrote
// with `date` before each curl, or "# scrape <time>"), or by a family's TYPE repeating.
struct PromSnapshot
{
    std::vector<PromFamily> families;
    // Milliseconds since the epoch: the separator's time, else the latest sample timestamp.
    std::optional<int64_t> timeMs;
    bool timeFromSamples = false; // true when timeMs came from sample timestamps
    int64_t line = 0;             // first line of the scrape

    const PromFamily *family(std::string_view name) const;
};

struct PromParseError
{
    std::string message; // "expected '=' after the label name"
    int64_t line = 0;    // 1-based
    int64_t column = 0;  // 1-based, in bytes
    std::string field;   // the metric or label name concerned, when known
};

struct PromParseWarning
{
    std::string kind; // "truncated-line", "duplicate-series", …
    int64_t line = 0;
    std::string detail;
};

struct PromParseResult
{
    std::vector<PromSnapshot> snapshots;
    std::vector<PromParseWarning> warnings;
    std::optional<PromParseError> error;
};

PromParseResult parsePrometheusText(std::string_view text);

// "name{a=\"x\",b=\"y\"}" with the labels in source order minus `drop`, as Prometheus prints
// a series; the name alone when no label is left.
std::string promSeriesName(std::string_view name, const PromLabels &labels,
                           const std::vector<std::string> &drop = {});

} // namespace plimsoll
