// librdkafka's examples/rdkafka_performance output, producer (-P) and consumer (-C, -G):
//   summary lines (the default)
//   "% N messages produced (B bytes), D delivered (offset O, F failed) in Tms: R msgs/s and
//    M MB/s, P produce failures, Q in queue, C compression"
//   "% N messages (B bytes) consumed in Tms: R msgs/s (M MB/s)[, latency curr/avg/lo/hi …ms]"
//   or, with -u, a table ("| %10s" cells): producer "elapsed msgs bytes rtt dr dr_m/s dr_MB/s
//   dr_err tx_err outq offset [lat_curr lat_avg lat_lo lat_hi]", consumer "elapsed msgs bytes
//   rtt m/s MB/s rx_err offset [lat_*]".
// The tool prints a line (row) every interval and once more at the end: the last of each kind
// is the result, the earlier ones are series. Its MB/s is bytes per microsecond, i.e. 10^6 B/s,
// not MiB. "produce failures" (tx_err) counts produce() calls the client refused, nearly
// always its local queue being full, and retried: back-pressure, not lost messages; failed
// deliveries are the "F failed" (dr_err) count.

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/textsource.h"
#include "model/core/textpattern.h"

#include <QIODevice>

#include <algorithm>
#include <map>
#include <optional>
#include <span>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"rdkafka-performance", "2",
                          "librdkafka rdkafka_performance output (producer and consumer summary lines, or the -u table; MB/s = 10^6 B/s)",
                          "a line \"% N messages produced (B bytes), …\" or \"% N messages (B bytes) consumed in …\", or a -u table header \"| elapsed | msgs | bytes | rtt | …\""},
                         "rdkafka_performance output", kMaxBytes, TextInput::ToolOutput};
constexpr double kMB = 1e6; // rdkafka_performance: bytes / microseconds

const TextPattern &producerPattern()
{
    static const TextPattern re(
        R"(% (\d+) messages produced \((\d+) bytes\), (\d+) delivered \(offset (-?\d+), (\d+) failed\) )"
        R"(in (\d+) ?ms: (\d+) msgs/s and ([0-9.]+) MB/s(?:, (\d+) produce failures)?)"
        R"((?:, (-?\d+) in queue)?(?:, (\S+) compression)?)");
    return re;
}

const TextPattern &consumerPattern()
{
    static const TextPattern re(
        R"(% (\d+) messages \((\d+) bytes\) consumed in (\d+) ?ms: (\d+) msgs/s \(([0-9.]+) MB/s\))"
        R"((?:, latency curr/avg/lo/hi ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+) ?ms)?)");
    return re;
}

// "% Sending 200000 messages of size 1024 bytes" (without a count when -c is not given).
const TextPattern &sendingPattern()
{
    static const TextPattern re(R"(^% Sending (?:\d+ )?messages of size (\d+) bytes)");
    return re;
}

// Printed by the consumer after its last summary: fetch call time per message.
const TextPattern &fetchLatencyPattern()
{
    static const TextPattern re(R"(^% Average application fetch latency: (\d+) ?us)");
    return re;
}

struct Sample
{
    int64_t line = 0;
    std::vector<MetricValue> metrics; // records_per_s first
    double elapsedS = 0;
    std::optional<std::string> compression;
    bool tableRow = false; // -u
};

// A group's number; 0 for a group that did not take part.
double num(std::string_view group)
{
    return parseNumber(group).value_or(0);
}

// One "| %10s " cell of a -u table: its trimmed text and the 1-based byte column it starts at.
struct Cell
{
    std::string_view text;
    int64_t column = 0;
};

std::vector<Cell> tableCells(std::string_view line)
{
    std::vector<Cell> cells;
    size_t bar = line.find('|');
    while (bar != std::string_view::npos) {
        const size_t next = line.find('|', bar + 1);
        const std::string_view raw =
            line.substr(bar + 1, next == std::string_view::npos ? std::string_view::npos : next - bar - 1);
        const std::string_view text = trimmed(raw);
        const size_t start = text.empty() ? bar + 1 : size_t(text.data() - line.data());
        cells.push_back({text, int64_t(start) + 1});
        bar = next;
    }
    // The tool ends a row after its last cell ("| value "); a closing '|' leaves an empty one.
    if (!cells.empty() && cells.back().text.empty())
        cells.pop_back();
    return cells;
}

bool isTableHeader(const std::vector<Cell> &cells)
{
    return cells.size() >= 2 && cells[0].text == "elapsed" && cells[1].text == "msgs";
}

