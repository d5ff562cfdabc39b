// The model's interactive paths: a USL fit of one ramp, the sizing engine's recompute (what the
// Sizing view runs on every keystroke) and CRC16 placement of a large topic.
#include "importers/samples.h"
#include "model/trends/changepoints.h"
#include "perfdata.h"
#include "model/sizing/placement.h"
#include "model/scaling/ramppoints.h"
#include "model/sizing/sizing.h"
#include "model/store/store.h"
#include "model/scaling/usl.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

namespace {

using namespace plimsoll;

// 20 points of a ramp that bends over: λ = 50k/s, σ = 0.04, κ = 0.002, ±2 % noise.
std::vector<UslPoint> rampPoints()
{
    const UslParameters truth{50'000, 0.04, 0.002};
    std::vector<UslPoint> points;
    for (int n = 1; n <= 20; ++n) {
        const double noise = 1.0 + 0.02 * std::sin(n * 2.3);
        points.push_back({double(n), truth.throughputAt(n) * noise});
    }
    return points;
}

void BM_UslFit20Points(benchmark::State &state)
{
    UslOptions options;
    options.bootstrapResamples = int(state.range(0));
    const UslFitter fitter(options);
    const auto points = rampPoints();
    for (auto _ : state) {
        const UslFit fit = fitter.fit(points);
        if (!fit.ok)
            state.SkipWithError(fit.error.c_str());
        benchmark::DoNotOptimize(fit.params.lambda);
    }
}
// 0: the point estimate alone; 1000: with the default residual bootstrap for the intervals.
BENCHMARK(BM_UslFit20Points)->Arg(0)->Arg(1000)->Unit(benchmark::kMillisecond);

// The models fitted from the bundled sample runs, as `plimsoll size` and the Sizing view see them.
const SizingModels &sampleModels()
{
    static const SizingModels models = [] {
        QTemporaryDir dir;
        Store store(dir.filePath(QStringLiteral("samples.db")).toStdString());
        installSamples(store);
        return fitSizingModels(readRunRecords(store));
    }();
    return models;
}

SizingInputs targetInputs(double rate)
{
    SizingInputs in;
    in.rate = rate;
    in.recordBytes = 1024;
    in.retentionS = 300;
    in.headroom = 0.2;
    in.tolerateNodeLoss = true;
    return in;
}

// A fresh Sizer per recompute: no partition placement cached from an earlier keystroke, the
// worst case of a keystroke that changes the shard count.
void BM_SizingRecomputeCold(benchmark::State &state)
{
    const SizingModels &models = sampleModels();
    double rate = 1e6;
    for (auto _ : state) {
        const Sizer sizer(models);
        const SizingResult r = sizer.size(targetInputs(rate));
        benchmark::DoNotOptimize(r.shards);
        rate = rate < 4e6 ? rate * 1.07 : 1e6;
    }
}
BENCHMARK(BM_SizingRecomputeCold)->Unit(benchmark::kMicrosecond);

// One Sizer across keystrokes, as the view keeps it.
void BM_SizingRecomputeWarm(benchmark::State &state)
{
    const Sizer sizer(sampleModels());
    double rate = 1e6;
    for (auto _ : state) {
        const SizingResult r = sizer.size(targetInputs(rate));
        benchmark::DoNotOptimize(r.shards);
        rate = rate < 4e6 ? rate * 1.07 : 1e6;
    }
}
BENCHMARK(BM_SizingRecomputeWarm)->Unit(benchmark::kMicrosecond);

// The change-point search a Trends view's first open makes over a metric's values: the 1M values
// of the generated nightly history (perfdata.h), nothing examined before, the default options.
void BM_ChangePoints1M(benchmark::State &state)
{
    std::vector<double> values(1'000'000);
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = perf::trendValue(i);
    size_t found = 0;
    for (auto _ : state) {
        ChangePointState kept;
        const ChangePointResult result = detectChangePoints(values, ChangePointOptions{}, kept);
        found = result.strong.size();
    }
    state.counters["change_points"] = double(found);
}
BENCHMARK(BM_ChangePoints1M)->Unit(benchmark::kMillisecond);

void BM_Crc16Placement10kPartitions(benchmark::State &state)
{
    const Placement placement = Placement::clusterCreate(48);
    for (auto _ : state) {
        const PlacementResult r = placement.place("logs", 10'000);
        benchmark::DoNotOptimize(r.maxSkew);
    }
    state.SetItemsProcessed(state.iterations() * 10'000);
}
BENCHMARK(BM_Crc16Placement10kPartitions)->Unit(benchmark::kMicrosecond);

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv); // the bundled samples are Qt resources
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
