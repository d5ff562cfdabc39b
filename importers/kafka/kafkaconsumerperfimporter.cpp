// kafka-consumer-perf-test (Apache's ConsumerPerformance) and, from Kafka 4.x,
// kafka-share-consumer-perf-test (ShareConsumerPerformance) output: one run per file.
// Columns are matched by header name, so the 6-column ZooKeeper-era header, the 10-column
// header and the share consumer's reordered one all read. A summary row is a scenario; the
// --show-detailed-stats rows (no summary row) become series of one scenario whose totals
// are the last cumulative row's. Times are "yyyy-MM-dd HH:mm:ss:SSS" local times; MB is MiB.
// Impossible values (the tool's negative fetch.time.ms when it saw no rebalance) are kept as
// printed, with a warning.
//
// The share consumer (a header with fetch.time.ms and no rebalance.time.ms) prints, with
// --show-detailed-stats, each consumer thread's interval rows ending "for share consumer N" —
// two threads' rows sometimes on one line, the second glued to the first's number
// ("… 5283 for share consumer 22026-12-05 18:24:21:599, …") — and then one summary row for all
// of them; with --show-consumer-stats, a "Share consumer N having client id … consumption
// metrics- " row per thread before it. The threads' rows give the summary's series (their
// per-interval rates summed) and its number of consumers.
//
// A command line before a header (`$ kafka-consumer-perf-test.sh --num-records 100000 …`, or the
// share consumer's) gives that block's scenarios the records asked for (--num-records, before
// Kafka 4.x --messages) and the consumer threads (--threads).

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/commandblocks.h"

#include "importers/kafka/kafkametrics.h"
#include "importers/textsource.h"

#include <QIODevice>

#include <algorithm>
#include <array>
#include <bitset>
#include <limits>
#include <map>
#include <set>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"kafka-consumer-perf", "1",
                          "kafka-consumer-perf-test and kafka-share-consumer-perf-test output (6-, 10- and the share consumer's 7-column headers, --show-detailed-stats, --show-consumer-stats, --print-metrics, the commands before them): one run, a scenario per summary row",
                          "a header line naming data.consumed.in.* and nMsg.sec columns"},
                         "kafka-consumer-perf-test output", kMaxBytes, TextInput::ToolOutput};
// A rebalance.time.ms this large is an epoch timestamp, the tool's known bug.
constexpr double kEpochMs = 1e12;

struct Failure
{
    ImportError error;
};

struct Cell
{
    std::string_view text;
    int64_t column = 0; // 1-based
};

// Into `cells`, which a reader keeps from row to row: a long run has hundreds of thousands.
void splitCells(std::string_view line, std::vector<Cell> &cells)
{
    cells.clear();
    size_t pos = 0;
    while (true) {
        const size_t comma = line.find(',', pos);
        const std::string_view raw =
            line.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        const size_t lead = raw.find_first_not_of(" \t");
        cells.push_back({trimmed(raw), int64_t(pos + (lead == std::string_view::npos ? 0 : lead)) + 1});
        if (comma == std::string_view::npos)
            break;
        pos = comma + 1;
    }
}

bool isHeader(std::string_view line)
{
    return line.find("data.consumed.in.") != std::string_view::npos &&
           line.find("nMsg.sec") != std::string_view::npos;
}

// The columns Plimsoll reads; a row keeps its numbers under these names only (the others are
// checked to be numbers and warned about once, at the header).
constexpr std::string_view kKnownColumns[] = {
    "start.time",          "end.time",          "time",          "threadId",
    "data.consumed.in.MB", "MB.sec",            "data.consumed.in.nMsg", "nMsg.sec",
    "rebalance.time.ms",   "fetch.time.ms",     "fetch.MB.sec",  "fetch.nMsg.sec"};

