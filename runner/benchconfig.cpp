#include "runner/benchconfig.h"

#include "runner/envelope.h"

#include <cmath>
#include <random>
#include <set>

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
    try {
        return std::stoi(bootstrapServers.substr(9));
    } catch (...) {
        return 0;
    }
}

int64_t RunConfig::minRecordSize() const { return static_cast<int64_t>(Envelope::kSize); }

std::string RunConfig::validate() const
{
    if (bootstrapServers.empty())
        return "--bootstrap-server is empty";
    if (embedded() && (embeddedBrokers() < 1 || embeddedBrokers() > 16))
        return "--bootstrap-server embedded:N takes 1 to 16 brokers";
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
    if (workload == Workload::Ramp && steps.empty())
        return "ramp needs --steps (e.g. --steps 1,2,4,8)";
    for (double step : steps)
        if (!(step > 0))
            return "every --steps value must be positive";
    if (workload == Workload::Probe && !(probeRate > 0))
        return "--rate of a probe must be a positive number of records/s";
    return {};
}

std::map<std::string, std::string> RunConfig::tuning() const
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
