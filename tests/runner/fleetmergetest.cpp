// The fleet's result from its agents' documents (mergeFleetResults): exact percentiles, rates
// over the common window, and every agent that gave no result named.
#include "runner/fleet.h"
#include "runner/latency.h"

#include <gtest/gtest.h>

#include <QByteArray>

#include <algorithm>
#include <random>

namespace plimsoll {
namespace {

std::string base64(const HdrHistogram &h)
{
    const std::string bytes = h.encodeCompressed();
    return QByteArray(bytes.data(), qsizetype(bytes.size())).toBase64().toStdString();
}

// An agent's result document: a producer scenario of `records` over `windowS`, its ack
// latencies recorded into `ack` too.
nlohmann::json agentDocument(int index, int records, double windowS, std::mt19937 &random, HdrHistogram &all)
{
    HdrHistogram ack = makeLatencyHistogram();
    std::lognormal_distribution<double> latencyUs(7.0 + index, 0.6); // each agent slower than the one before
    for (int i = 0; i < records; ++i) {
        const auto us = static_cast<int64_t>(latencyUs(random)) + 1;
        ack.record(us);
        all.record(us);
    }
    nlohmann::json metrics = {{"records_per_s", records / windowS},
                              {"bytes_per_s", records * 1024 / windowS},
                              {"producer.measured_s", windowS},
                              {"producer.acknowledged", records},
                              {"producer.sent", records},
                              {"clients.startup_s", 0.1 * index},
                              {"errors", 0}};
    // The agent's own figures, as it writes them: the fleet's come from the added histograms.
    metrics["latency_p50_s"] = percentileSeconds(ack, 50);
    metrics["latency_p99_s"] = percentileSeconds(ack, 99);
    return {{"type", "result"},
            {"status", "ok"},
            {"errors", nlohmann::json::array()},
            {"warnings", nlohmann::json::array()},
            {"agent", {{"index", index}, {"of", 3}, {"producer_ids", {index, index}}, {"start_late_s", 0.001},
                       {"first_send_unix_ns", 1000000000LL + index * 2000000LL}, {"rate", 1000.0},
                       {"records", records}}},
            {"config", {{"producer_clients", 1}, {"consumer_clients", 1}, {"interval_s", 1.0}, {"rate", 1000.0}}},
            {"tuning", {{"workload", "producer"}, {"producers", "1"}, {"rate", "1000"}}},
            {"scenarios",
             {{{"name", "bench/producer"},
               {"kind", "benchmark"},
               {"topology", {{"producers", 1}, {"record_size_bytes", 1024}}},
               {"metrics", metrics},
               {"histograms", {{"ack_us", base64(ack)}}}}}}};
}

RunConfig fleetConfig(int agents)
{
    RunConfig c;
    c.workload = Workload::Producer;
    c.agents = agents;
    c.fleetRequested = true;
    return c;
}

// `n` agents that ran and reported: agent i's document from document(i).
template <class Document> std::vector<AgentReport> reportingAgents(int n, Document document)
{
    std::vector<AgentReport> agents(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        agents[i].index = i;
        agents[i].started = true;
        agents[i].exitCode = 0;
        agents[i].result = document(i);
        agents[i].result["agent"]["index"] = i;
    }
    return agents;
}

} // namespace

TEST(runnerFleetMerge, PercentilesAreThoseOfEveryValueAndRatesAddOverTheCommonWindow)
{
    std::mt19937 random(7);
    HdrHistogram all = makeLatencyHistogram();
    auto agents = reportingAgents(3, [&](int i) { return agentDocument(i, 20000 + 5000 * i, 10.0 + 0.01 * i, random, all); });
    const BenchResult fleet = mergeFleetResults(3, BenchResult{}, agents);
    ASSERT_EQ(fleet.exitCode, 0) << fleet.errors.front();
    ASSERT_EQ(fleet.scenarios.size(), 1u);
    const auto &m = fleet.scenarios[0].metrics;
    for (double p : {50.0, 90.0, 99.0, 99.9, 99.99})
        EXPECT_DOUBLE_EQ(percentileSeconds(all, p), p == 50 ? m.at("latency_p50_s")
                                                  : p == 90 ? m.at("producer.latency_p90_s")
                                                  : p == 99 ? m.at("latency_p99_s")
                                                  : p == 99.9 ? m.at("latency_p999_s")
                                                              : m.at("producer.latency_p9999_s"))
            << p;
    EXPECT_DOUBLE_EQ(m.at("latency_max_s"), all.max() * 1e-6);
    EXPECT_EQ(m.at("producer.acknowledged"), 75000);
    EXPECT_DOUBLE_EQ(m.at("records_per_s"), 75000 / 10.02);       // over the longest window
    EXPECT_DOUBLE_EQ(m.at("clients.startup_s"), 0.2);             // the slowest agent's
    EXPECT_DOUBLE_EQ(m.at("fleet.first_send_spread_s"), 0.004);
    EXPECT_EQ(fleet.scenarios[0].topology.producers, 3);
    EXPECT_EQ(fleet.agents.size(), 3u);
    EXPECT_DOUBLE_EQ(m.at("agents.2.records_per_s"), 30000 / 10.02);
    EXPECT_EQ(fleet.tuning.at("agents"), "3");
    EXPECT_EQ(fleet.tuning.at("producers"), "3");
    EXPECT_EQ(fleet.tuning.at("rate"), "3000") << "the fleet's rate, not an agent's share";
    EXPECT_EQ(fleet.config.at("records"), 75000);
    EXPECT_EQ(fleet.tuning.count("consumers"), 0u) << "no consumers in a producer's contract";
}

TEST(runnerFleetMerge, EveryAgentWithoutAResultIsNamedAndTheFleetIsPartial)
{
    std::mt19937 random(11);
    HdrHistogram all = makeLatencyHistogram();
    auto agents = reportingAgents(5, [&](int i) { return agentDocument(i % 3, 1000, 10.0, random, all); });
    agents[1].started = false;
    agents[1].result = nullptr;
    agents[1].problem = "/nowhere/plimsoll: No such file or directory";
    agents[2].result = nullptr;
    agents[2].exitCode = -1;
    agents[2].signal = 9;
    agents[3].late = true;
    agents[4].result["agent"]["start_late_s"] = 2.5;
    const BenchResult fleet = mergeFleetResults(5, BenchResult{}, agents);
    EXPECT_EQ(fleet.exitCode, 1);
    EXPECT_TRUE(fleet.partial);
    EXPECT_EQ(fleet.status(), "failed");
    const auto has = [&](const std::string &text) {
        return std::any_of(fleet.errors.begin(), fleet.errors.end(),
                           [&](const std::string &e) { return e.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(has("agent 1 did not start: /nowhere/plimsoll: No such file or directory"));
    EXPECT_TRUE(has("agent 2 was killed by signal 9 before reporting its result"));
    EXPECT_TRUE(has("agent 3 reported late"));
    EXPECT_TRUE(has("agent 4 started 2.50 s after the fleet's start instant"));
    EXPECT_EQ(fleet.agents[1]["status"], "not started");
    EXPECT_EQ(fleet.agents[2]["status"], "died");
    EXPECT_EQ(fleet.agents[3]["status"], "late");
    // What the two reporting agents measured is kept.
    EXPECT_EQ(fleet.scenarios.at(0).metrics.at("producer.acknowledged"), 2000);
}

TEST(runnerFleetMerge, AnAgentFarBelowTheOthersRateIsPointedOut)
{
    std::mt19937 random(3);
    HdrHistogram all = makeLatencyHistogram();
    auto agents = reportingAgents(3, [&](int i) { return agentDocument(i, i == 2 ? 4000 : 10000, 10.0, random, all); });
    const BenchResult fleet = mergeFleetResults(3, BenchResult{}, agents);
    EXPECT_EQ(fleet.exitCode, 0);
    ASSERT_EQ(fleet.warnings.size(), 1u);
    EXPECT_EQ(fleet.warnings[0], "agent 2 ran at 50% of the agents' mean rate: its client node, not the cluster, "
                                 "may be the bottleneck");
}

TEST(runnerFleetMerge, IntervalsAddRatesAndKeepTheHighestLatency)
{
    BenchSnapshot a, b;
    a.producedPerS = 1000;
    a.acked = 10;
    a.ackP99S = 0.004;
    a.progress = 0.5;
    b.producedPerS = 1500;
    b.acked = 15;
    b.ackP99S = 0.009;
    b.progress = 0.25;
    const BenchSnapshot merged = mergeAgentSnapshots({&a, &b});
    EXPECT_DOUBLE_EQ(merged.producedPerS, 2500);
    EXPECT_EQ(merged.acked, 25);
    EXPECT_DOUBLE_EQ(merged.ackP99S, 0.009);
    EXPECT_DOUBLE_EQ(merged.progress, 0.25);
    BenchSnapshot parsed;
    ASSERT_TRUE(snapshotFromJson(merged.toJson(), parsed));
    EXPECT_DOUBLE_EQ(parsed.producedPerS, 2500);
    EXPECT_FALSE(snapshotFromJson(nlohmann::json{{"type", "result"}}, parsed));
}

// An agent's command line carries the run's settings in the units the options read, and only
// the options its workload takes (the CLI refuses the others).
TEST(runnerFleetAgents, AnAgentIsToldTheRunsSettingsAndItsOwnPlace)
{
    RunConfig c = fleetConfig(4);
    c.workload = Workload::Consumer;
    c.runId = "r1";
    c.topic = "t";
    c.records = 1000;
    c.linger = std::chrono::milliseconds(7);
    c.startAtUnixMs = 1796345781906;
    c.histogramLog = "/tmp/h.hlog";
    c.userTuning["icebergReadThreads"] = "8";
    const auto args = agentArguments(c, 2);
    const auto after = [&](const std::string &option) {
        const auto it = std::find(args.begin(), args.end(), option);
        return it == args.end() || it + 1 == args.end() ? std::string("(absent)") : *(it + 1);
    };
    EXPECT_EQ(args[0], "bench");
    EXPECT_EQ(args[1], "consumer");
    EXPECT_EQ(after("--records"), "1000") << "the fleet's total: the agent takes its share itself";
    EXPECT_EQ(after("--agent-index"), "2");
    EXPECT_EQ(after("--agents"), "4");
    EXPECT_EQ(after("--start-at"), "1796345781906");
    EXPECT_EQ(after("--histogram-log"), "/tmp/h.hlog.agent2");
    EXPECT_EQ(after("--timeout"), "30000000000ns");
    EXPECT_EQ(after("--tuning"), "icebergReadThreads=8");
    EXPECT_EQ(after("--output"), "jsonl");
    for (const char *producerOnly : {"--rate", "--acks", "--linger", "--producer-clients"})
        EXPECT_EQ(after(producerOnly), "(absent)") << producerOnly;
    c.workload = Workload::Producer;
    c.rate = 1234.5;
    const auto producer = agentArguments(c, 0);
    EXPECT_NE(std::find(producer.begin(), producer.end(), "7000000ns"), producer.end());
    EXPECT_NE(std::find(producer.begin(), producer.end(), "1234.5"), producer.end());
    EXPECT_EQ(std::find(producer.begin(), producer.end(), "--from"), producer.end());
}

} // namespace plimsoll