// The -u table being read: its header's column names, and whose it is.
struct Table
{
    std::vector<std::string> columns;
    bool producer = false;
    int64_t line = 0;
};

ImportError errorAt(const TextLine &line, int64_t column, const std::string &message,
                    const std::string &field)
{
    ImportError e;
    e.message = message;
    e.line = line.number;
    e.column = column;
    e.offset = line.offset + column - 1;
    e.field = field;
    return e;
}

std::optional<ImportError> readHeader(const std::vector<Cell> &cells, const TextLine &line, Table &table)
{
    table.columns.clear();
    for (const Cell &c : cells)
        table.columns.emplace_back(c.text);
    const auto has = [&](const char *name) {
        return std::find(table.columns.begin(), table.columns.end(), name) != table.columns.end();
    };
    table.line = line.number;
    table.producer = has("dr_m/s");
    if (!table.producer && !has("m/s"))
        return errorAt(line, cells.front().column,
                       "is a table header with neither the producer's dr_m/s nor the consumer's "
                       "m/s column",
                       "table");
    const std::vector<const char *> needed =
        table.producer ? std::vector<const char *>{"bytes", "dr", "dr_MB/s"}
                       : std::vector<const char *>{"bytes", "MB/s"};
    for (const char *name : needed)
        if (!has(name))
            return errorAt(line, cells.front().column,
                           std::string("is a table header without the '") + name + "' column",
                           "table");
    return std::nullopt;
}

std::optional<ImportError> readRow(const std::vector<Cell> &cells, const TextLine &line,
                                   const Table &table, Sample &out)
{
    if (cells.size() != table.columns.size())
        return errorAt(line, cells.empty() ? 1 : cells.front().column,
                       "has " + std::to_string(cells.size()) + " cells, the table header on line " +
                           std::to_string(table.line) + " " + std::to_string(table.columns.size()),
                       "table");
    std::map<std::string, double> v;
    for (size_t i = 0; i < cells.size(); ++i) {
        const std::optional<double> value = parseNumber(cells[i].text);
        if (!value)
            return errorAt(line, cells[i].column, "is not a number", table.columns[i]);
        v[table.columns[i]] = *value;
    }
    const auto get = [&](const std::string &name) -> std::optional<double> {
        const auto it = v.find(name);
        return it == v.end() ? std::nullopt : std::optional<double>(it->second);
    };
    const std::string who = table.producer ? "producer" : "consumer";
    out.line = line.number;
    out.tableRow = true;
    out.elapsedS = v["elapsed"] * 1e-3;
    if (table.producer) {
        out.metrics = {{"records_per_s", v["dr_m/s"]},
                       {"bytes_per_s", v["dr_MB/s"] * kMB},
                       {"producer.records_sent", v["msgs"]},
                       {"producer.bytes_sent", v["bytes"]},
                       {"producer.records_delivered", v["dr"]}};
        if (const auto failed = get("dr_err")) {
            out.metrics.push_back({"errors", *failed});
            out.metrics.push_back({"producer.delivery_failures", *failed});
        }
        if (const auto refused = get("tx_err"))
            out.metrics.push_back({"producer.produce_failures", *refused});
        if (const auto queued = get("outq"))
            out.metrics.push_back({"producer.in_queue", *queued});
    } else {
        out.metrics = {{"records_per_s", v["m/s"]},
                       {"bytes_per_s", v["MB/s"] * kMB},
                       {"consumer.records_consumed", v["msgs"]},
                       {"consumer.bytes_consumed", v["bytes"]}};
        if (const auto failed = get("rx_err"))
            out.metrics.push_back({"errors", *failed});
    }
    out.metrics.push_back({who + ".elapsed_s", out.elapsedS});
    // The mean broker round trip from librdkafka's statistics, whole ms; 0 until statistics
    // arrive (and below 1 ms), so only a positive value is a measurement.
    if (const auto rtt = get("rtt"); rtt && *rtt > 0)
        out.metrics.push_back({who + ".broker_rtt_avg_s", *rtt * 1e-3});
    // -l: all zero until the first measurement (the tool's summary omits them then too).
    const auto avg = get("lat_avg"), lo = get("lat_lo"), hi = get("lat_hi");
    if (avg && lo && hi && *avg > 0) {
        if (table.producer) {
            // Produce call to delivery report, one host's clock: send-to-ack.
            out.metrics.push_back({"latency_avg_s", *avg * 1e-3});
            out.metrics.push_back({"latency_max_s", *hi * 1e-3});
            out.metrics.push_back({"producer.latency_min_s", *lo * 1e-3});
        } else {
            // The producer's wall clock in the payload against the consumer's: end to end.
            out.metrics.push_back({"e2e.latency_avg_s", *avg * 1e-3});
            out.metrics.push_back({"e2e.latency_min_s", *lo * 1e-3});
            out.metrics.push_back({"e2e.latency_max_s", *hi * 1e-3});
        }
    }
    return std::nullopt;
}

