// Each importer's throughput (MB/s) on a ~10 MB input made by repeating a real tool output: the
// largest file each importer claims in the shared corpus (read in place), the test data or the
// bundled samples that can be grown, by the first of these ways that still imports without
// error (the label says which, and how many runs and scenarios it gave):
//   "runs ×N"   the whole file N times, one after another: several runs or blocks in one file,
//               as a tool appends them (redis-benchmark sections, memtier runs, HdrHistogram logs);
//   "lines ×N"  the file's longest stretch of like-shaped lines (the same text once numbers are
//               set aside) repeated N times in place: one run that reported N times as long
//               (kafka-producer-perf's periodic lines, a percentile table's rows, a scrape's
//               samples);
//   "arrays ×N" a JSON document (only this way) with every array of plain values repeated N
//               times: a run whose time series is N times as long (an OpenMessaging Benchmark
//               result).
// When no file of an importer can be grown, its largest is measured as it is ("as is"; the
// report sets it no target). Nightly history, the format that arrives in bulk, is a generated
// trend-record file of about the same size (trend records repeated would repeat run keys).
#include "importers/importer.h"
#include "export/trendrecordwriter.h"
#include "perf/perfdata.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

namespace {

using namespace plimsoll;

constexpr size_t kTargetBytes = 10'000'000;

struct Input
{
    QString path;
    QByteArray bytes;
    std::string how = "as is";
};

bool isJson(std::string_view text)
{
    const size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    return first != std::string::npos && (text[first] == '{' || text[first] == '[');
}

ImportResult parseBytes(const Importer &importer, const QByteArray &bytes, const QString &path)
{
    QByteArray copy = bytes; // QBuffer wants a mutable array; the copy is shallow
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    return importer.parse(buffer, ImportOptions(path.toStdString()), {});
}

size_t timesFor(size_t unit, size_t rest)
{
    if (unit == 0)
        return 0;
    return std::max<size_t>(1, (kTargetBytes - std::min(kTargetBytes, rest)) / unit);
}

std::string repeatedFile(const std::string &text, std::string &how)
{
    const std::string unit = text.empty() || text.back() == '\n' ? text : text + "\n";
    const size_t n = timesFor(unit.size(), 0);
    std::string out;
    out.reserve(n * unit.size());
    for (size_t i = 0; i < n; ++i)
        out += unit;
    how = "runs ×" + std::to_string(n);
    return out;
}

// A line's shape: each run of letters, digits and number punctuation one '#', blanks one ' '.
std::string shapeOf(std::string_view line)
{
    std::string shape;
    for (size_t i = 0; i < line.size();) {
        const char c = line[i];
        const bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' ||
                          c == '-' || c == '/' || c == '=' || c == ':';
        const bool blank = c == ' ' || c == '\t';
        size_t j = i + 1;
        if (word || blank) {
            while (j < line.size() &&
                   (word ? (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '.' ||
                            line[j] == '+' || line[j] == '-' || line[j] == '/' || line[j] == '=' ||
                            line[j] == ':')
                         : (line[j] == ' ' || line[j] == '\t')))
                ++j;
        }
        shape += word ? '#' : blank ? ' ' : c;
        i = j;
    }
    return shape;
}

std::string repeatedLines(const std::string &text, std::string &how)
{
    std::vector<std::string_view> lines;
    for (size_t pos = 0; pos < text.size();) {
        size_t end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        lines.emplace_back(text.data() + pos, end - pos);
        pos = end;
    }
    size_t best = 0, bestLen = 0;
    for (size_t i = 0; i < lines.size();) {
        const std::string shape = shapeOf(lines[i]);
        size_t j = i + 1;
        while (j < lines.size() && shapeOf(lines[j]) == shape)
            ++j;
        if (j - i > bestLen && shape.find('#') != std::string::npos)
            best = i, bestLen = j - i;
        i = j;
    }
    if (bestLen < 2)
        return {};
    const size_t blockBytes = size_t(lines[best + bestLen - 1].end() - lines[best].begin());
    const std::string_view block(lines[best].data(), blockBytes);
    const size_t n = timesFor(blockBytes, text.size() - blockBytes);
    std::string out(text.data(), size_t(lines[best].data() - text.data()));
    out.reserve(text.size() + n * blockBytes);
    for (size_t i = 0; i < n; ++i)
        out += block;
    out += std::string_view(block.end(), size_t(text.data() + text.size() - block.end()));
    how = "lines " + std::to_string(bestLen) + " ×" + std::to_string(n);
    return out;
}

void repeatArrays(nlohmann::json &doc, size_t n)
{
    if (doc.is_object()) {
        for (auto &[key, value] : doc.items())
            repeatArrays(value, n);
    } else if (doc.is_array()) {
        const bool plain = std::none_of(doc.begin(), doc.end(),
                                        [](const nlohmann::json &v) { return v.is_structured(); });
        if (!plain) {
            for (auto &v : doc)
                repeatArrays(v, n);
            return;
        }
        const nlohmann::json once = doc;
        for (size_t i = 1; i < n; ++i)
            doc.insert(doc.end(), once.begin(), once.end());
    }
}

std::string repeatedArrays(const std::string &text, std::string &how)
{
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_structured())
        return {};
    const size_t one = doc.dump(1).size();
    nlohmann::json twice = doc;
    repeatArrays(twice, 2);
    const size_t grows = twice.dump(1).size() - one;
    if (grows == 0)
        return {};
    const size_t n = timesFor(grows, one) + 1;
    repeatArrays(doc, n);
    how = "arrays ×" + std::to_string(n);
    return doc.dump(1);
}

