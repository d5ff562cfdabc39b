#pragma once
// The /metrics and /health endpoint of a running bench (--metrics-port): a tiny HTTP/1.0
// server on 127.0.0.1, one plain-socket thread, one request per connection. Loopback only:
// a bench's numbers are for the machine running it (a scraper on it, or a second bench's
// Prometheus collector), never exposed to the network by accident.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace plimsoll {

class MetricsServer
{
public:
    MetricsServer() = default;
    ~MetricsServer();
    MetricsServer(const MetricsServer &) = delete;
    MetricsServer &operator=(const MetricsServer &) = delete;

    // Binds 127.0.0.1:port (0 = any free port) and starts serving. Returns an error
    // message, empty on success.
    std::string start(uint16_t port);
    void stop();
    uint16_t port() const { return m_port; }

    // Thread-safe: the text served at /metrics, and the status word at /health.
    void setMetrics(std::string prometheusText);
    void setStatus(std::string status);

private:
    void serve();
    void answer(int client);

    int m_listen = -1;
    uint16_t m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
    std::mutex m_mutex;
    std::string m_metrics;
    std::string m_status = "starting";
};

} // namespace plimsoll
