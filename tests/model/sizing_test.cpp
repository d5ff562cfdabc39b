// Sizing from the bundled sample data (the seed page's measurements) against the seed's own
// sizing guidance, memory figure and ramp. Where the engine disagrees with a guidance row the
// test prints why; it fails only where the disagreement is not the documented one.
#include "model/sizing/sizing.h"
#include "sampleruns.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <iostream>

using namespace plimsoll;

namespace {

const Sizer &sampleSizer()
{
    static const Sizer sizer(fitSizingModels(test::sampleRuns()));
    return sizer;
}

SizingResult sizeAt(double rate)
{
    SizingInputs in;
    in.rate = rate;
    in.recordBytes = 700;
    in.retentionS = 60;
    return sampleSizer().size(in);
}

void printReasoning(const SizingResult &r)
{
    for (const SizingLine &l : r.lines)
        std::cout << "    " << l.label << ": " << l.display << " — " << l.reasoning << "\n";
}

} // namespace

TEST(ShardCapacity, HottestShardAtNinetyTwoPercentSetsTheCeiling)
{
    const SizingModels &m = sampleSizer().models();
    ASSERT_TRUE(m.shard.ok) << m.shard.error;
    // 642,352 records/s over 24 shards with the hottest at 92%: scaled to the 90% limit.
    const double expected = 642352.0 / 24 * 0.90 / 0.92;
    EXPECT_NEAR(m.shard.capacityPerUnit, expected, 1.0);
    EXPECT_TRUE(m.shard.hottestSets);
    EXPECT_EQ(m.shard.hottestScenario, "pipeline/produce/step-16");
    // The line through every step would promise far more: CPU climbs steeply at the top.
    EXPECT_GT(0.9 / m.shard.fittedSlope, 1.5 * expected);
    EXPECT_EQ(m.shard.runKeys, std::vector<std::string>{"sample:korvet-pipeline-produce-2026-08-11"});
    std::cout << "  " << m.shard.reason << "\n  " << m.broker.reason << "\n";

    ComponentCapacityFitter strict(CapacityOptions{0.80});
    std::vector<CapacityPoint> pts{{26765, 0.92, "r", "s"}};
    EXPECT_NEAR(strict.fit("Redis shard", pts).capacityPerUnit, 26765 * 0.80 / 0.92, 1e-6);
}

TEST(Saturation, SampleRampSaturatesOnShardCpuAtSixteenProducers)
{
    const SizingModels &m = sampleSizer().models();
    const RampSaturation *ramp = nullptr;
    for (const RampSaturation &r : m.ramps)
        if (r.prefix == "pipeline/produce")
            ramp = &r;
    ASSERT_NE(ramp, nullptr);
    EXPECT_EQ(ramp->factor, "producers");
    ASSERT_GE(ramp->result.firstSaturated, 0);
    EXPECT_EQ(ramp->result.steps[size_t(ramp->result.firstSaturated)].scenario,
              "pipeline/produce/step-16");
    EXPECT_EQ(ramp->result.bottleneck, "Redis shard CPU") << ramp->result.reason;
    EXPECT_EQ(ramp->result.sustainable, 597657);
}

TEST(Saturation, ThresholdsAreConfigurableAndPlateausCount)
{
    std::vector<SaturationStep> steps{{"s1", 1, 100000, 0.3, 0.2, 0.010, {}, {}, {}, {}, {}},
                                      {"s2", 2, 190000, 0.6, 0.4, 0.020, {}, {}, {}, {}, {}},
                                      {"s4", 4, 195000, 0.7, 0.5, 0.300, {}, {}, {}, {}, {}}};
    const SaturationResult def = SaturationDetector().detect(steps);
    ASSERT_EQ(def.firstSaturated, 2);
    EXPECT_EQ(def.bottleneck, "produce latency"); // 300 ms / 250 ms beats a plateau
    SaturationOptions o;
    o.cpuLimit = 0.55;
    const SaturationResult strict = SaturationDetector(o).detect(steps);
    EXPECT_EQ(strict.firstSaturated, 1);
    EXPECT_EQ(strict.bottleneck, "broker CPU");
    o = {};
    o.p99Limit = 1.0;
    const SaturationResult plateau = SaturationDetector(o).detect(steps);
    EXPECT_EQ(plateau.firstSaturated, 2);
    EXPECT_EQ(plateau.bottleneck, "throughput plateau") << plateau.reason;
}

