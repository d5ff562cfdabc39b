// A UTF-8 byte-order mark before any format: skipped once by the shared import path, so each
// format imports the same with and without it.
#include "importers/importservice.h"
#include "importertest.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

QByteArray fileBytes(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path;
    return f.readAll();
}

std::vector<ScenarioRecord> scenariosOf(Store &store)
{
    std::vector<ScenarioRecord> out;
    for (const RunSummary &r : store.runs()) {
        std::optional<RunDetail> detail = store.run(std::to_string(r.id));
        for (ScenarioRecord &s : detail->record.scenarios)
            out.push_back(std::move(s));
    }
    return out;
}

} // namespace

TEST(Bom, EveryFormatImportsTheSameBehindAByteOrderMark)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::vector<std::pair<std::string, std::string>> sources = {
        {"plimsoll-trend", dataPath("trend-records.jsonl")},
        {"korvet-result", dataPath("korvet-result.json")},
        {"korvet-dist", dataPath("korvet-dist/SUMMARY.txt")},
        {"plimsoll-bench-result", dataPath("plimsoll-bench-result-embedded.json")},
        {"omb", corpusPath("omb/streamnative__openmessaging-benchmark__kafka-100-partitions-1kb-"
                           "batched-1ms-1mb-ack-all-sync.json")},
        {"kafka-producer-perf",
         corpusPath("kafka-perf/aaronchlam__kafka-benchmarks__1-replicas_10-throughput_0-trial_producer.txt")},
        {"kafka-consumer-perf", corpusPath("kafka-perf/confluentinc__examples__multiregion.rst__consumer-block.txt")},
        {"hdrhistogram-log", corpusPath("hdrhistogram/HdrHistogram__HdrHistogram__tagged-Log.logV2.hlog")},
        {"hdrhistogram-percentiles", corpusPath("hdrhistogram/giltene__wrk2__README.md__latency-output-block.txt")},
        {"redis-benchmark", corpusPath("redis-benchmark/botbabai__valkey-redis-benchmark__results_redis_clients_50.csv")},
        {"redis-benchmark", corpusPath("redis-benchmark/paulrzcz__redka__benchmark.md__original-redis-block.txt")},
        {"rdkafka-performance", dataPath("rdkafka/real-2.0.2/producer-summary.txt")},
        {"memtier", corpusPath("memtier/memc-rs__memc-rs__benchmarks_04.02.2026.md__memcrs-block.txt")},
        {"prometheus", corpusPath("prometheus/prometheus__prometheus__alltypes.237mfs.prom.txt")},
    };
    for (const auto &[format, path] : sources) {
        QTemporaryDir dir;
        Store plain(dir.filePath("plain.db").toStdString()), marked(dir.filePath("bom.db").toStdString());
        const QByteArray bytes = fileBytes(path);
        const SourceReport a = ImportService(plain).importBytes("plain", bytes, {});
        const SourceReport b = ImportService(marked).importBytes("bom", "\xEF\xBB\xBF" + bytes, {});
        ASSERT_EQ(a.status, "imported") << path << ": " << a.errorText;
        EXPECT_EQ(a.format, format) << path;
        EXPECT_EQ(b.status, "imported") << path << ": " << b.errorText;
        EXPECT_EQ(b.format, format) << path;
        EXPECT_EQ(b.scenarios, a.scenarios) << path;
        EXPECT_EQ(scenariosOf(marked), scenariosOf(plain)) << path;
    }
}
