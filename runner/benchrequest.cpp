#include "runner/benchrequest.h"

#include "model/core/units.h"
#include "runner/clientproperties.h"
#include "runner/recollector.h"

#include <filesystem>
#include <sstream>

namespace plimsoll {

namespace {

// `text` read by `parse` (parseByteSize, parseDuration) into `out`, or the parser's problem
// named by the option.
template <typename Value, typename Parse>
std::string readOption(const std::string &text, const char *option, Value &out, Parse parse)
{
    std::string error;
    if (auto v = parse(text, &error)) {
        out = *v;
        return {};
    }
    return std::string(option) + ": " + error;
}

std::string bytes(const std::string &text, const char *option, int64_t &out)
{
    return readOption(text, option, out, parseByteSize);
}

std::string duration(const std::string &text, const char *option, std::chrono::nanoseconds &out)
{
    return readOption(text, option, out, parseDuration);
}

double secondsOf(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

// Sizes and durations, each read in its unit and checked against its domain.
std::string resolveSizesAndTimes(BenchRequest &a)
{
    RunConfig &r = a.config;
    for (auto problem : {bytes(a.recordSize, "--record-size", r.recordSize), bytes(a.batchSize, "--batch-size", r.batchSize),
                         bytes(a.fetchMaxBytes, "--fetch-max-bytes", r.fetchMaxBytes),
                         duration(a.linger, "--linger", r.linger), duration(a.warmup, "--warmup", r.warmup),
                         duration(a.interval, "--interval", r.interval), duration(a.timeout, "--timeout", r.timeout),
                         duration(a.p99Limit, "--p99-limit", r.p99Limit),
                         duration(a.fetchP99Limit.empty() ? std::string(a.tiered ? BenchRequest::kTieredFetchP99Limit
                                                                                : BenchRequest::kFetchP99Limit)
                                                          : a.fetchP99Limit,
                                  "--fetch-p99-limit", r.fetchP99Limit)})
        if (!problem.empty())
            return problem;
    if (!a.duration.empty()) {
        if (auto problem = duration(a.duration, "--duration", r.duration); !problem.empty())
            return problem;
        if (auto problem = BenchRequest::kDuration.check("--duration", secondsOf(r.duration)))
            return *problem;
    }
    if (auto problem = BenchRequest::kLinger.check("--linger", secondsOf(r.linger)))
        return *problem;
    if (auto problem = BenchRequest::kP99Limit.check("--p99-limit", secondsOf(r.p99Limit)))
        return *problem;
    if (auto problem = BenchRequest::kP99Limit.check("--fetch-p99-limit", secondsOf(r.fetchP99Limit)))
        return *problem;
    return {};
}

// The consume ramp's choice and backlog, and the user's --tuning entries: each one checked
// before anything runs, a key given twice refused.
std::string resolveRampAndTuning(BenchRequest &a)
{
    RunConfig &r = a.config;
    if (a.ramp != "producers" && a.ramp != "consumers")
        return "--ramp must be 'producers' or 'consumers' (got '" + a.ramp + "')";
    r.rampKind = a.ramp == "consumers" ? RampKind::Consumers : RampKind::Producers;
    r.tiered = a.tiered;
    r.s3GetMetric = a.s3GetMetric;
    if (!a.backlog.empty()) {
        if (auto problem = BenchRequest::kBacklog.checkText("--backlog", a.backlog))
            return *problem;
        r.backlog = static_cast<int64_t>(std::stod(a.backlog)); // whole, in range: checked above
    }
    return parseTuningOptions(a.tuning, r.userTuning);
}

// How much to send and how fast: records, rate, validation, clients, the probe, the steps.
std::string resolveLoad(BenchRequest &a)
{
    RunConfig &r = a.config;
    if (!a.records.empty()) {
        if (auto problem = BenchRequest::kRecords.checkText("--records", a.records))
            return *problem;
        r.records = static_cast<int64_t>(std::stod(a.records)); // whole, in range: checked above
    }
    if (!a.records.empty() && !a.duration.empty())
        return "--records and --duration exclude each other";
    if (a.rate != "unlimited") {
        // Read as every rate is read: 5000, 10k, 1.2M records/s; a bench paces records, not bytes.
        double bytesPerS = 0;
        const auto parsed = parseRate(a.rate, &bytesPerS);
        if (!parsed || bytesPerS > 0)
            return "--rate must be 'unlimited' or records/s, e.g. 5000, 10k or 1.2M (got '" + a.rate + "')";
        if (auto problem = BenchRequest::kRate.check("--rate", *parsed))
            return *problem;
        r.rate = *parsed;
        if (r.workload == Workload::Probe)
            r.probeRate = r.rate;
    }
    if (a.validate != "checksum" && a.validate != "none")
        return "--validate must be 'checksum' or 'none'";
    r.validateChecksum = a.validate == "checksum";
    if (a.clients > 0)
        r.producerClients = r.consumerClients = a.clients;
    if (r.probeRate <= 0) {
        r.rampProbe = false;
        r.probeRate = 100;
    }
    std::stringstream steps(a.steps);
    for (std::string item; std::getline(steps, item, ',');) {
        if (auto problem = BenchRequest::kStep.checkText("--steps", item))
            return *problem;
        r.steps.push_back(std::stod(item));
    }
    std::stringstream agentSteps(a.agentsSteps);
    for (std::string item; std::getline(agentSteps, item, ',');) {
        if (auto problem = BenchRequest::kAgentsStep.checkText("--agents-steps", item))
            return *problem;
        r.agentSteps.push_back(static_cast<int>(std::stod(item))); // whole, in range: checked above
    }
    return {};
}


// The ramp's collectors: Redis shards, broker metrics endpoints, the Redis Enterprise REST API
// and its credentials (never from the URL).
std::string resolveCollectors(BenchRequest &a)
{
    RunConfig &r = a.config;
    splitTargets(a.redis, r.redisShards);
    splitTargets(a.brokerMetrics, r.brokerMetricsUrls);
    splitTargets(a.reApi, r.reApiUrls);
    if ((!r.redisShards.empty() || !r.brokerMetricsUrls.empty() || !r.reApiUrls.empty())
        && r.workload != Workload::Ramp)
        return "--redis, --broker-metrics and --re-api are sampled per ramp step: use them with 'bench ramp'";
    for (const auto &url : r.brokerMetricsUrls)
        if (!isHttpUrl(url))
            return "--broker-metrics: '" + url + "' is not an http:// or https:// URL";
    for (const auto &url : r.reApiUrls) {
        if (!isHttpUrl(url))
            return "--re-api: '" + url + "' is not an http:// or https:// URL";
        if (url.find('@', url.find("://") + 3) != std::string::npos)
            return "--re-api: credentials do not belong on the command line; set PLIMSOLL_RE_USER and "
                   "PLIMSOLL_RE_PASSWORD, or plimsoll.re.user / plimsoll.re.password in --command-config";
    }
    if (!r.reApiUrls.empty()) {
        std::string problem;
        const ReCredentials credentials = reCredentials(a.commandConfig, &problem);
        if (!problem.empty())
            return "--command-config: " + problem;
        r.reUser = credentials.user;
        r.rePassword = credentials.password;
        r.reVerifyTls = credentials.verifyTls;
    }
    return {};
}

// The Java client properties of --command-config, in librdkafka's names.
std::string resolveClientConfig(BenchRequest &a, std::vector<std::string> *notices)
{
    if (a.commandConfig.empty())
        return {};
    const auto translation = ClientProperties::load(a.commandConfig).toLibrdkafka();
    if (!translation.ok())
        return "--command-config:\n" + translation.errorText();
    if (notices)
        for (const auto &notice : translation.notices)
            notices->push_back(notice.toString());
    a.config.clientConfig = translation.config;
    a.config.commandConfigPath = std::filesystem::absolute(a.commandConfig).string();
    return {};
}

} // namespace

std::string parseTuningOptions(const std::vector<std::string> &typed, std::map<std::string, std::string> &out)
{
    out.clear();
    for (const auto &one : typed) {
        std::stringstream entries(one);
        for (std::string entry; entries >> entry;) {
            std::string key, value;
            if (auto problem = parseTuningEntry(entry, &key, &value); !problem.empty())
                return problem;
            if (!out.emplace(key, value).second)
                return "--tuning " + key + " is given twice (" + out[key] + " and " + value + ")";
        }
    }
    return {};
}

void splitTargets(const std::vector<std::string> &typed, std::vector<std::string> &out)
{
    out.clear();
    for (const auto &item : typed) {
        std::stringstream list(item);
        for (std::string one; std::getline(list, one, ',');)
            if (!one.empty())
                out.push_back(one);
    }
}

bool isHttpUrl(const std::string &url) { return url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0; }

std::string resolveBenchRequest(BenchRequest &a, std::vector<std::string> *notices)
{
    for (const auto &resolve : {resolveSizesAndTimes, resolveLoad, resolveRampAndTuning, resolveCollectors})
        if (auto problem = resolve(a); !problem.empty())
            return problem;
    if (auto problem = resolveClientConfig(a, notices); !problem.empty())
        return problem;
    return a.config.validate();
}

} // namespace plimsoll
