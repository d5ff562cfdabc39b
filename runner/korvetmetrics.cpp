#include "runner/korvetmetrics.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace plimsoll {

namespace {

using Kind = KorvetSeriesKind;

constexpr const char *kBackpressureConnections = "korvet_broker_backpressure_connections";
constexpr const char *kBackpressureTransitions = "korvet_broker_backpressure_transitions_total";
// A gauge in bytes: Micrometer appends the base unit; a registry without the convention does not.
constexpr const char *kPendingBytes = "korvet_broker_pending_bytes";
constexpr const char *kPending = "korvet_broker_pending";
constexpr const char *kPoolAcquire = "korvet_storage_local_pool_acquire_seconds";
constexpr const char *kPoolPending = "korvet_storage_local_pool_pending";
constexpr const char *kProduceRecords = "korvet_broker_produce_records_total";
constexpr const char *kMaxOffset = "korvet_broker_max_offset";
constexpr const char *kOlderProduceMessages = "korvet_produce_messages_total";
constexpr const char *kRequestTimer = "korvet_broker_request_seconds";
// The timers a step breaks out: storage verbs by tier, and every Kafka API request by its api_key.
constexpr const char *kBrokenOutTimers[] = {"korvet_storage_write_seconds", "korvet_storage_read_seconds",
                                            "korvet_storage_ack_seconds", kRequestTimer};

// `series` is `name` with or without labels.
bool isSeries(const std::string &series, const std::string &name)
{
    return series.size() >= name.size() && series.compare(0, name.size(), name) == 0 &&
           (series.size() == name.size() || series[name.size()] == '{');
}

// The value of label `key` in a series name built by promSeriesName ("" when absent).
std::string labelOf(const std::string &series, const std::string &key)
{
    const auto open = series.find('{');
    if (open == std::string::npos)
        return {};
    for (auto at = series.find(key + "=\"", open); at != std::string::npos; at = series.find(key + "=\"", at + 1)) {
        if (series[at - 1] != '{' && series[at - 1] != ',')
            continue;
        std::string value;
        for (auto i = at + key.size() + 2; i < series.size() && series[i] != '"'; ++i)
            value += series[i] == '\\' && i + 1 < series.size() ? series[++i] : series[i];
        return value;
    }
    return {};
}

// The sum of a gauge's samples in one scrape; nullopt when it has none.
std::optional<double> gaugeSum(const PromSnapshot &s, const std::string &name)
{
    std::optional<double> sum;
    for (const PromFamily &f : s.families)
        for (const PromSample &sample : f.samples)
            if (sample.name == name && std::isfinite(sample.value))
                sum = sum.value_or(0) + sample.value;
    return sum;
}

// The metric prefix one series of a broken-out timer feeds: "storage.write_local" for
// korvet_storage_write_seconds{tier="local"}, "broker.request_produce" for
// korvet_broker_request_seconds{api_key="PRODUCE"}; "" without the tag that breaks it out.
std::string brokenOutKey(const std::string &timer, const std::string &series)
{
    if (timer == kRequestTimer) {
        std::string api;
        for (const char c : labelOf(series, "api_key"))
            api += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(static_cast<unsigned char>(c))) : '_';
        return api.empty() ? std::string() : "broker.request_" + api;
    }
    const std::string tier = labelOf(series, "tier");
    constexpr std::string_view prefix = "korvet_storage_", suffix = "_seconds";
    return tier.empty() ? std::string()
                        : "storage." + timer.substr(prefix.size(), timer.size() - prefix.size() - suffix.size()) + "_" + tier;
}

} // namespace

const std::vector<KorvetSeries> &korvetSeries()
{
    static const std::vector<KorvetSeries> all = {
        {"korvet_broker_produce_seconds", Kind::Timer, "0.19"},
        {"korvet_broker_produce_records_total", Kind::Counter, "0.19"},
        {"korvet_broker_fetch_seconds", Kind::Timer, "0.19"},
        {"korvet_broker_fetch_delivery_seconds", Kind::Timer, "newer"},
        {"korvet_broker_fetch_empty_total", Kind::Counter, "newer"},
        {"korvet_broker_request_seconds", Kind::Timer, "0.19"},
        {"korvet_broker_backpressure_connections", Kind::Gauge, "0.19"},
        {"korvet_broker_backpressure_transitions_total", Kind::Counter, "0.19"},
        {"korvet_broker_pending_bytes", Kind::Gauge, "0.19"},
        {"korvet_broker_max_offset", Kind::Gauge, "0.19"},
        {"korvet_storage_write_seconds", Kind::Timer, "0.19"},
        {"korvet_storage_read_seconds", Kind::Timer, "0.19"},
        {"korvet_storage_ack_seconds", Kind::Timer, "0.19"},
        {"korvet_storage_read_messages", Kind::Distribution, "0.19"},
        {"korvet_storage_local_pool_acquire_seconds", Kind::Timer, "0.19"},
        {"korvet_storage_local_pool_pending", Kind::Gauge, "0.19"},
        {"korvet_produce_seconds", Kind::Timer, "older"},
        {"korvet_produce_messages_total", Kind::Counter, "older"},
        {"korvet_fetch_seconds", Kind::Timer, "older"},
    };
    return all;
}

bool hasKorvetSeries(const PromSnapshot &snapshot, const KorvetSeries &series)
{
    const std::string name = series.name;
    const bool summed = series.kind == Kind::Timer || series.kind == Kind::Distribution;
    for (const PromFamily &f : snapshot.families)
        for (const PromSample &s : f.samples)
            if (summed ? s.name == name + "_count" || s.name == name + "_sum"
                       : s.name == name || (name == kPendingBytes && s.name == kPending))
                return true;
    return false;
}

