// redis-benchmark output in each of its shapes (formats.md §3):
//   --csv, 6.2+: header "test","rps","avg_latency_ms",…,"max_latency_ms", quoted values
//   --csv, older: no header, "SET","188679.25" (often CRLF)
//   --csv, 6.2+ saved without its header row: the 8 columns in the header's order
//   -q: "GET: 86206.90 requests per second[, p50=0.119 msec]"
//   full text, 6.2+/7.x: "====== SET ======", header lines, "Latency by percentile
//     distribution", "Summary:" with throughput and the avg/min/p50/p95/p99/max table
//   full text, older: "99.04% <= 2 milliseconds" cumulative lines and "N requests per second"
// Each test (command) becomes one scenario named redis-benchmark/<TEST>[/c-<clients>][/P-<pipeline>]
// so that connection and pipeline sweeps line up across files. The text output states the
// clients; CSV and -q do not, so they are taken from the file name (…clients_50…, -c50,
// P16) when it says, recorded as inferred. Latencies are milliseconds in every shape.
// A file of several runs, each after its "$ redis-benchmark …" command line (commandblocks.h),
// reads each block on its own; the command's -c, -P, --threads and -d are its load factors
// (stated, so not inferred), with /threads-N and /d-N in the scenario name.

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/commandblocks.h"
#include "importers/textsource.h"
#include "model/core/textpattern.h"

#include <QIODevice>

#include <algorithm>
#include <map>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 64LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"redis-benchmark", "2",
                          "redis-benchmark output: --csv (with or without header), -q, and the full text report (6.2+ summary or the older cumulative distribution)",
                          "a \"test\",\"rps\" CSV header or 8-column \"TEST\",\"rps\",… rows, \"====== CMD ======\" sections, \"CMD: N requests per second\" lines, or a \"$ redis-benchmark …\" command line"},
                         "redis-benchmark output", kMaxBytes, TextInput::ToolOutput};

struct Test
{
    std::string name;
    int64_t line = 0;
    std::optional<int64_t> clients, payloadBytes, requests;
    std::optional<double> seconds;
    std::vector<MetricValue> metrics;
    std::vector<std::pair<double, double>> cumulative; // (percent, ms), as printed
    bool inferredClients = false;
    // What the command line before the test's block states (commandblocks.h).
    std::string command;
    int64_t commandLine = 0;
    std::optional<int64_t> commandClients, commandPipeline, commandThreads, commandSize;
};

// redis-benchmark --csv (6.2+) without its header row: these columns, in this order.
const std::vector<std::string> kCsvColumns = {"test",           "rps",
                                              "avg_latency_ms", "min_latency_ms",
                                              "p50_latency_ms", "p95_latency_ms",
                                              "p99_latency_ms", "max_latency_ms"};

// The quoted cells of a CSV line ("a","b,c","d""e"); nullopt when it is not such a line.
std::optional<std::vector<std::string>> csvCells(std::string_view line)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i < line.size()) {
        if (line[i] != '"')
            return std::nullopt;
        std::string cell;
        ++i;
        for (;;) {
            if (i >= line.size())
                return std::nullopt;
            if (line[i] == '"') {
                if (i + 1 < line.size() && line[i + 1] == '"') {
                    cell += '"';
                    i += 2;
                    continue;
                }
                ++i;
                break;
            }
            cell += line[i++];
        }
        out.push_back(std::move(cell));
        if (i < line.size()) {
            if (line[i] != ',')
                return std::nullopt;
            ++i;
        }
    }
    return out;
}

// A row whose first cell holds quotes of its own, unescaped: redis-benchmark names a custom
// command's test by its whole command line (`"hset h f {"a":1}","21978.02",…`). The value
// columns are quoted cells without quotes inside, so they are taken from the right; the test
// name is everything between the first quote and the last one before them. nullopt when the
// line does not end in `values` such cells after a quoted name.
std::optional<std::vector<std::string>> csvCellsNamedByCommand(std::string_view line, size_t values)
{
    std::vector<std::string> cells(values + 1);
    std::string_view rest = line;
    for (size_t i = values; i >= 1; --i) {
        if (rest.size() < 2 || rest.back() != '"')
            return std::nullopt;
        const size_t open = rest.rfind('"', rest.size() - 2);
        if (open == std::string_view::npos || open == 0 || rest[open - 1] != ',')
            return std::nullopt;
        cells[i] = std::string(rest.substr(open + 1, rest.size() - open - 2));
        rest = rest.substr(0, open - 1);
    }
    if (rest.size() < 3 || rest.front() != '"' || rest.back() != '"')
        return std::nullopt;
    cells[0] = std::string(rest.substr(1, rest.size() - 2));
    return cells;
}