// The position of `name` in kKnownColumns; npos for another column.
constexpr size_t knownColumn(std::string_view name)
{
    for (size_t i = 0; i < std::size(kKnownColumns); ++i)
        if (kKnownColumns[i] == name)
            return i;
    return std::string_view::npos;
}

struct Row
{
    int64_t line = 0;
    // The known columns' numbers by their place in kKnownColumns (the times are kept below):
    // a long run has hundreds of thousands of rows, so no per-row map or list of names.
    std::array<double, std::size(kKnownColumns)> values{};
    std::bitset<std::size(kKnownColumns)> present;
    void set(size_t column, double v)
    {
        values[column] = v;
        present.set(column);
    }
    const double *find(size_t column) const { return present.test(column) ? &values[column] : nullptr; }
    std::string time;  // start.time or time, UTC ISO-8601
    double endS = 0;   // end.time in seconds since the epoch, where the header has it
    int consumer = 0;  // a share consumer thread's interval row: its number (from 1)
};

// The command line a block follows.
struct Command
{
    std::string text;
    std::vector<std::string> args;
    int64_t line = 0;
    bool share = false; // kafka-share-consumer-perf-test
};

struct Block
{
    std::string name;
    int64_t headerLine = 0;
    bool detailed = false;
    bool share = false;        // the share consumer's header
    std::vector<Row> rows;     // summary rows, or the detailed-stats rows
    std::vector<Row> threadRows; // share consumer threads' interval rows
    std::set<int> consumers;   // share consumer threads the output names
    std::optional<Command> command;
    std::optional<KafkaMetricsBlock> metrics;
};

constexpr std::string_view kThreadSuffix = " for share consumer ";
constexpr std::string_view kThreadSummary = "Share consumer ";
constexpr std::string_view kThreadSummaryEnd = "consumption metrics- ";

bool isShareHeader(const std::vector<std::string> &columns)
{
    const auto has = [&](std::string_view c) {
        return std::find(columns.begin(), columns.end(), c) != columns.end();
    };
    return has("fetch.time.ms") && !has("rebalance.time.ms");
}

// A whole number from all of `digits`; 0 when empty or too long.
int threadNumber(std::string_view digits)
{
    if (digits.empty() || digits.size() > 6)
        return 0;
    int n = 0;
    for (char c : digits)
        n = n * 10 + (c - '0');
    return n;
}

// One share consumer thread's row within a line: its text, where it starts in the line and
// the thread's number.
struct ThreadPiece
{
    std::string_view text;
    size_t position = 0;
    int consumer = 0;
};

// The rows of a line of share consumer interval rows, each ending " for share consumer N". A
// row glued to the number of the one before it starts at the year of its date: the number's
// digits then run straight into "-MM-dd", and its last four are the year.
std::vector<ThreadPiece> threadPieces(std::string_view line)
{
    std::vector<ThreadPiece> pieces;
    size_t start = 0;
    while (start < line.size()) {
        const size_t suffix = line.find(kThreadSuffix, start);
        if (suffix == std::string_view::npos)
            break;
        const size_t digitsAt = suffix + kThreadSuffix.size();
        size_t end = digitsAt;
        while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])))
            ++end;
        size_t next = end;
        if (end < line.size() && line[end] == '-' && end - digitsAt > 4)
            next = end - 4; // the glued row's year
        pieces.push_back({line.substr(start, suffix - start), start,
                          threadNumber(line.substr(digitsAt, next - digitsAt))});
        start = next;
        while (start < line.size() && (line[start] == ' ' || line[start] == '\t'))
            ++start;
    }
    return pieces;
}

