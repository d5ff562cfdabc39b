// `plimsoll import DIR`: every file under it its own source and transaction, a summary at the end.
#include "importers/importservice.h"

#include "importertest.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

void copyInto(const std::string &from, const QString &to)
{
    QDir().mkpath(QFileInfo(to).absolutePath());
    ASSERT_TRUE(QFile::copy(QString::fromStdString(from), to)) << from;
}

} // namespace

TEST(ImportDirectory, EachFileIsItsOwnSourceAndFailuresDoNotStopTheRest)
{
    PLIMSOLL_REQUIRES_CORPUS();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString results = dir.filePath("results");
    copyInto(dataPath("korvet-dist/SUMMARY.txt"), results + "/korvet-benchmark-1/SUMMARY.txt");
    copyInto(dataPath("korvet-dist/producers-8_batch-1000msg_pool-8.txt"),
             results + "/korvet-benchmark-1/producers-8_batch-1000msg_pool-8.txt");
    copyInto(corpusPath("kafka-perf/confluentinc__examples__multiregion.rst__consumer-block.txt"),
             results + "/kafka/consumer.txt");
    copyInto(corpusPath("omb/redpanda-data__openmessaging-benchmark__blog-results-kafka-latency-sync-200k.json"),
             results + "/omb/sync-200k.json");
    QFile junk(results + "/notes.txt");
    ASSERT_TRUE(junk.open(QIODevice::WriteOnly));
    junk.write("remember to rerun with 16 shards\n");
    junk.close();
    QFile hidden(results + "/.DS_Store");
    ASSERT_TRUE(hidden.open(QIODevice::WriteOnly));
    hidden.write("junk");
    hidden.close();

    Store store(dir.filePath("store.db").toStdString());
    ImportService service(store);
    const auto reports = service.importPath({results.toStdString(), {}, false, false});
    ASSERT_EQ(reports.size(), 5u) << "hidden files are skipped";
    std::map<std::string, std::string> formatOf;
    for (const auto &r : reports)
        formatOf[QFileInfo(QString::fromStdString(r.uri)).fileName().toStdString()] =
            r.status == "failed" ? "failed" : r.format;
    EXPECT_EQ(formatOf["SUMMARY.txt"], "korvet-dist");
    EXPECT_EQ(formatOf["producers-8_batch-1000msg_pool-8.txt"], "korvet-dist");
    EXPECT_EQ(formatOf["consumer.txt"], "kafka-consumer-perf");
    EXPECT_EQ(formatOf["sync-200k.json"], "omb");
    EXPECT_EQ(formatOf["notes.txt"], "failed");
    EXPECT_EQ(store.runCount(), 4);

    const ImportSummary summary = ImportSummary::of(reports);
    EXPECT_EQ(summary.imported, 4);
    EXPECT_EQ(summary.failed, 1);
    EXPECT_EQ(summary.text().substr(0, 35), "5 sources: 4 imported, 1 failed; 4 ");
    EXPECT_EQ(summary.toJson()["failed"], 1);

    // Again: nothing changed, nothing written twice.
    const auto again = service.importPath({results.toStdString(), {}, false, false});
    EXPECT_EQ(ImportSummary::of(again).unchanged, 4);
    EXPECT_EQ(store.runCount(), 4);
}

TEST(ImportDirectory, OmbSeriesReachTheStore)
{
    PLIMSOLL_REQUIRES_CORPUS();
    QTemporaryDir dir;
    Store store(dir.filePath("store.db").toStdString());
    ImportService service(store);
    const auto reports = service.importPath(
        {corpusPath("omb/streamnative__openmessaging-benchmark__kafka-100-partitions-1kb-batched-1ms-1mb-ack-all-sync.json"),
         {}, false, false});
    ASSERT_EQ(reports.size(), 1u);
    ASSERT_EQ(reports[0].status, "imported") << reports[0].errorText;
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    const auto series = store.scenarioSeries(runs[0].runKey,
                                             "1 topic / 100 partitions / 2 producer / 2 consumer / 1Kb / 200K Rate");
    ASSERT_FALSE(series.empty());
    for (const auto &s : series)
        EXPECT_EQ(s.samples.size(), 18u) << s.name;
}
