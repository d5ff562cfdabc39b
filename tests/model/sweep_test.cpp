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
    // Numbers as a reader writes them, whatever the tool stored.
    SweepKeyDifference rates{"tuning.producerRate", {std::string("200000.0"), std::string("1000000.0"), std::nullopt}};
    EXPECT_EQ(rates.describe(), "tuning.producerRate (200,000; 1,000,000; absent)");
    SweepKeyDifference mixed{"tuning.acks", {std::string("all"), std::string("0.5"), std::string("0x10")}};
    EXPECT_EQ(mixed.describe(), "tuning.acks (all, 0.5, 0x10)");

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

namespace {

// One run of an OMB-like harness at a fixed offered rate: `partitions` swept, 200k offered.
RunRecord fixedRateRun(int partitions, double achieved, double p99, const std::string &day)
{
    RunRecord run;
    run.runKey = "omb-" + std::to_string(partitions);
    run.timestamp = day + "T00:00:00Z";
    run.tool = "openmessaging-benchmark";
    run.tuning = {{"producerRate", 200000}};
    ScenarioRecord s;
    s.name = "1-topic-" + std::to_string(partitions) + "-partitions-1kb-4p-4c-200K-rate";
    s.topology.partitions = partitions;
    s.topology.producers = 4;
    s.topology.consumers = 4;
    s.metrics = {{"records_per_s", achieved}, {"latency_p99_s", p99}};
    run.scenarios.push_back(s);
    return run;
}

SweepSpec specOf(const std::string &factor)
{
    SweepSpec spec;
    spec.factor = factor;
    return spec;
}

// A redis-benchmark run of one command at `clients` (its -c: clients and connections alike).
ScenarioRecord redisCommand(const std::string &command, int clients, double rps)
{
    ScenarioRecord s;
    s.name = "redis-benchmark/" + command + "/c-" + std::to_string(clients);
    s.kind = "benchmark";
    s.topology.clients = clients;
    s.topology.connections = clients;
    s.metrics = {{"records_per_s", rps}, {"latency_p99_s", 0.0002 * clients}};
    return s;
}

} // namespace

TEST(SweepAnswers, ARateLimitedSweepAnswersWithLatencyNotCapacity)
{
    // Every run achieved its 200k offered rate: no capacity was measured, only latency at it.
    const std::vector<RunRecord> runs = {fixedRateRun(100, 199990, 0.0021, "2026-01-01"),
                                         fixedRateRun(1000, 200010, 0.0048, "2026-01-02"),
                                         fixedRateRun(5000, 199700, 0.021, "2026-01-03"),
                                         fixedRateRun(10000, 199950, 0.063, "2026-01-04")};
    const Sweep sweep = assembleSweep(runs, specOf("partitions"));
    ASSERT_TRUE(sweep.ok) << sweep.error;
    EXPECT_EQ(sweep.workload, "1-topic-*-partitions-1kb-4p-4c-200K-rate");
    for (const SweepPoint &p : sweep.points) {
        EXPECT_TRUE(p.rateLimited) << p.scenario;
        EXPECT_NE(p.leftOut.find("latency at that rate, not capacity"), std::string::npos) << p.leftOut;
    }
    const SweepFit f = fitSweep(sweep);
    EXPECT_EQ(f.answer, SweepAnswer::Latency);
    EXPECT_FALSE(f.usl.ok) << "no σ, N* or contention from runs that measured no capacity";
    EXPECT_EQ(f.rateLimited, 4);
    EXPECT_NE(f.headline.find("Every point achieved its offered rate of 200,000 rec/s"), std::string::npos)
        << f.headline;
    EXPECT_NE(f.headline.find("p99 rose 30×, from 2.1 ms at 100 partitions to 63 ms at 10,000 partitions"),
              std::string::npos)
        << f.headline;

    // One run that fell short of its rate measured capacity; the rest still only latency.
    std::vector<RunRecord> mixed = runs;
    mixed.push_back(fixedRateRun(20000, 150000, 0.4, "2026-01-05"));
    const Sweep m = assembleSweep(mixed, specOf("partitions"));
    const SweepFit mf = fitSweep(m);
    EXPECT_EQ(mf.answer, SweepAnswer::Latency) << "one capacity point cannot make a fit";
    EXPECT_NE(mf.headline.find("No capacity fit"), std::string::npos) << mf.headline;
}

