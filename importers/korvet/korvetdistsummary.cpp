// SUMMARY.txt of korvet-dist's run-comprehensive-benchmark.sh: a title block, the test
// configuration, the parameter matrix and a fixed-width table, one row per test.
#include "importers/korvet/korvetdistparts.h"

#include <map>
#include <tuple>

namespace plimsoll {

namespace {

// A count as the script printed it, when it is one: a double past int64's range converts
// with undefined behaviour (found by fuzz/), so such values are dropped like unreadable ones.
std::optional<int64_t> wholeCount(std::optional<double> v)
{
    if (v && *v >= 0 && *v < 9.0e18)
        return int64_t(*v);
    return std::nullopt;
}

std::vector<std::string> words(std::string_view s)
{
    std::vector<std::string> out;
    size_t pos = 0;
    while (true) {
        pos = s.find_first_not_of(" \t", pos);
        if (pos == std::string_view::npos)
            break;
        const size_t end = s.find_first_of(" \t", pos);
        out.emplace_back(s.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
        if (end == std::string_view::npos)
            break;
        pos = end;
    }
    return out;
}

// The results table's header: its columns by name (the two with a space in them joined) and
// where each starts, to cut a row with empty cells.
struct SummaryTable
{
    std::vector<std::string> header;
    std::vector<size_t> starts;
    std::map<std::string, size_t> column;

    explicit SummaryTable(std::string_view line)
    {
        const std::string_view t = trimmed(line);
        header = words(t);
        for (size_t c = 0; c + 1 < header.size(); ++c) {
            if ((header[c] == "Korvet" && header[c + 1] == "CPU%") ||
                (header[c] == "Total" && header[c + 1] == "Msgs")) {
                header[c] += " " + header[c + 1];
                header.erase(header.begin() + long(c) + 1);
            }
        }
        const size_t indent = line.find_first_not_of(" \t");
        for (const std::string &h : header)
            starts.push_back(line.find(h, starts.empty() ? indent : starts.back() + 1));
        for (size_t c = 0; c < header.size(); ++c)
            column[header[c]] = c;
    }

    static bool isHeader(std::string_view t)
    {
        return startsWith(t, "Producers ") && t.find("Throughput(rec/s)") != std::string_view::npos;
    }

    // Empty cells (single-producer tests have no aggregate): the row cut at the header's columns.
    std::vector<std::string> cutAtColumns(std::string_view line) const
    {
        std::vector<std::string> cells;
        for (size_t c = 0; c < starts.size(); ++c) {
            const size_t from = starts[c];
            const size_t to = c + 1 < starts.size() ? starts[c + 1] : std::string_view::npos;
            cells.emplace_back(
                from < line.size()
                    ? trimmed(line.substr(from, to == std::string_view::npos ? to : to - from))
                    : std::string_view());
        }
        return cells;
    }
};

class SummaryReader
{
public:
    SummaryReader(const std::vector<TextLine> &lines, RunRecord &run,
                  std::vector<ImportWarning> &warnings)
        : m_lines(lines), m_run(run), m_warnings(warnings)
    {
    }

    void read()
    {
        const SummaryTable table = readPreamble();
        for (++m_at; m_at < m_lines.size(); ++m_at) {
            const TextLine &line = m_lines[m_at];
            const std::string_view t = trimmed(line.text);
            if (t.empty())
                break;
            if (t.find_first_not_of('-') == std::string_view::npos)
                continue;
            const std::vector<std::string> cells = rowCells(table, line);
            m_run.scenarios.push_back(scenarioOfRow(table, line, cells));
        }
        if (m_run.scenarios.empty())
            m_warnings.push_back({"no-scenarios", 0, "the summary table has no rows"});
    }

private:
    // The title block and the configuration up to the results table's header, which it
    // returns; m_at is left on the header's line.
    SummaryTable readPreamble()
    {
        for (; m_at < m_lines.size(); ++m_at) {
            const TextLine &line = m_lines[m_at];
            const std::string_view t = trimmed(line.text);
            if (SummaryTable::isHeader(t))
                return SummaryTable(line.text);
            const auto [key, value] = korvetDistKeyValue(t);
            readSetting(line, key, value);
        }
        korvetDistFail(m_lines.empty() ? TextLine{} : m_lines.back(), "", "Results Summary",
                       "the summary has no results table (a \"Producers  Batch(msg)  …\" header)");
    }

    void readSetting(const TextLine &line, const std::string &key, const std::string &value)
    {
        if (key == "Timestamp" && m_run.timestamp.empty()) {
            const auto ts = localTimeAsUtc(value);
            if (!ts)
                korvetDistFail(line, value, "Timestamp", "'" + value + "' is not a time");
            m_run.timestamp = *ts;
            m_warnings.push_back({"timestamp-without-zone", line.number,
                                  "the script writes local time without a zone; read as UTC"});
        } else if (key == "Partitions") {
            if (const auto v = wholeCount(korvetDistNumber(value)))
                m_shared.partitions = *v;
        } else if (key == "Record Size") {
            const auto bytes = korvetDistBytes(value, 1); // "1024 bytes", "1 KB"
            if (!bytes)
                korvetDistFail(line, value, "Record Size",
                               "'" + value + "' is not a size (a number and B, KB, MB or GB)");
            if (const auto v = wholeCount(bytes))
                m_shared.recordSizeBytes = *v;
        } else if (key == "Topic") {
            m_run.tuning["topic"] = value;
        } else if (key == "Messages per test") {
            if (const auto v = wholeCount(korvetDistNumber(value)))
                m_run.tuning["num-records"] = *v;
        }
    }

    // A row's cells, by words, joined with the next line, or cut at the header's columns.
    std::vector<std::string> rowCells(const SummaryTable &table, const TextLine &line)
    {
        std::vector<std::string> cells = words(trimmed(line.text));
        const size_t columns = table.header.size();
        // The script greps "Total messages:" from both the configuration and the aggregate
        // section, so that cell holds two lines and the row continues on the next line.
        if (cells.size() < columns && m_at + 1 < m_lines.size() &&
            !trimmed(m_lines[m_at + 1].text).empty()) {
            const auto more = words(m_lines[m_at + 1].text);
            if (cells.size() + more.size() == columns + 1 && !more.empty() &&
                more.front() == cells.back()) {
                cells.insert(cells.end(), more.begin() + 1, more.end());
                m_warnings.push_back({"joined-row", line.number,
                                      "the row continues on the next line (the script printed "
                                      "'Total messages' twice); joined"});
                ++m_at;
            }
        }
        if (cells.size() != columns)
            cells = table.cutAtColumns(line.text);
        return cells;
    }

    ScenarioRecord scenarioOfRow(const SummaryTable &table, const TextLine &line,
                                 const std::vector<std::string> &cells)
    {
        auto cell = [&](const char *name) -> std::string {
            const auto it = table.column.find(name);
            return it == table.column.end() ? std::string() : cells[it->second];
        };
        auto numberIn = [&](const char *name) -> std::optional<double> {
            const std::string v = cell(name);
            if (v.empty() || v == "N/A")
                return std::nullopt;
            const auto n = korvetDistNumber(v);
            if (!n)
                korvetDistFail(line, v, name, "'" + v + "' is not a number");
            return n;
        };
        ScenarioRecord sc;
        sc.kind = "benchmark";
        sc.line = line.number;
        sc.topology = m_shared;
        const auto producers = numberIn("Producers");
        const auto batch = numberIn("Batch(msg)");
        const auto pool = numberIn("Pool");
        if (!producers || !batch || !pool || !wholeCount(producers))
            korvetDistFail(line, "", "Producers",
                           "the row does not name producers, batch and pool");
        sc.topology.producers = *wholeCount(producers);
        sc.name = "producers-" + cell("Producers") + "_batch-" + cell("Batch(msg)") + "msg_pool-" +
                  cell("Pool");
        // Column, metric, and the value's factor and divisor to SI (MB is MiB; % of a core).
        static const std::tuple<const char *, const char *, double, double> kColumns[] = {
            {"Throughput(rec/s)", "records_per_s", 1, 1},
            {"Throughput(MB/s)", "bytes_per_s", kMiB, 1},
            {"Total Msgs", "korvet_dist.total_messages", 1, 1},
            {"Duration(s)", "korvet_dist.duration_s", 1, 1},
            {"Korvet CPU%", "korvet.process_cpu", 1, 100}};
        for (const auto &[column, metric, factor, divisor] : kColumns)
            if (const auto v = numberIn(column))
                sc.metrics.push_back({metric, *v * factor / divisor});
        if (sc.metrics.empty() || !sc.metric("records_per_s"))
            m_warnings.push_back(
                {"no-throughput", line.number,
                 "test " + sc.name + " has no aggregate throughput in the summary"});
        sc.provenance = "SUMMARY.txt row " + std::to_string(line.number);
        return sc;
    }

    const std::vector<TextLine> &m_lines;
    RunRecord &m_run;
    std::vector<ImportWarning> &m_warnings;
    Topology m_shared;
    size_t m_at = 0; // the line being read
};

} // namespace

void readKorvetDistSummary(const std::vector<TextLine> &lines, RunRecord &run,
                           std::vector<ImportWarning> &warnings)
{
    SummaryReader(lines, run, warnings).read();
}

} // namespace plimsoll
