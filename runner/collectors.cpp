#include "runner/collectors.h"
#include "runner/httptext.h"
#include "runner/korvetmetrics.h"

#include "model/formats/prometheusdiff.h"


#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <tuple>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;

std::string utcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

int remainingMs(Clock::time_point deadline)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return static_cast<int>(std::max<long long>(0, left));
}

// A connected TCP socket to host:port before `deadline`, or -1 with `error` set.
int connectTo(const std::string &hostPort, Clock::time_point deadline, std::string &error)
{
    const auto colon = hostPort.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == hostPort.size()) {
        error = "'" + hostPort + "' is not HOST:PORT";
        return -1;
    }
    std::string host = hostPort.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    if (int rc = ::getaddrinfo(host.c_str(), hostPort.c_str() + colon + 1, &hints, &found); rc != 0) {
        error = hostPort + ": " + ::gai_strerror(rc);
        return -1;
    }
    int fd = -1;
    for (addrinfo *a = found; a && fd < 0; a = a->ai_next) {
        fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0)
            continue;
        if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
            ::close(fd);
            fd = -1;
            continue;
        }
        pollfd p{fd, POLLOUT, 0};
        int soError = 0;
        socklen_t len = sizeof soError;
        if (::poll(&p, 1, remainingMs(deadline)) != 1 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len) != 0
            || soError != 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ::freeaddrinfo(found);
    if (fd < 0)
        error = hostPort + ": cannot connect";
    return fd;
}

// A broker's process CPU over the window as a fraction of its cores (system_cpu_count, one
// when it is not exported); nullopt without process_cpu_seconds_total.
std::optional<double> brokerCpu(const PromDiff &diff, const PromSnapshot &last)
{
    for (const auto &rate : diff.rates)
        if (rate.family == "process_cpu_seconds_total" || rate.series == "process_cpu_seconds_total") {
            double cores = 1;
            if (const auto *count = last.family("system_cpu_count");
                count && !count->samples.empty() && count->samples.front().value >= 1)
                cores = count->samples.front().value;
            return rate.perSecond / cores;
        }
    return std::nullopt;
}

} // namespace

std::optional<double> redisCpuSeconds(const std::string &infoText)
{
    std::optional<double> sys, user;
    std::istringstream lines(infoText);
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        const std::string key = line.substr(0, colon);
        if (key != "used_cpu_sys" && key != "used_cpu_user")
            continue;
        char *end = nullptr;
        const double value = std::strtod(line.c_str() + colon + 1, &end);
        if (end == line.c_str() + colon + 1 || !std::isfinite(value))
            continue;
        (key == "used_cpu_sys" ? sys : user) = value;
    }
    if (!sys || !user)
        return std::nullopt;
    return *sys + *user;
}

RedisCpuSample sampleRedisCpu(const std::string &hostPort, std::chrono::milliseconds timeout)
{
    RedisCpuSample sample;
    const auto deadline = Clock::now() + timeout;
    const int fd = connectTo(hostPort, deadline, sample.error);
    if (fd < 0)
        return sample;
    // An inline command: no AUTH, as the seed's shard endpoints in a test rig; a server that
    // asks for a password answers -NOAUTH, reported below as the error it is.
    const std::string request = "INFO cpu\r\n";
    std::string reply;
    bool sent = ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size());
    // RESP bulk string: "$<length>\r\n<payload>\r\n"; read until the payload is complete.
    for (std::size_t need = 0; sent;) {
        const auto header = reply.find("\r\n");
        if (header != std::string::npos) {
            if (reply[0] != '$') {
                sample.error = hostPort + ": INFO answered " + reply.substr(0, header);
                break;
            }
            need = header + 2 + static_cast<std::size_t>(std::max(0L, std::strtol(reply.c_str() + 1, nullptr, 10)));
            if (reply.size() >= need) {
                if (auto cpu = redisCpuSeconds(reply.substr(header + 2, need - header - 2)))
                    sample.cpuSeconds = *cpu;
                else
                    sample.error = hostPort + ": INFO cpu has no used_cpu_sys / used_cpu_user";
                ::close(fd);
                return sample;
            }
        }
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, remainingMs(deadline)) != 1)
            break;
        char buffer[4096];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0)
            break;
        reply.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (sample.error.empty())
        sample.error = hostPort + ": no complete INFO reply within " + std::to_string(timeout.count()) + " ms";
    return sample;
}

