// Live-run fault: partition leaders move while a run produces (a rolling restart, a
// reassignment). librdkafka's mock cluster is the only place this can be ordered on demand;
// the numbers describe the client, not a broker.
#include "runner/benchengine.h"
#include "runner/mockcluster.h"

#include <gtest/gtest.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace plimsoll {
namespace {

using namespace std::chrono_literals;

TEST(SecurityLiveFaults, PartitionLeadersMovingMidRunEndWithAVerdictInTime)
{
    MockCluster mock(3);
    ASSERT_TRUE(mock.ok()) << mock.error().toString();
    constexpr int kPartitions = 4;
    ASSERT_TRUE(mock.createTopic("moving", kPartitions, 3).ok());
    RunConfig c;
    c.workload = Workload::Producer;
    c.bootstrapServers = mock.bootstrapServers();
    c.topic = "moving";
    c.rate = 2000;
    c.duration = 4s;
    // A record's delivery may chase a moving leader for its whole timeout when the client is
    // starved of CPU (two cores, the suite beside it): long enough that only a lost one fails.
    c.timeout = 15s;
    std::atomic<bool> cancel{false};
    std::atomic<bool> stop{false};
    std::atomic<int> moves{0};
    std::thread mover([&] {
        // Every 250 ms each partition's leader moves to the next broker (ids 1..3).
        for (int round = 0; !stop; ++round) {
            std::this_thread::sleep_for(250ms);
            for (int p = 0; p < kPartitions; ++p) {
                rd_kafka_mock_partition_set_leader(mock.handle(), "moving", p, 1 + (round + p) % 3);
                ++moves;
            }
        }
    });
    const auto started = std::chrono::steady_clock::now();
    const BenchResult result = BenchEngine(c).run(cancel);
    stop = true;
    mover.join();
    const auto took = std::chrono::steady_clock::now() - started;
    EXPECT_GT(moves.load(), 20);
    EXPECT_LT(took, c.duration + 2 * c.timeout) << "the run outlived its --timeout";
    ASSERT_EQ(result.scenarios.size(), 1u);
    const auto &metrics = result.scenarios[0].metrics;
    // Leader changes are retriable: a client that follows them loses nothing.
    EXPECT_EQ(result.exitCode, 0) << (result.errors.empty() ? "" : result.errors.front());
    EXPECT_FALSE(result.partial);
    EXPECT_GT(metrics.at("producer.acknowledged"), 0);
    EXPECT_EQ(metrics.at("errors"), 0);
}

} // namespace
} // namespace plimsoll