TEST(Memory, SeedFigureOf51GBAt582kRecordsPerSecond)
{
    const SizingModels &m = sampleSizer().models();
    ASSERT_TRUE(m.storedBytes.fitted) << m.storedBytes.reason;
    // 776.47 MiB for 674,564 records of 1 KB: ~1.18× the record size.
    EXPECT_NEAR(m.storedBytes.ratio, 814187807.0 / 674564 / 1024, 1e-6);
    const MemoryEstimate e = estimateMemory(m.storedBytes, {582000, 700, 60, 2, 1.0, 1.0, 0, 24});
    const double measured = 54760833024; // ~51 GiB, the seed's peak measured usage
    const double off = e.usageBytes / measured - 1;
    std::printf("  memory at 582k records/s × 60 s × 700 B: predicted %.1f GiB vs measured %.1f "
                "GiB (%+.1f%%)\n",
                e.usageBytes / (1 << 30), measured / (1 << 30), off * 100);
    std::printf("  why: the stored-bytes ratio (%.3f) comes from 1 KB records on one shard; with "
                "replication 2 and a 1 s trim tick the formula lands a few percent above the "
                "measured peak, on the safe side\n",
                m.storedBytes.ratio);
    EXPECT_GT(off, 0.0);  // never under-provisions against the measurement
    EXPECT_LT(off, 0.10); // and within 10%
}

TEST(Sizing, SeedGuidanceTableRows)
{
    struct Row
    {
        double rate;
        int minBrokers, maxBrokers;
        int minShards, maxShards; // maxShards 0: "N+" rows, any count at or above
        const char *seed;
    };
    // The "beyond 600k" row: +1 broker per ~200k, shards roughly linear in rate.
    const Row rows[] = {
        {150000, 1, 1, 6, 0, "up to ~150k: 1 broker, 6+ shards across 3 nodes"},
        {400000, 2, 3, 12, 0, "up to ~400k: 2-3 brokers, 12+ shards across 3 nodes"},
        {600000, 3, 3, 24, 24, "up to ~600k: 3 brokers, 24 shards across 3 nodes"},
        {800000, 4, 4, 30, 33, "beyond: 800k → 4 brokers, ~32 shards"},
        {1000000, 5, 5, 38, 42, "beyond: 1M → 5 brokers, ~40 shards"},
        {1200000, 6, 6, 45, 51, "beyond: 1.2M → 6 brokers, ~48 shards"},
    };
    for (const Row &row : rows) {
        const SizingResult r = sizeAt(row.rate);
        ASSERT_TRUE(r.ok) << r.error;
        const bool brokersOk = r.brokers >= row.minBrokers && r.brokers <= row.maxBrokers;
        const bool shardsOk =
            r.shards >= row.minShards && (row.maxShards == 0 || r.shards <= row.maxShards);
        std::printf("  %-55s → %d brokers, %d shards, %d nodes, %d partitions, %.1f GiB%s\n",
                    row.seed, r.brokers, r.shards, r.redisNodes, r.partitions,
                    r.memoryTotalBytes / (1 << 30), brokersOk && shardsOk ? "" : "  (differs)");
        if (!brokersOk) {
            // The one documented disagreement: the seed's rule of thumb adds a broker per
            // ~200k, while the ramp's broker CPU allows ~244k per broker at 90%.
            std::printf("    differs: %s\n", r.line("brokers")->reasoning.c_str());
            std::printf("    the seed's +1 broker per ~200k is a rule of thumb for a single "
                        "broker's contention ceiling; the page's own two broker figures fit a "
                        "contention model without intervals, shown beside it, so Plimsoll sizes "
                        "brokers by the measured CPU per record (brokermodels_test.cpp)\n");
            EXPECT_EQ(row.rate, 1200000) << "only the 1.2M row may differ on brokers";
            EXPECT_EQ(r.brokers, row.minBrokers - 1);
        }
        EXPECT_TRUE(shardsOk) << row.seed << ": " << r.shards << " shards";
        EXPECT_EQ(r.redisNodes, std::max(3, (r.shards + 7) / 8));
        EXPECT_EQ(r.partitions % r.brokers, 0);
        EXPECT_GE(r.partitions, 4 * r.shards);
        if (row.rate == 600000) {
            EXPECT_EQ(r.bottleneck, "Redis shard CPU");
            ASSERT_TRUE(r.p99.has_value());
            EXPECT_LT(*r.p99, 0.060); // between the ramp's 12- and 16-producer steps
            EXPECT_GT(*r.p99, 0.0376);
            printReasoning(r);
        }
    }
}