class ConsumerReader
{
public:
    ConsumerReader(const std::vector<TextLine> &lines, std::vector<ImportWarning> &warnings)
        : m_lines(lines), m_warnings(warnings)
    {
    }
    std::vector<Block> read();

private:
    [[noreturn]] void fail(const TextLine &line, const Cell &cell, const std::string &field,
                           const std::string &message)
    {
        ImportError e;
        e.message = message;
        e.line = line.number;
        e.column = cell.column;
        e.offset = line.offset + cell.column - 1;
        e.field = field;
        throw Failure{e};
    }
    // `cells` split from the line's text from `position` on (the trimmed line's position 0).
    Row readRow(const TextLine &line, const std::vector<Cell> &cells,
                const std::vector<std::string> &columns, size_t position);
    bool readThreadRows(const TextLine &line, std::string_view t,
                        const std::vector<std::string> &columns, Block &block);

    std::vector<size_t> m_known; // per header column, its knownColumn()

    const std::vector<TextLine> &m_lines;
    std::vector<ImportWarning> &m_warnings;
};

Row ConsumerReader::readRow(const TextLine &line, const std::vector<Cell> &cells,
                            const std::vector<std::string> &columns, size_t position)
{
    static constexpr size_t kStart = knownColumn("start.time"), kEnd = knownColumn("end.time"),
                            kTime = knownColumn("time"), kFetchMs = knownColumn("fetch.time.ms"),
                            kRebalanceMs = knownColumn("rebalance.time.ms");
    // Columns count from the trimmed line; shift them back to the raw line's columns.
    const int64_t indent = int64_t(line.text.find_first_not_of(" \t") + position);
    Row row;
    row.line = line.number;
    for (size_t c = 0; c < columns.size(); ++c) {
        Cell cell = cells[c];
        cell.column += indent;
        const std::string &name = columns[c];
        const size_t known = m_known[c];
        if (known == kStart || known == kEnd || known == kTime) {
            auto t = localTimeAsUtc(cell.text);
            if (!t)
                fail(line, cell, name,
                     "'" + std::string(cell.text) + "' is not a time like 2019-09-25 17:10:27:266");
            if (known == kEnd)
                row.endS = utcSeconds(*t);
            else
                row.time = std::move(*t);
            continue;
        }
        const auto value = parseNumber(cell.text);
        if (!value)
            fail(line, cell, name, "'" + std::string(cell.text) + "' is not a number");
        if (known == std::string_view::npos)
            continue;
        row.set(known, *value);
        if (known == kFetchMs && *value < 0)
            m_warnings.push_back({"impossible-value", line.number,
                                  "fetch.time.ms is negative (" + std::string(cell.text) +
                                      ") at column " + std::to_string(cell.column) +
                                      ": the tool saw no rebalance; kept as printed"});
        if (known == kRebalanceMs && *value > kEpochMs)
            m_warnings.push_back({"impossible-value", line.number,
                                  "rebalance.time.ms " + std::string(cell.text) +
                                      " is an epoch time, not a duration; kept as printed"});
    }
    return row;
}

// A line of share consumer interval rows ("… for share consumer N") into the block's thread
// rows; false for any other line.
bool ConsumerReader::readThreadRows(const TextLine &line, std::string_view t,
                                    const std::vector<std::string> &columns, Block &block)
{
    const std::vector<ThreadPiece> pieces = threadPieces(t);
    if (pieces.empty())
        return false;
    std::vector<Cell> cells;
    for (const ThreadPiece &piece : pieces) {
        splitCells(piece.text, cells);
        if (cells.size() != columns.size() || piece.consumer == 0) {
            Cell at{piece.text, 1};
            fail(line, at, "share consumer row",
                 "'" + std::string(piece.text) + " for share consumer …' does not have the header's " +
                     std::to_string(columns.size()) + " columns and a thread number");
        }
        Row row = readRow(line, cells, columns, piece.position);
        row.consumer = piece.consumer;
        block.consumers.insert(piece.consumer);
        block.threadRows.push_back(std::move(row));
    }
    return true;
}

