// HdrHistogram interval logs: the corpus logs written by jHiccup (HdrHistogram Java), whose
// expected numbers are those HdrHistogram's own test suite asserts for the same files, and
// logs written by Plimsoll's HdrLogWriter.
#include "importers/importers.h"
#include "importertest.h"
#include "export/hdrlogwriter.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

ImportResult parseCorpus(const std::string &name, const std::string &unit = {})
{
    QFile f(QString::fromStdString(corpusPath("hdrhistogram/" + name)));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << name;
    ImportOptions options{"corpus"};
    options.latencyUnit = unit;
    return hlogImporter().parse(f, options, {});
}

} // namespace

TEST(HlogImporter, JHiccupLogMergesIntervalsLikeHdrHistogram)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r = parseCorpus("HdrHistogram__HdrHistogram__jHiccup-2.0.7S.logV2.hlog");
    ASSERT_TRUE(r.ok()) << r.error->describe("jHiccup");
    ASSERT_EQ(r.runs.size(), 1u);
    const RunRecord &run = r.runs[0];
    EXPECT_EQ(run.timestamp, "2015-09-09T15:24:39.474Z"); // #[StartTime: 1441812279.474 …]
    EXPECT_EQ(run.tool, "jHiccup version 2.0.7-SNAPSHOT");
    ASSERT_EQ(run.scenarios.size(), 1u);
    const ScenarioRecord &s = run.scenarios[0];
    EXPECT_EQ(s.name, "latency");
    // HdrHistogram's HistogramLogReaderWriterTest.jHiccupV2Log: 62 intervals, 48761 values,
    // p99.9 1745879039 and max 1796210687 (nanoseconds).
    EXPECT_DOUBLE_EQ(*s.metric("hdr.total_count"), 48761);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p999_s"), 1745879039e-9);
    EXPECT_DOUBLE_EQ(*s.metric("latency_max_s"), 1796210687e-9);
    ASSERT_EQ(s.series.size(), 4u);
    EXPECT_EQ(s.series[0].name, "latency_p50_s");
    EXPECT_EQ(s.series[0].samples.size(), 62u);
    EXPECT_NEAR(s.series[0].samples[0].tOffsetS, 0.127, 1e-6); // relative to StartTime
    // The per-interval max agrees with the log's own Interval_Max column (ms).
    EXPECT_NEAR(s.series[2].samples[0].value, 2.769e-3, 0.5e-6);
    // The unit is not in the file: the assumption is a warning, with the column's evidence.
    bool warned = false;
    for (const auto &w : r.warnings)
        if (w.kind == "unit-assumed") {
            warned = true;
            EXPECT_NE(w.detail.find("1e6"), std::string::npos) << w.detail;
        }
    EXPECT_TRUE(warned);
}

TEST(HlogImporter, TagsBecomeScenarios)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const ImportResult r = parseCorpus("HdrHistogram__HdrHistogram__tagged-Log.logV2.hlog", "ns");
    ASSERT_TRUE(r.ok()) << r.error->describe("tagged");
    const auto &sc = r.runs[0].scenarios;
    ASSERT_EQ(sc.size(), 2u);
    EXPECT_EQ(sc[0].name, "latency");
    EXPECT_EQ(sc[1].name, "latency/A");
    // HdrHistogram's taggedV2LogTest: 32290 values in all, tag A equal to the untagged ones.
    EXPECT_DOUBLE_EQ(*sc[0].metric("hdr.total_count") + *sc[1].metric("hdr.total_count"), 32290);
    EXPECT_EQ(sc[0].metrics, sc[1].metrics);
    for (const auto &w : r.warnings)
        EXPECT_NE(w.kind, "unit-assumed"); // --hlog-unit given
}

