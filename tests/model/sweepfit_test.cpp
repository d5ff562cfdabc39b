// The fit-across-runs request the CLI and the window share: its domains, p99 against load as the
// median of repeated points, predictions, the reason an interval is missing, and a selection's
// scenario text keeping only those scenarios.
#include "model/scaling/sweepfit.h"

#include <gtest/gtest.h>

using namespace plimsoll;

namespace {

RunRecord brokerRun(int brokers, double rate, double p99, const std::string &day)
{
    RunRecord run;
    run.runKey = "brokers-" + std::to_string(brokers) + "-" + day;
    run.timestamp = day + "T02:00:00Z";
    run.tool = "korvet-bench";
    run.target = "korvet";
    run.tuning = {{"acks", "1"}};
    ScenarioRecord s;
    s.name = "produce/brokers-" + std::to_string(brokers);
    s.topology.brokers = brokers;
    s.metrics = {{"records_per_s", rate}, {"latency_p99_s", p99}};
    run.scenarios.push_back(s);
    ScenarioRecord consume = s;
    consume.name = "consume/brokers-" + std::to_string(brokers);
    consume.metrics = {{"records_per_s", rate * 3}, {"latency_p99_s", p99}};
    run.scenarios.push_back(consume);
    return run;
}

double usl(double n) { return 200000 * n / (1 + 0.08 * (n - 1)); }

Evidence evidence()
{
    Evidence e;
    e.runs = {brokerRun(1, usl(1), 0.004, "2026-09-01"), brokerRun(2, usl(2), 0.008, "2026-09-02"),
              brokerRun(4, usl(4) * 1.01, 0.016, "2026-09-03"), brokerRun(4, usl(4) * 0.99, 0.020, "2026-09-05"),
              brokerRun(4, usl(4), 0.030, "2026-09-06"), brokerRun(8, usl(8), 0.032, "2026-09-04")};
    return e;
}

} // namespace

TEST(SweepFitRequest, RefusesWhatNoFitCanTake)
{
    SweepFitRequest r;
    EXPECT_FALSE(r.validate());
    r.spec.factor = "producer";
    ASSERT_TRUE(r.validate());
    EXPECT_EQ(r.validate()->field, SweepFitRequest::Problem::Factor);
    EXPECT_NE(r.validate()->message.find("must be a load factor: producers, consumers"), std::string::npos);
    EXPECT_NE(r.validate()->message.find("(got 'producer')"), std::string::npos);
    r.spec.factor = kOfferedRateFactor;
    EXPECT_FALSE(r.validate());
    r.knee.latencyFactor = 1;
    ASSERT_TRUE(r.validate());
    EXPECT_EQ(r.validate()->field, SweepFitRequest::Problem::KneeLatencyFactor);
    r.knee.latencyFactor = 2;
    r.predict = {12, 0};
    ASSERT_TRUE(r.validate());
    EXPECT_EQ(r.validate()->field, SweepFitRequest::Problem::Predict);
}

TEST(SweepFit, TheSelectionsScenarioTextKeepsOnlyThoseScenarios)
{
    SweepFitRequest r;
    r.spec.factor = "brokers";
    r.usl.bootstrapResamples = 0;
    r.predict = {16};
    // Produce and consume differ threefold: the selection's text keeps the produce scenarios.
    r.evidence.runs.scenario = "produce/";
    const SweepFitResult out = fitSweepOf(evidence(), r);
    ASSERT_TRUE(out.ok) << out.error;
    ASSERT_EQ(out.sweep.points.size(), 6u);
    for (const SweepPoint &p : out.sweep.points)
        EXPECT_TRUE(p.scenario.starts_with("produce/")) << p.scenario;
    EXPECT_EQ(out.runsSelected, 6);
    EXPECT_NEAR(out.fit.usl.params.sigma, 0.08, 0.01);
    ASSERT_EQ(out.predictions.size(), 1u);
    EXPECT_EQ(out.predictions[0].x, 16);
    EXPECT_NEAR(out.predictions[0].y, usl(16), usl(16) * 0.03);
    EXPECT_EQ(noIntervalReason(out.fit.usl, r.usl), "bootstrap turned off");

    // p99 against load: one entry per x, the median of the three at 4 brokers.
    ASSERT_EQ(out.p99AgainstLoad.size(), 4u);
    EXPECT_EQ(out.p99AgainstLoad[2].x, 4);
    EXPECT_EQ(out.p99AgainstLoad[2].points, 3);
    EXPECT_DOUBLE_EQ(out.p99AgainstLoad[2].p99, 0.020);
    EXPECT_DOUBLE_EQ(out.p99AgainstLoad[3].p99, 0.032);
}

TEST(SweepFit, ARefusedSweepIsAResultNamingTheRunsSelected)
{
    SweepFitRequest r;
    r.spec.factor = "brokers";
    Evidence e = evidence();
    e.runs[5].tuning["acks"] = "all";
    r.evidence.runs.scenario = "produce/";
    const SweepFitResult out = fitSweepOf(e, r);
    EXPECT_FALSE(out.ok);
    EXPECT_FALSE(out.sweep.ok);
    ASSERT_EQ(out.sweep.conflicts.size(), 1u);
    EXPECT_EQ(out.sweep.conflicts[0].key, "tuning.acks");
    EXPECT_NE(out.error.find("(6 runs selected)"), std::string::npos) << out.error;
    EXPECT_TRUE(out.p99AgainstLoad.empty());
    r.spec.excluded = {"tuning.acks"};
    EXPECT_TRUE(fitSweepOf(e, r).ok);
}
