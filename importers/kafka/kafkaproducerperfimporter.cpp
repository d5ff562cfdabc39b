// kafka-producer-perf-test (Apache's ProducerPerformance) output: one run per file. Each final
// line closes a scenario with the periodic lines before it as series; several producers'
// outputs in one file become producer-1…N plus an "aggregate" scenario computed the way
// korvet-dist's benchmark script does (total records over the longest producer's duration,
// percentiles never combined). "==> …" banners name the scenarios instead (sequential steps,
// no aggregate); so do "$ kafka-producer-perf-test …" command lines (commandblocks.h), whose
// --record-size becomes record_size_bytes, --throughput producer.offered_records_per_s and the
// name producer/throughput-N/record-size-S. A run killed before its final line keeps its last periodic line, with a
// warning. A --print-metrics block becomes kafka.* metrics of the scenario it follows.

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/commandblocks.h"
#include "importers/kafka/kafkametrics.h"
#include "importers/kafka/kafkaproducerline.h"
#include "importers/textsource.h"
#include "model/core/textpattern.h"

#include <QIODevice>

#include <algorithm>
#include <map>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"kafka-producer-perf", "2",
                          "kafka-producer-perf-test output (periodic and final lines, steady-state line, harness prefixes, several producers, --print-metrics): one run, a scenario per producer",
                          "a line with \"N records sent, R records/sec (M MB/sec)\""},
                         "kafka-producer-perf-test output", kMaxBytes, TextInput::ToolOutput};

// One producer's output: its periodic lines, its final line(s), its client metrics.
struct Segment
{
    std::string name; // from a "==> …" banner
    std::vector<ProducerPerfLine> interim;
    std::vector<int64_t> interimLines;
    std::optional<ProducerPerfLine> final;
    int64_t finalLine = 0;
    std::optional<ProducerPerfLine> steady;
    int64_t steadyLine = 0;
    std::optional<KafkaMetricsBlock> metrics;
    // The "$ kafka-producer-perf-test …" line before the output (commandblocks.h).
    std::string command;
    std::vector<std::string> args;
    int64_t commandLine = 0;

    bool empty() const { return interim.empty() && !final && name.empty() && command.empty(); }
};

// "producer/throughput-20000" for a segment its command line describes: the offered rate is
// what an offered-load sweep varies, so the steps line up across files.
std::string commandName(const Segment &s)
{
    std::string name = "producer";
    if (const auto rate = optionValue(s.args, {"--throughput"}))
        name += "/throughput-" + (rate->starts_with("-") ? std::string("unlimited") : *rate);
    if (const auto size = integerOption(s.args, {"--record-size"}))
        name += "/record-size-" + std::to_string(*size);
    return name;
}

// The load its command line states: record size, offered rate, records asked for.
void applyCommand(const Segment &s, ScenarioRecord &sc)
{
    if (s.commandLine == 0)
        return;
    if (const auto size = integerOption(s.args, {"--record-size"}))
        sc.topology.recordSizeBytes = size;
    if (const auto rate = optionValue(s.args, {"--throughput"}))
        if (const auto v = parseNumber(*rate); v && *v > 0)
            sc.metrics.push_back({"producer.offered_records_per_s", *v});
    if (const auto n = integerOption(s.args, {"--num-records"}))
        sc.metrics.push_back({"producer.records_requested", double(*n)});
    // The producer's settings: --producer-props, renamed --command-property in Kafka 4.x
    // (KIP-1147); both take the PROP=VALUE words that follow them.
    for (std::size_t i = 0; i < s.args.size(); ++i) {
        if (s.args[i] != "--producer-props" && s.args[i] != "--command-property")
            continue;
        for (std::size_t k = i + 1; k < s.args.size() && !s.args[k].starts_with("--"); ++k) {
            const auto eq = s.args[k].find('=');
            if (eq == std::string::npos)
                continue;
            const std::string key = s.args[k].substr(0, eq), value = s.args[k].substr(eq + 1);
            if (key == "acks")
                sc.topology.acks = value == "-1" ? "all" : value;
            else if (key == "compression.type")
                sc.topology.compression = value;
            else if (key == "batch.size")
                if (const auto v = parseNumber(value); v && *v > 0)
                    sc.topology.batchBytes = int64_t(*v);
        }
    }
    sc.provenance += "; after the command on line " + std::to_string(s.commandLine) + ": " + s.command;
}