PrometheusScrape scrapePrometheus(const std::string &url, std::chrono::milliseconds timeout)
{
    PrometheusScrape scrape;
    HttpGetOptions get;
    get.timeout = timeout;
    const HttpGetResult response = httpGet(url, get);
    if (!response.error.empty()) {
        scrape.error = urlWithoutUserInfo(url) + ": " + response.error;
        return scrape;
    }
    const std::string &body = response.body;
    PromParseResult parsed = parsePrometheusText(body);
    if (parsed.error)
        scrape.error = urlWithoutUserInfo(url) + ": line " + std::to_string(parsed.error->line) + ": " + parsed.error->message;
    else if (parsed.snapshots.empty())
        scrape.error = urlWithoutUserInfo(url) + ": no metrics in the response";
    else
        scrape.snapshot = std::move(parsed.snapshots.back());
    return scrape;
}

StepCollectors::StepCollectors(std::vector<std::string> redisShards, std::vector<std::string> brokerMetricsUrls,
                               std::string latencyHistogram, std::chrono::milliseconds timeout)
    : m_redis(std::move(redisShards)), m_brokers(std::move(brokerMetricsUrls)),
      m_histogram(std::move(latencyHistogram)), m_timeout(timeout)
{
}

void StepCollectors::setRedisEnterprise(std::vector<std::string> baseUrls, ReCredentials credentials)
{
    m_re = std::move(baseUrls);
    m_reCredentials = std::move(credentials);
}

StepCollectors::~StepCollectors()
{
    if (m_beginThread.joinable())
        m_beginThread.join();
}

StepCollectors::Sample StepCollectors::sample() const
{
    Sample s;
    s.at = Clock::now();
    s.utc = utcNow();
    for (const auto &target : m_redis)
        s.redis.push_back(sampleRedisCpu(target, m_timeout));
    for (const auto &url : m_brokers)
        s.brokers.push_back(scrapePrometheus(url, m_timeout));
    // The REST API reports rates per interval, not counters: the first sample only proves the
    // endpoint answers; end() asks for the intervals between the two samples.
    for (const auto &url : m_re)
        s.re.push_back(fetchReShardStats(url, m_reCredentials, m_timeout, m_begin ? m_begin->utc : std::string(),
                                         m_begin ? s.utc : std::string()));
    // The window runs from the middle of one round of samples to the middle of the next.
    s.at += (Clock::now() - s.at) / 2;
    return s;
}

void StepCollectors::beginAt(Clock::time_point at, const std::atomic<bool> *cancel,
                             std::optional<Clock::time_point> closeAt)
{
    if (empty())
        return;
    m_beginThread = std::thread([this, at, cancel, closeAt] {
        const auto stopped = [&] { return (cancel && cancel->load()) || m_ending.load(); };
        while (Clock::now() < at) {
            if (stopped())
                return;
            std::this_thread::sleep_for(std::min<Clock::duration>(at - Clock::now(), std::chrono::milliseconds(50)));
        }
        m_begin = sample();
        if (!closeAt)
            return;
        while (Clock::now() < *closeAt && !stopped())
            std::this_thread::sleep_for(std::min<Clock::duration>(*closeAt - Clock::now(), std::chrono::milliseconds(50)));
        m_last = sample();
    });
}

StepServerMetrics StepCollectors::end()
{
    StepServerMetrics out;
    m_ending = true;
    if (m_beginThread.joinable())
        m_beginThread.join();
    if (empty())
        return out;
    if (!m_begin) {
        out.warnings.push_back("collectors: the step ended before its measured window began; no server metrics");
        return out;
    }
    const Sample last = m_last ? *m_last : sample();
    const double seconds = std::chrono::duration<double>(last.at - m_begin->at).count();
    if (!(seconds > 0))
        return out;
    addShardCpu(last, seconds, out);
    addBrokerMetrics(last, seconds, out);
    out.metrics["collectors.window_s"] = seconds;
    return out;
}