TEST(Sizing, EveryNumberHasReasoningAndHeadroomAndNodeLossAddUnits)
{
    SizingInputs in;
    in.rate = 400000;
    const SizingResult base = sampleSizer().size(in);
    ASSERT_TRUE(base.ok);
    for (const SizingLine &l : base.lines) {
        EXPECT_FALSE(l.reasoning.empty()) << l.key;
        EXPECT_FALSE(l.display.empty()) << l.key;
    }
    for (const char *key : {"brokers", "shards", "memory_total_bytes", "shard_cpu", "broker_cpu"})
        EXPECT_FALSE(base.line(key)->runKeys.empty()) << key;
    in.headroom = 0.5;
    in.tolerateNodeLoss = true;
    const SizingResult more = sampleSizer().size(in);
    EXPECT_GT(more.shards, base.shards);
    EXPECT_EQ(more.brokers, sampleSizer().size({.rate = 600000}).brokers + 1);
    EXPECT_GT(more.memoryTotalBytes, base.memoryTotalBytes * 1.4);
    // A tight budget buys units until the ramp's p99 fits it.
    in = {};
    in.rate = 600000;
    in.p99Budget = 0.010;
    const SizingResult tight = sampleSizer().size(in);
    ASSERT_TRUE(tight.p99.has_value());
    EXPECT_LE(*tight.p99, 0.010);
    EXPECT_GT(tight.shards, 24);
}

TEST(Sizing, FlexAndTieredUseTheirOwnLimits)
{
    SizingInputs in;
    in.rate = 200000;
    in.recordBytes = 1024;
    in.flex = true;
    const SizingResult flex = sampleSizer().size(in);
    ASSERT_TRUE(flex.ok);
    EXPECT_EQ(flex.flexDatabases, 2); // 200k of 1 KB over 110k sustained per database
    EXPECT_NEAR(flex.flexRamBytes, flex.memoryTotalBytes * 0.10, 1);
    in = {};
    in.rate = 100000;
    in.recordBytes = 100;
    in.tiered = true;
    const SizingResult tiered = sampleSizer().size(in);
    ASSERT_TRUE(tiered.ok);
    EXPECT_GE(tiered.offloadStreams, 4); // 4 streams measured 80–115k
    std::cout << "  " << tiered.line("offload_streams")->reasoning << "\n";
}

TEST(Sizing, RecomputeIsWellUnderAMillisecond)
{
    const Sizer &sizer = sampleSizer();
    SizingInputs in;
    in.rate = 600000;
    (void)sizer.size(in); // partition search cached, as after the first keystroke
    const int n = 200;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
        in.retentionS = 30 + i % 60;
        in.headroom = (i % 5) * 0.05;
        (void)sizer.size(in);
    }
    const double each =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / n;
    std::printf("  one sizing: %.3f ms\n", each);
    EXPECT_LT(each, 1.0);
}

