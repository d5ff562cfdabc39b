// The outputs of korvet-dist's samples/benchmark/scripts/run-comprehensive-benchmark.sh:
// per-test result files (producers-<N>_batch-<B>msg_pool-<P>.txt: a configuration block, the
// kafka-producer-perf-test output of one producer or each producer's final line, aggregate
// results, Korvet actuator metrics, Redis Enterprise per-shard memory and CPU) and SUMMARY.txt
// (one row per test). One run per file; scenarios are named by the test
// ("producers-8_batch-1000msg_pool-8"), so a test's per-file aggregate and its SUMMARY row line up.
// MB is MiB throughout (the script divides by 1024 twice); CPU percentages become fractions.

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/korvet/korvetdistparts.h"

#include <QIODevice>

#include <cctype>

namespace plimsoll {

namespace {
constexpr int64_t kMaxBytes = 64LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"korvet-dist", "2",
                          "korvet-dist run-comprehensive-benchmark.sh outputs: per-test result files and SUMMARY.txt",
                          "\"Test: producers-…\" with a \"Configuration:\" block, or the line \"Korvet Comprehensive Benchmark Summary\""},
                         "a korvet-dist result", kMaxBytes, TextInput::ToolOutput};

bool isSummary(std::string_view head)
{
    return head.find("Korvet Comprehensive Benchmark Summary") != std::string_view::npos;
}

bool isTestFile(std::string_view head)
{
    return head.find("Test: producers-") != std::string_view::npos &&
           head.find("Configuration:") != std::string_view::npos;
}
} // namespace

void korvetDistFail(const TextLine &line, std::string_view at, const std::string &field,
                    const std::string &message)
{
    ImportError e;
    e.message = message;
    e.line = line.number;
    const auto pos = at.empty() ? std::string_view::npos : line.text.find(at);
    e.column = pos == std::string_view::npos ? 1 : int64_t(pos) + 1;
    e.offset = line.offset + e.column - 1;
    e.field = field;
    throw KorvetDistFailure{e};
}

std::pair<std::string, std::string> korvetDistKeyValue(std::string_view line)
{
    const std::string_view t = trimmed(line);
    const auto colon = t.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return {};
    return {std::string(trimmed(t.substr(0, colon))), std::string(trimmed(t.substr(colon + 1)))};
}

std::optional<double> korvetDistNumber(std::string_view text)
{
    text = trimmed(text);
    size_t end = 0;
    while (end < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
            (end == 0 && text[end] == '-')))
        ++end;
    return parseNumber(text.substr(0, end));
}

std::optional<double> korvetDistBytes(std::string_view text, double bareUnit)
{
    text = trimmed(text);
    const auto v = korvetDistNumber(text);
    if (!v)
        return std::nullopt;
    size_t end = text.find_first_not_of("0123456789.-");
    std::string unit(trimmed(end == std::string_view::npos ? std::string_view() : text.substr(end)));
    for (char &c : unit)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    if (unit.empty())
        return *v * bareUnit;
    static const std::pair<const char *, double> units[] = {
        {"B", 1},           {"BYTES", 1},        {"BYTE", 1},         {"KB", 1024.0},
        {"KIB", 1024.0},    {"MB", kMiB},        {"MIB", kMiB},       {"GB", kMiB * 1024},
        {"GIB", kMiB * 1024}, {"TB", kMiB * kMiB}, {"TIB", kMiB * kMiB}};
    for (const auto &[name, scale] : units)
        if (unit == name)
            return *v * scale;
    return std::nullopt;
}

namespace {

int sniff(std::string_view head)
{
    return isSummary(head) || isTestFile(head) ? 95 : 0;
}

Resemblance resemblance(std::string_view head)
{
    if (head.find("=== Aggregate Results ===") != std::string_view::npos ||
        head.find("=== Korvet Metrics ===") != std::string_view::npos)
        return {70, "has korvet-dist result sections but no \"Test: producers-…\" line with a "
                    "\"Configuration:\" block"};
    if (head.find("Throughput(rec/s)") != std::string_view::npos)
        return {60, "has a korvet-dist summary table but not its \"Korvet Comprehensive Benchmark "
                    "Summary\" title"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &in, const ImportOptions &,
                   ImportResult result)
{
    const std::vector<TextLine> lines = splitLines(text);
    RunRecord run;
    run.line = 1;
    run.tool = "korvet-dist-benchmark";
    run.target = "korvet";
    run.runKey = contentRunKey("korvet-dist", text);
    try {
        if (isSummary(text))
            readKorvetDistSummary(lines, run, result.warnings);
        else if (isTestFile(text))
            readKorvetDistResult(lines, run, result.warnings);
        else
            throw KorvetDistFailure{ImportError{
                "is neither a korvet-dist test result (\"Test: producers-…\") nor its SUMMARY.txt",
                0, -1, {}}};
    } catch (const KorvetDistFailure &f) {
        result.error = f.error;
        return result;
    }
    if (run.timestamp.empty())
        dateByInference(run, in, result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace

const Importer &korvetDistImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