// The hottest shard's CPU, over Redis INFO and the Redis Enterprise REST API alike.
void StepCollectors::addShardCpu(const Sample &last, double seconds, StepServerMetrics &out) const
{
    std::optional<double> hottest;
    for (std::size_t i = 0; i < m_redis.size(); ++i) {
        const auto &a = m_begin->redis[i], &b = last.redis[i];
        if (!a.error.empty() || !b.error.empty()) {
            out.warnings.push_back("collectors: Redis " + (a.error.empty() ? b.error : a.error));
            continue;
        }
        const double cpu = std::max(0.0, b.cpuSeconds - a.cpuSeconds) / seconds;
        hottest = std::max(hottest.value_or(0.0), cpu);
    }
    for (std::size_t i = 0; i < m_re.size(); ++i) {
        const auto &a = m_begin->re[i], &b = last.re[i];
        if (!a.error.empty() || !b.error.empty()) {
            out.warnings.push_back("collectors: Redis Enterprise " + (a.error.empty() ? b.error : a.error));
            continue;
        }
        for (const auto &[shard, cpu] : b.cpuByShard)
            hottest = std::max(hottest.value_or(0.0), cpu);
    }
    if (hottest)
        out.metrics["shard_cpu_max"] = *hottest;
}

namespace {

// Korvet's fetch path (its broker's /metrics): responses that carried records (the consume
// side's saturation signal), every fetch request with its long-poll waits, the empty polls,
// and the messages each storage tier served.
constexpr const char *kFetchDelivery = "korvet_broker_fetch_delivery_seconds";
constexpr const char *kFetch = "korvet_broker_fetch_seconds";
constexpr const char *kFetchEmpty = "korvet_broker_fetch_empty_total";
constexpr const char *kStorageReads = "korvet_storage_read_messages";
// The generation before the "broker" segment (korvet-dist's dashboard queries these).
constexpr const char *kOlderProduce = "korvet_produce_seconds";
constexpr const char *kOlderFetch = "korvet_fetch_seconds";

// One histogram family summed over the brokers' windows (the same bucket bounds on each).
struct MergedHistogram
{
    std::vector<PromBucket> buckets;
    double observations = 0;

    // False when `h` has other bounds than the brokers added before it.
    bool add(const PromHistogramWindow &h)
    {
        if (buckets.empty()) {
            buckets = h.buckets;
        } else if (buckets.size() == h.buckets.size()) {
            for (std::size_t k = 0; k < buckets.size(); ++k)
                buckets[k].count += h.buckets[k].count;
        } else {
            return false;
        }
        observations += h.count;
        return true;
    }
    // <prefix>_p50_s, <prefix>_p99_s and <prefix>_requests of the window, when it observed any.
    void put(const std::string &prefix, StepServerMetrics &out) const
    {
        if (observations <= 0)
            return;
        if (auto p50 = histogramQuantile(0.50, buckets))
            out.metrics[prefix + "_p50_s"] = *p50;
        if (auto p99 = histogramQuantile(0.99, buckets))
            out.metrics[prefix + "_p99_s"] = *p99;
        out.metrics[prefix + "_requests"] = observations;
    }
};

} // namespace

