// Which scenario is compared with which when names differ (model/trends/scenarioalignment.h), and
// the table of any number of runs built on it (model/trends/runscomparison.h), on synthetic runs
// whose answers are known.
#include "model/trends/runscomparison.h"
#include "model/trends/scenarioalignment.h"
#include "model/trends/trendhistory.h"

#include <gtest/gtest.h>

using namespace plimsoll;

namespace {

ScenarioRecord scenario(const std::string &name, int64_t clients, double rps, double p99)
{
    ScenarioRecord s;
    s.name = name;
    s.topology.clients = clients;
    s.topology.connections = clients;
    s.topology.recordSizeBytes = 256;
    s.metrics = {{"records_per_s", rps}, {"latency_p99_s", p99}};
    return s;
}

RunRecord redisRun(const std::string &key, int64_t clients, double scale)
{
    RunRecord r;
    r.runKey = key;
    r.timestamp = "2026-11-0" + std::to_string(clients % 9 + 1) + "T00:00:00Z";
    r.tool = "redis-benchmark";
    r.target = "redis";
    const std::string c = "/c-" + std::to_string(clients);
    r.scenarios = {scenario("redis-benchmark/SET" + c, clients, 100000 * scale, 0.001 * scale),
                   scenario("redis-benchmark/GET" + c, clients, 120000 * scale, 0.0009 * scale)};
    return r;
}

TEST(ScenarioAlignment, SharedNamesAlignByName)
{
    const RunRecord a = redisRun("a", 50, 1), b = redisRun("b", 50, 1.1);
    const ScenarioAlignment al = alignScenarios(a, b);
    EXPECT_EQ(al.by, AlignedBy::Name);
    EXPECT_TRUE(al.pairing.byName());
}

TEST(ScenarioAlignment, ClientsInLockstepWithConnectionsAreNamedOnceAndBothLeaveTheContract)
{
    const RunRecord a = redisRun("a", 10, 1), b = redisRun("b", 100, 2);
    const ScenarioAlignment al = alignScenarios(a, b);
    ASSERT_EQ(al.by, AlignedBy::LoadFactor);
    ASSERT_EQ(al.pairing.pairs.size(), 2u);
    EXPECT_EQ(al.pairing.pairs[0], std::make_pair(std::string("redis-benchmark/SET/c-10"),
                                                  std::string("redis-benchmark/SET/c-100")));
    EXPECT_EQ(al.factors, std::vector<std::string>{"clients"});
    EXPECT_EQ(al.baselineValues, std::vector<std::string>{"10"});
    EXPECT_EQ(al.currentValues, std::vector<std::string>{"100"});
    EXPECT_EQ(al.pairing.looseFactors, (std::vector<std::string>{"clients", "connections"}));
}

TEST(ScenarioAlignment, AnotherCompressionIsNoLoadOfTheSameWorkload)
{
    RunRecord a = redisRun("a", 10, 1), b = redisRun("b", 100, 2);
    for (ScenarioRecord &s : b.scenarios)
        s.topology.compression = "lz4"; // a setting, not a load: the shapes differ
    const ScenarioAlignment al = alignScenarios(a, b);
    EXPECT_EQ(al.by, AlignedBy::Nothing); // and two scenarios each: no position either
}

TEST(ScenarioAlignment, OneScenarioEachAlignsByPositionAndLoosensNothingWhenSeveralFactorsDiffer)
{
    RunRecord a = redisRun("a", 10, 1), b = redisRun("b", 100, 2);
    a.scenarios.resize(1);
    b.scenarios.resize(1);
    b.scenarios[0].name = "set at a hundred";
    b.scenarios[0].topology.pipeline = 16;
    const ScenarioAlignment al = alignScenarios(a, b);
    ASSERT_EQ(al.by, AlignedBy::Position);
    EXPECT_EQ(al.factors, (std::vector<std::string>{"clients", "pipeline"}));
    EXPECT_EQ(al.baselineValues[1], "unset");
    EXPECT_TRUE(al.pairing.looseFactors.empty());
}

TEST(RunsComparison, ThreeRunsTabulateValuesDeltasAndTheAlignment)
{
    const RunRecord a = redisRun("a", 10, 1), b = redisRun("b", 50, 1.5), c = redisRun("c", 100, 2);
    const TrendHistory history = TrendHistory::fromRuns({a, b, c});
    std::vector<ScenarioAlignment> alignments(3);
    std::vector<RunComparison> pairs(3);
    for (int i : {1, 2}) {
        const RunRecord &other = i == 1 ? b : c;
        alignments[i] = alignScenarios(a, other);
        pairs[i] = compareRuns(history, "a", other.runKey, ContractPolicies{}, {}, alignments[i].pairing);
    }
    const RunsComparison r = tabulateComparison({&a, &b, &c}, 0, alignments, pairs, {});
    EXPECT_EQ(r.alignmentText(), "Scenarios aligned by clients: 10 ↔ 50 ↔ 100.");
    ASSERT_EQ(r.rows.size(), 4u); // two scenarios × two metrics
    const ComparedRow &rps = r.rows[0];
    EXPECT_EQ(rps.metric, "records_per_s");
    ASSERT_EQ(rps.cells.size(), 3u);
    EXPECT_DOUBLE_EQ(*rps.cells[1].value, 150000);
    EXPECT_NEAR(*rps.cells[2].deltaPercent, 100, 1e-9);
    EXPECT_EQ(rps.cells[2].scenario, "redis-benchmark/SET/c-100");
    EXPECT_EQ(*rps.cells[2].verdict, Verdict::Improvement); // beyond the 1 % floor, no history
    EXPECT_EQ(*r.rows[1].cells[2].verdict, Verdict::Regression); // p99 doubled
    EXPECT_FALSE(rps.cells[0].deltaPercent.has_value());
    EXPECT_EQ(r.count(Verdict::Incompatible), 0);
}

} // namespace