std::string bannerName(std::string_view line)
{
    std::string_view t = trimmed(line);
    if (!startsWith(t, "==>"))
        return {};
    return std::string(trimmed(t.substr(3)));
}

ScenarioRecord segmentScenario(const Segment &s, const std::string &name,
                               std::vector<ImportWarning> &warnings)
{
    ScenarioRecord sc;
    sc.name = name;
    sc.kind = "producer";
    sc.topology.producers = 1;
    sc.topology.inferred.push_back("producers");
    if (s.final) {
        sc.line = s.finalLine;
        appendProducerMetrics(*s.final, sc.metrics);
        sc.metrics.push_back({"producer.records_sent", double(s.final->records)});
        sc.provenance = "final line " + std::to_string(s.finalLine);
        if (s.final->truncated)
            warnings.push_back({"truncated-final-line", s.finalLine,
                                "the final line of '" + name +
                                    "' is cut short; the percentiles it lacks are left out"});
    } else {
        const ProducerPerfLine &last = s.interim.back();
        sc.line = s.interimLines.back();
        appendProducerMetrics(last, sc.metrics);
        double sent = 0;
        for (const auto &l : s.interim)
            sent += double(l.records);
        sc.metrics.push_back({"producer.records_sent", sent});
        sc.provenance = "last periodic line " + std::to_string(sc.line) +
                        " (no final line); records_sent is the sum of the periodic lines";
        warnings.push_back({"no-final-line", sc.line,
                            "'" + name +
                                "' has no final line (killed or cut off?): its numbers are the "
                                "last periodic window's, without percentiles"});
    }
    sc.series = producerSeries(s.interim);
    if (s.metrics) {
        for (const MetricValue &m : s.metrics->metrics)
            sc.metrics.push_back(m);
    }
    return sc;
}

// korvet-dist's way: all records over the wall time of the slowest producer. Percentiles of
// different producers cannot be combined, so only the range of their averages and the max.
ScenarioRecord aggregateScenario(const std::vector<const ProducerPerfLine *> &finals)
{
    ScenarioRecord sc;
    sc.name = "aggregate";
    sc.kind = "aggregate";
    double records = 0, bytes = 0, longest = 0, maxMs = 0;
    double avgLo = finals.front()->avgMs, avgHi = finals.front()->avgMs;
    for (const ProducerPerfLine *f : finals) {
        const double seconds = f->recordsPerSec > 0 ? double(f->records) / f->recordsPerSec : 0;
        records += double(f->records);
        bytes += f->mbPerSec * kMiB * seconds;
        longest = std::max(longest, seconds);
        maxMs = std::max(maxMs, f->maxMs);
        avgLo = std::min(avgLo, f->avgMs);
        avgHi = std::max(avgHi, f->avgMs);
    }
    sc.topology.producers = int64_t(finals.size());
    sc.topology.inferred.push_back("producers");
    if (longest > 0) {
        sc.metrics.push_back({"records_per_s", records / longest});
        sc.metrics.push_back({"bytes_per_s", bytes / longest});
    }
    sc.metrics.push_back({"latency_max_s", maxMs * 1e-3});
    sc.metrics.push_back({"producers.latency_avg_min_s", avgLo * 1e-3});
    sc.metrics.push_back({"producers.latency_avg_max_s", avgHi * 1e-3});
    sc.metrics.push_back({"producer.records_sent", records});
    sc.provenance = "inferred from " + std::to_string(finals.size()) +
                    " producers' final lines, assuming they ran concurrently: total records "
                    "over the longest producer's duration (records / records/sec); "
                    "percentiles are not combined";
    return sc;
}

