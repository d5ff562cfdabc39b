// The fleet's result from its agents' documents: counts summed, rates over the common window,
// histograms added count by count and the latency figures read from the sums.
#include "runner/fleet.h"

#include "runner/latency.h"

#include <QByteArray>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>

namespace plimsoll {

namespace {

// Figures that are not added across agents: the longest one is the fleet's.
const std::set<std::string> kLongest = {"producer.measured_s", "clients.startup_s"};

// What a histogram's figures are called in a scenario's metrics (phasegroup.cpp writes them).
bool isLatencyFigure(const std::string &name)
{
    for (const char *prefix : {"latency_", "producer.latency_", "producer.service_", "e2e.latency_"})
        if (name.rfind(prefix, 0) == 0)
            return true;
    return name == "ack_p99_s" || name == "e2e_p99_s";
}

std::string fixed(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string agentName(int index) { return "agent " + std::to_string(index); }

// Why an agent gave no usable result, or "" when it did.
std::string absence(const AgentReport &a)
{
    if (a.unreported)
        return agentName(a.index) + " reported nothing: " + a.problem;
    if (!a.started)
        return agentName(a.index) + " did not start" + (a.problem.empty() ? "" : ": " + a.problem);
    if (a.late)
        return agentName(a.index) + " reported late: it was still running after the others had finished, and "
               "was stopped";
    if (a.result.is_object())
        return {};
    if (a.exitCode < 0 && a.signal == 0) // neither an exit nor a signal of its own: ended from outside
        return agentName(a.index) + " ended before reporting its result" + (a.problem.empty() ? "" : ": " + a.problem);
    std::string how = a.signal > 0 ? "was killed by signal " + std::to_string(a.signal)
                                   : "exited with code " + std::to_string(a.exitCode);
    return agentName(a.index) + " " + how + " before reporting its result"
         + (a.problem.empty() ? "" : " (its last words: " + a.problem + ")");
}

// One scenario merged across the agents that reported it.
class ScenarioMerge
{
public:
    explicit ScenarioMerge(const nlohmann::json &first)
    {
        m_out.name = first.value("name", "");
        m_out.kind = first.value("kind", "benchmark");
        m_out.topology = Topology::fromJson(first.value("topology", nlohmann::json::object()));
        m_out.topology.producers.reset();
        m_out.topology.consumers.reset();
    }

    // False, with *error set, when a histogram of the agent's does not decode.
    bool add(const nlohmann::json &scenario, std::string *error)
    {
        const Topology t = Topology::fromJson(scenario.value("topology", nlohmann::json::object()));
        for (auto field : {&Topology::producers, &Topology::consumers})
            if (t.*field)
                m_out.topology.*field = (m_out.topology.*field).value_or(0) + *(t.*field);
        const auto metrics = scenario.value("metrics", nlohmann::json::object());
        const double window = metrics.value("producer.measured_s", 0.0);
        for (const auto &[name, value] : metrics.items()) {
            if (!value.is_number() || isLatencyFigure(name))
                continue;
            const double v = value.get<double>();
            if (kLongest.count(name))
                m_out.metrics[name] = std::max(m_out.metrics[name], v);
            else if ((name == "records_per_s" || name == "bytes_per_s") && window > 0)
                m_amounts[name] += v * window; // records (bytes) measured: a rate over the common window below
            else
                m_out.metrics[name] += v;
        }
        const auto found = scenario.find("histograms");
        if (found == scenario.end() || !found->is_object())
            return true;
        for (auto it = found->begin(); it != found->end(); ++it) {
            const std::string &name = it.key();
            if (!it->is_string())
                continue;
            const QByteArray bytes = QByteArray::fromBase64(QByteArray::fromStdString(it->get<std::string>()));
            auto decoded = HdrHistogram::decode(std::string_view(bytes.constData(), size_t(bytes.size())), error);
            if (!decoded)
                return false;
            auto [slot, fresh] = m_histograms.try_emplace(name, makeLatencyHistogram());
            slot->second.add(*decoded);
        }
        return true;
    }

    ScenarioResult finish()
    {
        // Every agent's window starts at the fleet's instant: the common window is the longest.
        const double window = m_out.metrics.count("producer.measured_s") ? m_out.metrics["producer.measured_s"] : 0;
        for (const auto &[name, amount] : m_amounts)
            m_out.metrics[name] += window > 0 ? amount / window : 0;
        auto &m = m_out.metrics;
        if (auto h = m_histograms.find("ack_us"); h != m_histograms.end() && !h->second.empty()) {
            putLatency(m, "latency_", h->second);
            putExtraPercentiles(m, "producer.latency_", h->second);
            m["ack_p99_s"] = m["latency_p99_s"];
        }
        if (auto h = m_histograms.find("service_us"); h != m_histograms.end())
            putLatency(m, "producer.service_", h->second);
        if (auto h = m_histograms.find("e2e_us"); h != m_histograms.end() && !h->second.empty()) {
            putLatency(m, "e2e.latency_", h->second);
            m["e2e_p99_s"] = m["e2e.latency_p99_s"];
        }
        for (const auto &[name, h] : m_histograms) {
            const std::string bytes = h.encodeCompressed();
            m_out.histograms[name] =
                QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())).toBase64().toStdString();
        }
        return m_out;
    }

private:
    ScenarioResult m_out;
    std::map<std::string, double> m_amounts;
    std::map<std::string, HdrHistogram> m_histograms;
};

// The agent's row of the fleet's "agents" array.
nlohmann::json agentRow(const AgentReport &a, const std::string &problem)
{
    nlohmann::json row = {{"index", a.index}, {"exit_code", a.exitCode}};
    const nlohmann::json &r = a.result;
    row["status"] = a.unreported ? "unreported" : !a.started ? "not started" : a.late ? "late" : !r.is_object() ? "died" : r.value("status", "failed");
    if (a.signal > 0)
        row["signal"] = a.signal;
    if (r.is_object()) {
        const auto agent = r.value("agent", nlohmann::json::object());
        for (const char *key : {"producer_ids", "partitions", "records", "rate", "start_late_s", "first_send_unix_ns"})
            if (agent.contains(key))
                row[key] = agent[key];
        const auto scenarios = r.value("scenarios", nlohmann::json::array());
        if (!scenarios.empty()) {
            const auto metrics = scenarios[0].value("metrics", nlohmann::json::object());
            for (const char *key : {"records_per_s", "bytes_per_s", "latency_p99_s", "e2e.latency_p99_s"})
                if (metrics.contains(key))
                    row[key] = metrics[key];
        }
        row["errors"] = r.value("errors", nlohmann::json::array());
    } else {
        row["errors"] = nlohmann::json::array({problem});
    }
    return row;
}

} // namespace