std::vector<Block> ConsumerReader::read()
{
    std::vector<Block> blocks;
    std::optional<Command> command;
    std::string banner;
    std::vector<std::string> columns;
    std::vector<Cell> cells;
    for (size_t i = 0; i < m_lines.size(); ++i) {
        const TextLine &line = m_lines[i];
        const std::string_view t = trimmed(line.text);
        if (isKafkaMetricsHeader(t)) {
            KafkaMetricsBlock metrics;
            i = readKafkaMetrics(m_lines, i, metrics, m_warnings) - 1;
            if (!blocks.empty())
                blocks.back().metrics = std::move(metrics);
            continue;
        }
        if (startsWith(t, "==>")) {
            banner = std::string(trimmed(t.substr(3)));
            continue;
        }
        if (auto args = commandArgs(t, {"kafka-consumer-perf-test", "kafka-share-consumer-perf-test"})) {
            const bool share = commandArgs(t, {"kafka-share-consumer-perf-test"}).has_value();
            command = Command{std::string(t), std::move(*args), line.number, share};
            continue;
        }
        if (t.find("WARNING: Exiting before consuming the expected number") !=
            std::string_view::npos) {
            m_warnings.push_back({"incomplete-run", line.number,
                                  "the consumer timed out before reading every record it "
                                  "expected"});
            continue;
        }
        if (isHeader(t)) {
            columns.clear();
            m_known.clear();
            splitCells(t, cells);
            for (const Cell &c : cells) {
                columns.emplace_back(c.text);
                m_known.push_back(knownColumn(c.text));
            }
            Block block;
            block.name = banner;
            banner.clear();
            block.headerLine = line.number;
            block.detailed = std::find(columns.begin(), columns.end(), "time") != columns.end();
            block.share = isShareHeader(columns);
            block.command = std::move(command);
            command.reset();
            for (const std::string &c : columns) {
                if (std::find(std::begin(kKnownColumns), std::end(kKnownColumns), c) ==
                    std::end(kKnownColumns))
                    m_warnings.push_back({"ignored-column", line.number,
                                          "column '" + c + "' is not one Plimsoll reads; ignored"});
            }
            blocks.push_back(std::move(block));
            continue;
        }
        if (columns.empty() || t.empty())
            continue;
        if (blocks.back().share) {
            // A thread's own summary: counted, its numbers are in the summary row after it.
            if (startsWith(t, kThreadSummary) && t.find(kThreadSummaryEnd) != std::string_view::npos) {
                if (const int n = threadNumber(t.substr(kThreadSummary.size(),
                                                        t.find(' ', kThreadSummary.size()) -
                                                            kThreadSummary.size())))
                    blocks.back().consumers.insert(n);
                continue;
            }
            if (readThreadRows(line, t, columns, blocks.back()))
                continue;
        }
        // A data row has the header's number of cells and starts with a date.
        splitCells(t, cells);
        if (cells.size() != columns.size() || cells.front().text.size() < 10 ||
            !std::isdigit(static_cast<unsigned char>(cells.front().text.front())))
            continue;
        blocks.back().rows.push_back(readRow(line, cells, columns, 0));
    }
    return blocks;
}

double value(const Row &row, size_t column, double fallback = 0)
{
    const double *v = row.find(column);
    return v ? *v : fallback;
}

// A row's catalog metrics: the rates as printed.
struct RowMetric
{
    size_t column; // in kKnownColumns
    const char *metric;
    double scale;
};
constexpr RowMetric kRowMetrics[] = {
    {knownColumn("nMsg.sec"), "records_per_s", 1.0},
    {knownColumn("MB.sec"), "bytes_per_s", kMiB},
    {knownColumn("data.consumed.in.nMsg"), "consumer.records_consumed", 1.0},
    {knownColumn("data.consumed.in.MB"), "consumer.bytes_consumed", kMiB},
    {knownColumn("rebalance.time.ms"), "consumer.rebalance_time_s", 1e-3},
    {knownColumn("fetch.time.ms"), "consumer.fetch_time_s", 1e-3},
    {knownColumn("fetch.nMsg.sec"), "consumer.fetch_records_per_s", 1.0},
    {knownColumn("fetch.MB.sec"), "consumer.fetch_bytes_per_s", kMiB},
};
constexpr size_t kRecords = knownColumn("data.consumed.in.nMsg"),
                 kMB = knownColumn("data.consumed.in.MB"), kRate = knownColumn("nMsg.sec");

