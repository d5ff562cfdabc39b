#include "runner/benchconfig.h"

#include "runner/envelope.h"

#include <cmath>
#include <random>
#include <cctype>
#include <set>
#include <sstream>

namespace plimsoll {

namespace {

std::string milliseconds(RunConfig::Duration duration)
{
    const double ms = std::chrono::duration<double, std::milli>(duration).count();
    if (ms == std::floor(ms))
        return std::to_string(static_cast<int64_t>(ms));
    return std::to_string(ms);
}

} // namespace

std::string workloadName(Workload workload)
{
    switch (workload) {
    case Workload::Producer: return "producer";
    case Workload::Consumer: return "consumer";
    case Workload::Roundtrip: return "roundtrip";
    case Workload::Ramp: return "ramp";
    case Workload::Probe: return "probe";
    }
    return "?";
}

std::string rampKindName(RampKind kind) { return kind == RampKind::Consumers ? "consumers" : "producers"; }

std::optional<Workload> parseWorkload(const std::string &name)
{
    for (Workload w : {Workload::Producer, Workload::Consumer, Workload::Roundtrip, Workload::Ramp, Workload::Probe})
        if (workloadName(w) == name)
            return w;
    return std::nullopt;
}

bool RunConfig::embedded() const
{
    return bootstrapServers == "embedded" || bootstrapServers.rfind("embedded:", 0) == 0;
}

int RunConfig::embeddedBrokers() const
{
    if (bootstrapServers.size() <= 9)
        return 1;
    // Digits only: "embedded:2x" or "embedded:+2" is no count (0, refused by validate()).
    const std::string n = bootstrapServers.substr(9);
    if (n.size() > 2 || n.find_first_not_of("0123456789") != std::string::npos)
        return 0;
    return std::stoi(n);
}

int64_t RunConfig::minRecordSize() const { return static_cast<int64_t>(Envelope::kSize); }

std::string RunConfig::validate() const
{
    if (bootstrapServers.empty())
        return "--bootstrap-server is empty";
    if (embedded() && (embeddedBrokers() < 1 || embeddedBrokers() > 16))
        return "--bootstrap-server '" + bootstrapServers +
               "': embedded:N takes a whole number of brokers from 1 to 16 (embedded alone is 1)";
    if (partitions < 1)
        return "--partitions must be at least 1";
    if (replicationFactor < 1)
        return "--replication-factor must be at least 1";
    if (producerClients < 1 || consumerClients < 1)
        return "--clients, --producer-clients and --consumer-clients must be at least 1";
    if (records < 0)
        return "--records must not be negative";
    if (duration.count() < 0 || warmup.count() < 0)
        return "--duration and --warmup must not be negative";
    if (recordSize < minRecordSize())
        return "--record-size must be at least " + std::to_string(minRecordSize())
             + " B: every value carries Plimsoll's " + std::to_string(minRecordSize()) + "-byte envelope";
    if (recordSize > 64LL * 1024 * 1024)
        return "--record-size must be at most 64 MB";
    if (rate < 0 || !std::isfinite(rate))
        return "--rate must be 'unlimited' or a positive number of records/s";
    if (from != "beginning" && from != "end")
        return "--from must be 'beginning' or 'end'";
    static const std::set<std::string> acksValues = {"0", "1", "all", "-1"};
    if (!acksValues.count(acks))
        return "--acks must be 0, 1, all or -1";
    static const std::set<std::string> codecs = {"none", "gzip", "snappy", "lz4", "zstd"};
    if (!codecs.count(compression))
        return "--compression must be none, gzip, snappy, lz4 or zstd";
    if (batchSize < 1)
        return "--batch-size must be at least 1 B";
    if (fetchMaxBytes < 1)
        return "--fetch-max-bytes must be at least 1 B";
    if (interval < std::chrono::milliseconds(10))
        return "--interval must be at least 10ms";
    if (timeout < std::chrono::milliseconds(100))
        return "--timeout must be at least 100ms";
    if (workload == Workload::Ramp && steps.empty() && agentSteps.empty())
        return "ramp needs --steps (e.g. --steps 1,2,4,8) or --agents-steps (e.g. --agents-steps 1,2,4)";
    if (auto problem = validateAgentRamp(); !problem.empty())
        return problem;
    for (double step : steps)
        if (!(step > 0))
            return "every --steps value must be positive";
    if (workload == Workload::Probe && !(probeRate > 0))
        return "--rate of a probe must be a positive number of records/s";
    if (auto problem = validateConsumeRamp(); !problem.empty())
        return problem;
    if (auto problem = validateFleet(); !problem.empty())
        return problem;
    for (const auto &[key, value] : userTuning)
        if (builtInTuning().count(key))
            return "--tuning " + key + "=" + value + ": '" + key
                 + "' is one of the run's own settings, recorded from its option; set it there";
    return {};
}

std::string RunConfig::validateFleet() const
{
    if (agents < 1)
        return "--agents must be 1 or more";
    if (agentIndex >= agents)
        return "--agent-index " + std::to_string(agentIndex) + " is not one of the fleet's agents 0.."
             + std::to_string(agents - 1) + " (--agents " + std::to_string(agents) + ")";
    if (!fleetRequested && agentIndex < 0)
        return {};
    if (records > 0 && records < agents)
        return "--records " + std::to_string(records) + " is fewer than --agents " + std::to_string(agents)
             + ": every agent sends a share";
    if (workload != Workload::Producer && workload != Workload::Consumer && workload != Workload::Roundtrip)
        return "--agents runs 'bench producer', 'bench consumer' or 'bench roundtrip'; 'bench " + workloadName(workload)
             + "' runs in one process";
    if (embedded())
        return "--agents needs a real cluster: the embedded target lives inside one process, so agents cannot share it";
    if (!group.empty())
        return "--group with --agents: the agents' consumers read disjoint partitions by assignment, not in a group";
    if (workload != Workload::Producer && partitions < agents)
        return "--partitions " + std::to_string(partitions) + " is fewer than --agents " + std::to_string(agents)
             + ": each agent reads partitions of its own";
    if (agent() && topic.empty())
        return "an agent (--agent-index) needs the fleet's --topic";
    return {};
}

std::string RunConfig::validateAgentRamp() const
{
    if (agentSteps.empty())
        return {};
    if (workload != Workload::Ramp || rampKind != RampKind::Producers)
        return "--agents-steps steps the agents of a produce ramp: use it with 'bench ramp' (not --ramp consumers)";
    if (!steps.empty() || stepByRate)
        return "--agents-steps and --steps exclude each other: a fleet ramp steps agents, each with "
               "--producer-clients and --rate of its own";
    if (fleetRequested || agent())
        return "--agents-steps and --agents exclude each other: the steps say how many agents run";
    if (embedded())
        return "--agents-steps needs a real cluster: the embedded target lives inside one process, so agents cannot share it";
    if (metricsPort >= 0)
        return "--metrics-port with --agents-steps: each agent is a process of its own; follow the fleet's "
               "intervals on the output instead";
    for (std::size_t i = 0; i < agentSteps.size(); ++i) {
        if (agentSteps[i] < 1)
            return "every --agents-steps value must be 1 or more";
        if (i > 0 && agentSteps[i] <= agentSteps[i - 1])
            return "--agents-steps must increase step by step (e.g. 1,2,4,8): got "
                 + std::to_string(agentSteps[i - 1]) + " then " + std::to_string(agentSteps[i]);
    }
    return {};
}

int64_t agentShare(int64_t total, int agents, int index)
{
    return total / agents + (index < total % agents ? 1 : 0);
}

std::vector<int32_t> agentPartitions(int partitionCount, int agents, int index)
{
    std::vector<int32_t> out;
    for (int p = index; p < partitionCount; p += agents)
        out.push_back(p);
    return out;
}

std::string RunConfig::validateConsumeRamp() const
{
    if (backlog < 0)
        return "--backlog must not be negative";
    if (!(fetchP99Limit.count() > 0))
        return "--fetch-p99-limit must be greater than 0 s";
    if (rampKind != RampKind::Consumers) {
        if (tiered || !s3GetMetric.empty())
            return std::string(tiered ? "--tiered" : "--s3-get-metric") + " applies to 'bench ramp --ramp consumers' only";
        return backlog > 0 ? "--backlog applies to 'bench ramp --ramp consumers' only" : std::string();
    }
    if (tiered && brokerMetricsUrls.empty())
        return "--tiered checks every window's remote reads in the brokers' metrics: give --broker-metrics URL";
    if (!s3GetMetric.empty() && !tiered)
        return "--s3-get-metric attributes a tiered ramp's fetch latency: use it with --tiered";
    if (workload != Workload::Ramp)
        return "--ramp consumers applies to 'bench ramp' only";
    if (stepByRate)
        return "--step-by-rate steps the producers' rate; the steps of --ramp consumers are consumer clients";
    for (double step : steps)
        if (step != std::floor(step))
            return "--steps of --ramp consumers are consumer clients, whole numbers (got " + std::to_string(step) + ")";
    if (from == "end")
        return "--ramp consumers reads its backlog from the beginning: --from end would leave nothing to read";
    if (backlog == 0 && topic.empty())
        return "--ramp consumers needs a backlog: --backlog N preloads N records, or --topic T --from beginning "
               "reads an existing topic";
    return {};
}

std::map<std::string, std::string> RunConfig::tuning() const
{
    std::map<std::string, std::string> out = builtInTuning();
    out.insert(userTuning.begin(), userTuning.end());
    return out;
}

std::map<std::string, std::string> RunConfig::builtInTuning() const
{
    if (rampKind == RampKind::Consumers) {
        // Each step's consumer count is its topology (consumers = N); the run's are the steps.
        auto out = produceTuning();
        out["ramp"] = rampKindName(rampKind);
        out["consumers"] = "ramped";
        out["consumer.group"] = group.empty() ? "generated" : group;
        out["backlog"] = backlog > 0 ? std::to_string(backlog) : "topic from beginning";
        out["validate"] = validateChecksum ? "checksum" : "none";
        out["tiered"] = tiered ? "yes" : "no";
        for (const auto &[key, value] : consumerFetchSettings(*this))
            out[key] = value;
        return out;
    }
    return produceTuning();
}

std::map<std::string, std::string> RunConfig::produceTuning() const
{
    return {
        {"workload", workloadName(workload)},
        {"acks", acks},
        {"compression.type", compression},
        {"linger.ms", milliseconds(linger)},
        {"batch.size", std::to_string(batchSize)},
        {"record_size_bytes", std::to_string(recordSize)},
        {"partitions", std::to_string(partitions)},
        {"producers", std::to_string(producerClients)},
        {"consumers", std::to_string(consumerClients)},
        {"rate", rate > 0 ? std::to_string(static_cast<int64_t>(rate)) : "unlimited"},
    };
}

std::string parseTuningEntry(const std::string &entry, std::string *key, std::string *value)
{
    const auto equals = entry.find('=');
    const auto malformed = [&](const std::string &why) {
        return "--tuning '" + entry + "' is malformed: " + why + " (expected key=value, e.g. icebergReadThreads=8)";
    };
    if (equals == std::string::npos)
        return malformed("no '='");
    *key = entry.substr(0, equals);
    *value = entry.substr(equals + 1);
    if (key->empty() || !std::isalpha(static_cast<unsigned char>(key->front())))
        return malformed("the key must start with a letter");
    for (char c : *key)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
            return malformed("the key may hold letters, digits, '.', '_' and '-' only");
    if (value->empty())
        return malformed("no value");
    const bool numeric = std::isdigit(static_cast<unsigned char>(value->front())) || value->front() == '-'
                      || value->front() == '+' || value->front() == '.';
    if (!numeric) {
        for (char c : *value)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
                return "--tuning " + *key + ": '" + *value + "' is neither a positive number nor a word";
        return {};
    }
    std::stringstream items(*value);
    for (std::string item; std::getline(items, item, ',');) {
        std::size_t used = 0;
        double number = 0;
        try {
            number = std::stod(item, &used);
        } catch (...) {
            used = 0;
        }
        if (item.empty() || used != item.size() || !std::isfinite(number))
            return "--tuning " + *key + ": '" + item + "' is not a number";
        if (!(number > 0))
            return "--tuning " + *key + ": " + item + " must be greater than 0";
    }
    if (value->back() == ',')
        return "--tuning " + *key + ": '" + *value + "' ends with ','";
    return {};
}

std::map<std::string, std::string> consumerFetchSettings(const RunConfig &c)
{
    const auto given = [&](const char *key, const char *fallback) {
        auto it = c.clientConfig.find(key);
        return it == c.clientConfig.end() ? std::string(fallback) : it->second;
    };
    // As runner/consumerclient.cpp sets them: a fetch.max.bytes under 1 MiB bounds a partition's too.
    return {{"fetch.max.bytes", std::to_string(c.fetchMaxBytes)},
            {"max.partition.fetch.bytes",
             c.fetchMaxBytes < 1048576 ? std::to_string(c.fetchMaxBytes) : given("max.partition.fetch.bytes", "1048576")},
            {"fetch.wait.max.ms", c.embedded() ? kEmbeddedFetchWaitMs : given("fetch.wait.max.ms", "500")}};
}

std::string makeUuid()
{
    std::random_device device;
    std::mt19937_64 generator((static_cast<uint64_t>(device()) << 32) ^ device());
    std::uniform_int_distribution<int> nibble(0, 15);
    std::string uuid;
    for (int i = 0; i < 32; ++i) {
        int value = nibble(generator);
        if (i == 12)
            value = 4; // version 4
        else if (i == 16)
            value = 8 | (value & 3); // RFC 4122 variant
        if (i == 8 || i == 12 || i == 16 || i == 20)
            uuid += '-';
        uuid += "0123456789abcdef"[value];
    }
    return uuid;
}

} // namespace plimsoll