bool hasAnyKorvetFamily(const PromSnapshot &snapshot)
{
    return std::any_of(snapshot.families.begin(), snapshot.families.end(),
                       [](const PromFamily &f) { return f.name.rfind("korvet_", 0) == 0; });
}

void KorvetWindow::add(const PromDiff &diff, const PromSnapshot &last)
{
    const auto addSum = [this](const std::string &key, double value) { m_sums[key] += value; };
    for (const PromRate &r : diff.rates) {
        if (isSeries(r.series, kBackpressureTransitions)) {
            const std::string action = labelOf(r.series, "action");
            if (action == "applied" || action == "released")
                addSum("broker.backpressure_" + action + "_per_s", r.perSecond);
        } else if (isSeries(r.series, std::string(kPoolAcquire) + "_count")) {
            addSum("storage.pool_acquires_per_s", r.perSecond);
            if (labelOf(r.series, "result") == "timeout")
                addSum("storage.pool_timeouts_per_s", r.perSecond);
            else
                addSum("storage.pool_timeouts_per_s", 0);
        } else if (isSeries(r.series, kProduceRecords)) {
            addSum("broker.produce_records_per_s", r.perSecond);
        }
        for (const char *timer : kBrokenOutTimers) {
            const bool count = isSeries(r.series, std::string(timer) + "_count");
            if (!count && !isSeries(r.series, std::string(timer) + "_sum"))
                continue;
            const std::string key = brokenOutKey(timer, r.series);
            if (key.empty())
                continue; // without its tier or api_key: not the documented timer
            Timer &t = m_timers[key];
            (count ? t.count : t.sum) += r.delta;
        }
    }
    // The earlier generation's produce counter, where the documented one is absent.
    if (m_sums.count("broker.produce_records_per_s") == 0)
        for (const PromRate &r : diff.rates)
            if (isSeries(r.series, kOlderProduceMessages))
                addSum("broker.produce_records_per_s", r.perSecond);
    for (const PromHistogramWindow &h : diff.histograms)
        for (const char *timer : kBrokenOutTimers) {
            if (h.family != timer)
                continue;
            const std::string key = brokenOutKey(timer, h.series);
            if (key.empty())
                continue;
            Timer &t = m_timers[key];
            if (t.buckets.empty()) {
                t.buckets = h.buckets;
            } else if (t.buckets.size() == h.buckets.size()) {
                for (std::size_t k = 0; k < t.buckets.size(); ++k)
                    t.buckets[k].count += h.buckets[k].count;
            } else {
                continue; // other bounds: the mean still counts it
            }
            t.observations += h.count;
        }
    // Gauges: their value when the window closed.
    const std::pair<const char *, const char *> gauges[] = {{kBackpressureConnections, "broker.backpressure_connections"},
                                                            {kPoolPending, "storage.pool_pending"}};
    for (const auto &[name, key] : gauges)
        if (const auto v = gaugeSum(last, name))
            addSum(key, *v);
    if (const auto v = gaugeSum(last, kPendingBytes))
        addSum("broker.pending_bytes", *v);
    else if (const auto older = gaugeSum(last, kPending))
        addSum("broker.pending_bytes", *older);
}

// The high watermark of each partition of `topic` in one scrape.
std::map<int, double> highWatermarks(const PromSnapshot &s, const std::string &topic)
{
    std::map<int, double> marks;
    for (const PromFamily &f : s.families)
        for (const PromSample &sample : f.samples) {
            if (sample.name != kMaxOffset || !std::isfinite(sample.value) || sample.label("topic") != topic)
                continue;
            const auto partition = sample.label("partition");
            if (!partition || partition->empty() || partition->size() > 7 ||
                !std::all_of(partition->begin(), partition->end(), [](char c) { return c >= '0' && c <= '9'; }))
                continue;
            double &mark = marks[std::stoi(*partition)];
            mark = std::max(mark, sample.value);
        }
    return marks;
}

void KorvetWindow::addOffsets(const PromSnapshot &first, const PromSnapshot &last, double seconds,
                              const std::string &topic)
{
    if (topic.empty() || seconds <= 0)
        return;
    const std::map<int, double> before = highWatermarks(first, topic);
    for (const auto &[partition, mark] : highWatermarks(last, topic)) {
        const auto start = before.find(partition);
        if (start == before.end() || mark < start->second)
            continue; // new since the window began, or the log was reset: no rate
        double &rate = m_partitionRates[partition];
        rate = std::max(rate, (mark - start->second) / seconds);
    }
}

void KorvetWindow::put(std::map<std::string, double> &metrics) const
{
    double total = 0, busiest = 0;
    for (const auto &[partition, rate] : m_partitionRates) {
        metrics["partitions." + std::to_string(partition) + ".records_per_s"] = rate;
        total += rate;
        busiest = std::max(busiest, rate);
    }
    if (m_partitionRates.size() >= 2 && total > 0)
        metrics["broker.partition_skew"] = busiest / (total / double(m_partitionRates.size()));
    for (const auto &[key, value] : m_sums)
        metrics[key] = value;
    for (const auto &[prefix, t] : m_timers) {
        if (t.observations > 0) {
            if (const auto p50 = histogramQuantile(0.50, t.buckets))
                metrics[prefix + "_p50_s"] = *p50;
            if (const auto p99 = histogramQuantile(0.99, t.buckets))
                metrics[prefix + "_p99_s"] = *p99;
        }
        if (t.count > 0)
            metrics[prefix + "_avg_s"] = t.sum / t.count;
    }
}

} // namespace plimsoll
