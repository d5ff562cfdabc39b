#include "runner/benchresult.h"

#include "model/formats/benchrunrecord.h"

#include <plimsoll/version.h>

#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace plimsoll {

std::string BenchAdjustment::text() const
{
    return setting + ": " + used + " instead of " + asked + (why.empty() ? "" : " (" + why + ")");
}

namespace {

nlohmann::json adjustmentsJson(const std::vector<BenchAdjustment> &adjustments)
{
    nlohmann::json out = nlohmann::json::array();
    for (const BenchAdjustment &a : adjustments)
        out.push_back({{"setting", a.setting}, {"asked", a.asked}, {"used", a.used}, {"why", a.why}});
    return out;
}

// JSON has no NaN or infinity; a value that is not finite is left out rather than lied about.
void putFinite(nlohmann::json &j, const std::string &key, double value)
{
    if (std::isfinite(value))
        j[key] = value;
}

std::string fixed(double value, int decimals)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string ms(double seconds) { return fixed(seconds * 1e3, 2) + " ms"; }

} // namespace

nlohmann::json BenchSnapshot::toJson() const
{
    nlohmann::json j = {{"type", "interval"}, {"scenario", scenario}, {"phase", phase},
                        {"sent", sent},       {"acked", acked},       {"consumed", consumed},
                        {"errors", errors},   {"queued", queued}};
    putFinite(j, "elapsed_s", elapsedS);
    putFinite(j, "interval_s", intervalS);
    putFinite(j, "produced_per_s", producedPerS);
    putFinite(j, "consumed_per_s", consumedPerS);
    putFinite(j, "bytes_per_s", bytesPerS);
    putFinite(j, "ack_p50_s", ackP50S);
    putFinite(j, "ack_p99_s", ackP99S);
    putFinite(j, "e2e_p50_s", e2eP50S);
    putFinite(j, "e2e_p99_s", e2eP99S);
    if (progress >= 0)
        putFinite(j, "progress", progress);
    if (brokerRttAvgS > 0)
        putFinite(j, "broker_rtt_avg_s", brokerRttAvgS);
    if (archiveLagS >= 0)
        putFinite(j, "archive_lag_s", archiveLagS);
    if (segmentsPerS >= 0)
        putFinite(j, "segments_per_s", segmentsPerS);
    return j;
}

nlohmann::json ScenarioResult::toJson() const
{
    nlohmann::json metricsJson = nlohmann::json::object();
    for (const auto &[name, value] : metrics)
        putFinite(metricsJson, name, value);
    nlohmann::json j = {{"name", name},
                        {"kind", kind},
                        {"topology", topology.toJson()},
                        {"metrics", metricsJson},
                        {"histograms", histograms}};
    if (!bottleneck.empty() || saturated) {
        j["saturated"] = saturated;
        j["bottleneck"] = bottleneck;
    }
    if (!seriesFound.empty() || !seriesMissing.empty())
        j["korvet_series"] = {{"found", seriesFound}, {"missing", seriesMissing}};
    return j;
}

nlohmann::json BenchResult::toJson() const
{
    nlohmann::json scenariosJson = nlohmann::json::array();
    for (const auto &s : scenarios)
        scenariosJson.push_back(s.toJson());
    nlohmann::json j = {
        {"type", "result"},
        {"format", "plimsoll-bench/1"},
        {"run_id", runId},
        {"workload", workload},
        {"target", {{"bootstrap_servers", bootstrapServers}, {"embedded", embedded}}},
        {"topic", {{"name", topic}, {"created", topicCreated}, {"deleted", topicDeleted}}},
        {"started_at", startedAt},
        {"finished_at", finishedAt},
        {"status", status()},
        {"partial", partial},
        {"interrupted", interrupted},
        {"exit_code", exitCode},
        {"errors", errors},
        {"warnings", warnings},
        {"adjustments", adjustmentsJson(adjustments)},
        {"tuning", tuning},
        {"config", config},
        {"scenarios", scenariosJson},
    };
    if (interrupted)
        j["in_flight"] = {{"sent_not_acknowledged", inFlightUnacknowledged},
                          {"acknowledged_not_consumed", inFlightUnconsumed}};
    if (!agent.empty())
        j["agent"] = agent;
    if (!agents.empty())
        j["agents"] = agents;
    j["tool_version"] = kVersion; // so an imported result file names the Plimsoll that wrote it
    if (embedded)
        j["target"]["note"] = "librdkafka's in-process mock cluster, not a real broker: the numbers describe the "
                              "client, not a broker";
    return j;
}

std::string BenchResult::status() const
{
    if (exitCode == 0 && !partial)
        return "ok";
    // A failure seen before the stop stays a failure; a stop alone is an interruption.
    return interrupted && exitCode == kExitInterrupted ? "interrupted" : "failed";
}

