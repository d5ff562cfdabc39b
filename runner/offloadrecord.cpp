#include "runner/offloadrecord.h"

#include "model/formats/prometheusdiff.h"
#include "model/core/units.h"
#include "runner/benchconfig.h"
#include "runner/benchrequest.h"
#include "runner/collectors.h"
#include "runner/httptext.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <thread>
#include <tuple>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;

struct Poll
{
    Clock::time_point at;
    std::vector<PrometheusScrape> scrapes; // one per broker, in the config's order
};

Poll pollAll(const OffloadRecordConfig &c)
{
    Poll p;
    for (const std::string &url : c.brokerMetricsUrls)
        p.scrapes.push_back(scrapePrometheus(url, c.scrapeTimeout));
    p.at = Clock::now();
    return p;
}

struct Lag
{
    double oldestS = 0;                // the most lagging broker's oldest waiting segment
    std::optional<double> segments;    // sealed segments waiting, summed; where exported
    bool drained() const { return oldestS <= 0 && segments.value_or(0) <= 0; }
};

// The largest finite value of a gauge in one scrape, summed instead when `sum`.
std::optional<double> gaugeOf(const PromSnapshot &s, const std::string &name, bool sum)
{
    const PromFamily *family = s.family(name);
    if (!family)
        return std::nullopt;
    std::optional<double> value;
    for (const PromSample &sample : family->samples)
        if (sample.name == name && std::isfinite(sample.value))
            value = sum ? value.value_or(0) + sample.value : std::max(value.value_or(0.0), sample.value);
    return value;
}

// The brokers' archive lag, or nullopt with what is wrong in *problem.
std::optional<Lag> maxLag(const OffloadRecordConfig &c, const Poll &p, std::string *problem)
{
    Lag lag;
    for (std::size_t i = 0; i < p.scrapes.size(); ++i) {
        const std::string where = "broker metrics " + urlWithoutUserInfo(c.brokerMetricsUrls[i]);
        if (!p.scrapes[i].error.empty()) {
            *problem = where + ": " + p.scrapes[i].error;
            return std::nullopt;
        }
        const PromSnapshot &snapshot = p.scrapes[i].snapshot;
        std::optional<double> oldest = gaugeOf(snapshot, c.names.lagOldest, false);
        if (!oldest)
            oldest = gaugeOf(snapshot, c.names.lag, false);
        if (!oldest) {
            *problem = where + " has no " + c.names.lagOldest + " (nor " + c.names.lag +
                       "): the drain cannot be told (a build that names its archive series otherwise is "
                       "read with their prefix)";
            return std::nullopt;
        }
        lag.oldestS = std::max(lag.oldestS, *oldest);
        if (const auto segments = gaugeOf(snapshot, c.names.lagSegments, true))
            lag.segments = lag.segments.value_or(0) + *segments;
    }
    return lag;
}

bool isSeriesOf(const PromRate &r, const std::string &name)
{
    return r.family == name || r.series == name || r.series.rfind(name + "{", 0) == 0;
}

// What the brokers archived between two polls, summed over them.
struct Archived
{
    double seconds = 0;
    std::optional<double> bytes, segments, messages, failures, retries;
    std::vector<PromBucket> buckets; // the archive-time histogram, summed over the brokers
    double observations = 0;
    double timedCount = 0, timedSum = 0; // the archive timer's _count and _sum deltas
    std::vector<std::string> warnings;
};

void addRates(const OffloadMetricNames &names, const PromDiff &diff, Archived &a)
{
    const std::pair<const std::string &, std::optional<double> Archived::*> counters[] = {
        {names.bytes, &Archived::bytes},       {names.segments, &Archived::segments},
        {names.messages, &Archived::messages}, {names.failures, &Archived::failures},
        {names.retries, &Archived::retries}};
    for (const PromRate &r : diff.rates) {
        for (const auto &[name, member] : counters)
            if (isSeriesOf(r, name))
                a.*member = (a.*member).value_or(0) + r.delta;
        if (r.series == names.seconds + "_count" || r.series.rfind(names.seconds + "_count{", 0) == 0)
            a.timedCount += r.delta;
        else if (r.series == names.seconds + "_sum" || r.series.rfind(names.seconds + "_sum{", 0) == 0)
            a.timedSum += r.delta;
    }
    if (const auto h = diff.mergedHistogram(names.seconds)) {
        if (a.buckets.empty())
            a.buckets = h->buckets;
        else if (a.buckets.size() == h->buckets.size())
            for (std::size_t k = 0; k < a.buckets.size(); ++k)
                a.buckets[k].count += h->buckets[k].count;
        else
            a.warnings.push_back(names.seconds + " has different buckets on the brokers: the first kept");
        a.observations += h->count;
    }
}

Archived archivedBetween(const OffloadRecordConfig &c, const Poll &from, const Poll &to)
{
    Archived a;
    a.seconds = std::chrono::duration<double>(to.at - from.at).count();
    for (std::size_t i = 0; i < from.scrapes.size(); ++i) {
        const PromDiff diff = diffSnapshots(from.scrapes[i].snapshot, to.scrapes[i].snapshot, a.seconds);
        for (const PromRate &r : diff.rates)
            if (r.reset)
                a.warnings.push_back(r.series + " went down on " + urlWithoutUserInfo(c.brokerMetricsUrls[i]) +
                                     " (the broker restarted during the drain): its later value is counted");
        addRates(c.names, diff, a);
    }
    return a;
}