BenchResult mergeFleetResults(int agentCount, BenchResult result, const std::vector<AgentReport> &agents)
{
    double totalRate = 0;
    int64_t totalRecords = 0;
    int producers = 0, consumers = 0;
    std::vector<ScenarioMerge> merges;
    std::vector<int64_t> firstSends;
    for (const AgentReport &a : agents) {
        const std::string missing = absence(a);
        result.agents.push_back(agentRow(a, missing));
        if (!missing.empty()) {
            result.errors.push_back(missing);
            continue;
        }
        const nlohmann::json &r = a.result;
        for (const auto &e : r.value("errors", nlohmann::json::array()))
            result.errors.push_back(agentName(a.index) + ": " + e.get<std::string>());
        for (const auto &w : r.value("warnings", nlohmann::json::array()))
            if (const std::string text = w.get<std::string>(); text.rfind("the run failed", 0) != 0)
                result.warnings.push_back(agentName(a.index) + ": " + text);
        result.interrupted |= r.value("interrupted", false);
        // What no coordinator stated (bench merge of files), from the agents' documents.
        if (result.runId.empty()) {
            result.runId = r.value("run_id", "");
            result.workload = r.value("workload", "");
            result.bootstrapServers = r.value("/target/bootstrap_servers"_json_pointer, std::string());
            result.topic = r.value("/topic/name"_json_pointer, std::string());
        }
        if (const std::string started = r.value("started_at", ""); result.startedAt.empty() || started < result.startedAt)
            result.startedAt = started;
        if (const std::string finished = r.value("finished_at", ""); finished > result.finishedAt)
            result.finishedAt = finished;
        const auto config = r.value("config", nlohmann::json::object());
        if (result.config.empty()) {
            result.config = config;
            result.tuning = r.value("tuning", std::map<std::string, std::string>{});
        }
        const auto agent = r.value("agent", nlohmann::json::object());
        totalRate += agent.value("rate", 0.0);
        totalRecords += agent.value("records", int64_t{0});
        producers += config.value("producer_clients", 0);
        consumers += config.value("consumer_clients", 0);
        if (const double late = agent.value("start_late_s", 0.0); late > 0.5 * config.value("interval_s", 1.0))
            result.errors.push_back(agentName(a.index) + " started " + fixed(late, 2)
                                    + " s after the fleet's start instant: its windows are not the fleet's");
        if (agent.contains("first_send_unix_ns"))
            firstSends.push_back(agent["first_send_unix_ns"].get<int64_t>());
        const auto scenarios = r.value("scenarios", nlohmann::json::array());
        for (std::size_t s = 0; s < scenarios.size(); ++s) {
            if (merges.size() <= s)
                merges.emplace_back(scenarios[s]);
            std::string error;
            if (!merges[s].add(scenarios[s], &error))
                result.errors.push_back(agentName(a.index) + "'s histograms do not decode: " + error);
        }
        if (const auto flight = r.value("in_flight", nlohmann::json::object()); !flight.empty()) {
            result.inFlightUnacknowledged += flight.value("sent_not_acknowledged", int64_t{0});
            result.inFlightUnconsumed += flight.value("acknowledged_not_consumed", int64_t{0});
        }
    }
    for (auto &merge : merges)
        result.scenarios.push_back(merge.finish());
    if (result.intervals.empty()) { // a coordinator that followed the agents live has them already
        std::vector<const AgentReport *> all;
        for (const auto &a : agents)
            all.push_back(&a);
        FleetIntervals intervals;
        intervals.advance(all, std::vector<bool>(all.size(), false), true);
        result.intervals = intervals.take();
    }
    for (auto &scenario : result.scenarios)
        scenario.topology.agents = agentCount;
    if (!result.scenarios.empty()) {
        auto &m = result.scenarios.front().metrics;
        m["fleet.agents"] = agentCount;
        if (firstSends.size() > 1) {
            const auto [lo, hi] = std::minmax_element(firstSends.begin(), firstSends.end());
            m["fleet.first_send_spread_s"] = static_cast<double>(*hi - *lo) * 1e-9;
        }
        // Each agent's rate stays in the store: the one that lags points at its client node.
        double sum = 0;
        int reporting = 0;
        for (const auto &row : result.agents)
            if (row.contains("records_per_s")) {
                const int i = row["index"].get<int>();
                m["agents." + std::to_string(i) + ".records_per_s"] = row["records_per_s"].get<double>();
                if (row.contains("bytes_per_s"))
                    m["agents." + std::to_string(i) + ".bytes_per_s"] = row["bytes_per_s"].get<double>();
                sum += row["records_per_s"].get<double>();
                ++reporting;
            }
        for (const auto &row : result.agents)
            if (reporting > 1 && row.contains("records_per_s")
                && row["records_per_s"].get<double>() < 0.8 * sum / reporting)
                result.warnings.push_back(agentName(row["index"].get<int>()) + " ran at "
                                          + fixed(100 * row["records_per_s"].get<double>() / (sum / reporting), 0)
                                          + "% of the agents' mean rate: its client node, not the cluster, may be "
                                            "the bottleneck");
    }
    // The fleet's settings are its agents' with the fleet's totals: records, rate, clients.
    result.config["agents"] = agentCount;
    result.tuning["agents"] = std::to_string(agentCount);
    if (!result.scenarios.empty()) {
        result.config["records"] = totalRecords;
        if (totalRate > 0) {
            result.config["rate"] = totalRate;
            result.tuning["rate"] = std::to_string(static_cast<int64_t>(totalRate));
        }
        if (result.tuning.count("producers"))
            result.tuning["producers"] = std::to_string(producers);
        if (result.tuning.count("consumers"))
            result.tuning["consumers"] = std::to_string(consumers);
    }
    if (!result.errors.empty())
        result.exitCode = 1;
    else if (result.interrupted)
        result.exitCode = kExitInterrupted;
    result.partial = result.exitCode != 0;
    if (result.interrupted)
        result.warnings.push_back("interrupted: the agents stopped early; what they measured is kept, marked partial");
    else if (result.partial)
        result.warnings.push_back("the run failed: the result is partial");
    return result;
}