void appendRowMetrics(const Row &row, std::vector<MetricValue> &out)
{
    for (const RowMetric &m : kRowMetrics) {
        if (const double *v = row.find(m.column))
            out.push_back({m.metric, *v * m.scale});
    }
}

// One series per row metric that some row has, in the order of their names.
std::vector<SeriesRecord> detailedSeries(const std::vector<Row> &rows)
{
    std::vector<SeriesRecord> series(std::size(kRowMetrics));
    const double t0 = utcSeconds(rows.front().time);
    for (const Row &row : rows) {
        const double t = utcSeconds(row.time) - t0;
        for (size_t i = 0; i < std::size(kRowMetrics); ++i)
            if (const double *v = row.find(kRowMetrics[i].column))
                series[i].samples.push_back({t, *v * kRowMetrics[i].scale});
    }
    for (size_t i = 0; i < series.size(); ++i)
        series[i].name = kRowMetrics[i].metric;
    std::erase_if(series, [](const SeriesRecord &s) { return s.samples.empty(); });
    std::sort(series.begin(), series.end(),
              [](const SeriesRecord &a, const SeriesRecord &b) { return a.name < b.name; });
    return series;
}

ScenarioRecord detailedScenario(const Block &block, const std::string &name)
{
    ScenarioRecord sc;
    sc.name = name;
    sc.kind = "consumer";
    sc.line = block.rows.back().line;
    const Row &first = block.rows.front();
    const Row &last = block.rows.back();
    const double records = value(last, kRecords);
    const double mb = value(last, kMB);
    // The first row's interval began before its time: its records over its own rate.
    const double firstRate = value(first, kRate);
    const double firstInterval = firstRate > 0 ? value(first, kRecords) / firstRate : 0;
    const double elapsed = utcSeconds(last.time) - utcSeconds(first.time) + firstInterval;
    if (elapsed > 0) {
        sc.metrics.push_back({"records_per_s", records / elapsed});
        sc.metrics.push_back({"bytes_per_s", mb * kMiB / elapsed});
    }
    sc.metrics.push_back({"consumer.records_consumed", records});
    sc.metrics.push_back({"consumer.bytes_consumed", mb * kMiB});
    sc.provenance = "detailed stats rows " + std::to_string(first.line) + "-" +
                    std::to_string(last.line) +
                    ": totals read from the last cumulative row; records_per_s and bytes_per_s "
                    "inferred as totals over the rows' time span";
    sc.series = detailedSeries(block.rows);
    return sc;
}

void dropEmptyBlocks(std::vector<Block> &blocks, std::vector<ImportWarning> &warnings)
{
    std::erase_if(blocks, [&](const Block &b) {
        const bool empty = b.rows.empty() && b.threadRows.empty();
        if (empty)
            warnings.push_back({"no-rows", b.headerLine, "a header without data rows"});
        return empty;
    });
}

// The share consumer threads' interval rows as series of the whole consumer: at each
// interval that every thread reported, their rates summed and their cumulative records added,
// at the latest thread's end time (the threads report together, milliseconds apart).
std::vector<SeriesRecord> threadSeries(const Block &block)
{
    std::map<int, std::vector<const Row *>> byThread;
    double t0 = std::numeric_limits<double>::infinity();
    for (const Row &row : block.threadRows) {
        byThread[row.consumer].push_back(&row);
        t0 = std::min(t0, utcSeconds(row.time));
    }
    size_t intervals = std::numeric_limits<size_t>::max();
    for (const auto &[thread, rows] : byThread)
        intervals = std::min(intervals, rows.size());
    SeriesRecord rate{"records_per_s", {}}, bytes{"bytes_per_s", {}}, records{"consumer.records_consumed", {}};
    for (size_t k = 0; k < intervals; ++k) {
        double end = 0, r = 0, mb = 0, n = 0;
        for (const auto &[thread, rows] : byThread) {
            end = std::max(end, rows[k]->endS);
            r += value(*rows[k], kRate);
            mb += value(*rows[k], knownColumn("MB.sec"));
            n += value(*rows[k], kRecords);
        }
        rate.samples.push_back({end - t0, r});
        bytes.samples.push_back({end - t0, mb * kMiB});
        records.samples.push_back({end - t0, n});
    }
    return {bytes, records, rate};
}