TEST(HlogImporter, ReadsPlimsollWrittenLogsWithTagsAndUnits)
{
    HdrLogWriter writer(1e3); // microseconds, Interval_Max in ms
    writer.writeHeader(1760000000.5, "[Logged by Plimsoll test]");
    HdrHistogram a(1, 60000000, 3), b(1, 60000000, 3), all(1, 60000000, 3);
    for (int i = 1; i <= 1000; ++i) {
        a.record(i * 10);
        b.record(i * 20);
        all.record(i * 10);
        all.record(i * 20);
    }
    writer.writeInterval(0, 1, a, "produce");
    writer.writeInterval(1, 1, b, "produce");
    writer.writeInterval(1, 1, b); // untagged
    ImportOptions options{"memory"};
    options.latencyUnit = "us";
    QBuffer buffer;
    buffer.setData(QByteArray::fromStdString(writer.text()));
    buffer.open(QIODevice::ReadOnly);
    const ImportResult r = hlogImporter().parse(buffer, options, {});
    ASSERT_TRUE(r.ok()) << r.error->describe("plimsoll.hlog");
    EXPECT_EQ(r.runs[0].timestamp, "2025-10-09T08:53:20.500Z");
    const auto &sc = r.runs[0].scenarios;
    ASSERT_EQ(sc.size(), 2u);
    EXPECT_EQ(sc[0].name, "latency/produce");
    EXPECT_DOUBLE_EQ(*sc[0].metric("latency_p99_s"), all.valueAtPercentile(99) * 1e-6);
    EXPECT_DOUBLE_EQ(*sc[0].metric("latency_p50_s"), all.valueAtPercentile(50) * 1e-6);
    EXPECT_DOUBLE_EQ(*sc[0].metric("hdr.total_count"), 2000);
    EXPECT_DOUBLE_EQ(*sc[1].metric("hdr.total_count"), 1000);
    EXPECT_DOUBLE_EQ(sc[0].series[0].samples[1].tOffsetS, 1.0);
}

TEST(HlogImporter, AbsoluteTimestampsAndTruncatedLastLine)
{
    HdrHistogram h(1, 1000000, 2);
    h.record(500);
    std::string text = "#[Histogram log format version 1.3]\n#[StartTime: 1438613579.295 (seconds since epoch)]\n";
    HdrLogWriter body;
    body.writeInterval(1438613580.0, 1.0, h);
    body.writeInterval(1438613581.0, 1.0, h);
    text += body.text();
    text += body.text().substr(0, 40); // cut mid-histogram, no newline
    const ImportResult r = parseText(hlogImporter(), text);
    ASSERT_TRUE(r.ok()) << r.error->describe("ycsb");
    EXPECT_TRUE(hasWarning(r, "truncated-final-line", 5));
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_DOUBLE_EQ(*s.metric("hdr.total_count"), 2);
    EXPECT_NEAR(s.series[0].samples[0].tOffsetS, 0.705, 1e-6); // absolute epoch stamps
}

TEST(HlogImporter, CorruptHistogramIsAnErrorWithColumnAndField)
{
    const ImportResult r = parseText(
        hlogImporter(), "#[Histogram log format version 1.2]\n0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAAB\n"
                        "1.0,1.0,1.0,HISTFAAAAEV42pNpmSzMwMCgyAAB\n");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, 2);
    EXPECT_EQ(r.error->column, 19);
    EXPECT_EQ(r.error->field, "Interval_Compressed_Histogram");
    const ImportResult bad = parseText(hlogImporter(), "#[Histogram log format version 1.2]\n0.1,x,2,HISTFAAA\n\n");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error->field, "Interval_Length");
    EXPECT_EQ(bad.error->column, 5);
}

TEST(HlogImporter, DetectsLogsByContent)
{
    const Importer &importer = hlogImporter();
    EXPECT_GT(importer.sniff("#[Histogram log format version 1.3]\n"), 0);
    EXPECT_GT(importer.sniff("Tag=A,0.127,1.007,2.769,HISTFAAAAEV42\n"), 0);
    EXPECT_EQ(importer.sniff("\"test\",\"rps\"\n"), 0);
}