void FleetIntervals::advance(const std::vector<const AgentReport *> &agents, const std::vector<bool> &running,
                             bool final)
{
    for (;;) {
        std::vector<const BenchSnapshot *> at;
        bool waiting = false;
        for (std::size_t i = 0; i < agents.size(); ++i) {
            const auto &intervals = agents[i]->intervals;
            if (m_next < intervals.size())
                at.push_back(&intervals[m_next]);
            else if (running[i])
                waiting = true;
        }
        if (at.empty() || (waiting && !final))
            return;
        m_merged.push_back(mergeAgentSnapshots(at));
        if (m_sink)
            m_sink(m_merged.back());
        ++m_next;
    }
}

std::string readAgentReports(const std::vector<std::string> &files, std::vector<AgentReport> &reports,
                             int *agentCount)
{
    std::map<int, AgentReport> byIndex;
    std::string runId;
    int of = 0;
    for (const std::string &file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in)
            return file + ": cannot be read";
        AgentReport report;
        std::string line;
        int number = 0, resultLine = 0;
        while (std::getline(in, line)) {
            ++number;
            const auto start = line.find('{'); // a log line may carry a timestamp before it
            if (start == std::string::npos)
                continue;
            const auto j = nlohmann::json::parse(line.substr(start), nullptr, false);
            BenchSnapshot snapshot;
            if (snapshotFromJson(j, snapshot))
                report.intervals.push_back(snapshot);
            else if (j.is_object() && j.value("type", "") == "result")
                report.result = j, resultLine = number;
        }
        if (!report.result.is_object())
            return file + ": no bench result in it (an agent's last line, of \"type\": \"result\")";
        const auto agent = report.result.value("agent", nlohmann::json::object());
        const std::string at = file + ":" + std::to_string(resultLine);
        if (!agent.contains("index") || !agent.contains("of"))
            return at + ": the result of a single run, not of a fleet's agent (no \"agent\")";
        report.index = agent["index"].get<int>();
        const int agentsOf = agent["of"].get<int>();
        const std::string id = report.result.value("run_id", "");
        if (runId.empty())
            runId = id, of = agentsOf;
        else if (id != runId || agentsOf != of)
            return at + ": agent " + std::to_string(report.index) + " of run " + id + " (" + std::to_string(agentsOf)
                 + " agents), not of run " + runId + " (" + std::to_string(of) + " agents)";
        if (report.index < 0 || report.index >= of)
            return at + ": agent index " + std::to_string(report.index) + " outside 0.." + std::to_string(of - 1);
        if (byIndex.count(report.index))
            return at + ": agent " + std::to_string(report.index) + " is reported twice";
        report.started = true;
        report.exitCode = report.result.value("exit_code", 1);
        byIndex.emplace(report.index, std::move(report));
    }
    reports.clear();
    for (int i = 0; i < of; ++i) {
        if (auto it = byIndex.find(i); it != byIndex.end()) {
            reports.push_back(std::move(it->second));
            continue;
        }
        AgentReport missing;
        missing.index = i;
        missing.unreported = true;
        missing.problem = "its report is not among the files given";
        reports.push_back(std::move(missing));
    }
    *agentCount = of;
    return {};
}

