#include "model/core/catalog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace plimsoll {

namespace {
using D = Direction;

constexpr double kInf = std::numeric_limits<double>::infinity();
// A latency beyond a day is no measurement of a request: it is a unit read wrongly.
constexpr double kLatencyMax = 86400;
// CPU fractions: a broker's allocation or one core; 64 cores' worth is more than any broker
// or shard process Plimsoll sizes can use.
constexpr double kCpuMax = 64;
constexpr MetricDomain kNonNegative{0, kInf, "0 or more"};
constexpr MetricDomain kLatency{0, kLatencyMax, "0 s or more; over a day (86,400 s) is implausible"};
constexpr MetricDomain kCpu{0, kCpuMax, "0 or more; over 64 (64 cores' worth) is implausible"};

const std::vector<MetricInfo> kMetrics = {
    {"records_per_s", "records/s", D::HigherIsBetter, "Records (messages) per second.", kNonNegative},
    {"bytes_per_s", "bytes/s", D::HigherIsBetter,
     "Bytes per second (1 MB = 1,048,576 B when a tool reports MB).", kNonNegative},
    {"latency_avg_s", "s", D::LowerIsBetter, "Mean latency, seconds.", kLatency},
    {"latency_p50_s", "s", D::LowerIsBetter, "Median latency, seconds.", kLatency},
    {"latency_p95_s", "s", D::LowerIsBetter, "95th percentile latency, seconds.", kLatency},
    {"latency_p99_s", "s", D::LowerIsBetter, "99th percentile latency, seconds.", kLatency},
    {"latency_p999_s", "s", D::LowerIsBetter, "99.9th percentile latency, seconds.", kLatency},
    {"latency_max_s", "s", D::LowerIsBetter, "Maximum latency, seconds.", kLatency},
    {"ack_p99_s", "s", D::LowerIsBetter,
     "Client-observed produce-ack p99 from scheduled send (coordinated-omission safe), seconds.",
     kLatency},
    {"e2e_p99_s", "s", D::LowerIsBetter,
     "Client-observed end-to-end p99 from scheduled send to consume, seconds.", kLatency},
    {"broker_cpu_avg", "fraction", D::LowerIsBetter,
     "Mean broker CPU as a fraction of the broker's CPU limit (0.79 = 79%).", kCpu},
    {"shard_cpu_max", "fraction", D::LowerIsBetter,
     "CPU of the hottest Redis shard as a fraction of one core (0.92 = 92%).", kCpu},
    {"memory_bytes", "bytes", D::LowerIsBetter, "Memory used, bytes.", kNonNegative},
    {"errors", "count", D::LowerIsBetter, "Errors counted during the measurement.", kNonNegative},
};

const std::vector<FactorInfo> kFactors = {
    {"producers", "Producer clients or pods."},
    {"consumers", "Consumer clients or pods."},
    {"clients", "Benchmark clients (when producers and consumers are not told apart)."},
    {"agents", "Load-generator agents: the processes or pods of one bench fleet."},
    {"connections", "Client connections (redis-benchmark -c, memtier -c x -t)."},
    {"threads", "Client or server threads."},
    {"pipeline", "Requests in flight per connection."},
    {"brokers", "Kafka-protocol brokers (Korvet replicas)."},
    {"shards", "Redis (Enterprise) master shards."},
    {"partitions", "Topic partitions."},
    {"record_size_bytes", "Record (message) size in bytes."},
    {"replication", "Copies of each partition or shard (a topic's replication factor)."},
};

std::string formatBytes(double b, const char *suffix)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (std::fabs(b) >= 1024.0 && u < 4) {
        b /= 1024.0;
        ++u;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s%s" : "%.1f %s%s", b, units[u], suffix);
    return buf;
}
} // namespace

std::string groupThousands(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v));
    const std::string s(buf);
    const size_t dot = std::min(s.find('.'), s.size());
    // Built forwards rather than by insert(): GCC 12 warns falsely on string::insert at -O2.
    std::string out = v < 0 ? "-" : "";
    for (size_t i = 0; i < dot; ++i) {
        if (i > 0 && (dot - i) % 3 == 0)
            out += ',';
        out += s[i];
    }
    out.append(s, dot, std::string::npos);
    return out;
}

std::string formatSeconds(double s)
{
    char buf[64];
    const double a = std::fabs(s);
    if (a >= 1.0)
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    else if (a >= 1e-3)
        std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g µs", s * 1e6);
    return buf;
}

const std::vector<MetricInfo> &metricCatalog() { return kMetrics; }
const std::vector<FactorInfo> &factorCatalog() { return kFactors; }

const MetricInfo *findMetric(std::string_view name)
{
    for (const auto &m : kMetrics)
        if (m.name == name)
            return &m;
    return nullptr;
}

const FactorInfo *findFactor(std::string_view name)
{
    for (const auto &f : kFactors)
        if (f.name == name)
            return &f;
    return nullptr;
}

std::string_view directionName(Direction d)
{
    switch (d) {
    case Direction::HigherIsBetter:
        return "higher-is-better";
    case Direction::LowerIsBetter:
        return "lower-is-better";
    case Direction::Neutral:
        break;
    }
    return "neutral";
}

std::string formatMetric(std::string_view name, double value)
{
    const MetricInfo *m = findMetric(name);
    // A tool's own metric states its unit in its name's suffix, in SI as every stored value.
    const auto endsWith = [name](std::string_view suffix) {
        return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
    };
    std::string_view unit;
    if (m)
        unit = m->unit;
    else if (endsWith("_bytes_per_s"))
        unit = "bytes/s";
    else if (endsWith("_per_s"))
        unit = "records/s";
    else if (endsWith("_bytes"))
        unit = "bytes";
    else if (endsWith("_s") || name.find(".quantile.") != std::string_view::npos)
        unit = "s"; // a quantile map's entries are latencies, stored in seconds (OMB's)
    else if (endsWith("_fraction") || endsWith("_ratio"))
        unit = "fraction";
    else
        return groupThousands(value, std::fabs(value) < 100 && value != std::floor(value) ? 3 : 0);
    if (unit == "records/s" && !m && !endsWith("records_per_s")) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%s/s", groupThousands(value, std::fabs(value) < 100 ? 2 : 0).c_str());
        return buf;
    }
    if (unit == "records/s")
        return groupThousands(value, 0) + " rec/s";
    if (unit == "bytes/s")
        return formatBytes(value, "/s");
    if (unit == "bytes")
        return formatBytes(value, "");
    if (unit == "s")
        return formatSeconds(value);
    if (unit == "fraction") {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f %%", value * 100.0);
        return buf;
    }
    return groupThousands(value, 0);
}

} // namespace plimsoll
