// A fleet's result from 16 agents' documents of a 10-minute run: decoding each agent's ack,
// service and end-to-end histograms, adding them count by count and reading the percentiles
// (mergeFleetResults), what the coordinator does once the agents have reported.
#include "runner/fleet.h"
#include "runner/latency.h"

#include <QByteArray>

#include <benchmark/benchmark.h>

#include <random>

namespace {

using namespace plimsoll;

std::string base64(const HdrHistogram &h)
{
    const std::string bytes = h.encodeCompressed();
    return QByteArray(bytes.data(), qsizetype(bytes.size())).toBase64().toStdString();
}

// Agent i's result: 10 minutes at 10,000 records/s, latencies log-normal around a few ms with
// a tail to seconds, so the histograms span the range a loaded broker gives.
nlohmann::json agentResult(int index)
{
    std::mt19937_64 random(uint64_t(index) + 1);
    std::lognormal_distribution<double> latencyUs(8.0, 1.1);
    nlohmann::json histograms;
    for (const char *name : {"ack_us", "service_us", "e2e_us"}) {
        HdrHistogram h = makeLatencyHistogram();
        for (int i = 0; i < 200000; ++i) // distinct values: the buckets 6M records fill
            h.record(std::min<int64_t>(kLatencyHighestUs, static_cast<int64_t>(latencyUs(random)) + 1), 30);
        histograms[name] = base64(h);
    }
    const nlohmann::json metrics = {{"records_per_s", 10000.0}, {"bytes_per_s", 10240000.0},
                                    {"producer.measured_s", 600.0}, {"producer.acknowledged", 6000000},
                                    {"roundtrip.matched", 6000000}, {"errors", 0}};
    return {{"type", "result"}, {"status", "ok"}, {"errors", nlohmann::json::array()},
            {"warnings", nlohmann::json::array()},
            {"agent", {{"index", index}, {"of", 16}, {"first_send_unix_ns", 1000000000LL + index}}},
            {"scenarios",
             {{{"name", "bench/roundtrip"}, {"kind", "benchmark"}, {"topology", {{"producers", 1}, {"consumers", 1}}},
               {"metrics", metrics}, {"histograms", histograms}}}}};
}

void BM_FleetMerge16Agents10Minutes(benchmark::State &state)
{
    std::vector<AgentReport> agents(16);
    for (int i = 0; i < 16; ++i) {
        agents[i].index = i;
        agents[i].started = true;
        agents[i].exitCode = 0;
        agents[i].result = agentResult(i);
    }
    for (auto _ : state) {
        const BenchResult merged = mergeFleetResults(16, BenchResult{}, agents);
        benchmark::DoNotOptimize(merged.scenarios.front().metrics.at("latency_p99_s"));
        if (merged.scenarios.front().metrics.at("roundtrip.matched") != 16 * 6000000.0)
            state.SkipWithError("the merge lost records");
    }
}
BENCHMARK(BM_FleetMerge16Agents10Minutes)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