double ms(double v)
{
    return v * 1e-3;
}

// HdrHistogram's percentile listing: the first printed line at or past `percent`.
std::optional<double> cumulativeAt(const Test &t, double percent)
{
    for (const auto &[p, v] : t.cumulative)
        if (p >= percent - 1e-9)
            return v;
    return std::nullopt;
}

ImportError lineError(const TextLine &line, const std::string &field, const std::string &message)
{
    ImportError e{message, line.number, line.offset, field};
    e.column = 1;
    return e;
}

// The tests of one redis-benchmark output (or one block of a file of several), read line by
// line: --csv rows, "====== CMD ======" sections of the full report, and -q lines. A malformed
// line throws its ImportError.
class TestReader
{
public:
    TestReader(std::vector<Test> &tests, std::vector<ImportWarning> &warnings)
        : m_tests(tests), m_warnings(warnings)
    {
    }
    void read(std::span<const TextLine> lines);
    int64_t unreadableRow() const { return m_unreadableRow; }

private:
    void readCsvRow(const TextLine &line, std::string_view t);
    void readSectionLine(const TextLine &line, std::string_view t);
    void readSummaryUnit(const TextLine &line, std::string_view t);
    void readSummaryRow(const TextLine &line, std::string_view t);
    void readQuietLine(const TextLine &line, std::string_view t);

    std::vector<Test> &m_tests;
    std::vector<ImportWarning> &m_warnings;
    std::vector<std::string> m_csvHeader;
    Test *m_section = nullptr;
    int64_t m_unreadableRow = 0; // the first quoted line that is no CSV row of this tool's
    bool m_summaryTable = false;
    double m_summaryScale = 1e-3; // seconds per unit of the latency summary table
};

void TestReader::read(std::span<const TextLine> lines)
{
    static const TextPattern sectionRe(R"(^====== (.+) ======\s*$)");
    for (const TextLine &line : lines) {
        const std::string_view t = trimmed(line.text);
        PatternMatch m;
        if (t.empty())
            continue;
        if (t.front() == '"') {
            readCsvRow(line, t);
        } else if (sectionRe.fullMatch(t, &m)) {
            m_tests.push_back({});
            m_section = &m_tests.back();
            m_section->name = m.str(1);
            m_section->line = line.number;
            m_summaryTable = false;
            m_summaryScale = 1e-3;
        } else if (m_section) {
            readSectionLine(line, t);
        } else {
            readQuietLine(line, t);
        }
    }
}

void TestReader::readCsvRow(const TextLine &line, std::string_view t)
{
    auto cells = csvCells(t);
    if (cells && m_csvHeader.empty() && !cells->empty() && (*cells)[0] == "test") {
        m_csvHeader = *cells;
        return;
    }
    // A test named by a command line with quotes in it: as many values as the header names,
    // else as many as a headerless 6.2+ row has, else an old row's rps alone.
    const bool fits = cells && (m_csvHeader.empty() || cells->size() == m_csvHeader.size());
    if (!fits) {
        std::vector<size_t> widths;
        if (!m_csvHeader.empty())
            widths.push_back(m_csvHeader.size() - 1);
        else
            widths = {kCsvColumns.size() - 1, 1};
        for (size_t values : widths) {
            auto named = csvCellsNamedByCommand(t, values);
            if (named && std::all_of(named->begin() + 1, named->end(),
                                     [](const std::string &c) { return parseNumber(c).has_value(); })) {
                cells = std::move(named);
                break;
            }
        }
    }
    if (!cells || cells->size() < 2) {
        // Not a row this reader can take apart: said at its line when the file gives nothing else.
        if (!m_unreadableRow)
            m_unreadableRow = line.number;
        return;
    }
    Test test;
    test.name = (*cells)[0];
    test.line = line.number;
    // No header: 2.x-6.0 wrote "test","rps"; 6.2+ without its header row has 8 columns.
    const std::vector<std::string> names =
        !m_csvHeader.empty()                  ? m_csvHeader
        : cells->size() == kCsvColumns.size() ? kCsvColumns
                                              : std::vector<std::string>{"test", "rps"};
    for (size_t i = 1; i < cells->size() && i < names.size(); ++i) {
        const auto v = parseNumber((*cells)[i]);
        if (!v)
            throw lineError(line, names[i], "is not a number");
        const std::string &n = names[i];
        if (n == "rps") {
            test.metrics.push_back({"records_per_s", *v});
        } else if (n.size() > 11 && n.ends_with("_latency_ms")) {
            const std::string what = n.substr(0, n.size() - 11);
            if (*v < 0)
                m_warnings.push_back({"negative-time", line.number, n + " is negative"});
            test.metrics.push_back(
                {what == "min" ? "redis.latency_min_s" : "latency_" + what + "_s", ms(*v)});
        }
    }
    m_tests.push_back(std::move(test));
    m_section = nullptr;
}

