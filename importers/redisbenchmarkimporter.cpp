#include "importers/redisbenchmarkimporter.h"

#include "importers/linebounds.h"
#include "importers/textsource.h"

#include <QIODevice>

#include <map>
#include <regex>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 64LL * 1024 * 1024;

struct Test
{
    std::string name;
    int64_t line = 0;
    std::optional<int64_t> clients, payloadBytes, requests;
    std::optional<double> seconds;
    std::vector<MetricValue> metrics;
    std::vector<std::pair<double, double>> cumulative; // (percent, ms), as printed
    bool inferredClients = false;
};

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

std::optional<int64_t> fromUri(const std::string &uri, const std::regex &re)
{
    const size_t slash = uri.find_last_of('/');
    const std::string file = slash == std::string::npos ? uri : uri.substr(slash + 1);
    std::smatch m;
    if (!std::regex_search(file, m, re))
        return std::nullopt;
    for (size_t i = 1; i < m.size(); ++i)
        if (m[i].matched)
            return std::stoll(m[i]);
    return std::nullopt;
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

} // namespace

std::string RedisBenchmarkImporter::description() const
{
    return "redis-benchmark output: --csv (with or without header), -q, and the full text "
           "report (6.2+ summary or the older cumulative distribution)";
}

std::string RedisBenchmarkImporter::detectionRule() const
{
    return "a \"test\",\"rps\" CSV header, \"====== CMD ======\" sections, or \"CMD: N requests "
           "per second\" lines";
}

int RedisBenchmarkImporter::sniff(std::string_view head) const
{
    if (startsWith(trimmed(head), "\"test\",\"rps\""))
        return 95;
    const std::string text(head.substr(0, 16384));
    static const std::regex section(R"((^|[\r\n])====== .+ ======)");
    static const std::regex quiet(R"((^|[\r\n])[A-Za-z_][^\r\n:]*: [0-9.]+ requests per second)");
    static const std::regex oldCsv(R"(^\s*"[A-Z][A-Z_0-9 ()a-z]*","[0-9.]+"\s*(\r?\n|$))");
    if (std::regex_search(text, section) && text.find("requests") != std::string::npos)
        return 90;
    if (std::regex_search(text, quiet))
        return 80;
    if (std::regex_search(text, oldCsv))
        return 60;
    return 0;
}

Resemblance RedisBenchmarkImporter::resemblance(std::string_view head) const
{
    if (head.find("requests per second") != std::string_view::npos)
        return {50, "mentions requests per second but has no \"CMD: N requests per second\" "
                    "line or \"====== CMD ======\" section"};
    return {};
}

