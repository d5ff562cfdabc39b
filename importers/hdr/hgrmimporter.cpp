// HdrHistogram percentile tables (.hgrm), as outputPercentileDistribution writes them:
//   Java: 12-decimal percentiles, blank 1/(1-P) on the last row; C (and wrk2 --latency,
//   --u_latency): 6-decimal percentiles, "inf" on the last row; a CSV variant
//   "Value","Percentile","TotalCount","1/(1-Percentile)". Footer #[Mean = …, StdDeviation = …]
//   and #[Max = …, Total count = …]. Tables may sit inside other text (wrk2's report),
//   indented; each table becomes one scenario.
// Values are already scaled to the writer's output unit, which the file does not state:
// ImportOptions::latencyUnit, default milliseconds (wrk2's and jHiccup's tables).
// wrk2 states some percentiles with their unit before the table ("99.000%  11.18ms"): those
// are used as stated. Another percentile is the Value of the first row at or past it: the table's rows are
// HdrHistogram's own percentile iteration, so this is HdrHistogram's answer at the table's
// resolution.

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/latencyunit.h"
#include "importers/textsource.h"
#include "model/core/textpattern.h"

#include <QIODevice>

#include <map>
#include <utility>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 64LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"hdrhistogram-percentiles", "2",
                          "HdrHistogram percentile table (.hgrm; Java, C and wrk2 variants, CSV too)",
                          "a header line with Value, Percentile and TotalCount followed by numeric rows"},
                         "percentile table", kMaxBytes, TextInput::ToolOutput};

struct Row
{
    double value = 0;
    double percentile = 0; // 0..1
    double totalCount = 0;
};

struct Table
{
    std::string name;
    int64_t line = 0;
    std::vector<Row> rows;
    std::optional<double> mean, stdDeviation, max, totalCount;
    // wrk2's own "99.000%   11.18ms" lines before the table: HdrHistogram's exact answer at
    // those percentiles (in seconds), which the table's rows only bracket.
    std::map<double, double> stated;
};

// "  99.000%   11.18ms" -> (99, 0.01118); wrk prints its unit.
std::optional<std::pair<double, double>> statedPercentile(std::string_view line)
{
    static const TextPattern re(R"(\s*([0-9]+\.[0-9]+)%\s+([0-9.]+)(us|ms|s|m)\s*)");
    PatternMatch m;
    if (!re.fullMatch(line, &m))
        return std::nullopt;
    const auto p = parseNumber(m[1]), v = parseNumber(m[2]);
    if (!p || !v)
        return std::nullopt;
    const std::string u = m.str(3);
    const double scale = u == "us" ? 1e-6 : u == "ms" ? 1e-3 : u == "s" ? 1.0 : 60.0;
    return std::make_pair(*p, *v * scale);
}

bool isHeader(std::string_view t)
{
    return t.find("Value") != std::string_view::npos &&
           t.find("Percentile") != std::string_view::npos &&
           t.find("TotalCount") != std::string_view::npos;
}

// Splits on whitespace and commas; quotes dropped.
std::vector<std::string_view> cells(std::string_view t)
{
    std::vector<std::string_view> out;
    size_t pos = 0;
    while (pos < t.size()) {
        pos = t.find_first_not_of(" \t,\"", pos);
        if (pos == std::string_view::npos)
            break;
        const size_t end = t.find_first_of(" \t,\"", pos);
        out.push_back(t.substr(pos, end == std::string_view::npos ? t.npos : end - pos));
        pos = end == std::string_view::npos ? t.size() : end;
    }
    return out;
}

std::optional<double> footerNumber(std::string_view t, std::string_view key)
{
    const size_t at = t.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = t.substr(at + key.size());
    rest = trimmed(rest.substr(rest.find('=') + 1));
    return parseNumber(rest.substr(0, rest.find_first_of(",]")));
}

double valueAt(const Table &t, double percentile, double toSeconds)
{
    if (auto it = t.stated.find(percentile); it != t.stated.end())
        return it->second;
    const double target = percentile / 100.0 - 1e-12;
    for (const Row &r : t.rows)
        if (r.percentile >= target)
            return r.value * toSeconds;
    return t.rows.back().value * toSeconds;
}

// What wrk2's report around the tables states: its load and the requests it measured.
struct Report
{
    std::optional<int64_t> threads, connections;
    std::optional<double> requestsPerS;
};

// The tables of a file, and the report lines around them, read line by line. A line where a
// table's first row was expected throws its ImportError.
class TableReader
{
public:
    explicit TableReader(std::vector<ImportWarning> &warnings) : m_warnings(warnings) {}
    void read(const std::vector<TextLine> &lines);

    std::vector<Table> tables; // those with rows, in file order
    Report report;

private:
    bool readTableLine(const TextLine &line, std::string_view t);
    void readReportLine(const TextLine &line, std::string_view t);

    std::vector<ImportWarning> &m_warnings;
    Table *m_open = nullptr; // the table whose rows are being read
    bool m_uncorrected = false;
    std::map<double, double> m_stated; // wrk2's percentiles since the last table
};

void TableReader::read(const std::vector<TextLine> &lines)
{
    for (const TextLine &line : lines) {
        const std::string_view t = trimmed(line.text);
        if (m_open && readTableLine(line, t))
            continue;
        readReportLine(line, t);
    }
    std::erase_if(tables, [](const Table &t) { return t.rows.empty(); });
}

