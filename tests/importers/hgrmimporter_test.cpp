// HdrHistogram percentile tables: wrk2's README output (HdrHistogram C) from the corpus and
// a Java-style table.
#include "importers/importers.h"
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

TEST(HgrmImporter, Wrk2DetailedSpectrum)
{
    PLIMSOLL_REQUIRES_CORPUS();
    QFile f(QString::fromStdString(corpusPath("hdrhistogram/giltene__wrk2__README.md__latency-output-block.txt")));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const std::string text = f.readAll().toStdString();
    EXPECT_GT(hgrmImporter().sniff(text), 0);
    const ImportResult r = parseText(hgrmImporter(), text);
    ASSERT_TRUE(r.ok()) << r.error->describe("wrk2");
    ASSERT_EQ(r.runs[0].scenarios.size(), 1u);
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_EQ(s.name, "latency");
    // wrk2's stated percentiles ("99.000%   11.18ms"), the table (95%: the 0.950000 row,
    // ms) and its footer.
    EXPECT_DOUBLE_EQ(*s.metric("latency_p50_s"), 6.67e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), 11.18e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p999_s"), 12.30e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p95_s"), 10.015e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_max_s"), 12.496e-3);
    EXPECT_DOUBLE_EQ(*s.metric("latency_avg_s"), 6.602e-3);
    EXPECT_DOUBLE_EQ(*s.metric("hdr.total_count"), 39500);
    EXPECT_DOUBLE_EQ(*s.metric("wrk.requests_per_s"), 2000.28);
    EXPECT_EQ(s.topology.threads, 2);
    EXPECT_EQ(s.topology.connections, 100);
    EXPECT_TRUE(hasWarning(r, "unit-assumed", 0));
}

TEST(HgrmImporter, JavaTableWithBlankLastColumnAndTwoSpectra)
{
    const std::string text =
        "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"
        "       0.100 0.000000000000          1           1.00\n"
        "       0.200 0.500000000000          5           2.00\n"
        "       0.900 0.990000000000          9         100.00\n"
        "       1.000 1.000000000000         10\n"
        "#[Mean    =        0.300, StdDeviation   =        0.100]\n"
        "#[Max     =        1.000, Total count    =           10]\n"
        "Uncorrected Latency (measured without taking delayed starts into account)\n"
        "\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n"
        "0.050,0.000000000000,1,1.00\n"
        "0.070,1.000000000000,10,Infinity\n";
    ImportOptions options{"memory"};
    options.latencyUnit = "us";
    QBuffer buffer;
    buffer.setData(QByteArray::fromStdString(text));
    buffer.open(QIODevice::ReadOnly);
    const ImportResult r = hgrmImporter().parse(buffer, options, {});
    ASSERT_TRUE(r.ok()) << r.error->describe("java.hgrm");
    ASSERT_EQ(r.runs[0].scenarios.size(), 2u);
    const ScenarioRecord &s = r.runs[0].scenarios[0];
    EXPECT_DOUBLE_EQ(*s.metric("latency_p50_s"), 0.2e-6);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p99_s"), 0.9e-6);
    EXPECT_DOUBLE_EQ(*s.metric("latency_p999_s"), 1.0e-6);
    EXPECT_EQ(r.runs[0].scenarios[1].name, "latency/uncorrected");
    EXPECT_DOUBLE_EQ(*r.runs[0].scenarios[1].metric("latency_max_s"), 0.07e-6);
}