ScenarioRecord scenarioOf(const std::string &name, const std::vector<Sample> &samples)
{
    ScenarioRecord sc;
    sc.name = name;
    sc.kind = name;
    sc.line = samples.back().line;
    sc.metrics = samples.back().metrics;
    sc.provenance = (samples.back().tableRow ? "last table row, line " : "last summary line ") +
                    std::to_string(sc.line);
    // The producer's final line measures up to the last delivery report, so its elapsed time
    // can be shorter than that of the interval line printed just before it (2483 ms after
    // 2547 ms): such lines give way to the final one, and the series runs forward in time.
    std::vector<const Sample *> points;
    for (const Sample &sample : samples) {
        while (!points.empty() && points.back()->elapsedS >= sample.elapsedS)
            points.pop_back();
        points.push_back(&sample);
    }
    if (points.size() > 1) {
        for (const MetricValue &m : samples.back().metrics) {
            if (m.name != "records_per_s" && m.name != "bytes_per_s")
                continue;
            SeriesRecord s{m.name, {}};
            for (const Sample *sampleAt : points) {
                const Sample &sample = *sampleAt;
                for (const MetricValue &v : sample.metrics)
                    if (v.name == m.name)
                        s.samples.push_back({sample.elapsedS, v.value});
            }
            sc.series.push_back(std::move(s));
        }
    }
    return sc;
}

// A summary line's number: its pattern's group, the metric it becomes and the factor to SI.
struct Field
{
    int group;
    const char *metric;
    double scale;
};

// The line's metrics, records_per_s first; `elapsed` is the group of its milliseconds.
Sample summarySample(const PatternMatch &m, const TextLine &line, int elapsed,
                     std::span<const Field> fields)
{
    Sample sample;
    sample.line = line.number;
    sample.elapsedS = num(m[elapsed]) * 1e-3;
    for (const Field &f : fields)
        sample.metrics.push_back({f.metric, num(m[f.group]) * f.scale});
    return sample;
}

Sample producerSample(const PatternMatch &m, const TextLine &line)
{
    static constexpr Field fields[] = {{7, "records_per_s", 1},
                                       {8, "bytes_per_s", kMB},
                                       {1, "producer.records_sent", 1},
                                       {2, "producer.bytes_sent", 1},
                                       {3, "producer.records_delivered", 1},
                                       {5, "errors", 1},
                                       {5, "producer.delivery_failures", 1},
                                       {6, "producer.elapsed_s", 1e-3}};
    Sample p = summarySample(m, line, 6, fields);
    if (m.matched(9))
        p.metrics.push_back({"producer.produce_failures", num(m[9])});
    if (m.matched(10))
        p.metrics.push_back({"producer.in_queue", num(m[10])});
    if (m.matched(11))
        p.compression = m.str(11) == "no" ? "none" : m.str(11);
    return p;
}

Sample consumerSample(const PatternMatch &m, const TextLine &line)
{
    static constexpr Field fields[] = {{4, "records_per_s", 1},
                                       {5, "bytes_per_s", kMB},
                                       {1, "consumer.records_consumed", 1},
                                       {2, "consumer.bytes_consumed", 1},
                                       {3, "consumer.elapsed_s", 1e-3}};
    Sample c = summarySample(m, line, 3, fields);
    if (m.matched(6)) {
        // Wall-clock differences across hosts: includes their clock skew.
        static constexpr Field latency[] = {{7, "e2e.latency_avg_s", 1e-3},
                                            {8, "e2e.latency_min_s", 1e-3},
                                            {9, "e2e.latency_max_s", 1e-3}};
        for (const Field &f : latency)
            c.metrics.push_back({f.metric, num(m[f.group]) * f.scale});
    }
    return c;
}

// The producer's and the consumer's samples of one output: summary lines and -u table rows,
// in file order, with the record size and fetch latency the tool prints beside them.
struct Output
{
    std::vector<Sample> produced, consumed;
    std::optional<int64_t> recordSize;
    std::optional<double> fetchLatencyUs;
};

class OutputReader
{
public:
    // The error of the first line that is not what it looks like, else nullopt.
    std::optional<ImportError> read(const std::vector<TextLine> &lines);
    Output output;

private:
    std::optional<ImportError> readTableLine(const TextLine &line);
    std::optional<ImportError> readSummaryLine(const TextLine &line);