// A line inside a "====== CMD ======" section: the full report's figures of that test.
void TestReader::readSectionLine(const TextLine &line, std::string_view t)
{
    static const TextPattern completedRe(R"(^(\d{1,18}) requests completed in ([0-9.]+) seconds)");
    static const TextPattern clientsRe(R"(^(\d{1,18}) parallel clients)");
    static const TextPattern payloadRe(R"(^(\d{1,18}) bytes payload)");
    static const TextPattern rpsRe(R"(^(?:throughput summary: )?([0-9.]+) requests per second)");
    static const TextPattern percentRe(R"(^([0-9.]+)% <= ([0-9.]+) milliseconds)");
    PatternMatch m;
    if (completedRe.search(t, &m)) {
        m_section->requests = std::stoll(m.str(1));
        m_section->seconds = parseNumber(m[2]);
    } else if (clientsRe.search(t, &m)) {
        m_section->clients = std::stoll(m.str(1));
    } else if (payloadRe.search(t, &m)) {
        m_section->payloadBytes = std::stoll(m.str(1));
    } else if (percentRe.search(t, &m)) {
        m_section->cumulative.push_back({*parseNumber(m[1]), *parseNumber(m[2])});
    } else if (rpsRe.search(t, &m)) {
        std::erase_if(m_section->metrics,
                      [](const MetricValue &v) { return v.name == "records_per_s"; });
        m_section->metrics.push_back({"records_per_s", *parseNumber(m[1])});
    } else if (startsWith(t, "latency summary (")) {
        readSummaryUnit(line, t);
    } else if (startsWith(t, "avg") && t.find("p50") != std::string_view::npos) {
        m_summaryTable = true;
    } else if (m_summaryTable) {
        m_summaryTable = false;
        readSummaryRow(line, t);
    }
}

// The table's unit as the "latency summary (msec):" line states it: msec in every release so far.
void TestReader::readSummaryUnit(const TextLine &line, std::string_view t)
{
    const std::string_view unit = t.substr(17, t.find(')') - std::min(t.find(')'), size_t(17)));
    if (unit == "msec" || unit == "ms")
        m_summaryScale = 1e-3;
    else if (unit == "usec" || unit == "us")
        m_summaryScale = 1e-6;
    else if (unit == "sec" || unit == "s")
        m_summaryScale = 1;
    else
        throw lineError(line, "latency summary",
                        "states the unit '" + std::string(unit) + "'; msec, usec or sec expected");
}

// The row under the summary table's "avg min p50 p95 p99 max" header.
void TestReader::readSummaryRow(const TextLine &line, std::string_view t)
{
    std::vector<double> v;
    size_t pos = 0;
    while (pos < t.size()) {
        const size_t start = t.find_first_not_of(' ', pos);
        if (start == std::string_view::npos)
            break;
        const size_t end = std::min(t.find(' ', start), t.size());
        if (auto n = parseNumber(t.substr(start, end - start)))
            v.push_back(*n);
        pos = end;
    }
    if (v.size() != 6)
        throw lineError(line, "latency summary",
                        "has " + std::to_string(v.size()) +
                            " numbers; avg, min, p50, p95, p99, max expected");
    const double k = m_summaryScale;
    m_section->metrics.push_back({"latency_avg_s", v[0] * k});
    m_section->metrics.push_back({"redis.latency_min_s", v[1] * k});
    m_section->metrics.push_back({"latency_p50_s", v[2] * k});
    m_section->metrics.push_back({"latency_p95_s", v[3] * k});
    m_section->metrics.push_back({"latency_p99_s", v[4] * k});
    m_section->metrics.push_back({"latency_max_s", v[5] * k});
}

// -q: "SET: 123.45 requests per second, p50=0.5 msec" (not the progress lines with "rps=").
void TestReader::readQuietLine(const TextLine &line, std::string_view t)
{
    static const TextPattern quietRe(
        R"(^(.+): ([0-9.]+) requests per second(?:, p50=([0-9.]+) msec)?\s*$)");
    PatternMatch m;
    if (!quietRe.fullMatch(t, &m) || t.find("rps=") != std::string::npos)
        return;
    Test test;
    test.name = m.str(1);
    test.line = line.number;
    test.metrics.push_back({"records_per_s", *parseNumber(m[2])});
    if (m.matched(3))
        test.metrics.push_back({"latency_p50_s", ms(*parseNumber(m[3]))});
    m_tests.push_back(std::move(test));
}

