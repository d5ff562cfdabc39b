#include "importers/rdkafkaperformanceimporter.h"

#include "importers/linebounds.h"
#include "importers/textsource.h"

#include <QIODevice>

#include <regex>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;
constexpr double kMB = 1e6; // rdkafka_performance: bytes / microseconds

const std::regex &producerPattern()
{
    static const std::regex re(
        R"(% (\d+) messages produced \((\d+) bytes\), (\d+) delivered \(offset (-?\d+), (\d+) failed\) )"
        R"(in (\d+) ?ms: (\d+) msgs/s and ([0-9.]+) MB/s(?:, (\d+) produce failures)?)"
        R"((?:, (\d+) in queue)?(?:, (\S+) compression)?)");
    return re;
}

const std::regex &consumerPattern()
{
    static const std::regex re(
        R"(% (\d+) messages \((\d+) bytes\) consumed in (\d+) ?ms: (\d+) msgs/s \(([0-9.]+) MB/s\))"
        R"((?:, latency curr/avg/lo/hi ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+) ?ms)?)");
    return re;
}

struct Sample
{
    int64_t line = 0;
    std::vector<MetricValue> metrics;
    double elapsedS = 0;
};

double num(const std::ssub_match &m)
{
    return m.matched ? parseNumber(m.str()).value_or(0) : 0;
}

ScenarioRecord scenarioOf(const std::string &name, const std::vector<Sample> &samples)
{
    ScenarioRecord sc;
    sc.name = name;
    sc.kind = name;
    sc.line = samples.back().line;
    sc.metrics = samples.back().metrics;
    sc.provenance = "last summary line " + std::to_string(sc.line);
    if (samples.size() > 1) {
        for (const MetricValue &m : samples.back().metrics) {
            if (m.name != "records_per_s" && m.name != "bytes_per_s")
                continue;
            SeriesRecord s{m.name, {}};
            for (const Sample &sample : samples) {
                for (const MetricValue &v : sample.metrics)
                    if (v.name == m.name)
                        s.samples.push_back({sample.elapsedS, v.value});
            }
            sc.series.push_back(std::move(s));
        }
    }
    return sc;
}

} // namespace

std::string RdkafkaPerformanceImporter::description() const
{
    return "librdkafka rdkafka_performance summary output (producer and consumer lines; "
           "MB/s = 10^6 B/s)";
}

std::string RdkafkaPerformanceImporter::detectionRule() const
{
    return "a line \"% N messages produced (B bytes), …\" or \"% N messages (B bytes) consumed in …\"";
}

int RdkafkaPerformanceImporter::sniff(std::string_view head) const
{
    const std::string text(head);
    if (std::regex_search(text, std::regex(R"(% \d+ messages produced \(\d+ bytes\))")) ||
        std::regex_search(text, std::regex(R"(% \d+ messages \(\d+ bytes\) consumed in)")))
        return 85;
    return 0;
}

Resemblance RdkafkaPerformanceImporter::resemblance(std::string_view head) const
{
    if (head.find("msgs/s") != std::string_view::npos)
        return {50, "mentions msgs/s but has no \"% N messages produced (B bytes), …\" or "
                    "\"% N messages (B bytes) consumed in …\" summary line"};
    return {};
}

ImportResult RdkafkaPerformanceImporter::parse(QIODevice &in, const ImportOptions &,
                                               const Progress &progress) const
{
    ImportResult result;
    std::string text;
    if (!readWholeSource(in, progress, kMaxBytes, "rdkafka_performance output", text, result))
        return result;
    if (!refuseLongLines(text, "rdkafka_performance output", result))
        return result;
    std::vector<Sample> produced, consumed;
    for (const TextLine &line : splitLines(text)) {
        const std::string s(line.text);
        std::smatch m;
        if (std::regex_search(s, m, producerPattern())) {
            Sample p;
            p.line = line.number;
            p.elapsedS = num(m[6]) * 1e-3;
            p.metrics = {{"records_per_s", num(m[7])},
                         {"bytes_per_s", num(m[8]) * kMB},
                         {"producer.records_sent", num(m[1])},
                         {"producer.bytes_sent", num(m[2])},
                         {"producer.records_delivered", num(m[3])},
                         {"producer.delivery_failures", num(m[5])},
                         {"producer.elapsed_s", num(m[6]) * 1e-3}};
            if (m[9].matched)
                p.metrics.push_back({"errors", num(m[9])});
            if (m[10].matched)
                p.metrics.push_back({"producer.in_queue", num(m[10])});
            produced.push_back(std::move(p));
        } else if (std::regex_search(s, m, consumerPattern())) {
            Sample c;
            c.line = line.number;
            c.elapsedS = num(m[3]) * 1e-3;
            c.metrics = {{"records_per_s", num(m[4])},
                         {"bytes_per_s", num(m[5]) * kMB},
                         {"consumer.records_consumed", num(m[1])},
                         {"consumer.bytes_consumed", num(m[2])},
                         {"consumer.elapsed_s", num(m[3]) * 1e-3}};
            if (m[6].matched) {
                // Wall-clock differences across hosts: includes their clock skew.
                c.metrics.push_back({"e2e.latency_avg_s", num(m[7]) * 1e-3});
                c.metrics.push_back({"e2e.latency_min_s", num(m[8]) * 1e-3});
                c.metrics.push_back({"e2e.latency_max_s", num(m[9]) * 1e-3});
            }
            consumed.push_back(std::move(c));
        } else if (startsWith(trimmed(line.text), "% ") &&
                   (s.find("messages produced") != std::string::npos ||
                    s.find(" consumed in ") != std::string::npos)) {
            ImportError e;
            e.message = "is not an rdkafka_performance summary line this importer reads";
            e.line = line.number;
            e.column = int64_t(line.text.find('%')) + 1;
            e.offset = line.offset + e.column - 1;
            e.field = "summary";
            result.error = e;
            return result;
        }
    }
    if (produced.empty() && consumed.empty()) {
        result.error = ImportError{"holds no rdkafka_performance summary line", 0, -1, {}};
        return result;
    }
    RunRecord run;
    run.line = 1;
    run.tool = "rdkafka_performance";
    run.target = "kafka";
    run.runKey = contentRunKey("rdkafka-performance", text);
    run.timestamp = inferredRunTime(in, result.warnings);
    std::vector<double> rates;
    if (!produced.empty()) {
        run.scenarios.push_back(scenarioOf("producer", produced));
        rates.push_back(produced.back().metrics.front().value);
    }
    if (!consumed.empty()) {
        run.scenarios.push_back(scenarioOf("consumer", consumed));
        rates.push_back(consumed.back().metrics.front().value);
    }
    warnIfZeroOnly(rates, 0, "msgs/s", result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace plimsoll