// The record's scenario: the headline (archived bytes/s) and what the metrics had.
ScenarioResult offloadScenario(const Archived &a, double maxLagS, std::optional<double> maxLagSegments, int polls,
                               int partitions)
{
    ScenarioResult s;
    s.name = "pipeline/offload";
    s.kind = "offload";
    if (partitions > 0)
        s.topology.partitions = partitions;
    auto &m = s.metrics;
    m["bytes_per_s"] = *a.bytes / a.seconds;
    m["offload.archived_bytes"] = *a.bytes;
    m["offload.drain_s"] = a.seconds;
    m["offload.max_lag_s"] = maxLagS;
    if (maxLagSegments)
        m["offload.max_lag_segments"] = *maxLagSegments;
    if (a.timedCount > 0)
        m["offload.archive_avg_s"] = a.timedSum / a.timedCount;
    m["offload.polls"] = polls;
    if (a.segments) {
        m["offload.segments"] = *a.segments;
        m["offload.segments_per_s"] = *a.segments / a.seconds;
    }
    if (a.messages) {
        m["offload.archived_records"] = *a.messages;
        m["records_per_s"] = *a.messages / a.seconds;
    }
    if (a.failures)
        m["offload.failures"] = *a.failures;
    if (a.retries)
        m["offload.retries"] = *a.retries;
    if (a.observations > 0) {
        if (const auto p50 = histogramQuantile(0.50, a.buckets))
            m["offload.archive_p50_s"] = *p50;
        if (const auto p99 = histogramQuantile(0.99, a.buckets))
            m["offload.archive_p99_s"] = *p99;
    }
    return s;
}

BenchResult started(const OffloadRecordConfig &c)
{
    BenchResult r;
    r.runId = makeUuid();
    r.workload = "offload";
    r.startedAt = nowTimestamp();
    r.tuning = c.tuning;
    nlohmann::json urls = nlohmann::json::array();
    for (const std::string &url : c.brokerMetricsUrls)
        urls.push_back(urlWithoutUserInfo(url));
    r.config = {{"workload", "offload"},
                {"broker_metrics", urls},
                {"interval_s", std::chrono::duration<double>(c.interval).count()},
                {"drain_timeout_s", std::chrono::duration<double>(c.drainTimeout).count()},
                {"timeout_s", std::chrono::duration<double>(c.scrapeTimeout).count()}};
    if (c.partitions > 0)
        r.config["partitions"] = c.partitions;
    return r;
}

BenchResult &failed(BenchResult &r, std::string error)
{
    r.errors.push_back(std::move(error));
    r.exitCode = 1;
    r.partial = true;
    r.finishedAt = nowTimestamp();
    return r;
}

// What one poll saw, for a live view: archived since the poll before, and the lag now.
BenchSnapshot pollSnapshot(const OffloadRecordConfig &c, const Poll &baseline, const Poll &before, const Poll &now,
                           double lagS, double maxLagS)
{
    const Archived a = archivedBetween(c, before, now);
    BenchSnapshot s;
    s.scenario = "pipeline/offload";
    s.phase = "drain";
    s.elapsedS = std::chrono::duration<double>(now.at - baseline.at).count();
    s.intervalS = a.seconds;
    if (a.seconds > 0) {
        s.bytesPerS = std::max(0.0, a.bytes.value_or(0)) / a.seconds;
        if (a.segments)
            s.segmentsPerS = std::max(0.0, *a.segments) / a.seconds;
    }
    s.archiveLagS = lagS;
    s.progress = maxLagS > 0 ? std::clamp(1 - lagS / maxLagS, 0.0, 1.0) : 1.0;
    return s;
}

// Sleeps one interval in slices, so that a cancel is seen within 50 ms; false when cancelled.
bool waitInterval(const OffloadRecordConfig &c, const std::atomic<bool> &cancel)
{
    const auto until = Clock::now() + c.interval;
    while (Clock::now() < until) {
        if (cancel.load())
            return false;
        std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(50), until - Clock::now()));
    }
    return !cancel.load();
}

// A duration option within its domain, in milliseconds; "" or the problem.
std::string durationOption(const std::string &text, const char *option, const Domain &domain,
                           std::chrono::milliseconds *out)
{
    std::string error;
    const auto d = parseDuration(text, &error);
    if (!d)
        return std::string(option) + ": " + error;
    if (auto problem = domain.check(option, std::chrono::duration<double>(*d).count()))
        return *problem;
    *out = std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(*d));
    return {};
}

// [a-zA-Z_:][a-zA-Z0-9_:]*, the exposition format's metric names.
bool isMetricName(const std::string &name)
{
    const auto head = [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)) || ch == '_' || ch == ':'; };
    return !name.empty() && head(name[0]) &&
           std::all_of(name.begin() + 1, name.end(),
                       [&](char ch) { return head(ch) || std::isdigit(static_cast<unsigned char>(ch)); });
}

} // namespace