// The tests of every command block (or of the whole output when it has none), each with what
// its command line states.
// `unreadableRow`: the first quoted line that was no CSV row (0: none), for the refusal.
std::vector<Test> readAllTests(const std::string &text, std::vector<ImportWarning> &warnings,
                               int64_t &unreadableRow)
{
    std::vector<Test> tests;
    const std::vector<TextLine> lines = splitLines(text);
    const std::vector<CommandBlock> blocks = commandBlocks(text, {"redis-benchmark"});
    auto note = [&unreadableRow](const TestReader &reader) {
        if (!unreadableRow)
            unreadableRow = reader.unreadableRow();
    };
    if (blocks.empty()) {
        TestReader reader(tests, warnings);
        reader.read(lines);
        note(reader);
    }
    for (const CommandBlock &block : blocks) {
        const size_t before = tests.size();
        TestReader reader(tests, warnings);
        reader.read(blockLines(lines, block));
        note(reader);
        if (block.line == 0)
            continue;
        if (tests.size() == before)
            warnings.push_back({"no-output", block.line,
                                "the command has no redis-benchmark result after it"});
        for (size_t i = before; i < tests.size(); ++i) {
            Test &t = tests[i];
            t.command = block.command;
            t.commandLine = block.line;
            t.commandClients = integerOption(block.args, {"-c"});
            t.commandPipeline = integerOption(block.args, {"-P"});
            t.commandThreads = integerOption(block.args, {"--threads"});
            t.commandSize = integerOption(block.args, {"-d"});
        }
    }
    std::erase_if(tests, [](const Test &t) { return t.metrics.empty() && t.cumulative.empty(); });
    return tests;
}

// Clients and pipeline depth from the file name when neither the output nor its command
// states them ("…clients_50…", "…-P16…").
struct NameFactors
{
    std::optional<int64_t> clients, pipeline;
};

NameFactors factorsFromUri(const std::string &uri)
{
    static const TextPattern clientsInName(R"((?:clients?|conns?)[_-]?(\d{1,18})|(?:^|[_-])c(\d{1,18})(?:[_.-]|$))");
    static const TextPattern pipelineInName(R"((?:pipeline|(?:^|[_-])P)[_-]?(\d{1,18}))");
    return {numberInFileName(uri, clientsInName), numberInFileName(uri, pipelineInName)};
}

// What the output states, else its command line, else the file name (inferred).
void applyTopology(const Test &t, const NameFactors &fromName, Topology &topology)
{
    if (t.clients || t.commandClients) {
        topology.clients = t.clients ? t.clients : t.commandClients;
    } else if (fromName.clients) {
        topology.clients = fromName.clients;
        topology.inferred.push_back("clients");
    }
    if (topology.clients)
        topology.connections = topology.clients; // one connection per client
    if (t.commandPipeline) {
        topology.pipeline = t.commandPipeline;
    } else if (fromName.pipeline) {
        topology.pipeline = fromName.pipeline;
        topology.inferred.push_back("pipeline");
    }
    topology.threads = t.commandThreads;
    if (t.payloadBytes || t.commandSize)
        topology.recordSizeBytes = t.payloadBytes ? t.payloadBytes : t.commandSize;
}

// "redis-benchmark/SET/c-50/P-16": the factors a sweep varies, so its steps line up.
std::string scenarioName(const Test &t, const Topology &topology)
{
    std::string name = "redis-benchmark/" + t.name;
    if (topology.clients)
        name += "/c-" + std::to_string(*topology.clients);
    if (topology.pipeline)
        name += "/P-" + std::to_string(*topology.pipeline);
    if (t.commandThreads)
        name += "/threads-" + std::to_string(*t.commandThreads);
    if (t.commandSize)
        name += "/d-" + std::to_string(*t.commandSize); // so a value-size sweep lines up
    return name;
}

