// The consume side of a sizing, from a consume ramp kept in a store beside a produce ramp: what
// consumer groups add to the brokers and shards, the fetch p99 check, the bottleneck a fan-out
// makes of the brokers, and the margin held when no consume ramp measured the reads.
#include "model/sizing/sizingmodels.h"
#include "model/sizing/sizing.h"
#include "model/store/store.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <iostream>

using namespace plimsoll;

namespace {

ScenarioRecord step(const std::string &name, const char *factor, int64_t clients, double rate, double brokerCpu,
                    double shardCpu)
{
    ScenarioRecord s;
    s.name = name;
    s.kind = "ramp-step";
    s.topology.brokers = 3;
    s.topology.shards = 12;
    s.topology.partitions = 48;
    s.topology.recordSizeBytes = 700;
    if (std::string(factor) == "producers")
        s.topology.producers = clients;
    else
        s.topology.consumers = clients;
    s.metrics = {{"records_per_s", rate}, {"broker_cpu_avg", brokerCpu}, {"shard_cpu_max", shardCpu}};
    return s;
}

RunRecord run(const std::string &key, const std::string &time)
{
    RunRecord r;
    r.runKey = key;
    r.timestamp = time;
    r.tool = "plimsoll-bench";
    r.target = "korvet";
    return r;
}

// Produce: 150k records/s per broker and 18,750 per shard at 90 % CPU. Consume (as
// `bench ramp --ramp consumers` stores it, pipeline/consume/step-N): reads cost the brokers more
// than writes per shard — 310k records/s read per broker and 300k per shard at 90 % — with the
// broker's fetch delivery p99 rising from 20 to 450 ms.
class ConsumeSizing : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath("store.db").toStdString();
        RunRecord produce = run("own:produce", "2026-11-30T02:00:00Z");
        for (int p : {1, 2, 4}) {
            ScenarioRecord s = step("pipeline/produce/step-" + std::to_string(p), "producers", p, 50000.0 * p,
                                    0.1 * p, 0.2 * p);
            s.metrics.push_back({"latency_p99_s", 0.005});
            produce.scenarios.push_back(s);
        }
        m_consume = run("own:consume", "2026-11-30T03:00:00Z");
        const double fetchP99[] = {0.020, 0.040, 0.080, 0.300, 0.450};
        int i = 0;
        for (int c : {1, 2, 4, 8, 10}) {
            ScenarioRecord s = step("pipeline/consume/step-" + std::to_string(c), "consumers", c, 100000.0 * c,
                                    0.9 * 100000.0 * c / 3 / 310000, 0.9 * 100000.0 * c / 12 / 300000);
            s.metrics.push_back({"broker.fetch_delivery_p99_s", fetchP99[i++]});
            s.metrics.push_back({"e2e_p99_s", 0.5});
            m_consume.scenarios.push_back(s);
        }
        Store store(m_path);
        store.importSource({"/own.jsonl", "plimsoll-trend", "sha-own", "test", "1", "2026-11-30T04:00:00Z", false},
                           {produce, m_consume});
    }

    Sizer sizer(const std::vector<std::string> &runs = {}) const
    {
        EvidenceSelection selection;
        selection.runs.runs = runs;
        return Sizer(fitEvidence(Store(m_path), selection).models);
    }

    static SizingInputs inputs(int groups)
    {
        SizingInputs in;
        in.rate = 300000;
        in.consumerGroups = groups;
        return in;
    }

    static void print(const char *title, const SizingResult &r)
    {
        std::cout << "  " << title << ": " << r.brokers << " brokers, " << r.shards << " shards, bottleneck "
                  << r.bottleneck << "\n";
        for (const char *key : {"brokers", "consume_side", "fetch_p99", "bottleneck"})
            if (const SizingLine *l = r.line(key))
                std::cout << "    " << l->label << ": " << l->display << " — " << l->reasoning << "\n";
    }

    QTemporaryDir m_dir;
    std::string m_path;
    RunRecord m_consume;
};

} // namespace

