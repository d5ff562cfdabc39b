// SUMMARY.txt of korvet-dist's run-comprehensive-benchmark.sh: a title block, the test
// configuration, the parameter matrix and a fixed-width table, one row per test.
#include "importers/korvet/korvetdistparts.h"

#include <map>

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

} // namespace

void readKorvetDistSummary(const std::vector<TextLine> &lines, RunRecord &run,
                           std::vector<ImportWarning> &warnings)
{
    Topology shared;
    std::vector<std::string> header;
    std::vector<size_t> starts; // header columns' start offsets, for rows with empty cells
    size_t i = 0;
    for (; i < lines.size(); ++i) {
        const TextLine &line = lines[i];
        const std::string_view t = trimmed(line.text);
        const auto [key, value] = korvetDistKeyValue(t);
        if (key == "Timestamp" && run.timestamp.empty()) {
            const auto ts = localTimeAsUtc(value);
            if (!ts)
                korvetDistFail(line, value, "Timestamp", "'" + value + "' is not a time");
            run.timestamp = *ts;
            warnings.push_back({"timestamp-without-zone", line.number,
                                "the script writes local time without a zone; read as UTC"});
        } else if (key == "Partitions") {
            if (const auto v = wholeCount(korvetDistNumber(value)))
                shared.partitions = *v;
        } else if (key == "Record Size") {
            const auto bytes = korvetDistBytes(value, 1); // "1024 bytes", "1 KB"
            if (!bytes)
                korvetDistFail(line, value, "Record Size",
                               "'" + value + "' is not a size (a number and B, KB, MB or GB)");
            if (const auto v = wholeCount(bytes))
                shared.recordSizeBytes = *v;
        } else if (key == "Topic") {
            run.tuning["topic"] = value;
        } else if (key == "Messages per test") {
            if (const auto v = wholeCount(korvetDistNumber(value)))
                run.tuning["num-records"] = *v;
        } else if (startsWith(t, "Producers ") && t.find("Throughput(rec/s)") != std::string_view::npos) {
            header = words(t);
            // The headers with a space in them.
            for (size_t c = 0; c + 1 < header.size(); ++c) {
                if ((header[c] == "Korvet" && header[c + 1] == "CPU%") ||
                    (header[c] == "Total" && header[c + 1] == "Msgs")) {
                    header[c] += " " + header[c + 1];
                    header.erase(header.begin() + long(c) + 1);
                }
            }
            const size_t indent = line.text.find_first_not_of(" \t");
            for (const std::string &h : header)
                starts.push_back(line.text.find(h, starts.empty() ? indent : starts.back() + 1));
            ++i;
            break;
        }
    }
    if (header.empty())
        korvetDistFail(lines.empty() ? TextLine{} : lines.back(), "", "Results Summary",
                       "the summary has no results table (a \"Producers  Batch(msg)  …\" header)");

    std::map<std::string, size_t> column;
    for (size_t c = 0; c < header.size(); ++c)
        column[header[c]] = c;

    for (; i < lines.size(); ++i) {
        const TextLine &line = lines[i];
        const std::string_view t = trimmed(line.text);
        if (t.empty())
            break;
        if (t.find_first_not_of('-') == std::string_view::npos)
            continue;
        std::vector<std::string> cells = words(t);
        int64_t lineNo = line.number;
        // The script greps "Total messages:" from both the configuration and the aggregate
        // section, so that cell holds two lines and the row continues on the next line.
        if (cells.size() < header.size() && i + 1 < lines.size() &&
            !trimmed(lines[i + 1].text).empty()) {
            const auto more = words(lines[i + 1].text);
            if (cells.size() + more.size() == header.size() + 1 && !more.empty() &&
                more.front() == cells.back()) {
                cells.insert(cells.end(), more.begin() + 1, more.end());
                warnings.push_back({"joined-row", lineNo,
                                    "the row continues on the next line (the script printed "
                                    "'Total messages' twice); joined"});
                ++i;
            }
        }
        if (cells.size() != header.size()) {
            // Empty cells (single-producer tests have no aggregate): cut at the header's columns.
            cells.clear();
            for (size_t c = 0; c < starts.size(); ++c) {
                const size_t from = starts[c];
                const size_t to = c + 1 < starts.size() ? starts[c + 1] : std::string_view::npos;
                cells.emplace_back(from < line.text.size()
                                       ? trimmed(line.text.substr(from, to == std::string_view::npos
                                                                            ? to
                                                                            : to - from))
                                       : std::string_view());
            }
        }
        auto cell = [&](const char *name) -> std::string {
            const auto it = column.find(name);
            return it == column.end() ? std::string() : cells[it->second];
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
        sc.line = lineNo;
        sc.topology = shared;
        const auto producers = numberIn("Producers");
        const auto batch = numberIn("Batch(msg)");
        const auto pool = numberIn("Pool");
        if (!producers || !batch || !pool || !wholeCount(producers))
            korvetDistFail(line, "", "Producers", "the row does not name producers, batch and pool");
        sc.topology.producers = *wholeCount(producers);
        sc.name = "producers-" + cell("Producers") + "_batch-" + cell("Batch(msg)") + "msg_pool-" +
                  cell("Pool");
        if (const auto v = numberIn("Throughput(rec/s)"))
            sc.metrics.push_back({"records_per_s", *v});
        if (const auto v = numberIn("Throughput(MB/s)"))
            sc.metrics.push_back({"bytes_per_s", *v * kMiB});
        if (const auto v = numberIn("Total Msgs"))
            sc.metrics.push_back({"korvet_dist.total_messages", *v});
        if (const auto v = numberIn("Duration(s)"))
            sc.metrics.push_back({"korvet_dist.duration_s", *v});
        if (const auto v = numberIn("Korvet CPU%"))
            sc.metrics.push_back({"korvet.process_cpu", *v / 100});
        if (sc.metrics.empty() || !sc.metric("records_per_s"))
            warnings.push_back({"no-throughput", lineNo,
                                "test " + sc.name + " has no aggregate throughput in the summary"});
        sc.provenance = "SUMMARY.txt row " + std::to_string(lineNo);
        run.scenarios.push_back(std::move(sc));
    }
    if (run.scenarios.empty())
        warnings.push_back({"no-scenarios", 0, "the summary table has no rows"});
}

} // namespace plimsoll