OffloadMetricNames::OffloadMetricNames(const std::string &prefix)
    : bytes(prefix + "_bytes_total"), segments(prefix + "_segments_total"), messages(prefix + "_messages_total"),
      seconds(prefix + "_seconds"), failures(prefix + "_failures_total"), retries(prefix + "_retries_total"),
      lagOldest(prefix + "_lag_oldest_seconds"), lagSegments(prefix + "_lag_segments"), lag(prefix + "_lag_seconds")
{
}

std::string OffloadRequest::resolve(OffloadRecordConfig *out) const
{
    OffloadRecordConfig c;
    splitTargets(brokerMetrics, c.brokerMetricsUrls);
    if (c.brokerMetricsUrls.empty())
        return "bench offload reads the brokers' /metrics: give --broker-metrics URL";
    for (const std::string &url : c.brokerMetricsUrls)
        if (!isHttpUrl(url))
            return "--broker-metrics: '" + urlWithoutUserInfo(url) + "' is not an http:// or https:// URL";
    const std::tuple<const std::string &, const char *, const Domain &, std::chrono::milliseconds *> durations[] = {
        {interval, "--interval", kInterval, &c.interval},
        {drainTimeout, "--drain-timeout", kDrainTimeout, &c.drainTimeout},
        {timeout, "--timeout", kTimeout, &c.scrapeTimeout}};
    for (const auto &[text, option, domain, target] : durations)
        if (std::string problem = durationOption(text, option, domain, target); !problem.empty())
            return problem;
    if (std::string problem = parseTuningOptions(tuning, c.tuning); !problem.empty())
        return problem;
    if (!isMetricName(archivePrefix))
        return "--archive-prefix: '" + archivePrefix + "' is not a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)";
    c.names = OffloadMetricNames(archivePrefix);
    if (partitions != 0) {
        if (auto problem = kPartitions.check("--partitions", partitions))
            return *problem;
        c.partitions = partitions;
    }
    *out = std::move(c);
    return {};
}

BenchResult runOffloadRecord(const OffloadRecordConfig &c, const std::atomic<bool> &cancel,
                             const std::function<void(const BenchSnapshot &)> &sink)
{
    BenchResult r = started(c);
    if (c.brokerMetricsUrls.empty())
        return failed(r, "the offload record reads the brokers' metrics: no broker metrics URL was given");
    const Poll baseline = pollAll(c);
    std::string problem;
    const auto lag0 = maxLag(c, baseline, &problem);
    if (!lag0)
        return failed(r, "at the baseline: " + problem);
    double maxLagS = lag0->oldestS;
    std::optional<double> maxLagSegments = lag0->segments;
    std::optional<Poll> firstZero;
    std::optional<Poll> previous; // the last poll that read the lag, for the sink's rates
    if (sink)
        previous = baseline;
    int polls = 1;
    const auto deadline = baseline.at + c.drainTimeout;
    for (;;) {
        if (!waitInterval(c, cancel)) {
            r.interrupted = r.partial = true;
            r.exitCode = kExitInterrupted;
            r.warnings.push_back("interrupted before the archive lag was zero twice in a row: no record");
            r.finishedAt = nowTimestamp();
            return r;
        }
        Poll p = pollAll(c);
        ++polls;
        const auto lag = maxLag(c, p, &problem);
        if (!lag) {
            r.warnings.push_back("poll " + std::to_string(polls) + ": " + problem + " (polled again)");
        } else {
            maxLagS = std::max(maxLagS, lag->oldestS);
            if (lag->segments)
                maxLagSegments = std::max(maxLagSegments.value_or(0.0), *lag->segments);
            if (sink) {
                sink(pollSnapshot(c, baseline, *previous, p, lag->oldestS, maxLagS));
                previous = p;
            }
            if (!lag->drained())
                firstZero.reset();
            else if (firstZero)
                break; // zero twice in a row: the stable zero-lag snapshot
            else
                firstZero = std::move(p);
        }
        if (Clock::now() > deadline)
            return failed(r, "the archive lag was not zero twice in a row within the drain timeout of " +
                                 std::to_string(std::chrono::duration_cast<std::chrono::seconds>(c.drainTimeout).count()) +
                                 " s (largest seen " + std::to_string(maxLagS) + " s): a longer drain timeout may see it");
    }
    Archived archived = archivedBetween(c, baseline, *firstZero);
    for (std::string &w : archived.warnings)
        r.warnings.push_back(std::move(w));
    if (!archived.bytes)
        return failed(r, "the broker metrics have no " + c.names.bytes + ": no archived bytes to record");
    if (*archived.bytes <= 0 || archived.seconds <= 0)
        return failed(r, "nothing was archived between the baseline and the zero-lag snapshot (archive lag " +
                             std::to_string(lag0->oldestS) + " s at the baseline): start the record before the "
                             "backlog drains");
    r.scenarios.push_back(offloadScenario(archived, maxLagS, maxLagSegments, polls, c.partitions));
    r.finishedAt = nowTimestamp();
    return r;
}

} // namespace plimsoll