TEST_F(ConsumeSizing, TheStoredConsumeRampGivesReadCapacitiesApartFromTheProduceOnes)
{
    const SizingModels m = sizer().models();
    ASSERT_TRUE(m.consume.broker.ok) << m.consume.broker.error;
    ASSERT_TRUE(m.consume.shard.ok) << m.consume.shard.error;
    EXPECT_NEAR(m.consume.broker.capacityPerUnit, 310000, 1);
    EXPECT_NEAR(m.consume.shard.capacityPerUnit, 300000, 1);
    EXPECT_EQ(m.consume.fetch.size(), 5u);
    EXPECT_EQ(m.consume.runKeys, std::vector<std::string>{"own:consume"});
    EXPECT_FALSE(m.tieredConsume.measured());
    // The produce capacities are the produce ramp's alone: a step that only reads is not in them.
    EXPECT_NEAR(m.broker.capacityPerUnit, 150000, 1);
    EXPECT_NEAR(m.shard.capacityPerUnit, 18750, 1);
    EXPECT_EQ(m.broker.runKeys, std::vector<std::string>{"own:produce"});
    for (const RampSaturation &r : m.ramps)
        EXPECT_EQ(r.prefix, "pipeline/produce");
}

TEST_F(ConsumeSizing, FanOutThreeNeedsMoreBrokersAndShardsThanFanOutOneAndSaysWhy)
{
    const Sizer s = sizer();
    const SizingResult none = s.size(inputs(0));
    const SizingResult one = s.size(inputs(1));
    const SizingResult three = s.size(inputs(3));
    ASSERT_TRUE(none.ok && one.ok && three.ok) << one.error << three.error;
    print("fan-out 1", one);
    print("fan-out 3", three);

    // Without groups the sizing is the ingest sizing, with no consume line in it.
    EXPECT_EQ(none.brokers, 2);
    EXPECT_EQ(none.line("consume_rate"), nullptr);
    // 300k written + 300k read: 2 + 0.97 brokers' worth → 3; 16 + 1 shards → 18 (3 nodes).
    EXPECT_EQ(one.brokers, 3);
    EXPECT_EQ(one.shards, 18);
    // 300k written + 900k read: 2 + 2.9 → 5 brokers; 16 + 3 shards → 21.
    EXPECT_EQ(three.brokers, 5);
    EXPECT_EQ(three.shards, 21);
    EXPECT_EQ(three.consumeRate, 900000);
    EXPECT_TRUE(three.consumeMeasured);

    const std::string why = three.line("brokers")->reasoning;
    EXPECT_NE(why.find("raised from 2 for ingest alone to 5 for ingest and the reads together: 3 groups × 300k "
                       "records/s = 900k records/s read at 310k per broker (the consume ramp)"),
              std::string::npos)
        << why;
    EXPECT_NE(three.line("shards")->reasoning.find("raised from 16 for ingest alone to 19"), std::string::npos)
        << three.line("shards")->reasoning;
    const auto &runs = three.line("consume_side")->runKeys;
    EXPECT_EQ(runs, std::vector<std::string>{"own:consume"});
    EXPECT_EQ(three.line("consume_side")->display, "measured");
    // Broker CPU counts both sides: 60k written × 6 % per 10k + 180k read × 2.9 % per 10k.
    EXPECT_NEAR(three.loads[0].utilization, 0.36 + 180000 * 0.9 / 310000, 1e-9);

    // Fan-out 1 leaves the brokers busier with writes than reads; fan-out 3 makes the reads
    // the bottleneck.
    EXPECT_EQ(one.bottleneck, "broker CPU");
    EXPECT_EQ(three.bottleneck, "broker CPU (consumer reads)");
    EXPECT_NE(three.line("bottleneck")->reasoning.find("most of it is the reads of 3 groups"), std::string::npos)
        << three.line("bottleneck")->reasoning;
}

TEST_F(ConsumeSizing, TheFetchP99OfTheConsumeRampEntersTheBudgetCheck)
{
    const Sizer s = sizer();
    SizingInputs in = inputs(3);
    const SizingResult loose = s.size(in);
    ASSERT_TRUE(loose.ok) << loose.error;
    ASSERT_TRUE(loose.fetchP99);
    // On the seed's 500 ms limit the ramp's curve allows the CPU sizing as it stands.
    EXPECT_LE(*loose.fetchP99, 0.5);
    EXPECT_EQ(loose.line("fetch_p99")->runKeys, std::vector<std::string>{"own:consume"});

    in.fetchP99Budget = 0.050;
    const SizingResult tight = s.size(in);
    ASSERT_TRUE(tight.ok) << tight.error;
    print("fetch p99 50 ms", tight);
    ASSERT_TRUE(tight.fetchP99);
    EXPECT_LE(*tight.fetchP99, 0.050);
    EXPECT_GT(tight.brokers + tight.shards, loose.brokers + loose.shards);
    EXPECT_NE(tight.line("brokers")->reasoning.find("raised to keep the predicted fetch p99 within 50 ms"),
              std::string::npos)
        << tight.line("brokers")->reasoning;
}

