// Sweeps across runs: separate runs of separate cluster configurations assembled into one
// model, their contracts checked as Trends checks them.
#include "support/brokersweep.h"
#include "model/scaling/sweep.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace plimsoll;

namespace {

using plimsoll::test::brokerRun;
constexpr double kLambda = plimsoll::test::kSweepLambda, kSigma = plimsoll::test::kSweepSigma;
double usl(double n) { return plimsoll::test::sweepUsl(n); }

std::vector<RunRecord> fourBrokerRuns()
{
    return {brokerRun(1, usl(1) * 1.012, "2026-09-01"), brokerRun(2, usl(2) * 0.985, "2026-09-02"),
            brokerRun(4, usl(4) * 1.010, "2026-09-03"), brokerRun(8, usl(8) * 0.992, "2026-09-04")};
}

SweepSpec brokersSpec()
{
    SweepSpec spec;
    spec.factor = "brokers";
    return spec;
}

} // namespace

TEST(Sweep, FourRunsOfABrokerSweepRecoverSigmaWithinItsInterval)
{
    const Sweep sweep = assembleSweep(fourBrokerRuns(), brokersSpec());
    ASSERT_TRUE(sweep.ok) << sweep.error;
    ASSERT_EQ(sweep.points.size(), 4u);
    EXPECT_EQ(sweep.distinctX, 4);
    EXPECT_EQ(sweep.runKeys.size(), 4u);
    // Each point names its run and scenario; x ascends.
    EXPECT_EQ(sweep.points[0].runKey, "brokers-1-2026-09-01");
    EXPECT_EQ(sweep.points[3].scenario, "produce/brokers-8");
    EXPECT_EQ(sweep.points[3].x, 8);
    EXPECT_TRUE(sweep.leftOut.empty());
    // The contract is shared, without the factor swept.
    EXPECT_EQ(sweep.contract.find("topology.brokers"), std::string::npos);
    EXPECT_NE(sweep.contract.find("tuning.linger.ms=5"), std::string::npos);

    const SweepFit f = fitSweep(sweep);
    ASSERT_TRUE(f.usl.ok) << f.usl.error;
    EXPECT_GT(f.usl.resamples, 500);
    EXPECT_LT(f.usl.sigmaCi.lo, f.usl.sigmaCi.hi);
    EXPECT_TRUE(f.usl.sigmaCi.contains(kSigma))
        << "σ " << f.usl.params.sigma << " [" << f.usl.sigmaCi.lo << ", " << f.usl.sigmaCi.hi << "]";
    EXPECT_TRUE(f.usl.lambdaCi.contains(kLambda));
    EXPECT_NEAR(f.usl.params.sigma, kSigma, 0.03);
    // Broker counts say nothing of an offered rate: no knee, and the reason.
    EXPECT_FALSE(f.knee.has_value());
    EXPECT_NE(f.kneeNote.find("offered"), std::string::npos);
}

TEST(Sweep, RepeatedNightliesAtOneBrokerCountAreKept)
{
    std::vector<RunRecord> runs = fourBrokerRuns();
    runs.push_back(brokerRun(4, usl(4) * 0.99, "2026-09-05"));
    const Sweep sweep = assembleSweep(runs, brokersSpec());
    ASSERT_TRUE(sweep.ok) << sweep.error;
    EXPECT_EQ(sweep.points.size(), 5u);
    EXPECT_EQ(sweep.distinctX, 4);
    EXPECT_EQ(sweep.points[2].x, 4);
    EXPECT_EQ(sweep.points[3].x, 4);
    EXPECT_LT(sweep.points[2].timestamp, sweep.points[3].timestamp);
}

TEST(Sweep, AMixedContractIsRefusedNamingTheKeyAndAcceptedWhenItIsLeftOut)
{
    std::vector<RunRecord> runs = fourBrokerRuns();
    runs.push_back(brokerRun(6, usl(6), "2026-09-06", /*lingerMs=*/20));
    const Sweep refused = assembleSweep(runs, brokersSpec());
    ASSERT_FALSE(refused.ok);
    EXPECT_NE(refused.error.find("tuning.linger.ms (5, 20)"), std::string::npos) << refused.error;
    EXPECT_NE(refused.error.find("--contract-exclude"), std::string::npos);
    ASSERT_EQ(refused.conflicts.size(), 1u);
    EXPECT_EQ(refused.conflicts[0].key, "tuning.linger.ms");

    SweepSpec spec = brokersSpec();
    spec.excluded = {"tuning.linger.ms"};
    const Sweep accepted = assembleSweep(runs, spec);
    ASSERT_TRUE(accepted.ok) << accepted.error;
    EXPECT_EQ(accepted.points.size(), 5u);
    ASSERT_EQ(accepted.leftOut.size(), 1u);
    EXPECT_EQ(accepted.leftOut[0].describe(), "tuning.linger.ms (5, 20)");

    // A stored family policy leaves it out just as well.
    spec.excluded.clear();
    spec.policies.set("produce/", {"tuning.*"});
    EXPECT_TRUE(assembleSweep(runs, spec).ok);
}