// A row or footer of the open table: true when the line was one; false when it ends the table.
bool TableReader::readTableLine(const TextLine &line, std::string_view t)
{
    const auto c = cells(t);
    if (t.empty() && m_open->rows.empty())
        return true; // wrk2 leaves a blank line after the header
    if (c.size() >= 3 && c.size() <= 4) {
        const auto v = parseNumber(c[0]), p = parseNumber(c[1]), n = parseNumber(c[2]);
        if (v && p && n) {
            if (*v < 0)
                m_warnings.push_back({"negative-time", line.number,
                                       "negative latency value in the table"});
            m_open->rows.push_back({*v, *p, *n});
            return true;
        }
    }
    if (startsWith(t, "#[Mean")) {
        m_open->mean = footerNumber(t, "Mean");
        m_open->stdDeviation = footerNumber(t, "StdDeviation");
        return true;
    }
    if (startsWith(t, "#[Max")) {
        m_open->max = footerNumber(t, "Max");
        m_open->totalCount = footerNumber(t, "Total count");
        return true;
    }
    if (startsWith(t, "#[")) // #[Buckets = …]
        return true;
    if (m_open->rows.empty()) {
        ImportError e{"a percentile table row was expected", line.number, line.offset, "Value"};
        e.column = int64_t(t.data() - line.text.data()) + 1;
        throw e;
    }
    m_open = nullptr;
    return false;
}

// Outside a table: wrk2's report lines, and the header that opens the next table.
void TableReader::readReportLine(const TextLine &line, std::string_view t)
{
    static const TextPattern threadsAndConnections(R"((\d{1,18}) threads and (\d{1,18}) connections)");
    PatternMatch m;
    if (threadsAndConnections.search(t, &m)) {
        report.threads = std::stoll(m.str(1));
        report.connections = std::stoll(m.str(2));
    }
    if (startsWith(t, "Requests/sec:"))
        report.requestsPerS = parseNumber(t.substr(13));
    if (auto sp = statedPercentile(t))
        m_stated[sp->first] = sp->second;
    if (t.find("Uncorrected Latency") != std::string_view::npos)
        m_uncorrected = true;
    if (!isHeader(t))
        return;
    Table table;
    table.line = line.number;
    table.name = m_uncorrected ? "latency/uncorrected" : "latency";
    table.stated = std::exchange(m_stated, {});
    for (const Table &other : tables)
        if (other.name == table.name)
            table.name += "/" + std::to_string(tables.size() + 1);
    tables.push_back(std::move(table));
    m_open = &tables.back();
}

ScenarioRecord tableScenario(const Table &t, const LatencyUnit &unit, const Report &report)
{
    ScenarioRecord sc;
    sc.name = t.name;
    sc.kind = "latency-distribution";
    sc.line = t.line;
    sc.provenance = "percentile table at line " + std::to_string(t.line);
    const double s = unit.toSeconds;
    sc.metrics = {{"latency_p50_s", valueAt(t, 50, s)},
                  {"latency_p95_s", valueAt(t, 95, s)},
                  {"latency_p99_s", valueAt(t, 99, s)},
                  {"latency_p999_s", valueAt(t, 99.9, s)},
                  {"hdr.latency_p9999_s", valueAt(t, 99.99, s)},
                  {"latency_max_s", t.max.value_or(t.rows.back().value) * s},
                  {"hdr.latency_min_s", t.rows.front().value * s}};
    if (t.mean)
        sc.metrics.push_back({"latency_avg_s", *t.mean * s});
    if (t.stdDeviation)
        sc.metrics.push_back({"hdr.latency_stddev_s", *t.stdDeviation * s});
    sc.metrics.push_back({"hdr.total_count", t.totalCount.value_or(t.rows.back().totalCount)});
    if (report.requestsPerS)
        sc.metrics.push_back({"wrk.requests_per_s", *report.requestsPerS});
    if (report.threads)
        sc.topology.threads = report.threads;
    if (report.connections)
        sc.topology.connections = report.connections;
    return sc;
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    for (const TextLine &line : splitLines(head.substr(0, 32768)))
        if (isHeader(line.text) && line.text.find("1/(1-Percentile)") != std::string_view::npos)
            return 88;
    return 0;
}

Resemblance resemblance(std::string_view head)
{
    if (head.find("Percentile") != std::string_view::npos)
        return {40, "mentions percentiles but has no \"Value Percentile TotalCount 1/(1-Percentile)\" header"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &in, const ImportOptions &options,
                   ImportResult result)
{
    const std::vector<TextLine> lines = splitLines(text);
    const auto unit = resolveLatencyUnit(options.latencyUnit, lines, "ms", result);
    if (!unit)
        return result;
    TableReader reader(result.warnings);
    try {
        reader.read(lines);
    } catch (const ImportError &e) {
        result.error = e;
        return result;
    }
    if (reader.tables.empty()) {
        result.error = ImportError{"holds no percentile table", 0, -1, {}};
        return result;
    }
    RunRecord run;
    run.line = 1;
    run.tool = reader.report.requestsPerS ? "wrk2" : "HdrHistogram";
    run.runKey = contentRunKey(kFormat.identity.name, text);
    dateByInference(run, in, result.warnings);
    run.tuning["value_unit"] = unit->name;
    std::vector<double> counts;
    for (const Table &t : reader.tables) {
        run.scenarios.push_back(tableScenario(t, *unit, reader.report));
        counts.push_back(*run.scenarios.back().metric("hdr.total_count"));
    }
    warnIfAssumed(*unit, "percentile tables hold the writer's output unit; wrk2 writes ms",
                  result.warnings);
    warnIfZeroOnly(counts, 0, "total count", result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace

const Importer &hgrmImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