RunRecord BenchResult::toRunRecord(const std::string &toolVersion) const
{
    // Through the document, so the stored run and the same run imported from its result
    // file (importers/plimsoll/benchresultimporter.cpp) are one mapping.
    return benchRunRecordFromJson(toJson(), toolVersion);
}

namespace {

// The offload record for people: the headline first, then what the metrics had.
std::string offloadText(const ScenarioResult &s)
{
    const auto m = [&](const std::string &name) {
        auto it = s.metrics.find(name);
        return it == s.metrics.end() ? std::nan("") : it->second;
    };
    std::ostringstream out;
    out << "  " << s.name << ": archived " << fixed(m("bytes_per_s") / 1048576.0, 2) << " MiB/s";
    if (std::isfinite(m("offload.segments_per_s")))
        out << ", " << fixed(m("offload.segments_per_s"), 2) << " segments/s";
    if (std::isfinite(m("records_per_s")))
        out << ", " << fixed(m("records_per_s"), 0) << " records/s";
    out << "; drained in " << fixed(m("offload.drain_s"), 1) << " s, archive lag at most "
        << fixed(m("offload.max_lag_s"), 1) << " s\n";
    if (std::isfinite(m("offload.archive_p99_s")))
        out << "    archive p50 " << ms(m("offload.archive_p50_s")) << ", p99 " << ms(m("offload.archive_p99_s")) << "\n";
    for (const char *name : {"offload.failures", "offload.retries"})
        if (std::isfinite(m(name)))
            out << "    " << std::string(name).substr(8) << " " << fixed(m(name), 0) << "\n";
    return out.str();
}

} // namespace

namespace {

// A fleet's agents, one line each: what each sent, so that a lagging client node shows.
std::string agentsText(const nlohmann::json &agents)
{
    std::ostringstream out;
    out << "  agents:\n";
    for (const auto &a : agents) {
        out << "    agent " << a.value("index", -1) << "  " << a.value("status", "") << "  ";
        if (a.contains("records_per_s"))
            out << fixed(a["records_per_s"].get<double>(), 0) << " records/s";
        if (a.contains("latency_p99_s"))
            out << ", p99 " << ms(a["latency_p99_s"].get<double>());
        if (a.contains("start_late_s"))
            out << ", started " << ms(a["start_late_s"].get<double>()) << " after the instant";
        out << "\n";
    }
    return out.str();
}

} // namespace

