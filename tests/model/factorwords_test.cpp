// Load factors written into names: what a harness's paths state, and the workload a scenario
// belongs to once the swept factor's values are set aside.
#include "model/core/factorwords.h"

#include <gtest/gtest.h>

using namespace plimsoll;

namespace {

std::optional<double> find(const std::vector<FactorInName> &all, const std::string &factor)
{
    for (const FactorInName &f : all)
        if (f.factor == factor)
            return f.value;
    return std::nullopt;
}

} // namespace

TEST(FactorWords, AHarnessPathStatesReplicasRatesAndCounts)
{
    // A kafka-producer-perf-test harness's tree, as its files are named.
    const auto perf = factorsInName("/results/3-replicas/55-throughput/0-trial/producer.txt");
    EXPECT_EQ(find(perf, "replication"), 3);
    EXPECT_EQ(find(perf, kThroughputWord), 55);
    EXPECT_FALSE(find(perf, "partitions"));
    EXPECT_EQ(perf.size(), 2u) << "'0-trial' is no factor";
    // The same tree flattened into one file name.
    const auto flat = factorsInName("aaronchlam__kafka-benchmarks__1-replicas_15-throughput_0-trial_producer.txt");
    EXPECT_EQ(find(flat, "replication"), 1);
    EXPECT_EQ(find(flat, kThroughputWord), 15);
    // Words on either side of the number, OMB's rates with their multiplier.
    const auto omb = factorsInName("sweeps/partitions-1000/1-topic-16-producers-200K-rate.json");
    EXPECT_EQ(find(omb, "partitions"), 1000);
    EXPECT_EQ(find(omb, "producers"), 16);
    EXPECT_EQ(find(omb, kRateWord), 200000);
    EXPECT_EQ(find(factorsInName("results_redis_clients_50.csv"), "clients"), 50);
    // A directory's statement gives way to the file's own.
    EXPECT_EQ(find(factorsInName("/runs/3-brokers/5-brokers.json"), "brokers"), 5);
    // Nothing where the words name no factor, or the number is not a count.
    EXPECT_TRUE(factorsInName("blog-results-kafka-latency-sync-200k.json").empty());
    EXPECT_TRUE(factorsInName("benchmarks_04.02.2026.md__memcrs-block.txt").empty());
    EXPECT_TRUE(factorsInName("2.5-brokers.json").empty());
    // One-letter forms are for scenario names only: "c-50" in a path is not read.
    EXPECT_TRUE(factorsInName("/data/c-50/run.csv").empty());
}

TEST(FactorWords, AWorkloadIsItsNameWithTheSweptValuesSetAside)
{
    // redis-benchmark's scenarios: the command stays, the swept clients go.
    EXPECT_EQ(workloadOf("redis-benchmark/SET/c-50/P-16", {"clients"}), "redis-benchmark/SET/c-*/P-16");
    EXPECT_NE(workloadOf("redis-benchmark/HSET/c-50/P-16", {"clients"}),
              workloadOf("redis-benchmark/SET/c-10/P-16", {"clients"}));
    EXPECT_EQ(workloadOf("redis-benchmark/LRANGE_100/c-50", {"clients"}), "redis-benchmark/LRANGE_100/c-*");
    EXPECT_NE(workloadOf("redis-benchmark/LRANGE_600/c-50", {"clients"}),
              workloadOf("redis-benchmark/LRANGE_100/c-50", {"clients"}));
    // A pipeline sweep keeps the clients.
    EXPECT_EQ(workloadOf("redis-benchmark/SET/c-50/P-16", {"pipeline"}), "redis-benchmark/SET/c-50/P-*");
    // OMB's workload names: only the swept factor's number goes; "4p-4c" are producers and
    // consumers, "1kb" a record size, "200K-rate" an offered rate.
    const std::string omb = "1-topic-100-partitions-1kb-4p-4c-200K-rate";
    EXPECT_EQ(workloadOf(omb, {"partitions"}), "1-topic-*-partitions-1kb-4p-4c-200K-rate");
    EXPECT_EQ(workloadOf(omb, {"producers"}), "1-topic-100-partitions-1kb-*p-4c-200K-rate");
    EXPECT_EQ(workloadOf(omb, {"consumers"}), "1-topic-100-partitions-1kb-4p-*c-200K-rate");
    EXPECT_EQ(workloadOf(omb, {"offered_rate"}), "1-topic-100-partitions-1kb-4p-4c-*-rate");
    EXPECT_EQ(workloadOf(omb, {"record_size_bytes"}), "1-topic-100-partitions-*kb-4p-4c-200K-rate");
    // A ramp's steps are one workload whatever is swept.
    EXPECT_EQ(workloadOf("pipeline/produce/step-16", {"brokers"}), "pipeline/produce/step-*");
    EXPECT_EQ(workloadOf("findings/broker-scaling/brokers-3", {"brokers"}), "findings/broker-scaling/brokers-*");
    EXPECT_EQ(workloadOf("producers-4_batch-100msg_pool-8", {"producers"}), "producers-*_batch-100msg_pool-8");
    EXPECT_EQ(workloadOf("aggregate", {"producers"}), "aggregate");
}