// A share consumer block cut short of its summary row: the totals of the threads' last rows
// over the span of all their rows.
ScenarioRecord threadTotals(const Block &block, const std::string &name)
{
    std::map<int, const Row *> last;
    double start = std::numeric_limits<double>::infinity(), end = 0;
    for (const Row &row : block.threadRows) {
        last[row.consumer] = &row;
        start = std::min(start, utcSeconds(row.time));
        end = std::max(end, row.endS);
    }
    double records = 0, mb = 0;
    for (const auto &[thread, row] : last) {
        records += value(*row, kRecords);
        mb += value(*row, kMB);
    }
    ScenarioRecord sc;
    sc.name = name;
    sc.kind = "consumer";
    sc.line = block.threadRows.back().line;
    if (end > start) {
        sc.metrics.push_back({"records_per_s", records / (end - start)});
        sc.metrics.push_back({"bytes_per_s", mb * kMiB / (end - start)});
    }
    sc.metrics.push_back({"consumer.records_consumed", records});
    sc.metrics.push_back({"consumer.bytes_consumed", mb * kMiB});
    sc.provenance = "share consumer rows " + std::to_string(block.threadRows.front().line) + "-" +
                    std::to_string(sc.line) +
                    " (no summary row): totals of each thread's last cumulative row over the rows' time span";
    return sc;
}

// Scenario names in file order: a block's banner, else "consumer" when the file has one
// summary, else "consumer-N" by the summary's place; a repeated name gets "-2", "-3", ….
class ScenarioNames
{
public:
    explicit ScenarioNames(const std::vector<Block> &blocks)
    {
        for (const Block &b : blocks)
            m_summaries += b.detailed || b.rows.empty() ? 1 : b.rows.size();
    }
    std::string next(const Block &b)
    {
        ++m_ordinal;
        const std::string base = b.share ? "share-consumer" : "consumer";
        std::string name = !b.name.empty()       ? b.name
                           : m_summaries == 1 ? base
                                              : base + "-" + std::to_string(m_ordinal);
        if (++m_used[name] > 1)
            name += "-" + std::to_string(m_used[name]);
        return name;
    }

private:
    size_t m_summaries = 0;
    size_t m_ordinal = 0;
    std::map<std::string, int> m_used;
};

// One scenario for a detailed-stats block, one per summary row otherwise.
std::vector<ScenarioRecord> blockScenarios(const Block &b, ScenarioNames &names)
{
    std::vector<ScenarioRecord> scenarios;
    if (b.detailed) {
        scenarios.push_back(detailedScenario(b, names.next(b)));
        return scenarios;
    }
    if (b.rows.empty()) {
        scenarios.push_back(threadTotals(b, names.next(b)));
        scenarios.back().series = threadSeries(b);
        return scenarios;
    }
    for (const Row &row : b.rows) {
        ScenarioRecord sc;
        sc.name = names.next(b);
        sc.kind = "consumer";
        sc.line = row.line;
        appendRowMetrics(row, sc.metrics);
        sc.provenance = "summary row " + std::to_string(row.line);
        scenarios.push_back(std::move(sc));
    }
    if (!b.threadRows.empty()) {
        scenarios.front().series = threadSeries(b);
        scenarios.front().provenance += "; series from the share consumer threads' rows " +
                                        std::to_string(b.threadRows.front().line) + "-" +
                                        std::to_string(b.threadRows.back().line);
    }
    return scenarios;
}

