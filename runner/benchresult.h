#pragma once
// What a bench run reports: throttled snapshots while it runs, and one result at the end.
// Both are immutable values handed across threads (by signal or callback). The result is
// the JSON document of --output json / --result-file, and becomes a RunRecord in the store.

#include "model/core/records.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace plimsoll {

// One interval, as seen at its end. Rates are over the interval; latencies are the
// interval histogram's percentiles (0 when nothing was recorded in it).
struct BenchSnapshot
{
    std::string scenario; // e.g. "bench/roundtrip", "bench/ramp/step-2"
    std::string phase;    // "warmup", "measure", "drain", "interrupted"
    double elapsedS = 0;  // since the run started
    double intervalS = 0;
    double producedPerS = 0; // acknowledged records/s
    double consumedPerS = 0;
    double bytesPerS = 0;    // acknowledged (or, consumer only, consumed) bytes/s
    double ackP50S = 0, ackP99S = 0;
    double e2eP50S = 0, e2eP99S = 0;
    int64_t sent = 0, acked = 0, consumed = 0, errors = 0, queued = 0;
    double progress = -1;    // 0..1 of records or time; -1 when unknown
    double brokerRttAvgS = 0; // from librdkafka's statistics (client 0), 0 when unknown
    // The offload record's polls only (bench offload); -1 otherwise.
    double archiveLagS = -1;   // the most lagging broker's archive lag
    double segmentsPerS = -1;  // sealed segments archived per second since the poll before

    nlohmann::json toJson() const;
};

struct ScenarioResult
{
    std::string name;
    std::string kind; // "benchmark", "ramp-step", "probe"
    Topology topology;
    std::map<std::string, double> metrics;         // SI units, catalog names where they exist
    std::map<std::string, std::string> histograms; // name -> base64 V2 compressed (µs)
    bool saturated = false;
    std::string bottleneck; // ramp steps: why the step counts as saturated
    // Ramp steps with broker metrics: the Korvet series the endpoints had, and those they lacked.
    std::vector<std::string> seriesFound, seriesMissing;

    nlohmann::json toJson() const;
};

// Exit code of a run interrupted without a failure: the shells' code for a command stopped
// by SIGINT (128 + 2), so a script's loop can tell it from a failed run (1).
constexpr int kExitInterrupted = 130;

// A setting the target could not honour and what the run used instead. The window names it
// beside the result, the JSON lists it under "adjustments", and it is among the warnings in
// words (text()).
struct BenchAdjustment
{
    std::string setting; // the option without its dashes: "partitions"
    std::string asked;
    std::string used;
    std::string why;
    // "partitions: 67 instead of 16 (the embedded mock cluster keeps at most 5 MiB per partition)"
    std::string text() const;
};

struct BenchResult
{
    std::string runId;
    std::string workload;
    std::string bootstrapServers;
    bool embedded = false; // librdkafka's mock cluster: the numbers describe the client
    std::string topic;
    bool topicCreated = false;
    bool topicDeleted = false;
    std::string startedAt; // ISO-8601 UTC
    std::string finishedAt;
    bool partial = false;   // stopped early or failed: what is here is what was measured
    // Stopped by the user (SIGINT, SIGTERM, the window's Stop): partial, and what was under way
    // is counted as in flight, not as lost.
    bool interrupted = false;
    int64_t inFlightUnacknowledged = 0; // sent, neither acknowledged nor refused
    int64_t inFlightUnconsumed = 0;     // round trip: acknowledged, not consumed yet
    int exitCode = 0;       // 0 ok, 1 production or correctness failure, kExitInterrupted
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
    std::vector<BenchAdjustment> adjustments; // each also among the warnings
    std::map<std::string, std::string> tuning;
    nlohmann::json config = nlohmann::json::object(); // secrets masked
    std::vector<ScenarioResult> scenarios;
    std::vector<BenchSnapshot> intervals;
    // A fleet's agent (runner/fleet.h): its index, share and start ("agent" in the document).
    nlohmann::json agent = nlohmann::json::object();
    // A fleet's result: one entry per agent, its status and rates ("agents" in the document).
    nlohmann::json agents = nlohmann::json::array();

    bool ok() const { return exitCode == 0; }
    // "ok", "interrupted" (stopped by the user, nothing failed before), or "failed".
    std::string status() const;
    nlohmann::json toJson() const;
    // The run as the store keeps it: tool "plimsoll-bench", the tuning contract in `tuning`,
    // `partial` flagged in tuning and environment.
    RunRecord toRunRecord(const std::string &toolVersion) const;
    // A few lines for people (--output text).
    std::string toText() const;
};

// Prometheus text exposition of the latest snapshot (for --metrics-port).
std::string prometheusText(const BenchSnapshot &snapshot, const std::string &runId, const std::string &workload);

} // namespace plimsoll
