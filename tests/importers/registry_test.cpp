// Detection by content across every format, and refusals that name the closest format.
#include "importertest.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

std::string corpus(const std::string &name)
{
    QFile f(QString::fromStdString(corpusPath(name)));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(64 * 1024).toStdString();
}

std::string detected(const std::string &head)
{
    const Importer *i = ImporterRegistry::instance().detect(head);
    return i ? i->name() : "none";
}

} // namespace

TEST(Registry, EveryCorpusFileOfOurFormatsIsDetected)
{
    PLIMSOLL_REQUIRES_CORPUS();
    EXPECT_EQ(detected(corpus("omb/streamnative__openmessaging-benchmark__kafka-100-partitions-1kb-batched-1ms-1mb-ack-all-sync.json")), "omb");
    EXPECT_EQ(detected(corpus("omb/luky116__openmessaging-benchmark__100-partition,10-producer,10-consumer.json")), "omb");
    EXPECT_EQ(detected(corpus("kafka-perf/aaronchlam__kafka-benchmarks__1-replicas_10-throughput_0-trial_producer.txt")), "kafka-producer-perf");
    EXPECT_EQ(detected(corpus("kafka-perf/confluentinc__examples__multiregion.rst__producer-block.txt")), "kafka-producer-perf");
    EXPECT_EQ(detected(corpus("kafka-perf/aaronchlam__kafka-benchmarks__1-replicas_10-throughput_0-trial_consumer-tem10.txt")), "kafka-consumer-perf");
    EXPECT_EQ(detected(corpus("kafka-perf/confluentinc__examples__multiregion.rst__consumer-block.txt")), "kafka-consumer-perf");
    EXPECT_EQ(detected(readData("korvet-dist/SUMMARY.txt")), "korvet-dist");
    EXPECT_EQ(detected(readData("rdkafka/producer.txt")), "rdkafka-performance");
    EXPECT_EQ(detected(readData("korvet-result.json")), "korvet-result");
}

TEST(Registry, RefusalNamesTheClosestFormatAndWhy)
{
    const std::string omb = ImporterRegistry::instance().explainRefusal(
        "{\n  \"workload\" : \"1-topic\",\n  \"driver\" : \"Kafka\"\n}");
    EXPECT_NE(omb.find("closest is omb"), std::string::npos) << omb;
    EXPECT_NE(omb.find("publishRate"), std::string::npos) << omb;

    const std::string producer =
        ImporterRegistry::instance().explainRefusal("12 records sent in a hurry\n");
    EXPECT_NE(producer.find("closest is kafka-producer-perf"), std::string::npos) << producer;

    const std::string nothing = ImporterRegistry::instance().explainRefusal("hello\nworld\n");
    EXPECT_NE(nothing.find("'hello'"), std::string::npos) << nothing;
    EXPECT_EQ(ImporterRegistry::instance().explainRefusal(""),
              "not a format Plimsoll reads: it is empty (see `plimsoll formats`; --format forces one)");
}