// The real file grown to about kTargetBytes by the first way that still imports; nullopt when
// none does.
std::optional<Input> grown(const Importer &importer, const QString &path, const QByteArray &bytes)
{
    const std::string text = bytes.toStdString();
    using Grow = std::function<std::string(const std::string &, std::string &)>;
    // A JSON document's lines are not a tool's lines: repeating them only repeats keys.
    const std::vector<Grow> ways = isJson(text) ? std::vector<Grow>{repeatedArrays}
                                        : std::vector<Grow>{repeatedFile, repeatedLines};
    for (const Grow &grow : ways) {
        std::string how;
        std::string bigger = grow(text, how);
        if (bigger.size() < kTargetBytes / 2)
            continue;
        QByteArray b = QByteArray::fromStdString(bigger);
        if (parseBytes(importer, b, path).ok())
            return Input{path, b, how};
    }
    return std::nullopt;
}

// For each importer, the largest real file it claims (sniff) and parses without error that
// can be grown; the largest as it is when none can.
std::map<std::string, Input> inputsByImporter()
{
    std::map<std::string, std::vector<Input>> claimed;
    const QStringList roots = {QStringLiteral(PLIMSOLL_PERF_CORPUS),
                               QStringLiteral(PLIMSOLL_SOURCE_DIR "/tests/data"),
                               QStringLiteral(PLIMSOLL_SOURCE_DIR "/resources/samples")};
    for (const QString &root : roots) {
        QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (path.contains(QStringLiteral("/fuzz-regressions/")))
                continue; // made to break importers, not tool outputs
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly))
                continue;
            const QByteArray bytes = f.readAll();
            const Importer *importer = ImporterRegistry::instance().detect(
                std::string_view(bytes.constData(), size_t(std::min<qsizetype>(bytes.size(), 65536))));
            if (importer && parseBytes(*importer, bytes, path).ok())
                claimed[importer->name()].push_back({path, bytes});
        }
    }
    std::map<std::string, Input> chosen;
    for (auto &[name, inputs] : claimed) {
        std::sort(inputs.begin(), inputs.end(),
                  [](const Input &a, const Input &b) { return a.bytes.size() > b.bytes.size(); });
        const Importer &importer = *ImporterRegistry::instance().byName(name);
        chosen[name] = inputs.front();
        for (const Input &in : inputs)
            if (auto big = grown(importer, in.path, in.bytes)) {
                chosen[name] = *big;
                break;
            }
    }
    std::string generated;
    for (size_t first = 0; generated.size() < kTargetBytes; first += 1000)
        for (const RunRecord &run : perf::trendRuns(first, 1000))
            generated += trendRecordLines(run);
    chosen["plimsoll-trend (generated)"] = {QStringLiteral("generated.jsonl"),
                                            QByteArray::fromStdString(generated), "generated"};
    return chosen;
}

void registerImporterBenchmarks()
{
    static const std::map<std::string, Input> inputs = inputsByImporter();
    for (const Importer *importer : ImporterRegistry::instance().importers()) {
        for (const auto &[name, input] : inputs) {
            if (name.rfind(importer->name(), 0) != 0 ||
                (name != importer->name() && name[importer->name().size()] != ' '))
                continue;
            const Input *in = &input;
            const std::string label = "BM_Import/" + name;
            benchmark::RegisterBenchmark(label.c_str(), [importer, in](benchmark::State &state) {
                size_t runs = 0, scenarios = 0;
                for (auto _ : state) {
                    const ImportResult r = parseBytes(*importer, in->bytes, in->path);
                    if (!r.ok()) {
                        state.SkipWithError(r.error->message.c_str());
                        break;
                    }
                    runs = r.runs.size();
                    scenarios = 0;
                    for (const RunRecord &run : r.runs)
                        scenarios += run.scenarios.size();
                    benchmark::DoNotOptimize(r.runs.data());
                }
                state.SetBytesProcessed(int64_t(state.iterations()) * in->bytes.size());
                // What perf_report sets the 50 MB/s target on: tools' text grown to ~10 MB.
                state.counters["input_bytes"] = double(in->bytes.size());
                state.counters["text_format"] =
                    isJson({in->bytes.constData(), size_t(in->bytes.size())}) ? 0 : 1;
                state.SetLabel(QFileInfo(in->path).fileName().left(60).toStdString() + ", " +
                               in->how + " (" + std::to_string(in->bytes.size()) + " B, " +
                               std::to_string(runs) + " runs, " + std::to_string(scenarios) +
                               " scenarios)");
            })->Unit(benchmark::kMillisecond);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    registerImporterBenchmarks();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
