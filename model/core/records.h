#pragma once
// Domain records: what an importer produces and the store keeps.
// Every metric value is in SI base units (see catalog.h); conversion happens only for display.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace plimsoll {

// The shape of the system a scenario measured. Every field is optional: importers fill what
// their format states. A field derived rather than stated (e.g. taken from a workload name)
// is listed in `inferred` by its factor name.
struct Topology
{
    std::optional<int64_t> brokers;
    std::optional<int64_t> shards;
    std::optional<int64_t> partitions;
    std::optional<int64_t> producers;
    std::optional<int64_t> consumers;
    std::optional<int64_t> clients;
    std::optional<int64_t> connections;
    std::optional<int64_t> threads;
    std::optional<int64_t> pipeline;
    std::optional<int64_t> recordSizeBytes;
    std::optional<int64_t> batchBytes;
    std::optional<std::string> compression;
    std::optional<std::string> acks;
    std::optional<int64_t> agents; // the load generator's agents (a fleet's processes or pods)
    std::optional<int64_t> replication; // copies of each partition or shard (Kafka's replication factor)
    std::vector<std::string> inferred;

    // Load factors by their shared names (catalog.h: factorCatalog()).
    std::optional<int64_t> factor(const std::string &name) const;
    bool setFactor(const std::string &name, int64_t value);
    nlohmann::json toJson() const;
    // Throws std::invalid_argument naming the offending key.
    static Topology fromJson(const nlohmann::json &j);
    bool operator==(const Topology &) const = default;
};

struct MetricValue
{
    std::string name; // a catalog name, or a tool-specific name such as "kafka.batch-size-avg"
    double value = 0;
    bool operator==(const MetricValue &) const = default;
};

// One sample of a per-window series (OMB's publishRate per 10-s window): the value in SI
// units and its window's start, seconds from the start of the measurement.
struct SeriesSample
{
    double tOffsetS = 0;
    double value = 0;
    bool operator==(const SeriesSample &) const = default;
};

// A per-window series a tool reports beside its aggregates. Never a substitute for them:
// percentiles of windows are not averaged into a run's percentile.
struct SeriesRecord
{
    std::string name; // like metric names: "records_per_s", "publish.latency_p99_s"
    std::vector<SeriesSample> samples;
    bool operator==(const SeriesRecord &) const = default;
};

struct ScenarioRecord
{
    std::string name; // e.g. "pipeline/produce/step-16"
    std::string kind; // e.g. "ramp-step", "benchmark", "probe"
    Topology topology;
    std::vector<MetricValue> metrics;
    std::vector<SeriesRecord> series;
    std::string provenance; // where the numbers come from, when the source says so
    int64_t line = 0;       // 1-based line in the source it came from, 0 when unknown

    std::optional<double> metric(const std::string &name) const;
    bool operator==(const ScenarioRecord &o) const
    {
        return name == o.name && kind == o.kind && topology == o.topology && metrics == o.metrics &&
               series == o.series && provenance == o.provenance;
    }
};

// How a run's time is known. Inferred — from its file's modification time (a copy, a checkout or
// an unpack sets it) or from the time of import — it places the run nowhere in a history: a
// trend marks such runs and reports no change point among them.
enum class TimeSource { Stated, FileModified, Imported };
// "stated", "file-modified", "imported"; and back (nullopt for another word).
const char *toString(TimeSource source);
std::optional<TimeSource> timeSourceFromString(std::string_view text);

struct RunRecord
{
    std::string runKey;     // unique in a store; identifies one invocation
    std::string timestamp;  // ISO-8601 UTC, normalized by normalizeTimestamp()
    TimeSource timeSource = TimeSource::Stated;
    std::string commit;     // empty when unknown
    std::string imageDigest;
    std::string tool;
    std::string toolVersion;
    std::string target; // system under test, e.g. "korvet", "kafka", "redis"
    nlohmann::json environment = nlohmann::json::object();
    nlohmann::json tuning = nlohmann::json::object();
    bool sample = false;
    std::string provenance;
    // What the user calls the run (`plimsoll name`, the Library's Rename…; empty: none) and
    // their tags (`plimsoll tag`), sorted, each once: run labels (model/store/runlabels.h).
    std::string name;
    std::vector<std::string> tags;
    std::vector<ScenarioRecord> scenarios;
    int64_t line = 0;

    bool operator==(const RunRecord &o) const
    {
        return runKey == o.runKey && timestamp == o.timestamp && timeSource == o.timeSource && commit == o.commit &&
               imageDigest == o.imageDigest && tool == o.tool && toolVersion == o.toolVersion &&
               target == o.target && environment == o.environment && tuning == o.tuning &&
               sample == o.sample && provenance == o.provenance && name == o.name && tags == o.tags &&
               scenarios == o.scenarios;
    }
};

struct SourceRecord
{
    std::string uri;
    std::string format;
    std::string sha256; // of the bytes imported
    std::string importer;
    std::string importerVersion;
    std::string importedAt; // ISO-8601 UTC
    bool sample = false;
};

// Normalizes an ISO-8601 date-time (with Z or an offset, optional fraction) to UTC
// "YYYY-MM-DDTHH:MM:SS[.mmm]Z". Returns nullopt when the text is not such a time.
std::optional<std::string> normalizeTimestamp(const std::string &text);
std::string nowTimestamp();

} // namespace plimsoll