TEST(Sweep, FindSweepsGroupsByContractAndSkipsARampThatHoldsTheFactor)
{
    std::vector<RunRecord> runs = fourBrokerRuns();
    // A producer ramp at 3 brokers: its steps differ in producers, so none sweeps brokers.
    RunRecord ramp;
    ramp.runKey = "ramp";
    ramp.timestamp = "2026-09-01T00:00:00Z";
    for (int p : {1, 2, 4}) {
        ScenarioRecord s;
        s.name = "pipeline/produce/step-" + std::to_string(p);
        s.kind = "ramp-step";
        s.topology.brokers = 3;
        s.topology.producers = p;
        s.metrics = {{"records_per_s", 70000.0 * p}};
        ramp.scenarios.push_back(s);
    }
    runs.push_back(ramp);
    const std::vector<Sweep> sweeps = findSweeps(runs, "brokers");
    ASSERT_EQ(sweeps.size(), 1u);
    EXPECT_EQ(sweeps[0].points.size(), 4u);
    EXPECT_TRUE(findSweeps(runs, "shards").empty()); // 24 shards everywhere
    ASSERT_EQ(findSweeps(runs, "producers").size(), 1u);
    EXPECT_EQ(findSweeps(runs, "producers")[0].runKeys, std::vector<std::string>{"ramp"});
}

TEST(Sweep, OfferedRatesFromTuningANameOrAFileNameGiveTheKnee)
{
    EXPECT_EQ(offeredRateInName("100-partitions-200K-rate-4-producer", std::nullopt), 200000);
    EXPECT_EQ(offeredRateInName("1 topic / 100 partitions / 1Kb / 1.5M Rate", std::nullopt), 1.5e6);
    EXPECT_EQ(offeredRateInName("1-replicas_15-throughput_0-trial_producer.txt", 512.0),
              15e6 / 512);
    // MB/s without a record size is no rate; nor is a name without one.
    EXPECT_FALSE(offeredRateInName("1-replicas_15-throughput_0-trial_producer.txt", std::nullopt));
    EXPECT_FALSE(offeredRateInName("kafka-100-partitions-1kb-batched", 1024.0));

    // Four fixed-rate runs of one producer; the system keeps up to 60k and falls short at 80k.
    std::vector<RunRecord> runs;
    RunSourceNames sources;
    const double offered[] = {20000, 40000, 60000, 80000};
    const double achieved[] = {19990, 39980, 59900, 66000};
    for (int i = 0; i < 4; ++i) {
        RunRecord run;
        run.runKey = "step-" + std::to_string(i);
        run.timestamp = "2026-09-0" + std::to_string(i + 1) + "T00:00:00Z";
        run.tool = "kafka-producer-perf-test";
        ScenarioRecord s;
        s.name = "producer";
        s.topology.producers = 1;
        s.metrics = {{"records_per_s", achieved[i]},
                     {"bytes_per_s", achieved[i] * 500},
                     {"latency_p99_s", i == 3 ? 0.9 : 0.010}};
        run.scenarios.push_back(s);
        if (i == 0)
            run.tuning = {{"throughput", offered[i]}}; // stated
        else
            sources[run.runKey] = "/data/1-replicas_" + std::to_string(int(offered[i] * 500 / 1e6)) +
                                  "-throughput_0-trial_producer.txt";
        runs.push_back(run);
    }
    SweepSpec spec;
    spec.factor = kOfferedRateFactor;
    spec.excluded = {"tuning.*"};
    const Sweep sweep = assembleSweep(runs, spec, sources);
    ASSERT_TRUE(sweep.ok) << sweep.error;
    ASSERT_EQ(sweep.points.size(), 4u);
    EXPECT_EQ(sweep.points[0].xInferredFrom, "tuning.throughput");
    EXPECT_EQ(sweep.points[3].xInferredFrom, "file name '1-replicas_40-throughput_0-trial_producer.txt'");
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(sweep.points[size_t(i)].x, offered[i], 1e-6);
    const SweepFit f = fitSweep(sweep);
    ASSERT_TRUE(f.knee.has_value());
    ASSERT_TRUE(f.knee->ok) << f.knee->error;
    EXPECT_EQ(f.knee->kneeOffered, 80000);
    EXPECT_EQ(f.knee->capacity, 59900);
    EXPECT_TRUE(f.knee->bounded);
}

TEST(RunSelection, ByToolTargetTimeAndScenario)
{
    const std::vector<RunRecord> runs = fourBrokerRuns();
    RunSelection sel;
    EXPECT_FALSE(sel.any());
    sel.since = "2026-09-02";
    sel.until = "2026-09-04";
    int n = 0;
    for (const RunRecord &r : runs)
        n += sel.matches(r);
    EXPECT_EQ(n, 2);
    sel = {};
    sel.tool = "korvet-bench";
    sel.scenario = "brokers-8";
    n = 0;
    for (const RunRecord &r : runs)
        n += sel.matches(r);
    EXPECT_EQ(n, 1);
    sel.target = "kafka";
    EXPECT_FALSE(sel.matches(runs[3]));
}