// What a pass over the lines finds: the segments, and the first harness timestamp.
struct ProducerOutput
{
    std::vector<Segment> segments = std::vector<Segment>(1);
    std::optional<std::string> firstTime;
    int64_t firstTimeLine = 0;
};

// The segment a banner or command line opens: the current one while it is still empty.
Segment &openSegment(std::vector<Segment> &segments)
{
    if (!segments.back().empty())
        segments.emplace_back();
    return segments.back();
}

// A final line follows its segment's periodic lines; a steady-state line follows the final
// one; anything after a final line or the metrics block starts the next producer.
void addResultLine(ProducerOutput &out, const TextLine &line, const ProducerPerfLine &parsed)
{
    if (parsed.prefixTime && !out.firstTime) {
        out.firstTime = parsed.prefixTime;
        out.firstTimeLine = line.number;
    }
    Segment *s = &out.segments.back();
    if (parsed.steadyState && s->final && !s->steady) {
        s->steady = parsed;
        s->steadyLine = line.number;
        return;
    }
    if (s->final || s->metrics) {
        out.segments.emplace_back();
        s = &out.segments.back();
    }
    if (parsed.final) {
        s->final = parsed;
        s->finalLine = line.number;
    } else {
        s->interim.push_back(parsed);
        s->interimLines.push_back(line.number);
    }
}

ImportError notAResultLine(const TextLine &line)
{
    ImportError e;
    e.message = "is not a kafka-producer-perf-test result: expected \"N records "
                "sent, R records/sec (M MB/sec), A ms avg latency, X ms max latency…\"";
    e.line = line.number;
    e.column = int64_t(line.text.find("records sent")) + 1;
    e.offset = line.offset + e.column - 1;
    e.field = "records sent";
    return e;
}

// The segments of the output in file order; the error of a line that looks like a result
// line but does not read as one.
std::optional<ImportError> readSegments(const std::vector<TextLine> &lines, ProducerOutput &out,
                                        std::vector<ImportWarning> &warnings)
{
    for (size_t i = 0; i < lines.size(); ++i) {
        const TextLine &line = lines[i];
        if (isKafkaMetricsHeader(line.text)) {
            KafkaMetricsBlock block;
            i = readKafkaMetrics(lines, i, block, warnings) - 1;
            out.segments.back().metrics = std::move(block);
        } else if (auto args = commandArgs(line.text, {"kafka-producer-perf-test"})) {
            Segment &s = openSegment(out.segments);
            s.command = std::string(trimmed(line.text));
            s.args = std::move(*args);
            s.commandLine = line.number;
        } else if (const std::string banner = bannerName(line.text); !banner.empty()) {
            openSegment(out.segments).name = banner;
        } else if (const auto parsed = parseProducerPerfLine(line.text)) {
            addResultLine(out, line, *parsed);
        } else if (looksLikeProducerPerfLine(line.text)) {
            return notAResultLine(line);
        }
    }
    return std::nullopt;
}

// Segments without a result line are left out; a command that printed none is warned about.
void dropSilentSegments(std::vector<Segment> &segments, std::vector<ImportWarning> &warnings)
{
    for (const Segment &s : segments)
        if (s.commandLine > 0 && !s.final && s.interim.empty())
            warnings.push_back({"no-output", s.commandLine,
                                "the command has no kafka-producer-perf-test result after it"});
    std::erase_if(segments, [](const Segment &s) { return !s.final && s.interim.empty(); });
}

// The name a segment's scenario takes: its banner, its command, else its place in the file.
std::string segmentName(const std::vector<Segment> &segments, size_t i)
{
    const Segment &s = segments[i];
    if (!s.name.empty())
        return s.name;
    if (s.commandLine > 0)
        return commandName(s);
    return segments.size() == 1 ? std::string("producer") : "producer-" + std::to_string(i + 1);
}

