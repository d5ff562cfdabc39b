// The broker count three ways — the fit across runs that vary the broker count, the ramp's
// CPU-linear capacity, the Korvet page's "+1 broker per ~200k msg/s" — side by side in the
// sizing, with the one taken and why.
#include "model/sizing/sizing.h"
#include "sampleruns.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

using namespace plimsoll;

namespace {

const Sizer &sampleSizer()
{
    static const Sizer sizer(fitSizingModels(test::sampleRuns()));
    return sizer;
}

SizingResult sizeAt(const Sizer &sizer, double rate, BrokerModel model = BrokerModel::Auto)
{
    SizingInputs in;
    in.rate = rate;
    in.recordBytes = 700;
    in.retentionS = 60;
    in.brokerModel = model;
    return sizer.size(in);
}

const UnitsAnswer *answer(const UnitsChoice &c, const std::string &model)
{
    for (const UnitsAnswer &a : c.answers)
        if (a.model == model)
            return &a;
    return nullptr;
}

// Four runs of their own at 1, 2, 4 and 8 brokers: λ 250k, σ 0.05, a percent or two of noise.
std::vector<RunRecord> withBrokerSweep()
{
    std::vector<RunRecord> runs = test::sampleRuns();
    const double noise[] = {1.01, 0.99, 1.015, 0.995};
    int i = 0;
    for (int n : {1, 2, 4, 8}) {
        RunRecord run;
        run.runKey = "team:brokers-" + std::to_string(n);
        run.timestamp = "2026-10-0" + std::to_string(n) + "T00:00:00Z";
        run.tool = "korvet-bench";
        run.target = "korvet";
        run.tuning = {{"acks", "1"}, {"linger.ms", 5}};
        ScenarioRecord s;
        s.name = "produce/max";
        s.kind = "benchmark";
        s.topology.brokers = n;
        s.topology.shards = 48;
        s.metrics = {{"records_per_s", 250000.0 * n / (1 + 0.05 * (n - 1)) * noise[i++]}};
        run.scenarios.push_back(s);
        runs.push_back(run);
    }
    return runs;
}

} // namespace

TEST(BrokerModels, ThePagesBrokerFindingsAreASampleSweep)
{
    const ComponentSweepModel &b = sampleSizer().models().brokerSweep;
    ASSERT_TRUE(b.ok) << b.error;
    EXPECT_EQ(b.runKeys, std::vector<std::string>{"sample:korvet-broker-scaling"});
    // ~200k for one broker; 3 brokers ~2.6×. Two broker counts fix one parameter, not σ beside
    // λ (σ would pass through both exactly): a linear fit, λ by least squares, and it says so.
    EXPECT_EQ(b.fit.model, UslModel::Linear);
    EXPECT_NEAR(b.fit.params.lambda, (200000.0 * 1 + 520000.0 * 3) / (1 + 9), 1);
    EXPECT_EQ(b.fit.params.sigma, 0);
    EXPECT_EQ(b.fit.params.kappa, 0);
    EXPECT_NE(b.describe().find("A linear fit over brokers from 1 run (2 points, 2 broker counts)"),
              std::string::npos)
        << b.describe();
    EXPECT_NE(b.describe().find("2 distinct N fix one parameter: linear"), std::string::npos) << b.describe();
    // No run varies the shard count under one contract.
    EXPECT_FALSE(sampleSizer().models().shardSweep.ok);
}