TEST(SweepAnswers, AnOfferedRateSweepIsReadByTheKneeNeverAsASlope)
{
    // Achieved above offered by a little at each step (pacing): a USL against the offered rate
    // would say more is delivered than asked for.
    std::vector<RunRecord> runs;
    const double offered[] = {10000, 20000, 40000, 80000, 160000};
    const double achieved[] = {10200, 20500, 41000, 79000, 101000};
    for (int i = 0; i < 5; ++i) {
        RunRecord run;
        run.runKey = "rate-" + std::to_string(i);
        run.timestamp = "2026-02-0" + std::to_string(i + 1) + "T00:00:00Z";
        run.tool = "kafka-producer-perf-test";
        ScenarioRecord s;
        s.name = "producer";
        s.topology.producers = 1;
        s.metrics = {{"records_per_s", achieved[i]}, {"offered_records_per_s", offered[i]},
                     {"latency_p99_s", i < 3 ? 0.01 : 0.012 + i * 0.002}};
        run.scenarios.push_back(s);
        runs.push_back(run);
    }
    const Sweep sweep = assembleSweep(runs, specOf(kOfferedRateFactor));
    ASSERT_TRUE(sweep.ok) << sweep.error;
    const SweepFit f = fitSweep(sweep);
    EXPECT_EQ(f.answer, SweepAnswer::Knee);
    EXPECT_FALSE(f.usl.ok);
    EXPECT_NE(f.usl.error.find("min(offered, capacity)"), std::string::npos) << f.usl.error;
    ASSERT_TRUE(f.knee && f.knee->ok);
    EXPECT_EQ(f.knee->kneeOffered, 160000);
    EXPECT_EQ(f.knee->capacity, 79000);
    EXPECT_EQ(f.headline, f.knee->reason);
}

TEST(SweepAnswers, ThreeDistinctLoadsFitContentionOnlyAndClaimNoPeak)
{
    // Three client counts: USL's three parameters would pass through them exactly.
    RunRecord run;
    run.runKey = "redis";
    run.timestamp = "2026-03-01T00:00:00Z";
    run.tool = "redis-benchmark";
    for (auto [c, rps] : {std::pair{1, 61000.0}, {10, 170000.0}, {100, 215000.0}})
        run.scenarios.push_back(redisCommand("SET", c, rps));
    const Sweep sweep = assembleSweep({run}, specOf("clients"));
    ASSERT_TRUE(sweep.ok) << sweep.error;
    // -c is the clients and the connections: the same load, not a difference.
    EXPECT_EQ(sweep.sameAsX, std::vector<std::string>{"connections"});
    EXPECT_EQ(sweep.contract.find("topology.connections"), std::string::npos) << sweep.contract;
    const SweepFit f = fitSweep(sweep);
    ASSERT_EQ(f.answer, SweepAnswer::Capacity) << f.why;
    EXPECT_EQ(f.usl.model, UslModel::Contention);
    EXPECT_EQ(f.usl.params.kappa, 0.0);
    EXPECT_FALSE(f.usl.peakMeasured());
    EXPECT_LT(f.usl.r2, 1.0) << "a residual is left: the model has fewer parameters than points";
    EXPECT_GT(f.usl.resamples, 0) << "and so an interval";
    EXPECT_NE(f.headline.find("contention only"), std::string::npos) << f.headline;
    EXPECT_NE(f.headline.find("κ held at 0"), std::string::npos) << f.headline;
    EXPECT_EQ(f.headline.find("peak 3"), std::string::npos) << f.headline;
}