ScenarioRecord steadyScenario(const Segment &s, const std::string &name, const Topology &topology)
{
    ScenarioRecord steady;
    steady.name = name + "/steady-state";
    steady.kind = "producer";
    steady.line = s.steadyLine;
    steady.topology = topology;
    appendProducerMetrics(*s.steady, steady.metrics);
    steady.metrics.push_back({"producer.records_sent", double(s.steady->records)});
    steady.provenance = "steady-state line " + std::to_string(s.steadyLine) +
                        " (the run without its warm-up records)";
    return steady;
}

// A scenario per segment (and its steady state), then the aggregate of several producers.
void addScenarios(const std::vector<Segment> &segments, RunRecord &run,
                  std::vector<ImportWarning> &warnings)
{
    // Named or commanded segments are steps of a sweep, not producers running together.
    const bool named = std::any_of(segments.begin(), segments.end(), [](const Segment &s) {
        return !s.name.empty() || s.commandLine > 0;
    });
    std::map<std::string, int> used;
    std::vector<const ProducerPerfLine *> finals;
    std::vector<double> rates;
    for (size_t i = 0; i < segments.size(); ++i) {
        const Segment &s = segments[i];
        std::string name = segmentName(segments, i);
        if (++used[name] > 1)
            name += "-" + std::to_string(used[name]);
        run.scenarios.push_back(segmentScenario(s, name, warnings));
        applyCommand(s, run.scenarios.back());
        if (s.metrics && !s.metrics->clientVersion.empty())
            run.toolVersion = s.metrics->clientVersion;
        if (s.steady)
            run.scenarios.push_back(steadyScenario(s, name, run.scenarios.back().topology));
        for (const auto &l : s.interim)
            rates.push_back(l.recordsPerSec);
        if (s.final) {
            finals.push_back(&*s.final);
            rates.push_back(s.final->recordsPerSec);
        }
    }
    if (!named && finals.size() >= 2) {
        run.scenarios.push_back(aggregateScenario(finals));
        warnings.push_back(
            {"assumed-concurrent", 0,
             "the file holds " + std::to_string(finals.size()) +
                 " producers' results; their aggregate assumes they ran at the same time"});
    }
    warnIfZeroOnly(rates, 0, "records/sec", warnings);
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    static const TextPattern re(R"(\d+( steady state)? records sent, [0-9.]+ records/sec \()");
    const std::string text(head);
    if (re.search(text))
        return 80;
    if (hasCommandLine(head.substr(0, 16384), {"kafka-producer-perf-test"}))
        return 75;
    return 0;
}

Resemblance resemblance(std::string_view head)
{
    if (head.find("records sent") != std::string_view::npos)
        return {60, "mentions \"records sent\" but no line reads \"N records sent, R "
                    "records/sec (M MB/sec), …\" as kafka-producer-perf-test prints it"};
    if (head.find("records/sec") != std::string_view::npos)
        return {30, "mentions records/sec but has no \"N records sent, …\" result line"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &in, const ImportOptions &,
                   ImportResult result)
{
    ProducerOutput output;
    if (auto error = readSegments(splitLines(text), output, result.warnings)) {
        result.error = std::move(error);
        return result;
    }
    dropSilentSegments(output.segments, result.warnings);
    if (output.segments.empty()) {
        result.error = ImportError{"holds no \"N records sent, …\" line of kafka-producer-perf-test",
                                   0, -1, {}};
        return result;
    }
    RunRecord run;
    run.line = 1;
    run.tool = "kafka-producer-perf-test";
    run.target = "kafka";
    run.runKey = contentRunKey("kafka-producer-perf", text);
    if (output.firstTime) {
        run.timestamp = *output.firstTime;
        result.warnings.push_back({"timestamp-without-zone", output.firstTimeLine,
                                   "the harness timestamps have no zone; read as UTC"});
    } else {
        dateByInference(run, in, result.warnings);
    }
    addScenarios(output.segments, run, result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace

const Importer &kafkaProducerPerfImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