    std::optional<Table> m_table;
};

std::optional<ImportError> OutputReader::read(const std::vector<TextLine> &lines)
{
    for (const TextLine &line : lines) {
        auto error = startsWith(trimmed(line.text), "|") ? readTableLine(line) : readSummaryLine(line);
        if (error)
            return error;
    }
    return std::nullopt;
}

std::optional<ImportError> OutputReader::readTableLine(const TextLine &line)
{
    const std::vector<Cell> cells = tableCells(line.text);
    if (isTableHeader(cells)) {
        m_table.emplace();
        return readHeader(cells, line, *m_table);
    }
    if (!m_table)
        return errorAt(line, int64_t(line.text.find('|')) + 1,
                       "is a table row before any table header (\"| elapsed | msgs | …\")",
                       "table");
    Sample row;
    if (auto e = readRow(cells, line, *m_table, row))
        return e;
    (m_table->producer ? output.produced : output.consumed).push_back(std::move(row));
    return std::nullopt;
}

std::optional<ImportError> OutputReader::readSummaryLine(const TextLine &line)
{
    const std::string_view s = line.text;
    const std::string_view t = trimmed(line.text);
    PatternMatch m;
    if (producerPattern().search(s, &m)) {
        output.produced.push_back(producerSample(m, line));
    } else if (consumerPattern().search(s, &m)) {
        output.consumed.push_back(consumerSample(m, line));
    } else if (sendingPattern().search(s, &m)) {
        output.recordSize = int64_t(num(m[1]));
    } else if (fetchLatencyPattern().search(s, &m)) {
        output.fetchLatencyUs = num(m[1]);
    } else if (startsWith(t, "% INTERVAL:")) {
        // -M: the last interval's own rate; the cumulative lines carry the same counts.
    } else if (startsWith(t, "% ") && (s.find("messages produced") != std::string::npos ||
                                       s.find(" consumed in ") != std::string::npos)) {
        return errorAt(line, int64_t(line.text.find('%')) + 1,
                       "is not an rdkafka_performance summary line this importer reads",
                       "summary");
    }
    return std::nullopt;
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    const std::string text(head);
    static const TextPattern produced(R"(% \d+ messages produced \(\d+ bytes\))");
    static const TextPattern consumed(R"(% \d+ messages \(\d+ bytes\) consumed in)");
    static const TextPattern table(R"((?:^|\n)\|\s*elapsed\s*\|\s*msgs\s*\|\s*bytes\s*\|\s*rtt\s*\|)");
    if (produced.search(text) || consumed.search(text) ||
        table.search(text))
        return 85;
    return 0;
}

Resemblance resemblance(std::string_view head)
{
    if (head.find("msgs/s") != std::string_view::npos)
        return {50, "mentions msgs/s but has no \"% N messages produced (B bytes), …\" or "
                    "\"% N messages (B bytes) consumed in …\" summary line"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &in, const ImportOptions &,
                   ImportResult result)
{
    OutputReader reader;
    if (auto error = reader.read(splitLines(text))) {
        result.error = std::move(error);
        return result;
    }
    const Output &out = reader.output;
    if (out.produced.empty() && out.consumed.empty()) {
        result.error = ImportError{"holds no rdkafka_performance summary line or table row", 0, -1, {}};
        return result;
    }
    RunRecord run;
    run.line = 1;
    run.tool = "rdkafka_performance";
    run.target = "kafka";
    run.runKey = contentRunKey("rdkafka-performance", text);
    dateByInference(run, in, result.warnings);
    std::vector<double> rates;
    if (!out.produced.empty()) {
        ScenarioRecord sc = scenarioOf("producer", out.produced);
        sc.topology.producers = 1; // one rdkafka_performance process is one client
        sc.topology.recordSizeBytes = out.recordSize;
        sc.topology.compression = out.produced.back().compression;
        run.scenarios.push_back(std::move(sc));
        rates.push_back(out.produced.back().metrics.front().value);
    }
    if (!out.consumed.empty()) {
        ScenarioRecord sc = scenarioOf("consumer", out.consumed);
        sc.topology.consumers = 1;
        if (out.fetchLatencyUs)
            sc.metrics.push_back({"consumer.fetch_latency_avg_s", *out.fetchLatencyUs * 1e-6});
        run.scenarios.push_back(std::move(sc));
        rates.push_back(out.consumed.back().metrics.front().value);
    }
    warnIfZeroOnly(rates, 0, "msgs/s", result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace

const Importer &rdkafkaPerformanceImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
