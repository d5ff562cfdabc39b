#include "importers/redis/memtierimporter.h"

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/commandblocks.h"
#include "importers/linebounds.h"
#include "importers/textsource.h"
#include "model/core/textpattern.h"

#include <QIODevice>

#include <algorithm>
#include <cctype>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 64LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"memtier", "2",
                          "memtier_benchmark output: the text result tables (ALL STATS, or BEST/WORST/AGGREGATED AVERAGE with -x) and --json-out-file JSON",
                          "a \"Type Ops/sec Hits/sec Misses/sec\" table under ALL STATS or BEST/WORST/AGGREGATED AVERAGE RESULTS, JSON with \"ALL STATS\" and \"run information\" or \"configuration\", or a \"$ memtier_benchmark …\" command line"},
                         "memtier_benchmark output", kMaxBytes, TextInput::Whole};

const TextPattern &sectionRe()
{
    static const TextPattern re(
        R"(^(ALL STATS|BEST RUN RESULTS|WORST RUN RESULTS|AGGREGATED AVERAGE RESULTS \((\d{1,18}) runs?\))\s*$)");
    return re;
}

// Header cells are separated by two or more blanks: names hold single ones ("p50 Latency").
std::vector<std::string> headerCells(std::string_view line)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        if (i >= line.size())
            break;
        size_t end = line.find("  ", i);
        if (end == std::string_view::npos)
            end = line.size();
        out.emplace_back(trimmed(line.substr(i, end - i)));
        i = end;
    }
    return out;
}

struct Token
{
    std::string_view text;
    size_t column = 0; // 0-based
};

std::vector<Token> tokens(std::string_view line)
{
    std::vector<Token> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i >= line.size())
            break;
        const size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        out.push_back({line.substr(start, i - start), start});
    }
    return out;
}

// A row of a result table under `header`; nullopt with result.error set when its cells do
// not match the header or one is not a number.
std::optional<MemtierRow> tableRow(const TextLine &line, const std::vector<Token> &cells,
                                   const std::vector<std::string> &header, ImportResult &result)
{
    if (cells.size() != header.size()) {
        ImportError e{"has " + std::to_string(cells.size()) + " columns; the header has " +
                          std::to_string(header.size()),
                      line.number, line.offset, std::string(cells.front().text)};
        e.column = 1;
        result.error = e;
        return std::nullopt;
    }
    MemtierRow row;
    row.command = memtierCommand(std::string(cells[0].text));
    row.line = line.number;
    for (size_t i = 1; i < cells.size(); ++i) {
        if (cells[i].text == "---")
            continue;
        const auto v = parseNumber(cells[i].text);
        if (!v) {
            ImportError e{"'" + std::string(cells[i].text) + "' is not a number", line.number,
                          line.offset + int64_t(cells[i].column), header[i]};
            e.column = int64_t(cells[i].column) + 1;
            result.error = e;
            return std::nullopt;
        }
        if (*v < 0 && header[i].find("Latency") != std::string::npos)
            result.warnings.push_back({"negative-time", line.number,
                                       header[i] + " of " + row.command + " is negative"});
        addMemtierValue(header[i], *v, row);
    }
    return row;
}

bool parseText(std::span<const TextLine> lines, bool lastTerminated, std::vector<MemtierSection> &sections,
               MemtierConfig &config, ImportResult &result)
{
    static const TextPattern threadsRe(R"(^(\d{1,18})\s+Threads$)");
    static const TextPattern clientsRe(R"(^(\d{1,18})\s+Connections per thread$)");
    std::vector<std::string> header;
    for (const TextLine &line : lines) {
        const std::string_view t = trimmed(line.text);
        const std::string_view s = t;
        PatternMatch m;
        // Each pattern only where its line could be: these are tried on every line.
        if (s.ends_with("Threads") && threadsRe.fullMatch(s, &m)) {
            config.threads = std::stoll(m.str(1));
            continue;
        }
        if (s.ends_with("thread") && clientsRe.fullMatch(s, &m)) {
            config.clients = std::stoll(m.str(1));
            continue;
        }
        if ((s.starts_with("ALL ") || s.starts_with("BEST ") || s.starts_with("WORST ") ||
             s.starts_with("AGGREGATED ")) &&
            sectionRe().fullMatch(s, &m)) {
            sections.push_back({m.str(1), {}, line.number});
            if (m.matched(2))
                config.runs = std::stoll(m.str(2));
            header.clear();
            continue;
        }
        if (sections.empty())
            continue;
        if (startsWith(t, "Type ") && t.find("Ops/sec") != std::string_view::npos) {
            header = headerCells(t);
            continue;
        }
        // A blank line after the rows ends the table: what follows may be the user's notes.
        if (t.empty() && !header.empty() && !sections.back().rows.empty()) {
            header.clear();
            continue;
        }
        if (header.empty() || t.empty() || t.front() == '=' || t.front() == '-')
            continue;
        if (startsWith(t, "Request Latency Distribution")) {
            header.clear();
            continue;
        }
        const std::vector<Token> cells = tokens(line.text);
        if (cells.size() != header.size() && &line == &lines.back() && !lastTerminated) {
            result.warnings.push_back({"truncated-line", line.number,
                                       "the last line is cut short (" +
                                           std::to_string(cells.size()) + " of " +
                                           std::to_string(header.size()) + " columns): left out"});
            break;
        }
        auto row = tableRow(line, cells, header, result);
        if (!row)
            return false;
        sections.back().rows.push_back(std::move(*row));
    }
    return true;
}

