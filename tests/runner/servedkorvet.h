#pragma once
// A Korvet broker's /actuator/prometheus as Korvet 0.19's metric reference names its series,
// in Micrometer's Prometheus form (shared/korvet-metrics.md): timers as <name>_seconds with
// _count/_sum (and _bucket where histograms are on, as on the produce timer), counters with
// _total, a bytes gauge with _bytes. Its counters grow with time at the rates the test sets, so
// a step's window reads them back; served over HTTP by the runner's MetricsServer. Korvet
// itself needs Java 25 and Redis 8 with its modules, which the test environment does not have.
#include "runner/metricsserver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <initializer_list>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace plimsoll::test {

using namespace std::chrono_literals;

struct KorvetRates
{
    double produceRequestsPerS = 1000;  // korvet_broker_produce_seconds, all within 10 ms
    double recordsPerS = 20000;         // korvet_broker_produce_records_total
    double backpressureAppliedPerS = 0; // korvet_broker_backpressure_transitions_total{action="applied"}
    double backpressureHeld = 0;        // korvet_broker_backpressure_connections
    double pendingBytes = 0;            // korvet_broker_pending_bytes
    double poolTimeoutsPerS = 0;        // korvet_storage_local_pool_acquire_seconds_count{result="timeout"}
    double poolPending = 0;             // korvet_storage_local_pool_pending
    // Each partition's share of recordsPerS in the high watermarks of `topic`
    // (korvet_broker_max_offset{topic,partition}); partition p is the p-th.
    std::vector<double> partitionShares = {0.25, 0.25, 0.25, 0.25};
    std::string topic = "orders";
    // Series left out of the text (by their Prometheus name), as a build without them would.
    std::set<std::string> omit = {"korvet_storage_ack_seconds"};
};