// What qualifies the numbers is said with them: a target past the largest measured load, by
// how much; placement skew above its target; Flex without a Flex measurement, with no Flex
// figure standing in for one.
TEST(Sizing, CaveatsSayByHowMuchAndWhatIsMissing)
{
    auto warned = [](const SizingResult &r, const std::string &text) {
        for (const std::string &w : r.warnings)
            if (w.find(text) != std::string::npos)
                return true;
        return false;
    };
    const SizingResult within = sampleSizer().size({.rate = 600000});
    ASSERT_TRUE(within.ok);
    EXPECT_FALSE(warned(within, "largest measured"));
    const SizingResult past = sampleSizer().size({.rate = 1200000});
    ASSERT_TRUE(past.ok);
    EXPECT_TRUE(warned(past, "1.2M records/s is 1.9× the largest measured 642.4k records/s"));

    // No measured configuration: the skew target is 1.25, and keys pinned to one slot by a
    // hash tag cannot meet it.
    SizingModels unmeasured = sampleSizer().models();
    unmeasured.rampShards = 0;
    unmeasured.rampPartitions = 0;
    SizingInputs pinned{.rate = 600000};
    pinned.keyPattern = "{pin}:{partition}";
    const SizingResult skewed = Sizer(unmeasured).size(pinned);
    ASSERT_TRUE(skewed.ok) << skewed.error;
    EXPECT_TRUE(warned(skewed, "every one of the")) << skewed.partitionSkew;
    EXPECT_NE(skewed.line("shards")->caveat.find("only 1 of the"), std::string::npos) << skewed.line("shards")->caveat;
    EXPECT_FALSE(warned(Sizer(unmeasured).size({.rate = 600000}), "is above the target"));

    // With the measured configuration, a stated skew target: one no count can meet says so;
    // one above the measured skew (96 on 24: 2.25) lets a more skewed count through, and the
    // sizing says the measured per-shard capacity then flatters the hottest shard.
    SizingInputs tight{.rate = 600000};
    tight.skewTarget = 1.05;
    const SizingResult unmet = sampleSizer().size(tight);
    ASSERT_TRUE(unmet.ok) << unmet.error;
    EXPECT_TRUE(warned(unmet, "is above the target 1.05")) << unmet.partitionSkew;
    EXPECT_GT(unmet.partitionSkew, 1.05);
    // A measured configuration of many partitions per shard is nearly even (960 on 24); a loose
    // stated target lets a count through that is more skewed than it.
    SizingModels even = sampleSizer().models();
    even.rampPartitions = 960;
    const double measured = measuredSkew(24, 960, kKorvetStreamKeyPattern, "logs").skew;
    ASSERT_GT(measured, 1.0);
    SizingInputs loose{.rate = 900000};
    loose.skewTarget = 4;
    const SizingResult hotter = Sizer(even).size(loose);
    ASSERT_TRUE(hotter.ok) << hotter.error;
    EXPECT_GT(hotter.partitionSkew, measured);
    EXPECT_TRUE(warned(hotter, "of the measured configuration (960 on 24)")) << hotter.partitionSkew;
    // ... and the hottest shard's CPU is scaled by the skew over the measured one, said at the number.
    EXPECT_NEAR(hotter.hottestShardFactor, hotter.partitionSkew / measured, 1e-9);
    EXPECT_NE(hotter.line("shard_cpu")->caveat.find("the share the capacity was measured at"), std::string::npos)
        << hotter.line("shard_cpu")->caveat;
    const SizingResult asMeasured = Sizer(even).size({.rate = 900000});
    ASSERT_TRUE(asMeasured.ok);
    EXPECT_NEAR(asMeasured.line("shard_cpu")->value * hotter.hottestShardFactor, hotter.line("shard_cpu")->value,
                0.02 * hotter.line("shard_cpu")->value)
        << "the same shards carry the same mean load; only the placement's skew differs";
    SizingInputs bad{.rate = 600000};
    bad.skewTarget = 0.5;
    EXPECT_EQ(bad.validate("--"), "--skew-target must be 1 or more (max/mean partitions per shard), or 0 for "
                                  "the measured configuration's (got 0.5)");

    unmeasured.flex = FlexModel{};
    SizingInputs flex{.rate = 200000};
    flex.flex = true;
    const SizingResult noFlex = Sizer(unmeasured).size(flex);
    ASSERT_TRUE(noFlex.ok) << noFlex.error;
    EXPECT_TRUE(warned(noFlex, "no Flex measurement"));
    EXPECT_EQ(noFlex.line("flex_ram_bytes"), nullptr);
    EXPECT_EQ(noFlex.flexDatabases, 0);
    for (const ComponentLoad &l : noFlex.loads)
        EXPECT_EQ(l.component.find("Flex"), std::string::npos) << l.component;
}