std::string prefixed(const std::string &prefix, const std::string &metric)
{
    const std::string bare = metric.starts_with("memtier.") ? metric.substr(8) : metric;
    return "memtier." + prefix + "." + bare;
}

std::string sectionPrefix(const std::string &title)
{
    if (title.starts_with("BEST"))
        return "best_run";
    if (title.starts_with("WORST"))
        return "worst_run";
    if (title.starts_with("AGGREGATED"))
        return "aggregated_average";
    return "all_stats";
}

// What the output states, else its command line, else the file name (inferred).
void completeConfig(MemtierConfig &config, const CommandBlock *block, const std::string &uri)
{
    if (block) {
        auto stated = [&](std::optional<int64_t> &field, std::initializer_list<std::string_view> names) {
            if (!field)
                field = integerOption(block->args, names);
        };
        stated(config.threads, {"-t", "--threads"});
        stated(config.clients, {"-c", "--clients"});
        stated(config.pipeline, {"--pipeline"});
        stated(config.dataSize, {"-d", "--data-size"});
    }
    static const TextPattern threadsInName(R"((?:threads?[_-]?|(?:^|[_-])t-?)(\d{1,18}))");
    static const TextPattern clientsInName(R"((?:clients?[_-]?|(?:^|[_-])c-?)(\d{1,18}))");
    static const TextPattern pipelineInName(R"((?:pipeline[_-]?|(?:^|[_-])P-?)(\d{1,18}))");
    auto infer = [&](std::optional<int64_t> &field, const TextPattern &re, const char *factor) {
        if (field)
            return;
        field = numberInFileName(uri, re);
        if (field)
            config.inferred.push_back(factor);
    };
    infer(config.threads, threadsInName, "threads");
    infer(config.clients, clientsInName, "clients");
    infer(config.pipeline, pipelineInName, "pipeline");
}

// The headline: ALL STATS, else memtier's aggregated average, else the first block.
const MemtierSection &headlineSection(const std::vector<MemtierSection> &sections)
{
    for (const MemtierSection &s : sections)
        if (s.title == "ALL STATS" || s.title.starts_with("AGGREGATED"))
            return s;
    return sections.front();
}

void applyTopology(const MemtierConfig &config, Topology &topology)
{
    topology.threads = config.threads;
    topology.pipeline = config.pipeline;
    if (config.clients && config.threads) {
        topology.clients = *config.clients * *config.threads;
        topology.connections = topology.clients;
    }
    // Clients and connections derive from threads x clients per thread: inferred when
    // either factor was.
    topology.inferred = config.inferred;
    const bool derivedInferred = std::any_of(
        config.inferred.begin(), config.inferred.end(),
        [](const std::string &f) { return f == "threads" || f == "clients"; });
    if (topology.clients && derivedInferred)
        topology.inferred.push_back("connections");
    if (topology.clients && derivedInferred &&
        std::find(topology.inferred.begin(), topology.inferred.end(), "clients") ==
            topology.inferred.end())
        topology.inferred.push_back("clients");
}

