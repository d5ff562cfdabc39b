// Each importer's throughput (MB/s) on real tool outputs: the largest file each one claims in
// the shared corpus (read in place), the test data or the bundled samples, plus a generated
// 20,000-line trend-record file for the format nightly history arrives in.
#include "importers/importer.h"
#include "importers/trendrecordwriter.h"
#include "perf/perfdata.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <benchmark/benchmark.h>

#include <map>

namespace {

using namespace plimsoll;

struct Input
{
    QString path;
    QByteArray bytes;
};

ImportResult parseBytes(const Importer &importer, const QByteArray &bytes, const QString &path)
{
    QByteArray copy = bytes; // QBuffer wants a mutable array; the copy is shallow
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    return importer.parse(buffer, ImportOptions(path.toStdString()), {});
}

// The largest input each importer both claims (sniff) and parses without error.
std::map<std::string, Input> inputsByImporter()
{
    std::map<std::string, Input> chosen;
    const QStringList roots = {QStringLiteral(PLIMSOLL_PERF_CORPUS),
                               QStringLiteral(PLIMSOLL_SOURCE_DIR "/tests/data"),
                               QStringLiteral(PLIMSOLL_SOURCE_DIR "/resources/samples")};
    for (const QString &root : roots) {
        QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly))
                continue;
            const QByteArray bytes = f.readAll();
            const Importer *importer = ImporterRegistry::instance().detect(
                std::string_view(bytes.constData(), size_t(std::min<qsizetype>(bytes.size(), 65536))));
            if (!importer)
                continue;
            Input &best = chosen[importer->name()];
            if (bytes.size() <= best.bytes.size() || !parseBytes(*importer, bytes, path).ok())
                continue;
            best = {path, bytes};
        }
    }
    std::string generated;
    for (const RunRecord &run : perf::trendRuns(0, 20'000))
        generated += trendRecordLines(run);
    chosen["plimsoll-trend (generated 20k lines)"] = {QStringLiteral("generated.jsonl"),
                                                      QByteArray::fromStdString(generated)};
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
                for (auto _ : state) {
                    const ImportResult r = parseBytes(*importer, in->bytes, in->path);
                    if (!r.ok()) {
                        state.SkipWithError(r.error->message.c_str());
                        break;
                    }
                    benchmark::DoNotOptimize(r.runs.data());
                }
                state.SetBytesProcessed(int64_t(state.iterations()) * in->bytes.size());
                state.SetLabel(QFileInfo(in->path).fileName().left(60).toStdString() + " (" +
                               std::to_string(in->bytes.size()) + " B)");
            })->Unit(benchmark::kMicrosecond);
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
