// A histogram log the bench writes (--histogram-log) imports with exactly the percentiles it
// holds: the log states its unit (µs) and the importer reads the values in it.
#include "importers/importers.h"
#include "importers/importservice.h"
#include "runner/histogramlog.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace plimsoll;

namespace {

const ScenarioRecord *scenario(const RunRecord &run, const std::string &name)
{
    for (const ScenarioRecord &s : run.scenarios)
        if (s.name == name)
            return &s;
    return nullptr;
}

} // namespace

TEST(RunnerHistogramLog, ImportsBackWithTheSamePercentilesInSeconds)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string path = dir.filePath("bench.hlog").toStdString();
    HdrHistogram whole[IntervalHistograms::KindCount] = {makeLatencyHistogram(), makeLatencyHistogram(),
                                                         makeLatencyHistogram()};
    {
        HistogramLogWriter log(path, "plimsoll bench producer run test, values in µs");
        ASSERT_TRUE(log.ok()) << log.error();
        for (int second = 0; second < 3; ++second) {
            HdrHistogram interval[IntervalHistograms::KindCount] = {
                makeLatencyHistogram(), makeLatencyHistogram(), makeLatencyHistogram()};
            for (int i = 0; i < 5000; ++i) {
                interval[IntervalHistograms::Ack].record(900 + (i * 37 + second * 11) % 9000); // 0.9-9.9 ms
                interval[IntervalHistograms::EndToEnd].record(2000 + (i * 53) % 40000);
            }
            interval[IntervalHistograms::Ack].record(80000 + second); // an 80 ms tail
            for (int k = 0; k < IntervalHistograms::KindCount; ++k)
                whole[k].add(interval[k]);
            log.writeInterval(second, 1.0, interval);
        }
    }

    Store store(dir.filePath("s.db").toStdString());
    ImportService service(store);
    const SourceReport report = service.importFile({path, {}, false, false});
    ASSERT_EQ(report.status, "imported") << report.errorText;
    for (const ImportWarning &w : report.warnings)
        EXPECT_NE(w.kind, "unit-assumed") << w.detail;
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    const RunRecord run = store.run(std::to_string(runs[0].id))->record;
    EXPECT_EQ(run.tuning["value_unit"], "us");
    for (auto [tag, kind] : {std::pair{"ack", IntervalHistograms::Ack},
                             std::pair{"e2e", IntervalHistograms::EndToEnd}}) {
        const ScenarioRecord *sc = scenario(run, std::string("latency/") + tag);
        ASSERT_NE(sc, nullptr) << tag;
        const HdrHistogram &h = whole[kind];
        EXPECT_DOUBLE_EQ(*sc->metric("latency_p50_s"), double(h.valueAtPercentile(50)) * 1e-6) << tag;
        EXPECT_DOUBLE_EQ(*sc->metric("latency_p99_s"), double(h.valueAtPercentile(99)) * 1e-6) << tag;
        EXPECT_DOUBLE_EQ(*sc->metric("latency_max_s"), double(h.max()) * 1e-6) << tag;
        EXPECT_DOUBLE_EQ(*sc->metric("hdr.total_count"), double(h.totalCount())) << tag;
    }
    // The 80 ms tail is 80 ms, not 80 µs.
    EXPECT_NEAR(*scenario(run, "latency/ack")->metric("latency_max_s"), 0.080, 0.0001);
}