TEST_F(ConsumeSizing, WithoutAConsumeRampTheSizingSaysSoAndHoldsTheMarginItShows)
{
    const Sizer s = sizer({"own:produce"});
    ASSERT_FALSE(s.models().consume.measured());
    SizingInputs in = inputs(3);
    const SizingResult r = s.size(in);
    ASSERT_TRUE(r.ok) << r.error;
    print("unmeasured", r);
    EXPECT_FALSE(r.consumeMeasured);
    EXPECT_EQ(r.consumeMargin, 0.30);
    EXPECT_EQ(r.line("consume_side")->display, "unmeasured, 30% margin");
    EXPECT_NE(r.line("consume_side")->reasoning.find("no consume ramp among the runs"), std::string::npos);
    // 300k at 70 % of 150k per broker: 3 brokers; at 70 % of 18,750 per shard: 23 → 24.
    EXPECT_EQ(r.brokers, 3);
    EXPECT_EQ(r.shards, 24);
    EXPECT_NEAR(r.loads[0].limit, 0.9 * 0.7, 1e-12);
    bool warned = false;
    for (const std::string &w : r.warnings)
        warned |= w.find("the consume side is unmeasured") != std::string::npos;
    EXPECT_TRUE(warned);
    // The margin is an input: a larger one holds more back, and the result says which.
    in.consumeMargin = 0.5;
    const SizingResult half = s.size(in);
    ASSERT_TRUE(half.ok);
    EXPECT_EQ(half.brokers, 4);
    EXPECT_EQ(half.line("consume_side")->display, "unmeasured, 50% margin");
    // Fan-out changes nothing the sizing does not know: no ramp, no cost per group.
    EXPECT_EQ(s.size(inputs(1)).brokers, r.brokers);
}

TEST(ConsumeInputs, OutOfDomainAndContradictoryInputsAreRefusedNotReplaced)
{
    const std::pair<SizingInputs, const char *> cases[] = {
        {[] { SizingInputs in; in.rate = 1000; in.consumerGroups = -1; return in; }(), "--consumer-groups must be"},
        {[] { SizingInputs in; in.rate = 1000; in.consumerGroups = 1; in.consumeMargin = 0.95; return in; }(),
         "--consume-margin must be between 0 and 0.9"},
        {[] { SizingInputs in; in.rate = 1000; in.consumeRate = 500; return in; }(),
         "--consume-rate is the rate of each consumer group: it needs --consumer-groups 1 or more"},
        {[] { SizingInputs in; in.rate = 1000; in.consumerGroups = 1; in.consumeRate = 2000; return in; }(),
         "--consume-rate 2000 records/s is above the target 1000 records/s"},
        {[] { SizingInputs in; in.rate = 1000; in.consumerGroups = 1; in.tiered = true; in.tieredReads = true; return in; }(),
         "--tiered-reads reads a backlog from the remote tier: it needs --consume-from backlog"},
        {[] { SizingInputs in; in.rate = 1000; in.consumerGroups = 1; in.consumeFrom = ConsumeFrom::Backlog;
              in.tieredReads = true; return in; }(),
         "--tiered-reads reads what was offloaded: it needs --tiered"},
        {[] { SizingInputs in; in.rate = 1000; in.consumerGroups = 1; in.fetchP99Budget = -1; return in; }(),
         "--fetch-p99 must be"},
    };
    for (const auto &[in, expected] : cases)
        EXPECT_NE(in.validate("--").find(expected), std::string::npos) << in.validate("--");
    SizingInputs backlog;
    backlog.rate = 1000;
    backlog.consumerGroups = 2;
    backlog.consumeFrom = ConsumeFrom::Backlog;
    backlog.consumeRate = 5000; // a backlog is read faster than it was written
    EXPECT_EQ(backlog.validate("--"), "");
}
