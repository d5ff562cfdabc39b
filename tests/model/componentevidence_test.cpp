// Evidence per component: with the sample runs on auto, a run of one's own replaces the samples
// for what it measures and the samples answer for the rest, each number labelled with whose runs
// it rests on. Synthetic runs of one's own with known answers beside the bundled samples.
#include "model/sizing/sizing.h"
#include "model/sizing/sizingmodels.h"
#include "sampleruns.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace plimsoll;

namespace {

// A ramp of one's own on 12 shards with shard CPU but no broker CPU: 50k records/s at 20 % of the
// hottest shard per step of 50k, so 4,167 records/s per shard at 20 %, 18,750 at 90 %.
RunRecord ownShardRamp()
{
    RunRecord run;
    run.runKey = "own:shard-ramp";
    run.timestamp = "2026-11-30T02:00:00Z";
    run.tool = "korvet-pipeline-benchmark";
    for (int producers : {1, 2, 4}) {
        ScenarioRecord s;
        s.name = "pipeline/produce/step-" + std::to_string(producers);
        s.kind = "ramp-step";
        s.topology.brokers = 3;
        s.topology.shards = 12;
        s.topology.partitions = 48;
        s.topology.producers = producers;
        s.metrics.push_back({"records_per_s", 50000.0 * producers});
        s.metrics.push_back({"shard_cpu_max", 0.2 * producers});
        run.scenarios.push_back(s);
    }
    return run;
}

const SizingLine &line(const SizingResult &r, const char *key)
{
    const SizingLine *l = r.line(key);
    EXPECT_NE(l, nullptr) << key;
    static const SizingLine none;
    return l ? *l : none;
}

const ComponentEvidence &component(const SizingModels &m, const std::string &name)
{
    const auto it = std::find_if(m.components.begin(), m.components.end(),
                                 [&](const ComponentEvidence &c) { return c.component == name; });
    EXPECT_NE(it, m.components.end()) << name;
    static const ComponentEvidence none;
    return it == m.components.end() ? none : *it;
}

} // namespace

TEST(ComponentEvidence, AnOwnRampWithShardCpuReplacesTheSamplesShardCapacityAndTheSamplesAnswerTheRest)
{
    std::vector<RunRecord> runs = test::sampleRuns();
    runs.push_back(ownShardRamp());

    // Pooled (what --samples include asks), the own ramp's steps join the samples' in one capacity.
    const SizingModels pooled = fitSizingModels(runs);
    EXPECT_EQ(pooled.shard.runKeys.size(), 2u);
    // Alone, it has no broker capacity: no sizing (what a store of it alone, or --samples exclude, gives).
    EXPECT_FALSE(Sizer(fitSizingModels({ownShardRamp()})).size({.rate = 600000}).ok);

    const SizingModels m = fitSizingModelsPerComponent(runs);
    ASSERT_TRUE(m.shard.ok);
    EXPECT_EQ(m.shard.runKeys, std::vector<std::string>{"own:shard-ramp"});
    EXPECT_NEAR(m.shard.capacityPerUnit, 18750, 1);
    EXPECT_EQ(m.rampShards, 12); // the configuration the own capacity was measured on
    EXPECT_EQ(m.rampPartitions, 48);
    ASSERT_TRUE(m.broker.ok);
    EXPECT_EQ(m.broker.runKeys, std::vector<std::string>{"sample:korvet-pipeline-produce-2026-08-11"});
    EXPECT_EQ(component(m, "shard capacity").source, EvidenceSource::Own);
    EXPECT_EQ(component(m, "broker capacity").source, EvidenceSource::Samples);
    EXPECT_EQ(component(m, "broker scaling").source, EvidenceSource::Samples);
    EXPECT_EQ(component(m, "stored bytes per record").source, EvidenceSource::Samples);
    EXPECT_EQ(component(m, "the consume side").source, EvidenceSource::None);

    // Not blank: 600k at 18,750 records/s per shard needs 32 shards (rounded to a multiple of the
    // nodes); the brokers are the samples' (243,931 per broker at 90 %: 3), each labelled.
    const SizingResult r = Sizer(m).size({.rate = 600000});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.shards % r.redisNodes, 0);
    EXPECT_GE(r.shards, 32);
    EXPECT_EQ(r.brokers, 3);
    EXPECT_EQ(line(r, "shards").evidence, EvidenceSource::Own);
    EXPECT_EQ(line(r, "brokers").evidence, EvidenceSource::Samples);
    EXPECT_EQ(line(r, "memory_total_bytes").evidence, EvidenceSource::Samples);
    EXPECT_EQ(line(r, "shard_cpu").evidence, EvidenceSource::Own);
    EXPECT_EQ(line(r, "broker_cpu").evidence, EvidenceSource::Samples);
    EXPECT_EQ(line(r, "bottleneck").evidence, EvidenceSource::Pooled);
    EXPECT_EQ(line(r, "rate").evidence, EvidenceSource::None);
    EXPECT_STREQ(label(line(r, "brokers").evidence), "samples");

    const std::string text = componentsText(m.components);
    EXPECT_EQ(text.rfind("your runs answer for shard capacity; the sample runs for broker capacity, broker scaling", 0),
              0u)
        << text;
}

TEST(ComponentEvidence, WithoutRunsOfBothKindsPerComponentIsThePooledFit)
{
    const std::vector<RunRecord> samples = test::sampleRuns();
    const SizingResult a = Sizer(fitSizingModels(samples)).size({.rate = 600000});
    const SizingResult b = Sizer(fitSizingModelsPerComponent(samples)).size({.rate = 600000});
    ASSERT_TRUE(a.ok);
    ASSERT_EQ(a.lines.size(), b.lines.size());
    for (size_t i = 0; i < a.lines.size(); ++i) {
        EXPECT_EQ(a.lines[i].display, b.lines[i].display) << a.lines[i].key;
        EXPECT_EQ(a.lines[i].evidence, b.lines[i].evidence) << a.lines[i].key;
    }
    EXPECT_EQ(line(a, "shards").evidence, EvidenceSource::Samples);
    // Memory without a measurement of its own rests on the stated default, said so.
    const SizingResult own = Sizer(fitSizingModels({ownShardRamp()})).size({.rate = 600000});
    EXPECT_FALSE(own.ok); // no broker CPU anywhere
}

// One number per quantity: the memory every line and the report print is the sizing's one
// estimate, made from the partitions deployed (after the node-loss broker changed them).
TEST(ComponentEvidence, MemoryIsOneEstimateOfTheDeployedPartitions)
{
    const Sizer sizer(fitSizingModels(test::sampleRuns()));
    SizingInputs in{.rate = 600000};
    in.headroom = 0.2;
    in.tolerateNodeLoss = true;
    const SizingResult r = sizer.size(in);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_DOUBLE_EQ(r.memory.provisionBytes, r.memoryTotalBytes);
    EXPECT_DOUBLE_EQ(r.memory.provisionBytes, line(r, "memory_total_bytes").value);
    EXPECT_DOUBLE_EQ(r.partitionSkew, r.partitionPlan.skew);
    EXPECT_EQ(r.partitions, r.partitionPlan.placement.partitions);
    EXPECT_EQ(int(r.partitionPlan.placement.shards.size()), r.shards);
    // Skew of the partitions deployed × usage × headroom: nothing else.
    EXPECT_NEAR(r.memory.provisionBytes, r.memory.usageBytes * r.partitionSkew * 1.2, 1);
    EXPECT_NEAR(r.memoryPerShardBytes, r.memory.provisionBytes / (r.shards * 2.0), 1);
}