TEST(SweepAnswers, ASubstringThatMatchesSeveralCommandsIsRefusedNamingThem)
{
    RunRecord run;
    run.runKey = "redis-sweep";
    run.timestamp = "2026-03-02T00:00:00Z";
    run.tool = "redis-benchmark";
    for (const char *cmd : {"SET", "HSET", "MSET"})
        for (int c : {1, 10, 50, 100})
            run.scenarios.push_back(redisCommand(cmd, c, 50000.0 * std::sqrt(double(c))));
    SweepSpec spec = specOf("clients");
    spec.scenarioContains = "SET";
    const Sweep refused = assembleSweep({run}, spec);
    EXPECT_FALSE(refused.ok);
    ASSERT_EQ(refused.workloads.size(), 3u);
    for (const char *w : {"redis-benchmark/SET/c-* (4 points)", "redis-benchmark/HSET/c-* (4 points)",
                          "redis-benchmark/MSET/c-* (4 points)"})
        EXPECT_NE(refused.error.find(w), std::string::npos) << refused.error;
    spec.workload = "redis-benchmark/HSET/c-*";
    const Sweep one = assembleSweep({run}, spec);
    ASSERT_TRUE(one.ok) << one.error;
    EXPECT_EQ(one.points.size(), 4u);
    for (const SweepPoint &p : one.points)
        EXPECT_EQ(p.scenario.rfind("redis-benchmark/HSET/", 0), 0u) << p.scenario;
    // findSweeps (the sizing's) keeps the commands apart as well.
    EXPECT_EQ(findSweeps({run}, "clients").size(), 3u);
}

TEST(SweepAnswers, SaturationSummariesAreThePointsOfASweepAcrossConfigurations)
{
    // One run per broker count, each a producer ramp and its saturation summary.
    std::vector<RunRecord> runs;
    for (int brokers : {1, 2, 3}) {
        RunRecord run;
        run.runKey = "pipeline-" + std::to_string(brokers);
        run.timestamp = "2026-04-0" + std::to_string(brokers) + "T00:00:00Z";
        run.tool = "korvet-pipeline-benchmark";
        for (int p : {1, 2, 4, 8}) {
            ScenarioRecord s;
            s.name = "pipeline/produce/step-" + std::to_string(p);
            s.kind = "ramp-step";
            s.topology.brokers = brokers;
            s.topology.producers = p;
            s.metrics = {{"records_per_s", std::min(70000.0 * p, 190000.0 * brokers)}};
            run.scenarios.push_back(s);
        }
        ScenarioRecord sat;
        sat.name = "pipeline/produce/saturation";
        sat.kind = "saturation";
        sat.topology.brokers = brokers;
        sat.topology.producers = 8;
        sat.metrics = {{"records_per_s", std::min(560000.0, 190000.0 * brokers)}};
        run.scenarios.push_back(sat);
        runs.push_back(run);
    }
    const Sweep sweep = assembleSweep(runs, specOf("brokers"));
    ASSERT_TRUE(sweep.ok) << sweep.error;
    ASSERT_EQ(sweep.points.size(), 3u);
    for (const SweepPoint &p : sweep.points)
        EXPECT_EQ(p.scenario, "pipeline/produce/saturation");
    EXPECT_EQ(findSweeps(runs, "brokers").size(), 1u);
    // Within a ramp, the steps and not the summary.
    const Sweep ramp = assembleSweep({runs[0]}, specOf("producers"));
    ASSERT_TRUE(ramp.ok) << ramp.error;
    EXPECT_EQ(ramp.points.size(), 4u);
    EXPECT_EQ(ramp.workload, "pipeline/produce/step-*");
}

TEST(SweepAnswers, PointsThatMeasuredNothingAreNamedAndLeftOut)
{
    std::vector<RunRecord> runs = fourBrokerRuns();
    runs.push_back(brokerRun(16, 0, "2026-09-05")); // an empty window
    runs.back().scenarios[0].metrics = {{"records_per_s", 0.0}, {"latency_p99_s", 0.0}};
    const Sweep sweep = assembleSweep(runs, brokersSpec());
    ASSERT_TRUE(sweep.ok) << sweep.error;
    EXPECT_TRUE(sweep.points.back().degenerate);
    EXPECT_FALSE(sweep.points.back().p99) << "a p99 of 0 measured nothing";
    const SweepFit f = fitSweep(sweep);
    ASSERT_EQ(f.answer, SweepAnswer::Capacity) << f.why;
    EXPECT_EQ(f.usl.points, 4);
    EXPECT_EQ(f.degenerate, 1);
    ASSERT_EQ(f.leftOut.size(), 1u);
    EXPECT_NE(f.leftOut[0].find("1 point has no throughput"), std::string::npos) << f.leftOut[0];
}