// The consumers a block's output or command states (share consumer threads), and the records
// its command asks for.
void applyCommand(const Block &b, ScenarioRecord &sc)
{
    std::optional<int64_t> threads;
    if (b.command)
        threads = integerOption(b.command->args, {"--threads"});
    if (!b.consumers.empty())
        threads = int64_t(*b.consumers.rbegin());
    if (threads && *threads > 0) {
        sc.topology.consumers = threads;
    } else {
        sc.topology.consumers = 1;
        sc.topology.inferred.push_back("consumers");
    }
    if (!b.command)
        return;
    if (const auto n = integerOption(b.command->args, {"--num-records", "--messages"}); n && *n > 0)
        sc.metrics.push_back({"consumer.records_requested", double(*n)});
    sc.provenance += "; after the command on line " + std::to_string(b.command->line) + ": " + b.command->text;
}

// The blocks' scenarios, a --print-metrics block's metrics on the scenario before it.
void addScenarios(const std::vector<Block> &blocks, RunRecord &run,
                  std::vector<ImportWarning> &warnings)
{
    ScenarioNames names(blocks);
    std::vector<double> rates;
    for (const Block &b : blocks) {
        std::vector<ScenarioRecord> scenarios = blockScenarios(b, names);
        for (const Row &row : b.rows)
            rates.push_back(value(row, kRate));
        if (b.metrics) {
            if (!b.metrics->clientVersion.empty())
                run.toolVersion = b.metrics->clientVersion;
            for (const MetricValue &m : b.metrics->metrics)
                scenarios.back().metrics.push_back(m);
        }
        for (auto &sc : scenarios) {
            applyCommand(b, sc);
            run.scenarios.push_back(std::move(sc));
        }
    }
    warnIfZeroOnly(rates, 0, "nMsg.sec", warnings);
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    for (const TextLine &line : splitLines(head)) {
        if (isHeader(line.text))
            return 80;
    }
    return 0;
}

Resemblance resemblance(std::string_view head)
{
    if (head.find("data.consumed.in") != std::string_view::npos ||
        head.find("nMsg.sec") != std::string_view::npos)
        return {60, "names consumer-perf columns but has no header line with both "
                    "data.consumed.in.* and nMsg.sec"};
    if (head.find("start.time") != std::string_view::npos)
        return {20, "has a start.time column but none of kafka-consumer-perf-test's rate columns"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &, const ImportOptions &,
                   ImportResult result)
{
    const std::vector<TextLine> lines = splitLines(text);
    std::vector<Block> blocks;
    try {
        blocks = ConsumerReader(lines, result.warnings).read();
    } catch (const Failure &f) {
        result.error = f.error;
        return result;
    }
    dropEmptyBlocks(blocks, result.warnings);
    if (blocks.empty()) {
        result.error = ImportError{"holds no kafka-consumer-perf-test header with data rows", 0, -1, {}};
        return result;
    }
    RunRecord run;
    run.line = 1;
    const bool share = std::all_of(blocks.begin(), blocks.end(), [](const Block &b) {
        return b.share || (b.command && b.command->share);
    });
    run.tool = share ? "kafka-share-consumer-perf-test" : "kafka-consumer-perf-test";
    run.target = "kafka";
    run.runKey = contentRunKey("kafka-consumer-perf", text);
    const Row &first = blocks.front().rows.empty() ? blocks.front().threadRows.front()
                                                   : blocks.front().rows.front();
    run.timestamp = first.time;
    result.warnings.push_back({"timestamp-without-zone", first.line,
                               "the tool prints local times without a zone; read as UTC"});
    addScenarios(blocks, run, result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace

const Importer &kafkaConsumerPerfImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