ImportResult RedisBenchmarkImporter::parse(QIODevice &in, const ImportOptions &options,
                                           const Progress &progress) const
{
    ImportResult result;
    std::string text;
    if (!readWholeSource(in, progress, kMaxBytes, "redis-benchmark output", text, result))
        return result;
    if (!refuseLongLines(text, "redis-benchmark output", result))
        return result;
    static const std::regex sectionRe(R"(^====== (.+) ======\s*$)");
    static const std::regex quietRe(
        R"(^(.+): ([0-9.]+) requests per second(?:, p50=([0-9.]+) msec)?\s*$)");
    static const std::regex completedRe(R"(^(\d+) requests completed in ([0-9.]+) seconds)");
    static const std::regex clientsRe(R"(^(\d+) parallel clients)");
    static const std::regex payloadRe(R"(^(\d+) bytes payload)");
    static const std::regex rpsRe(R"(^(?:throughput summary: )?([0-9.]+) requests per second)");
    static const std::regex percentRe(R"(^([0-9.]+)% <= ([0-9.]+) milliseconds)");

    std::vector<Test> tests;
    std::vector<std::string> csvHeader;
    Test *section = nullptr;
    bool summaryTable = false;
    for (const TextLine &line : splitLines(text)) {
        const std::string_view t = trimmed(line.text);
        if (t.empty())
            continue;
        const std::string s(t);
        std::smatch m;
        if (t.front() == '"') {
            const auto cells = csvCells(t);
            if (!cells)
                continue;
            if (csvHeader.empty() && !cells->empty() && (*cells)[0] == "test") {
                csvHeader = *cells;
                continue;
            }
            if (cells->size() < 2)
                continue;
            Test test;
            test.name = (*cells)[0];
            test.line = line.number;
            const std::vector<std::string> names =
                csvHeader.empty() ? std::vector<std::string>{"test", "rps"} : csvHeader;
            for (size_t i = 1; i < cells->size() && i < names.size(); ++i) {
                const auto v = parseNumber((*cells)[i]);
                if (!v) {
                    ImportError e = lineError(line, names[i], "is not a number");
                    result.error = e;
                    return result;
                }
                const std::string &n = names[i];
                if (n == "rps")
                    test.metrics.push_back({"records_per_s", *v});
                else if (n.size() > 11 && n.ends_with("_latency_ms")) {
                    const std::string what = n.substr(0, n.size() - 11);
                    if (*v < 0)
                        result.warnings.push_back({"negative-time", line.number, n + " is negative"});
                    test.metrics.push_back({what == "min" ? "redis.latency_min_s"
                                                          : "latency_" + what + "_s",
                                            ms(*v)});
                }
            }
            tests.push_back(std::move(test));
            section = nullptr;
            continue;
        }
        if (std::regex_match(s, m, sectionRe)) {
            tests.push_back({});
            section = &tests.back();
            section->name = m[1];
            section->line = line.number;
            summaryTable = false;
            continue;
        }
        if (section) {
            if (std::regex_search(s, m, completedRe)) {
                section->requests = std::stoll(m[1]);
                section->seconds = parseNumber(m[2].str());
            } else if (std::regex_search(s, m, clientsRe)) {
                section->clients = std::stoll(m[1]);
            } else if (std::regex_search(s, m, payloadRe)) {
                section->payloadBytes = std::stoll(m[1]);
            } else if (std::regex_search(s, m, percentRe)) {
                section->cumulative.push_back({*parseNumber(m[1].str()), *parseNumber(m[2].str())});
            } else if (std::regex_search(s, m, rpsRe)) {
                std::erase_if(section->metrics, [](const MetricValue &v) { return v.name == "records_per_s"; });
                section->metrics.push_back({"records_per_s", *parseNumber(m[1].str())});
            } else if (startsWith(t, "avg") && t.find("p50") != std::string_view::npos) {
                summaryTable = true;
            } else if (summaryTable) {
                summaryTable = false;
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
                if (v.size() != 6) {
                    result.error = lineError(line, "latency summary",
                                             "has " + std::to_string(v.size()) +
                                                 " numbers; avg, min, p50, p95, p99, max expected");
                    return result;
                }
                section->metrics.push_back({"latency_avg_s", ms(v[0])});
                section->metrics.push_back({"redis.latency_min_s", ms(v[1])});
                section->metrics.push_back({"latency_p50_s", ms(v[2])});
                section->metrics.push_back({"latency_p95_s", ms(v[3])});
                section->metrics.push_back({"latency_p99_s", ms(v[4])});
                section->metrics.push_back({"latency_max_s", ms(v[5])});
            }
            continue;
        }
        if (std::regex_match(s, m, quietRe) && s.find("rps=") == std::string::npos) {
            Test test;
            test.name = m[1];
            test.line = line.number;
            test.metrics.push_back({"records_per_s", *parseNumber(m[2].str())});
            if (m[3].matched)
                test.metrics.push_back({"latency_p50_s", ms(*parseNumber(m[3].str()))});
            tests.push_back(std::move(test));
        }
    }
    std::erase_if(tests, [](const Test &t) { return t.metrics.empty() && t.cumulative.empty(); });
    if (tests.empty()) {
        result.error = ImportError{"holds no redis-benchmark result", 0, -1, {}};
        return result;
    }

    static const std::regex clientsInName(R"((?:clients?|conns?)[_-]?(\d+)|(?:^|[_-])c(\d+)(?:[_.-]|$))");
    static const std::regex pipelineInName(R"((?:pipeline|(?:^|[_-])P)[_-]?(\d+))");
    const std::optional<int64_t> uriClients = fromUri(options.uri, clientsInName);
    const std::optional<int64_t> uriPipeline = fromUri(options.uri, pipelineInName);

    RunRecord run;
    run.line = 1;
    run.tool = "redis-benchmark";
    run.target = "redis";
    run.runKey = contentRunKey(name(), text);
    run.timestamp = inferredRunTime(in, result.warnings);
    std::vector<double> rates;
    std::map<std::string, int> seen;
    for (Test &t : tests) {
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
        if (t.clients) {
            sc.topology.clients = t.clients;
        } else if (uriClients) {
            sc.topology.clients = uriClients;
            sc.topology.inferred.push_back("clients");
        }
        if (sc.topology.clients)
            sc.topology.connections = sc.topology.clients; // one connection per client
        if (uriPipeline) {
            sc.topology.pipeline = uriPipeline;
            sc.topology.inferred.push_back("pipeline");
        }
        if (t.payloadBytes)
            sc.topology.recordSizeBytes = t.payloadBytes;
        sc.name = "redis-benchmark/" + t.name;
        if (sc.topology.clients)
            sc.name += "/c-" + std::to_string(*sc.topology.clients);
        if (sc.topology.pipeline)
            sc.name += "/P-" + std::to_string(*sc.topology.pipeline);
        if (int n = seen[sc.name]++; n > 0)
            sc.name += "/" + std::to_string(n + 1); // the same test twice in one file
        sc.provenance = "line " + std::to_string(t.line);
        if (auto r = sc.metric("records_per_s"))
            rates.push_back(*r);
        run.scenarios.push_back(std::move(sc));
    }
    warnIfZeroOnly(rates, 0, "requests per second", result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace plimsoll