std::string BenchResult::toText() const
{
    std::ostringstream out;
    if (embedded)
        out << "NOTE: embedded target (librdkafka's mock cluster, in process) - not a real broker;\n"
               "      these numbers describe the client, not a broker.\n";
    if (workload == "offload")
        out << "plimsoll bench offload  run " << runId << "\n";
    else
        out << "plimsoll bench " << workload << "  run " << runId << "  topic " << topic
            << (topicCreated ? " (created" : " (existing") << (topicDeleted ? ", deleted)" : ")") << "\n";
    for (const auto &s : scenarios) {
        if (s.kind == "offload") {
            out << offloadText(s);
            continue;
        }
        const auto m = [&](const std::string &name) {
            auto it = s.metrics.find(name);
            return it == s.metrics.end() ? std::nan("") : it->second;
        };
        out << "  " << s.name << ": " << fixed(m("records_per_s"), 0) << " records/s, "
            << fixed(m("bytes_per_s") / 1048576.0, 2) << " MiB/s";
        if (std::isfinite(m("latency_p99_s")))
            out << ", p50 " << ms(m("latency_p50_s")) << ", p99 " << ms(m("latency_p99_s")) << ", max "
                << ms(m("latency_max_s"));
        if (std::isfinite(m("e2e_p99_s")))
            out << ", e2e p99 " << ms(m("e2e_p99_s"));
        out << ", errors " << fixed(m("errors"), 0) << "\n";
        for (const char *name : {"roundtrip.matched", "roundtrip.duplicate", "roundtrip.invalid", "roundtrip.missing"})
            if (std::isfinite(m(name)))
                out << "    " << std::string(name).substr(10) << " " << fixed(m(name), 0) << "\n";
        if (std::isfinite(m("consumer.lag_end"))) {
            out << "    lag " << fixed(m("consumer.lag_start"), 0) << " -> " << fixed(m("consumer.lag_end"), 0)
                << " records";
            if (std::isfinite(m("consumer.fetch_p99_s")))
                out << ", fetch p99 " << ms(m("consumer.fetch_p99_s"));
            if (std::isfinite(m("consumer.rebalance_s")))
                out << ", rebalance " << fixed(m("consumer.rebalance_s"), 2) << " s";
            out << "\n";
        }
        if (std::isfinite(m("roundtrip.in_flight")))
            out << "    in flight " << fixed(m("roundtrip.in_flight"), 0) << " (acknowledged, not consumed when stopped)\n";
        if (s.kind == "ramp-step" && s.topology.agents.value_or(0) > 1) { // a fleet ramp's step
            out << "    agents' records/s:";
            for (int64_t i = 0; i < *s.topology.agents; ++i)
                out << (i ? ", " : " ") << fixed(m("agents." + std::to_string(i) + ".records_per_s"), 0);
            out << "\n";
        }
        if (std::isfinite(m("broker.partition_skew"))) {
            // The busiest partition of the topic by its high watermark's advance.
            int partitions = 0, busiest = -1;
            for (const auto &[name, value] : s.metrics)
                if (name.rfind("partitions.", 0) == 0 && name.size() >= 26 &&
                    name.compare(name.size() - 14, 14, ".records_per_s") == 0) {
                    ++partitions;
                    const int p = std::atoi(name.c_str() + 11);
                    if (busiest < 0 || value > m("partitions." + std::to_string(busiest) + ".records_per_s"))
                        busiest = p;
                }
            out << "    partitions: " << partitions << ", busiest " << busiest << " at "
                << fixed(m("partitions." + std::to_string(busiest) + ".records_per_s"), 0)
                << " records/s, max/mean " << fixed(m("broker.partition_skew"), 2) << "\n";
        }
        if (!s.seriesFound.empty() || !s.seriesMissing.empty()) {
            out << "    Korvet series: " << s.seriesFound.size() << " found, " << s.seriesMissing.size() << " missing";
            for (std::size_t i = 0; i < s.seriesMissing.size(); ++i)
                out << (i ? ", " : " (") << s.seriesMissing[i];
            out << (s.seriesMissing.empty() ? "\n" : ")\n");
        }
        if (s.saturated)
            out << "    saturated: " << s.bottleneck << "\n";
    }
    if (!agents.empty())
        out << agentsText(agents);
    for (const auto &w : warnings)
        out << "warning: " << w << "\n";
    for (const auto &e : errors)
        out << "error: " << e << "\n";
    const std::string verdict = status();
    out << (verdict == "ok"            ? "result: ok"
            : verdict == "interrupted" ? "result: INTERRUPTED (partial result kept)"
            : partial                  ? "result: FAILED (partial result kept)"
                                       : "result: FAILED")
        << "\n";
    return out.str();
}

std::string prometheusText(const BenchSnapshot &s, const std::string &runId, const std::string &workload)
{
    std::ostringstream out;
    const std::string labels = "{run_id=\"" + runId + "\",workload=\"" + workload + "\"}";
    const auto gauge = [&](const char *name, const char *help, double value) {
        out << "# HELP plimsoll_bench_" << name << " " << help << "\n# TYPE plimsoll_bench_" << name << " gauge\n"
            << "plimsoll_bench_" << name << labels << " " << (std::isfinite(value) ? value : 0.0) << "\n";
    };
    gauge("elapsed_seconds", "Seconds since the run started.", s.elapsedS);
    gauge("produced_records_per_second", "Acknowledged records/s in the last interval.", s.producedPerS);
    gauge("consumed_records_per_second", "Consumed records/s in the last interval.", s.consumedPerS);
    gauge("bytes_per_second", "Bytes/s in the last interval.", s.bytesPerS);
    gauge("ack_latency_p99_seconds", "Send-to-ack p99 from the scheduled send time, last interval.", s.ackP99S);
    gauge("e2e_latency_p99_seconds", "End-to-end p99 from the scheduled send time, last interval.", s.e2eP99S);
    gauge("sent_records", "Records sent so far.", static_cast<double>(s.sent));
    gauge("acknowledged_records", "Records acknowledged so far.", static_cast<double>(s.acked));
    gauge("consumed_records", "Records consumed so far.", static_cast<double>(s.consumed));
    gauge("errors", "Errors so far.", static_cast<double>(s.errors));
    gauge("queued_records", "Records in the producers' local queues.", static_cast<double>(s.queued));
    // The standard process counter, so one bench's /metrics can stand in for a broker's in a
    // second bench's --broker-metrics collector (and a scraper sees the client's own CPU).
    rusage usage{};
    if (::getrusage(RUSAGE_SELF, &usage) == 0) {
        const auto secondsOf = [](const timeval &t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
        out << "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n"
               "# TYPE process_cpu_seconds_total counter\n"
               "process_cpu_seconds_total "
            << secondsOf(usage.ru_utime) + secondsOf(usage.ru_stime) << "\n";
    }
    return out.str();
}

} // namespace plimsoll