// The text at `t` seconds since the broker started.
inline std::string korvetMetricsText(const KorvetRates &r, double t)
{
    const auto has = [&](const char *name) { return r.omit.count(name) == 0; };
    std::ostringstream out;
    out.precision(17);
    out << "# HELP process_cpu_seconds_total The \"cpu time\" used by the Java Virtual Machine process\n"
        << "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total " << 10 + 0.2 * t << "\n"
        << "# TYPE system_cpu_count gauge\nsystem_cpu_count 4.0\n";
    const double produced = r.produceRequestsPerS * t;
    if (has("korvet_broker_produce_seconds")) {
        out << "# HELP korvet_broker_produce_seconds Produce request latency\n"
            << "# TYPE korvet_broker_produce_seconds histogram\n";
        for (const auto &[le, share] : std::initializer_list<std::pair<const char *, double>>{
                 {"0.001", 0.0}, {"0.004", 0.5}, {"0.01", 1.0}, {"+Inf", 1.0}})
            out << "korvet_broker_produce_seconds_bucket{topic=\"orders\",le=\"" << le << "\"} " << share * produced
                << "\n";
        out << "korvet_broker_produce_seconds_count{topic=\"orders\"} " << produced << "\n"
            << "korvet_broker_produce_seconds_sum{topic=\"orders\"} " << 0.004 * produced << "\n"
            << "# TYPE korvet_broker_produce_seconds_max gauge\n"
            << "korvet_broker_produce_seconds_max{topic=\"orders\"} 0.0093\n";
    }
    if (has("korvet_broker_produce_records_total"))
        out << "# TYPE korvet_broker_produce_records_total counter\n"
            << "korvet_broker_produce_records_total{topic=\"orders\"} " << r.recordsPerS * t << "\n";
    if (has("korvet_broker_fetch_seconds"))
        out << "# TYPE korvet_broker_fetch_seconds summary\n"
            << "korvet_broker_fetch_seconds_count{topic=\"orders\"} " << 100 * t << "\n"
            << "korvet_broker_fetch_seconds_sum{topic=\"orders\"} " << 50 * t << "\n";
    if (has("korvet_broker_request_seconds"))
        out << "# TYPE korvet_broker_request_seconds summary\n"
            << "korvet_broker_request_seconds_count{api_key=\"PRODUCE\",result=\"success\"} " << produced << "\n"
            << "korvet_broker_request_seconds_sum{api_key=\"PRODUCE\",result=\"success\"} " << 0.004 * produced << "\n"
            << "korvet_broker_request_seconds_count{api_key=\"FETCH\",result=\"success\"} " << 100 * t << "\n"
            << "korvet_broker_request_seconds_sum{api_key=\"FETCH\",result=\"success\"} " << 50 * t << "\n";
    if (has("korvet_broker_backpressure_connections"))
        out << "# HELP korvet_broker_backpressure_connections Connections with back-pressure applied\n"
            << "# TYPE korvet_broker_backpressure_connections gauge\n"
            << "korvet_broker_backpressure_connections " << r.backpressureHeld << "\n";
    if (has("korvet_broker_backpressure_transitions_total"))
        out << "# TYPE korvet_broker_backpressure_transitions_total counter\n"
            << "korvet_broker_backpressure_transitions_total{action=\"applied\"} " << r.backpressureAppliedPerS * t
            << "\n"
            << "korvet_broker_backpressure_transitions_total{action=\"released\"} "
            << std::max(0.0, r.backpressureAppliedPerS * t - r.backpressureHeld) << "\n";
    if (has("korvet_broker_pending_bytes"))
        out << "# TYPE korvet_broker_pending_bytes gauge\nkorvet_broker_pending_bytes " << r.pendingBytes << "\n";
    if (has("korvet_broker_max_offset")) {
        out << "# TYPE korvet_broker_max_offset gauge\n";
        for (std::size_t p = 0; p < r.partitionShares.size(); ++p)
            out << "korvet_broker_max_offset{partition=\"" << p << "\",topic=\"" << r.topic << "\"} "
                << static_cast<long long>(r.recordsPerS * t * r.partitionShares[p]) << "\n";
        // Another topic's partitions: not the step's.
        out << "korvet_broker_max_offset{partition=\"0\",topic=\"audit\"} " << static_cast<long long>(900 * t)
            << "\n";
    }
    if (has("korvet_storage_write_seconds")) {
        // Local writes in a histogram: half within 2 ms, all within 5 ms.
        out << "# TYPE korvet_storage_write_seconds histogram\n";
        for (const auto &[le, share] : std::initializer_list<std::pair<const char *, double>>{
                 {"0.002", 0.5}, {"0.005", 1.0}, {"+Inf", 1.0}})
            out << "korvet_storage_write_seconds_bucket{result=\"success\",tier=\"local\",le=\"" << le << "\"} "
                << share * produced << "\n";
        out << "korvet_storage_write_seconds_count{result=\"success\",tier=\"local\"} " << produced << "\n"
            << "korvet_storage_write_seconds_sum{result=\"success\",tier=\"local\"} " << 0.0025 * produced << "\n";
    }
    if (has("korvet_storage_read_seconds"))
        // Reads without buckets: only their mean, 3 ms locally and 190 ms from the remote tier.
        out << "# TYPE korvet_storage_read_seconds summary\n"
            << "korvet_storage_read_seconds_count{mode=\"group\",result=\"success\",tier=\"local\"} " << 200 * t << "\n"
            << "korvet_storage_read_seconds_sum{mode=\"group\",result=\"success\",tier=\"local\"} " << 0.6 * t << "\n"
            << "korvet_storage_read_seconds_count{mode=\"group\",result=\"success\",tier=\"remote\"} " << 10 * t << "\n"
            << "korvet_storage_read_seconds_sum{mode=\"group\",result=\"success\",tier=\"remote\"} " << 1.9 * t << "\n"
            << "# TYPE korvet_storage_read_seconds_max gauge\n"
            << "korvet_storage_read_seconds_max{mode=\"group\",result=\"success\",tier=\"local\"} 0.004\n";
    if (has("korvet_storage_ack_seconds"))
        out << "# TYPE korvet_storage_ack_seconds summary\n"
            << "korvet_storage_ack_seconds_count{result=\"success\",tier=\"local\"} " << produced << "\n"
            << "korvet_storage_ack_seconds_sum{result=\"success\",tier=\"local\"} " << 0.001 * produced << "\n";
    if (has("korvet_storage_read_messages"))
        out << "# TYPE korvet_storage_read_messages summary\n"
            << "korvet_storage_read_messages_count{mode=\"group\",tier=\"local\"} " << 200 * t << "\n"
            << "korvet_storage_read_messages_sum{mode=\"group\",tier=\"local\"} " << 20000 * t << "\n";
    if (has("korvet_storage_local_pool_acquire_seconds"))
        out << "# TYPE korvet_storage_local_pool_acquire_seconds summary\n"
            << "korvet_storage_local_pool_acquire_seconds_count{result=\"success\"} " << produced << "\n"
            << "korvet_storage_local_pool_acquire_seconds_sum{result=\"success\"} " << 0.0001 * produced << "\n"
            << "korvet_storage_local_pool_acquire_seconds_count{result=\"timeout\"} " << r.poolTimeoutsPerS * t << "\n"
            << "korvet_storage_local_pool_acquire_seconds_sum{result=\"timeout\"} " << r.poolTimeoutsPerS * t << "\n";
    if (has("korvet_storage_local_pool_pending"))
        out << "# TYPE korvet_storage_local_pool_pending gauge\nkorvet_storage_local_pool_pending " << r.poolPending
            << "\n";
    return out.str();
}

// Serves korvetMetricsText at /metrics, refreshed every 2 ms.
class ServedKorvet
{
public:
    explicit ServedKorvet(KorvetRates rates = {}) : m_rates(std::move(rates))
    {
        EXPECT_EQ(m_server.start(0), "");
        m_start = std::chrono::steady_clock::now();
        m_server.setMetrics(text());
        m_thread = std::thread([this] {
            while (!m_stop) {
                m_server.setMetrics(text());
                std::this_thread::sleep_for(2ms);
            }
        });
    }
    ~ServedKorvet()
    {
        m_stop = true;
        m_thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_server.port()) + "/metrics"; }

private:
    std::string text()
    {
        std::lock_guard lock(m_mutex);
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
        return korvetMetricsText(m_rates, t);
    }

    KorvetRates m_rates;
    std::mutex m_mutex;
    MetricsServer m_server;
    std::chrono::steady_clock::time_point m_start;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace plimsoll::test