// One command's scenario: the headline row, the other tables' figures of the same command.
ScenarioRecord rowScenario(const MemtierRow &row, const std::vector<MemtierSection> &sections,
                           const MemtierSection &headline, const MemtierConfig &config,
                           const CommandBlock *block)
{
    ScenarioRecord sc;
    sc.kind = "benchmark";
    sc.line = row.line;
    sc.metrics = row.metrics;
    for (const MemtierSection &other : sections) {
        if (&other == &headline)
            continue;
        for (const MemtierRow &o : other.rows)
            if (o.command == row.command)
                for (const MetricValue &m : o.metrics)
                    sc.metrics.push_back({prefixed(sectionPrefix(other.title), m.name), m.value});
    }
    applyTopology(config, sc.topology);
    const bool commanded = block && block->line > 0;
    sc.name = "memtier/" + row.command;
    if (config.threads)
        sc.name += "/t-" + std::to_string(*config.threads);
    if (config.clients)
        sc.name += "/c-" + std::to_string(*config.clients);
    if (config.pipeline)
        sc.name += "/P-" + std::to_string(*config.pipeline);
    if (commanded && config.dataSize)
        sc.name += "/d-" + std::to_string(*config.dataSize); // so a value-size sweep lines up
    sc.provenance = headline.title + ", line " + std::to_string(row.line) +
                    "; latencies in ms, KB/sec read as 1024 B";
    if (commanded) {
        sc.provenance += "; after the command on line " + std::to_string(block->line) + ": " +
                         block->command;
        if (config.dataSize)
            sc.topology.recordSizeBytes = config.dataSize;
    }
    return sc;
}

// The scenarios of one output (or one block of a file of several) added to `run`: one per
// command of the headline table, the other tables' figures beside it.
// Returns the headline table's line.
int64_t addScenarios(const std::vector<MemtierSection> &sections, MemtierConfig config,
                     const CommandBlock *block, const std::string &uri, RunRecord &run,
                     std::vector<double> &rates)
{
    if (sections.empty())
        return 0;
    completeConfig(config, block, uri);
    const MemtierSection &headline = headlineSection(sections);
    for (const MemtierRow &row : headline.rows) {
        ScenarioRecord sc = rowScenario(row, sections, headline, config, block);
        if (auto r = sc.metric("records_per_s"))
            rates.push_back(*r);
        // memtier prints a Waits row of zeros and dashes when the workload has no WAIT.
        if (row.command == "WAIT" && sc.metric("records_per_s").value_or(0) == 0)
            continue;
        run.scenarios.push_back(std::move(sc));
    }
    return headline.line;
}

// The tables of one command's block in a file of several.
struct BlockSections
{
    CommandBlock block;
    std::vector<MemtierSection> sections;
    MemtierConfig config;
};

} // namespace