// The brokers' average CPU; their produce and fetch latencies from the histograms summed over
// them; the empty long polls per second and the messages read from the remote tier.
void StepCollectors::addBrokerMetrics(const Sample &last, double seconds, StepServerMetrics &out) const
{
    double cpuSum = 0;
    int cpuCount = 0;
    // The earlier generation's histogram stands in where a broker lacks the documented one.
    const std::tuple<std::string, std::string, std::string> families[] = {
        {m_histogram, kOlderProduce, "broker.produce"},
        {kFetchDelivery, "", "broker.fetch_delivery"},
        {kFetch, kOlderFetch, "broker.fetch"}};
    std::map<std::string, MergedHistogram> merged;
    std::optional<double> emptyPerS, remoteReads, s3GetPerS;
    KorvetWindow korvet;
    std::vector<bool> found(korvetSeries().size(), false);
    int scraped = 0;
    for (std::size_t i = 0; i < m_brokers.size(); ++i) {
        const auto &a = m_begin->brokers[i], &b = last.brokers[i];
        if (!a.error.empty() || !b.error.empty()) {
            out.warnings.push_back("collectors: broker metrics " + (a.error.empty() ? b.error : a.error));
            continue;
        }
        ++scraped;
        const PromDiff diff = diffSnapshots(a.snapshot, b.snapshot, seconds);
        if (const auto cpu = brokerCpu(diff, b.snapshot)) {
            cpuSum += *cpu;
            ++cpuCount;
        }
        for (const auto &[family, older, prefix] : families) {
            auto h = diff.mergedHistogram(family);
            if (!h && !older.empty() && family != older)
                h = diff.mergedHistogram(older);
            if (h && !merged[prefix].add(*h))
                out.warnings.push_back("collectors: " + h->family + " has different buckets on " +
                                       urlWithoutUserInfo(m_brokers[i]) + "; left out of " + prefix);
        }
        korvet.add(diff, b.snapshot);
        korvet.addOffsets(a.snapshot, b.snapshot, seconds, m_topic);
        for (std::size_t k = 0; k < found.size(); ++k)
            found[k] = found[k] || hasKorvetSeries(b.snapshot, korvetSeries()[k]);
        for (const PromRate &r : diff.rates) {
            if (r.family == kFetchEmpty)
                emptyPerS = emptyPerS.value_or(0) + r.perSecond;
            if (!m_s3Get.empty() && (r.family == m_s3Get || r.series == m_s3Get ||
                                     r.series.rfind(m_s3Get + "{", 0) == 0))
                s3GetPerS = s3GetPerS.value_or(0) + r.perSecond;
            if (r.family == kStorageReads && r.series.rfind(std::string(kStorageReads) + "_sum", 0) == 0 &&
                r.series.find("tier=\"remote\"") != std::string::npos)
                remoteReads = remoteReads.value_or(0) + r.delta;
        }
    }
    if (cpuCount > 0)
        out.metrics["broker_cpu_avg"] = cpuSum / cpuCount;
    else if (!m_brokers.empty())
        out.warnings.push_back("collectors: no process_cpu_seconds_total from the broker metrics endpoints");
    for (const auto &[family, older, prefix] : families)
        if (const auto it = merged.find(prefix); it != merged.end())
            it->second.put(prefix, out);
    korvet.put(out.metrics);
    if (scraped > 0)
        for (std::size_t k = 0; k < found.size(); ++k) {
            const KorvetSeries &series = korvetSeries()[k];
            if (found[k])
                out.seriesFound.push_back(series.name);
            else if (std::string(series.generation) != "older")
                out.seriesMissing.push_back(series.name);
        }
    if (emptyPerS)
        out.metrics["broker.fetch_empty_per_s"] = *emptyPerS;
    if (remoteReads)
        out.metrics["broker.remote_read_messages"] = *remoteReads;
    if (s3GetPerS)
        out.metrics["broker.s3_get_per_s"] = *s3GetPerS;
    else if (!m_s3Get.empty() && !m_brokers.empty())
        out.warnings.push_back("collectors: no counter " + m_s3Get + " in the broker metrics");
}

std::vector<std::string> korvetEndpointWarnings(const std::vector<std::string> &brokerMetricsUrls,
                                                std::chrono::milliseconds timeout)
{
    std::vector<std::string> warnings;
    for (const std::string &url : brokerMetricsUrls) {
        const PrometheusScrape scrape = scrapePrometheus(url, timeout);
        if (scrape.error.empty() && !hasAnyKorvetFamily(scrape.snapshot))
            warnings.push_back("broker metrics " + urlWithoutUserInfo(url) +
                               " have no Korvet series (korvet_broker_*, korvet_storage_*, or the earlier "
                               "korvet_produce_*): this is not a Korvet, or a Korvet build whose metric names "
                               "are not known here; its back-pressure, connection pool and storage latencies "
                               "are not read");
    }
    return warnings;
}

} // namespace plimsoll
