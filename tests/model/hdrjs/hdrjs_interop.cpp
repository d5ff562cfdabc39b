// Plimsoll's HdrLogWriter output decoded by HdrHistogram's JavaScript implementation
// (hdr-histogram-js, installed by the ctest fixture "hdrjs"): counts, percentiles, max,
// tags and timestamps must be what Plimsoll recorded.
#include "export/hdrlogwriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <random>

using plimsoll::HdrHistogram;
using plimsoll::HdrLogWriter;

TEST(HdrJsInterop, ReferenceDecoderReadsPlimsollLogs)
{
    // Three intervals of nanosecond latencies, two tags, the shapes a bench run records.
    std::vector<HdrHistogram> intervals;
    std::mt19937_64 rng(5);
    std::lognormal_distribution<double> dist(13, 0.8); // ~0.5 ms median, long tail
    HdrLogWriter writer;
    const double start = 1760000000.25;
    writer.writeHeader(start, "[Logged by Plimsoll's interop test]");
    const char *tags[] = {"produce", "e2e", "produce"};
    for (int i = 0; i < 3; ++i) {
        HdrHistogram h(1, 60LL * 1000 * 1000 * 1000, 3);
        for (int n = 0; n < 5000 * (i + 1); ++n)
            h.record(static_cast<int64_t>(dist(rng)));
        h.recordCorrected(250000000, 1000000); // a stall: CO-corrected tail
        writer.writeInterval(i, 1.0, h, tags[i]);
        intervals.push_back(std::move(h));
    }
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath("plimsoll.hlog");
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(writer.text()));
    f.close();

    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("NODE_PATH", PLIMSOLL_HDRJS_DIR "/node_modules");
    node.setProcessEnvironment(env);
    node.start("node", {PLIMSOLL_HDRJS_SCRIPT, path});
    ASSERT_TRUE(node.waitForFinished(60000));
    ASSERT_EQ(node.exitCode(), 0) << node.readAllStandardError().toStdString();
    const QJsonArray decoded = QJsonDocument::fromJson(node.readAllStandardOutput()).array();
    ASSERT_EQ(decoded.size(), 3);
    for (int i = 0; i < 3; ++i) {
        const QJsonObject o = decoded[i].toObject();
        const HdrHistogram &h = intervals[size_t(i)];
        EXPECT_EQ(o["tag"].toString().toStdString(), tags[i]);
        EXPECT_EQ(o["count"].toInteger(), h.totalCount());
        EXPECT_EQ(o["p50"].toInteger(), h.valueAtPercentile(50)) << i;
        EXPECT_EQ(o["p99"].toInteger(), h.valueAtPercentile(99)) << i;
        EXPECT_EQ(o["p999"].toInteger(), h.valueAtPercentile(99.9)) << i;
        EXPECT_EQ(o["max"].toInteger(), h.max()) << i;
        EXPECT_NEAR(o["start"].toDouble(), (start + i) * 1000, 1.0);
        EXPECT_NEAR(o["end"].toDouble(), (start + i + 1) * 1000, 1.0);
    }
}
