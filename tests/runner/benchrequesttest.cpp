// The bench request's consume-ramp options and --tuning entries, as both front ends fill them:
// refused before anything runs, with the option and the entry named.
#include "runner/benchrequest.h"

#include <gtest/gtest.h>

namespace plimsoll {
namespace {

BenchRequest consumeRamp()
{
    BenchRequest r;
    r.config.workload = Workload::Ramp;
    r.ramp = "consumers";
    r.steps = "1,2,4";
    r.backlog = "100000";
    return r;
}

std::string problemWithTuning(const std::string &typed)
{
    BenchRequest r = consumeRamp();
    r.tuning = {typed};
    return resolveBenchRequest(r);
}

TEST(runnerBenchRequest, MalformedZeroAndNegativeTuningValuesAreRefusedNamingTheEntry)
{
    const struct
    {
        const char *typed;
        const char *named;
    } refused[] = {
        {"icebergReadThreads", "'icebergReadThreads' is malformed: no '='"},
        {"=8", "'=8' is malformed"},
        {"icebergReadThreads=", "'icebergReadThreads=' is malformed: no value"},
        {"icebergReadThreads=0", "icebergReadThreads: 0 must be greater than 0"},
        {"maxPollRecords=-2000", "maxPollRecords: -2000 must be greater than 0"},
        {"tieredSteps=1,0,4", "tieredSteps: 0 must be greater than 0"},
        {"tieredSteps=1,2,", "ends with ','"},
        {"rowGroupBytes=12x", "rowGroupBytes: '12x' is not a number"},
        {"brokerStack=net$ty", "'net$ty' is neither a positive number nor a word"},
        {"icebergReadThreads=8 icebergReadThreads=4", "icebergReadThreads is given twice (8 and 4)"},
        {"acks=1", "'acks' is one of the run's own settings"},
    };
    for (const auto &r : refused) {
        const std::string problem = problemWithTuning(r.typed);
        EXPECT_NE(problem.find(r.named), std::string::npos) << r.typed << " -> " << problem;
        EXPECT_EQ(problem.rfind("--tuning", 0), 0u) << problem;
    }
}

TEST(runnerBenchRequest, TuningEntriesJoinTheContractAsGiven)
{
    BenchRequest r = consumeRamp();
    r.tuning = {"icebergReadThreads=8 tieredSteps=1,2,4", "brokerStack=netty", "maxPartitionFetchBytes=4194304"};
    ASSERT_EQ(resolveBenchRequest(r), "");
    const auto tuning = r.config.tuning();
    EXPECT_EQ(tuning.at("icebergReadThreads"), "8");
    EXPECT_EQ(tuning.at("tieredSteps"), "1,2,4");
    EXPECT_EQ(tuning.at("brokerStack"), "netty");
    EXPECT_EQ(tuning.at("maxPartitionFetchBytes"), "4194304");
}

TEST(runnerBenchRequest, ConsumeRampContractHasItsConsumersGroupAndFetchSettings)
{
    BenchRequest r = consumeRamp();
    r.config.group = "spark";
    r.fetchMaxBytes = "4MB";
    r.config.clientConfig = {{"fetch.wait.max.ms", "100"}};
    ASSERT_EQ(resolveBenchRequest(r), "");
    const auto tuning = r.config.tuning();
    EXPECT_EQ(tuning.at("ramp"), "consumers");
    EXPECT_EQ(tuning.at("consumers"), "ramped"); // each step's count is its topology
    EXPECT_EQ(tuning.at("consumer.group"), "spark");
    EXPECT_EQ(tuning.at("backlog"), "100000");
    EXPECT_EQ(tuning.at("fetch.max.bytes"), "4194304");
    EXPECT_EQ(tuning.at("max.partition.fetch.bytes"), "1048576");
    EXPECT_EQ(tuning.at("fetch.wait.max.ms"), "100");

    // A produce ramp's contract is what it was: no consume keys in it.
    BenchRequest produce;
    produce.config.workload = Workload::Ramp;
    produce.steps = "1,2";
    ASSERT_EQ(resolveBenchRequest(produce), "");
    std::vector<std::string> keys;
    for (const auto &entry : produce.config.tuning())
        keys.push_back(entry.first);
    EXPECT_EQ(keys, (std::vector<std::string>{"acks", "batch.size", "compression.type", "consumers", "linger.ms",
                                              "partitions", "producers", "rate", "record_size_bytes", "workload"}));
}

TEST(runnerBenchRequest, ConsumeRampOptionsAreCheckedBeforeAnythingRuns)
{
    const auto problemOf = [](auto change) {
        BenchRequest r = consumeRamp();
        change(r);
        return resolveBenchRequest(r);
    };
    EXPECT_EQ(problemOf([](BenchRequest &r) { r.ramp = "shards"; }),
              "--ramp must be 'producers' or 'consumers' (got 'shards')");
    EXPECT_NE(problemOf([](BenchRequest &r) { r.backlog.clear(); }).find("--ramp consumers needs a backlog"),
              std::string::npos);
    EXPECT_EQ(problemOf([](BenchRequest &r) { r.backlog.clear(), r.config.topic = "logs"; }), "");
    EXPECT_NE(problemOf([](BenchRequest &r) { r.backlog = "0"; }).find("--backlog"), std::string::npos);
    EXPECT_NE(problemOf([](BenchRequest &r) { r.steps = "1,2.5"; }).find("whole numbers"), std::string::npos);
    EXPECT_NE(problemOf([](BenchRequest &r) { r.config.stepByRate = true; }).find("--step-by-rate"),
              std::string::npos);
    EXPECT_NE(problemOf([](BenchRequest &r) { r.config.from = "end"; }).find("--from end"), std::string::npos);
    EXPECT_NE(problemOf([](BenchRequest &r) { r.fetchP99Limit = "0"; }).find("--fetch-p99-limit"),
              std::string::npos);
    EXPECT_NE(problemOf([](BenchRequest &r) { r.ramp = "producers"; }).find("--backlog applies to"),
              std::string::npos);
    // The tiered ramp checks its remote reads in the brokers' metrics, so it needs them.
    EXPECT_NE(problemOf([](BenchRequest &r) { r.tiered = true; }).find("--tiered checks every window's remote reads"),
              std::string::npos);
    EXPECT_NE(problemOf([](BenchRequest &r) { r.s3GetMetric = "s3_gets_total"; }).find("use it with --tiered"),
              std::string::npos);
}

// A consume ramp's fetch p99 limit: 500 ms, or 5 s over a tiered backlog (the page's
// TIERED_FETCH_P99_MS_LIMIT); a limit the user gives is kept either way.
TEST(runnerBenchRequest, TieredRampsFetchLimitDefaultsToFiveSeconds)
{
    BenchRequest r = consumeRamp();
    ASSERT_EQ(resolveBenchRequest(r), "");
    EXPECT_EQ(r.config.fetchP99Limit, std::chrono::milliseconds(500));
    EXPECT_EQ(r.config.tuning().at("tiered"), "no");
    BenchRequest tiered = consumeRamp();
    tiered.tiered = true;
    tiered.brokerMetrics = {"http://127.0.0.1:9/metrics"};
    ASSERT_EQ(resolveBenchRequest(tiered), "");
    EXPECT_EQ(tiered.config.fetchP99Limit, std::chrono::seconds(5));
    EXPECT_TRUE(tiered.config.tiered);
    EXPECT_EQ(tiered.config.tuning().at("tiered"), "yes");
    tiered.fetchP99Limit = "2s";
    ASSERT_EQ(resolveBenchRequest(tiered), "");
    EXPECT_EQ(tiered.config.fetchP99Limit, std::chrono::seconds(2));
}

} // namespace
} // namespace plimsoll
