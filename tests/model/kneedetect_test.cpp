#include "model/scaling/kneedetect.h"

#include <gtest/gtest.h>

using namespace plimsoll;

TEST(KneeDetect, ShortfallFiresWhereAchievedStopsFollowingOffered)
{
    // A system with a ~300k records/s ceiling; p99 stays flat (seconds) to isolate the rule.
    const std::vector<SweepStep> steps{{100000, 99800, 0.004},  {200000, 199500, 0.0045},
                                       {300000, 291000, 0.0050}, {400000, 305000, 0.0060},
                                       {500000, 303000, 0.0070}};
    const KneeResult r = KneeDetector().detect(steps);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.rule, KneeRule::Shortfall);
    EXPECT_EQ(r.kneeStep, 3); // 291k of 300k is 3% short: still within 5%
    EXPECT_EQ(r.kneeOffered, 400000);
    EXPECT_EQ(r.capacity, 291000);
    EXPECT_EQ(r.ceiling, 305000);
    EXPECT_TRUE(r.bounded);
    EXPECT_NE(r.reason.find("short of the offered"), std::string::npos) << r.reason;

    KneeOptions strict;
    strict.maxShortfall = 0.02;
    const KneeResult s = KneeDetector(strict).detect(steps);
    EXPECT_EQ(s.kneeStep, 2);
    EXPECT_EQ(s.capacity, 199500);
}

TEST(KneeDetect, LatencyFiresBeforeThroughputFlattens)
{
    // Input out of order on purpose: the detector sorts by offered rate.
    const std::vector<SweepStep> steps{{300000, 299000, 0.0110}, {100000, 100000, 0.0040},
                                       {200000, 199900, 0.0070}, {400000, 330000, 0.0400}};
    const KneeResult r = KneeDetector().detect(steps);
    ASSERT_TRUE(r.ok);
    EXPECT_DOUBLE_EQ(r.baselineP99, 0.004);
    EXPECT_EQ(r.rule, KneeRule::Latency); // 11 ms > 2 × 4 ms while 299k of 300k kept up
    EXPECT_EQ(r.kneeStep, 2);
    EXPECT_EQ(r.capacity, 199900);
    EXPECT_NE(r.reason.find("low-load p99"), std::string::npos) << r.reason;

    KneeOptions lenient;
    lenient.latencyFactor = 3.0;
    const KneeResult l = KneeDetector(lenient).detect(steps);
    EXPECT_EQ(l.rule, KneeRule::Both); // 40 ms > 12 ms and 330k is 17.5% short
    EXPECT_EQ(l.kneeStep, 3);
    EXPECT_EQ(l.capacity, 299000);
}

TEST(KneeDetect, NoKneeIsALowerBoundAndMissingLatencyIsIgnored)
{
    const std::vector<SweepStep> steps{{1000, 1000}, {2000, 1990}, {4000, 3980}};
    const KneeResult r = KneeDetector().detect(steps);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.rule, KneeRule::None);
    EXPECT_FALSE(r.bounded);
    EXPECT_EQ(r.capacity, 3980);
    EXPECT_NE(r.reason.find("at least"), std::string::npos) << r.reason;
}

TEST(KneeDetect, KneeAtTheFirstStepAndBadInput)
{
    const KneeResult r = KneeDetector().detect({{500000, 300000, 0.01}, {600000, 301000, 0.02}});
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.kneeStep, 0);
    EXPECT_EQ(r.capacity, 0);
    EXPECT_NE(r.reason.find("started above capacity"), std::string::npos) << r.reason;

    EXPECT_FALSE(KneeDetector().detect({}).ok);
    EXPECT_FALSE(KneeDetector().detect({{0, 10, 0.001}}).ok);
}