BenchSnapshot mergeAgentSnapshots(const std::vector<const BenchSnapshot *> &snapshots)
{
    BenchSnapshot out;
    if (snapshots.empty())
        return out;
    out = *snapshots.front();
    out.producedPerS = out.consumedPerS = out.bytesPerS = 0;
    out.sent = out.acked = out.consumed = out.errors = out.queued = 0;
    out.progress = 1;
    for (const BenchSnapshot *s : snapshots) {
        out.producedPerS += s->producedPerS;
        out.consumedPerS += s->consumedPerS;
        out.bytesPerS += s->bytesPerS;
        out.sent += s->sent;
        out.acked += s->acked;
        out.consumed += s->consumed;
        out.errors += s->errors;
        out.queued += s->queued;
        for (auto field : {&BenchSnapshot::ackP50S, &BenchSnapshot::ackP99S, &BenchSnapshot::e2eP50S,
                           &BenchSnapshot::e2eP99S, &BenchSnapshot::elapsedS, &BenchSnapshot::intervalS})
            out.*field = std::max(out.*field, s->*field);
        out.progress = std::min(out.progress, s->progress);
    }
    return out;
}

bool snapshotFromJson(const nlohmann::json &j, BenchSnapshot &s)
{
    if (!j.is_object() || j.value("type", "") != "interval")
        return false;
    s.scenario = j.value("scenario", "");
    s.phase = j.value("phase", "");
    s.sent = j.value("sent", int64_t{0});
    s.acked = j.value("acked", int64_t{0});
    s.consumed = j.value("consumed", int64_t{0});
    s.errors = j.value("errors", int64_t{0});
    s.queued = j.value("queued", int64_t{0});
    s.elapsedS = j.value("elapsed_s", 0.0);
    s.intervalS = j.value("interval_s", 0.0);
    s.producedPerS = j.value("produced_per_s", 0.0);
    s.consumedPerS = j.value("consumed_per_s", 0.0);
    s.bytesPerS = j.value("bytes_per_s", 0.0);
    s.ackP50S = j.value("ack_p50_s", 0.0);
    s.ackP99S = j.value("ack_p99_s", 0.0);
    s.e2eP50S = j.value("e2e_p50_s", 0.0);
    s.e2eP99S = j.value("e2e_p99_s", 0.0);
    s.progress = j.value("progress", -1.0);
    s.brokerRttAvgS = j.value("broker_rtt_avg_s", 0.0);
    return true;
}

} // namespace plimsoll