TEST(Saturation, KorvetsPoolTimeoutsAndBrokerPushbackAreNamedBottlenecks)
{
    std::vector<SaturationStep> steps{{"s1", 1, 100000, 0.3, 0.2, 0.010, {}, {}, {}, {}, {}},
                                      {"s2", 2, 190000, 0.4, 0.3, 0.012, {}, {}, {}, {}, {}},
                                      {"s4", 4, 260000, 0.5, 0.4, 0.015, {}, {}, {}, {}, {}}};
    steps[1].poolTimeoutsPerS = 0;
    steps[2].poolTimeoutsPerS = 3.5;
    SaturationResult pool = SaturationDetector().detect(steps);
    ASSERT_EQ(pool.firstSaturated, 2);
    EXPECT_EQ(pool.bottleneck, "Redis connection pool") << pool.reason;
    EXPECT_NE(pool.reason.find("3.5 acquire timeouts/s"), std::string::npos) << pool.reason;

    steps[2].poolTimeoutsPerS.reset();
    steps[1].brokerBackpressureHeld = 2;
    const SaturationResult held = SaturationDetector().detect(steps);
    ASSERT_EQ(held.firstSaturated, 1);
    EXPECT_EQ(held.bottleneck, "broker back-pressure") << held.reason;
    EXPECT_NE(held.reason.find("2 connections held"), std::string::npos) << held.reason;
}

TEST(Sizing, ARampStoppedByKorvetsPoolWarnsThatCpuCapacitiesMayPromiseTooMuch)
{
    std::vector<RunRecord> runs = test::sampleRuns();
    for (RunRecord &run : runs)
        for (ScenarioRecord &s : run.scenarios)
            if (s.name == "pipeline/produce/step-9")
                s.metrics.push_back({"storage.pool_timeouts_per_s", 12.0});
    const Sizer sizer(fitSizingModels(runs));
    const RampSaturation *ramp = nullptr;
    for (const RampSaturation &r : sizer.models().ramps)
        if (r.prefix == "pipeline/produce")
            ramp = &r;
    ASSERT_NE(ramp, nullptr);
    ASSERT_GE(ramp->result.firstSaturated, 0);
    EXPECT_EQ(ramp->result.steps[size_t(ramp->result.firstSaturated)].scenario, "pipeline/produce/step-9");
    EXPECT_EQ(ramp->result.bottleneck, "Redis connection pool");

    const SizingResult r = sizer.size({.rate = 300000});
    ASSERT_TRUE(r.ok) << r.error;
    bool warned = false;
    for (const std::string &w : r.warnings)
        if (w.find("saturated at pipeline/produce/step-9 on Redis connection pool: 12 acquire timeouts/s") !=
                std::string::npos &&
            w.find("before a CPU limit") != std::string::npos)
            warned = true;
    EXPECT_TRUE(warned);
    // The untouched samples stop on shard CPU: no such warning.
    for (const std::string &w : sampleSizer().size({.rate = 300000}).warnings)
        EXPECT_EQ(w.find("before a CPU limit"), std::string::npos) << w;
}