std::string memtierCommand(const std::string &type)
{
    std::string out = type;
    if (out.size() > 1 && out.back() == 's')
        out.pop_back();
    for (char &c : out)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

bool addMemtierValue(const std::string &column, double value, MemtierRow &row)
{
    const double ms = value * 1e-3;
    static const std::map<std::string, std::pair<std::string, double>> names = {
        {"Ops/sec", {"records_per_s", 1}},
        {"Hits/sec", {"memtier.hits_per_s", 1}},
        {"Misses/sec", {"memtier.misses_per_s", 1}},
        {"MOVED/sec", {"memtier.moved_per_s", 1}},
        {"ASK/sec", {"memtier.ask_per_s", 1}},
        {"Count", {"memtier.count", 1}},
        {"Latency", {"latency_avg_s", 1e-3}},
        {"Avg. Latency", {"latency_avg_s", 1e-3}},
        {"Average Latency", {"latency_avg_s", 1e-3}},
        {"Min Latency", {"memtier.latency_min_s", 1e-3}},
        {"Max Latency", {"latency_max_s", 1e-3}},
        // memtier's KB is 1024 bytes (bytes / 1024 / seconds).
        {"KB/sec", {"bytes_per_s", 1024}},
        {"KB/sec RX", {"memtier.rx_bytes_per_s", 1024}},
        {"KB/sec TX", {"memtier.tx_bytes_per_s", 1024}},
    };
    if (auto it = names.find(column); it != names.end()) {
        // latency_avg_s from "Latency" and "Average Latency" both: keep the first.
        if (row.metrics.end() != std::find_if(row.metrics.begin(), row.metrics.end(),
                                              [&](const MetricValue &m) { return m.name == it->second.first; }))
            return false;
        row.metrics.push_back({it->second.first, it->second.second == 1e-3 ? ms : value * it->second.second});
        return true;
    }
    // "p99.9 Latency" (text), "p99.90" (JSON), "99.900" (older readers' keys): p?N(.N)?( Latency)?
    // read by hand, as every row's every percentile cell comes here.
    std::string_view number = column;
    if (number.ends_with(" Latency"))
        number.remove_suffix(8);
    if (number.starts_with('p'))
        number.remove_prefix(1);
    const auto digitsFrom = [&](size_t i) {
        while (i < number.size() && std::isdigit(static_cast<unsigned char>(number[i])))
            ++i;
        return i;
    };
    size_t end = digitsFrom(0);
    if (end > 0 && end < number.size() && number[end] == '.') {
        const size_t fraction = digitsFrom(end + 1);
        if (fraction > end + 1)
            end = fraction;
    }
    if (end == 0 || end != number.size())
        return false;
    const double p = *parseNumber(number);
    std::string name;
    if (p == 50)
        name = "latency_p50_s";
    else if (p == 95)
        name = "latency_p95_s";
    else if (p == 99)
        name = "latency_p99_s";
    else if (p == 99.9)
        name = "latency_p999_s";
    else if (p == 100)
        name = "latency_max_s";
    else {
        std::string digits(number);
        if (digits.find('.') != std::string::npos)
            digits.erase(digits.find_last_not_of('0') + 1);
        if (!digits.empty() && digits.back() == '.')
            digits.pop_back();
        std::erase(digits, '.');
        name = "memtier.latency_p" + digits + "_s";
    }
    row.metrics.push_back({name, ms});
    return true;
}

namespace {

int sniff(std::string_view head)
{
    const bool table = head.find("Ops/sec") != std::string_view::npos &&
                       head.find("Hits/sec") != std::string_view::npos;
    const bool json = trimmed(head).starts_with("{");
    if (json && head.find("\"ALL STATS\"") != std::string_view::npos)
        return 95;
    if (json && head.find("\"run information\"") != std::string_view::npos)
        return 90;
    if (table && (head.find("ALL STATS") != std::string_view::npos ||
                  head.find("RUN RESULTS") != std::string_view::npos ||
                  head.find("AGGREGATED AVERAGE RESULTS") != std::string_view::npos))
        return 90;
    if (hasCommandLine(head.substr(0, 16384), {"memtier_benchmark"}))
        return 85;
    return 0;
}

Resemblance resemblance(std::string_view head)
{
    if (head.find("Ops/sec") != std::string_view::npos)
        return {50, "has an Ops/sec column but no ALL STATS or RUN RESULTS table"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &in, const ImportOptions &options,
                   ImportResult result)
{
    std::vector<MemtierSection> sections;
    MemtierConfig config;
    std::string timestamp;
    const bool json = trimmed(text).starts_with("{");
    if (!json && !refuseLongLines(text, "memtier_benchmark output", result))
        return result;
    const std::vector<CommandBlock> blocks =
        json ? std::vector<CommandBlock>{} : commandBlocks(text, {"memtier_benchmark"});
    const std::vector<TextLine> lines = json ? std::vector<TextLine>{} : splitLines(text);
    const bool lastTerminated = !text.empty() && (text.back() == '\n' || text.back() == '\r');
    auto noRows = [](const MemtierSection &s) { return s.rows.empty(); };
    std::vector<BlockSections> blockSections;
    if (blocks.empty()) {
        if (json ? !parseMemtierJson(text, sections, config, timestamp, result)
                 : !parseText(lines, lastTerminated, sections, config, result))
            return result;
        std::erase_if(sections, noRows);
    }
    for (const CommandBlock &block : blocks) {
        BlockSections b{block, {}, {}};
        // Only the last block ends where the file does.
        const bool terminated = block.end < text.size() || lastTerminated;
        if (!parseText(blockLines(lines, block), terminated, b.sections, b.config, result))
            return result;
        std::erase_if(b.sections, noRows);
        if (!b.sections.empty())
            blockSections.push_back(std::move(b));
        else if (block.line > 0)
            result.warnings.push_back({"no-output", block.line,
                                       "the command has no memtier_benchmark result table after it"});
    }
    if (sections.empty() && blockSections.empty()) {
        result.error = ImportError{"holds no memtier_benchmark result table", 0, -1, {}};
        return result;
    }
    RunRecord run;
    run.line = 1;
    run.tool = "memtier_benchmark";
    run.target = "redis";
    run.runKey = contentRunKey(kFormat.identity.name, text);
    if (timestamp.empty())
        dateByInference(run, in, result.warnings);
    else
        run.timestamp = timestamp;
    if (config.runs)
        run.environment["runs"] = *config.runs;
    if (config.dataSize)
        run.tuning["data_size"] = *config.dataSize;
    std::vector<double> rates;
    int64_t headlineLine = 0;
    if (blocks.empty())
        headlineLine = addScenarios(sections, config, nullptr, options.uri, run, rates);
    for (const BlockSections &b : blockSections) {
        const int64_t line = addScenarios(b.sections, b.config, &b.block, options.uri, run, rates);
        headlineLine = headlineLine ? headlineLine : line;
    }
    std::map<std::string, int> seen; // the same configuration twice in one file
    for (ScenarioRecord &sc : run.scenarios)
        if (int n = seen[sc.name]++; n > 0)
            sc.name += "/" + std::to_string(n + 1);
    warnIfZeroOnly(rates, headlineLine, "Ops/sec", result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace

const Importer &memtierImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