TEST(BrokerModels, AtOnePointTwoMillionTheThreeAnswersStandSideBySide)
{
    const SizingResult r = sizeAt(sampleSizer(), 1200000);
    ASSERT_TRUE(r.ok) << r.error;
    const UnitsChoice &c = r.brokerChoice;
    ASSERT_EQ(c.answers.size(), 3u);
    const UnitsAnswer *fitted = answer(c, "fitted"), *cpu = answer(c, "cpu"), *rule = answer(c, "rule");
    ASSERT_TRUE(fitted && cpu && rule);
    // 1.2M ÷ 176k = 6.8: the linear fit's 7, an extrapolation it names.
    EXPECT_EQ(fitted->units, 7);
    EXPECT_NE(fitted->reasoning.find("extrapolated, 2.3× the largest measured brokers (3)"), std::string::npos)
        << fitted->reasoning;
    EXPECT_EQ(cpu->units, 5); // ~244k per broker at 90 % CPU
    EXPECT_EQ(rule->units, 6);
    // A linear fit sees no contention the CPU capacity does not: shown, not taken.
    EXPECT_EQ(c.taken, "cpu");
    EXPECT_TRUE(cpu->taken);
    EXPECT_FALSE(fitted->taken);
    EXPECT_NE(c.why.find("the fit is linear (2 broker counts cannot fix a contention term)"), std::string::npos)
        << c.why;
    EXPECT_EQ(r.brokers, 5);
    const std::string &why = r.line("brokers")->reasoning;
    EXPECT_NE(why.find("beside it: fitted 7, rule 6"), std::string::npos) << why;
    EXPECT_NE(fitted->reasoning.find("A linear fit over brokers from 1 run"), std::string::npos);
    EXPECT_EQ(fitted->runKeys, std::vector<std::string>{"sample:korvet-broker-scaling"});
    std::cout << "  " << why << "\n";
    for (const UnitsAnswer &a : c.answers)
        std::cout << "    " << a.model << " " << (a.units ? *a.units : 0) << ": " << a.reasoning << "\n";

    // The user chooses.
    const SizingResult byRule = sizeAt(sampleSizer(), 1200000, BrokerModel::Rule);
    ASSERT_TRUE(byRule.ok);
    EXPECT_EQ(byRule.brokers, 6);
    EXPECT_EQ(byRule.brokerChoice.taken, "rule");
    EXPECT_NE(byRule.line("brokers")->reasoning.find("+1 broker per ~200k"), std::string::npos);
    const SizingResult byFit = sizeAt(sampleSizer(), 1200000, BrokerModel::Fitted);
    ASSERT_TRUE(byFit.ok);
    EXPECT_EQ(byFit.brokers, 7);
    EXPECT_EQ(byFit.line("brokers")->runKeys, std::vector<std::string>{"sample:korvet-broker-scaling"});
    // At the measured 600k the rule and the CPU agree on the page's 3 brokers.
    const SizingResult six = sizeAt(sampleSizer(), 600000);
    EXPECT_EQ(six.brokers, 3);
    EXPECT_EQ(answer(six.brokerChoice, "rule")->units, 3);
}

TEST(BrokerModels, AFitWithIntervalsIsTakenAndItsLineNamesTheModel)
{
    const Sizer sizer(fitSizingModels(withBrokerSweep()));
    const ComponentSweepModel &b = sizer.models().brokerSweep;
    ASSERT_TRUE(b.ok) << b.error;
    ASSERT_TRUE(b.hasIntervals());
    EXPECT_EQ(b.runKeys.size(), 4u); // the larger sweep wins over the page's two points
    EXPECT_TRUE(b.fit.sigmaCi.contains(0.05));
    const SizingResult r = sizeAt(sizer, 1200000);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.brokerChoice.taken, "fitted");
    const int expected = *b.unitsFor(1200000);
    EXPECT_EQ(r.brokers, expected);
    EXPECT_GE(r.brokers, 6); // 250k × 6 / 1.25 = 1.2M
    const std::string &why = r.line("brokers")->reasoning;
    EXPECT_NE(why.find("USL over brokers from 4 runs"), std::string::npos) << why;
    EXPECT_NE(why.find("σ 0.0"), std::string::npos) << why;
    EXPECT_NE(why.find("bootstrap intervals"), std::string::npos) << why;
    EXPECT_EQ(r.line("brokers")->runKeys.size(), 4u);
}

TEST(BrokerModels, WithoutASweepTheCpuCapacityStandsAndSaysSo)
{
    std::vector<RunRecord> runs;
    for (RunRecord &r : test::sampleRuns())
        if (r.runKey != "sample:korvet-broker-scaling")
            runs.push_back(std::move(r));
    const Sizer sizer(fitSizingModels(runs));
    const SizingResult r = sizeAt(sizer, 1200000);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.brokerChoice.taken, "cpu");
    EXPECT_NE(r.brokerChoice.why.find("no run varies the brokers count"), std::string::npos);
    EXPECT_FALSE(answer(r.brokerChoice, "fitted")->units.has_value());
    EXPECT_NE(r.line("shards")->reasoning.find("no run varies the shards count"), std::string::npos);
    const SizingResult asked = sizeAt(sizer, 1200000, BrokerModel::Fitted);
    EXPECT_FALSE(asked.ok);
    EXPECT_NE(asked.error.find("no runs sweep the brokers count"), std::string::npos) << asked.error;
}