ScenarioRecord testScenario(const Test &t, const NameFactors &fromName)
{
    ScenarioRecord sc;
    sc.kind = "benchmark";
    sc.line = t.line;
    sc.metrics = t.metrics;
    // The old report has only the cumulative distribution: percentiles come from it.
    auto fill = [&](const char *metric, double percent) {
        if (sc.metric(metric))
            return;
        if (auto v = cumulativeAt(t, percent))
            sc.metrics.push_back({metric, ms(*v)});
    };
    fill("latency_p50_s", 50);
    fill("latency_p95_s", 95);
    fill("latency_p99_s", 99);
    fill("latency_p999_s", 99.9);
    if (!t.cumulative.empty() && !sc.metric("latency_max_s"))
        sc.metrics.push_back({"latency_max_s", ms(t.cumulative.back().second)});
    if (t.requests)
        sc.metrics.push_back({"redis.requests", double(*t.requests)});
    if (t.seconds)
        sc.metrics.push_back({"redis.elapsed_s", *t.seconds});
    applyTopology(t, fromName, sc.topology);
    sc.name = scenarioName(t, sc.topology);
    sc.provenance = "line " + std::to_string(t.line);
    if (t.commandLine > 0)
        sc.provenance += ", after the command on line " + std::to_string(t.commandLine) + ": " +
                         t.command;
    return sc;
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    if (startsWith(trimmed(head), "\"test\",\"rps\""))
        return 95;
    const std::string text(head.substr(0, 16384));
    static const TextPattern section(R"((^|[\r\n])====== [^\r\n]+ ======)");
    static const TextPattern quiet(R"((^|[\r\n])[A-Za-z_][^\r\n:]*: [0-9.]+ requests per second)");
    static const TextPattern oldCsv(R"(^\s*"[A-Z][A-Z_0-9 ()a-z]*","[0-9.]+"\s*(\r?\n|$))");
    static const TextPattern header(R"((^|[\r\n])\s*"test","rps")");
    // The test name may hold quotes of its own (a custom command's command line).
    static const TextPattern headerless(R"((^|[\r\n])\s*"[^\r\n]+"(,"[0-9.]+"){7}\s*(\r?\n|$))");
    if (header.search(text))
        return 90;
    if (section.search(text) && text.find("requests") != std::string::npos)
        return 90;
    if (hasCommandLine(text, {"redis-benchmark"}))
        return 85;
    if (quiet.search(text))
        return 80;
    if (headerless.search(text))
        return 70;
    if (oldCsv.search(text))
        return 60;
    return 0;
}

Resemblance resemblance(std::string_view head)
{
    if (head.find("requests per second") != std::string_view::npos)
        return {50, "mentions requests per second but has no \"CMD: N requests per second\" "
                    "line or \"====== CMD ======\" section"};
    static const TextPattern quotedRow(R"((^|[\r\n])\s*"[^"\r\n]+"(,"[^"\r\n]*")+\s*(\r?\n|$))");
    if (quotedRow.search(head.substr(0, 16384)))
        return {40, "has quoted CSV rows, but neither the \"test\",\"rps\" header nor the 2 or 8 "
                    "numeric columns of a headerless redis-benchmark --csv"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &in, const ImportOptions &options,
                   ImportResult result)
{
    std::vector<Test> tests;
    int64_t unreadableRow = 0;
    try {
        tests = readAllTests(text, result.warnings, unreadableRow);
    } catch (const ImportError &e) {
        result.error = e;
        return result;
    }
    const std::string rowShape =
        "is a quoted line but no redis-benchmark --csv row: a quoted test name, then 1 or 7 "
        "quoted numbers (or as many as the \"test\",\"rps\",… header names)";
    if (tests.empty()) {
        result.error = unreadableRow ? ImportError{"holds no redis-benchmark result; this line " + rowShape,
                                                   unreadableRow, -1, {}}
                                     : ImportError{"holds no redis-benchmark result", 0, -1, {}};
        return result;
    }
    if (unreadableRow)
        result.warnings.push_back({"unreadable-row", unreadableRow,
                                   "left out: the line " + rowShape});
    RunRecord run;
    run.line = 1;
    run.tool = "redis-benchmark";
    run.target = "redis";
    run.runKey = contentRunKey(kFormat.identity.name, text);
    dateByInference(run, in, result.warnings);
    const NameFactors fromName = factorsFromUri(options.uri);
    std::vector<double> rates;
    std::map<std::string, int> seen;
    for (const Test &t : tests) {
        ScenarioRecord sc = testScenario(t, fromName);
        if (int n = seen[sc.name]++; n > 0)
            sc.name += "/" + std::to_string(n + 1); // the same test twice in one file
        if (auto r = sc.metric("records_per_s"))
            rates.push_back(*r);
        run.scenarios.push_back(std::move(sc));
    }
    warnIfZeroOnly(rates, 0, "requests per second", result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace

const Importer &redisBenchmarkImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
