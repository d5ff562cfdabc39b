#pragma once
// A Korvet broker's storage-worker metrics as a test scripts them in time, served over HTTP by
// the runner's MetricsServer: a backlog archived at a set rate in 4 MiB segments until its
// archive lag reaches zero (`bench offload` reads the drain from them).
#include "runner/metricsserver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>
#include <thread>

namespace plimsoll::test {

using namespace std::chrono_literals;

inline constexpr double kMiB = 1024.0 * 1024;

struct Script
{
    double drainS = 1.0;        // the lag reaches zero here
    double bytesPerS = 10 * kMiB;
    double startLagS = 30;      // archive lag at t = 0
    bool lagGauge = true;
    bool archives = true;       // false: the counters stay flat
    std::string prefix = "korvet_storage_archive"; // the series' common prefix
    bool olderLagName = false;  // <prefix>_lag_seconds per partition instead of the documented gauges
    bool buckets = true;        // false: the archive timer without a histogram (_count and _sum only)
};

// A broker's /metrics as the storage worker would show them, at `t` seconds since it started.
inline std::string korvetText(const Script &s, double t)
{
    const double archivedS = s.archives ? std::min(t, s.drainS) : 0;
    const double bytes = s.bytesPerS * archivedS, segments = bytes / (4 * kMiB);
    std::ostringstream out;
    out.precision(17);
    out << "# TYPE " << s.prefix << "_bytes_total counter\n" << s.prefix << "_bytes_total " << bytes << "\n"
        << "# TYPE " << s.prefix << "_segments_total counter\n" << s.prefix << "_segments_total " << segments
        << "\n"
        << "# TYPE " << s.prefix << "_messages_total counter\n" << s.prefix << "_messages_total "
        << bytes / 1000 << "\n";
    // Each segment took 190 ms, as the page's Parquet writes did: a timer tagged as Korvet's is.
    const std::string tags = "result=\"success\",tier=\"remote\"";
    if (s.buckets) {
        out << "# TYPE " << s.prefix << "_seconds histogram\n";
        for (const char *le : {"0.1", "0.2", "0.5", "+Inf"})
            out << s.prefix << "_seconds_bucket{" << tags << ",le=\"" << le << "\"} "
                << (std::string(le) == "0.1" ? 0 : segments) << "\n";
    } else {
        out << "# TYPE " << s.prefix << "_seconds summary\n";
    }
    out << s.prefix << "_seconds_count{" << tags << "} " << segments << "\n"
        << s.prefix << "_seconds_sum{" << tags << "} " << 0.19 * segments << "\n"
        << "# TYPE " << s.prefix << "_failures_total counter\n" << s.prefix << "_failures_total "
        << (t > 0.3 ? 2 : 0) << "\n"
        << "# TYPE " << s.prefix << "_retries_total counter\n" << s.prefix << "_retries_total "
        << (t > 0.3 ? 5 : 0) << "\n";
    const double lag = std::max(0.0, s.startLagS * (1 - t / s.drainS));
    if (s.lagGauge && s.olderLagName)
        out << "# TYPE " << s.prefix << "_lag_seconds gauge\n" << s.prefix << "_lag_seconds{partition=\"0\"} "
            << lag << "\n" << s.prefix << "_lag_seconds{partition=\"1\"} 0\n";
    else if (s.lagGauge)
        // Korvet 0.19's gauges: the oldest waiting segment's age, and how many wait (untagged).
        out << "# TYPE " << s.prefix << "_lag_oldest_seconds gauge\n" << s.prefix << "_lag_oldest_seconds " << lag
            << "\n# TYPE " << s.prefix << "_lag_segments gauge\n" << s.prefix << "_lag_segments "
            << (s.archives ? std::ceil(std::max(0.0, s.drainS - t) * s.bytesPerS / (4 * kMiB)) : 0.0) << "\n";
    return out.str();
}

class ScriptedArchive
{
public:
    explicit ScriptedArchive(Script script) : m_script(script)
    {
        EXPECT_EQ(m_server.start(0), "");
        m_server.setMetrics(korvetText(m_script, 0));
        m_start = std::chrono::steady_clock::now();
        m_thread = std::thread([this] {
            while (!m_stop) {
                m_server.setMetrics(korvetText(m_script, elapsed()));
                std::this_thread::sleep_for(2ms);
            }
        });
    }
    ~ScriptedArchive()
    {
        m_stop = true;
        m_thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_server.port()) + "/metrics"; }
    double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count(); }

private:
    Script m_script;
    MetricsServer m_server;
    std::chrono::steady_clock::time_point m_start;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace plimsoll::test
