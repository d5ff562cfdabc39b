#pragma once
// A bench run as the user states it — the text of `plimsoll bench`'s options or of the Bench
// view's form, with their domains — and the one translation of it into a RunConfig. The CLI
// binds its options to these fields and the window fills them from its form; both then call
// resolveBenchRequest(), so units, domains, defaults and the checks across options are the
// same in both (a field left empty takes the engine's default, e.g. a ramp step's 10 s).

#include "model/core/domain.h"
#include "runner/benchconfig.h"

#include <map>
#include <string>
#include <vector>

namespace plimsoll {

struct BenchRequest
{
    RunConfig config;
    std::string records, duration, recordSize = "1KB", rate = "unlimited", linger = "5ms", batchSize = "16384";
    std::string fetchMaxBytes = "50MB", warmup = "0", interval = "1s", timeout = "30s", p99Limit = "250ms";
    std::string validate = "checksum", commandConfig, steps;
    std::string agentsSteps; // --agents-steps 1,2,4,8: a fleet ramp's agents per step
    // The consume ramp: --ramp producers|consumers, --backlog N, --fetch-p99-limit (empty: the
    // workload's, kFetchP99Limit or kTieredFetchP99Limit), --tiered, --s3-get-metric.
    std::string ramp = "producers", backlog, fetchP99Limit, s3GetMetric;
    bool tiered = false;
    static constexpr const char *kFetchP99Limit = "500ms";
    static constexpr const char *kTieredFetchP99Limit = "5s"; // the page's TIERED_FETCH_P99_MS_LIMIT
    std::vector<std::string> tuning; // --tuning key=value (repeatable; space-separated entries too)
    std::vector<std::string> redis, brokerMetrics, reApi; // ramp collectors, as typed (repeatable, comma lists)
    int clients = 0; // --clients: producers and consumers each (0: as the config says)

    // Domains of the numeric options (RunConfig::validate() adds the checks that need several).
    static constexpr Domain kPartitions = Domain::count(1, 100000);
    static constexpr Domain kRecords = Domain::count(1, 1e12);
    static constexpr Domain kReplicationFactor = Domain::count(1, 32767);
    static constexpr Domain kClients = Domain::count(1, 10000);
    static constexpr Domain kMetricsPort = Domain::count(0, 65535);
    static constexpr Domain kProbeRate = Domain::atLeast(0, "records/s").withNote("0 runs no probe");
    static constexpr Domain kRate = Domain::above(0, "records/s").withNote("or 'unlimited'");
    static constexpr Domain kStep = Domain::above(0).withNote("producer clients, or records/s with --step-by-rate");
    static constexpr Domain kLinger = Domain::atLeast(0, "s");
    static constexpr Domain kP99Limit = Domain::above(0, "s");
    static constexpr Domain kDuration = Domain::above(0, "s");
    static constexpr Domain kAgents = Domain::count(1, 1000);
    static constexpr Domain kAgentsStep = Domain::count(1, 1000).withNote("agents in a step");
    static constexpr Domain kAgentIndex = Domain::count(0, 999);
    static constexpr Domain kStartAt = Domain::count(0, 1e15).withNote("Unix time in ms");
    static constexpr Domain kBacklog = Domain::count(1, 1e12).withNote("records to preload");
};

// Turns the typed strings into a.config: "" when fine, else the problem phrased with the
// option's name ("--p99-limit must be greater than 0 s (got 0)"). Notices on the client
// properties (a setting translated or ignored) are added to *notices.
std::string resolveBenchRequest(BenchRequest &a, std::vector<std::string> *notices = nullptr);

// --tuning key=value entries (repeatable, space-separated too) into `out`: "" when fine, else
// the problem (a malformed, zero or negative value; a key given twice).
std::string parseTuningOptions(const std::vector<std::string> &typed, std::map<std::string, std::string> &out);
// Repeatable options that also take comma lists, as one list.
void splitTargets(const std::vector<std::string> &typed, std::vector<std::string> &out);
bool isHttpUrl(const std::string &url);

} // namespace plimsoll
