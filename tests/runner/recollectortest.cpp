// The Redis Enterprise REST collector (--re-api) against an in-process HTTP endpoint serving
// a canned /v1/shards/stats: the hottest shard's user + system CPU becomes shard_cpu_max,
// basic auth carries the credentials from the environment, and the password reaches no
// message. No services.
#include "runner/collectors.h"
#include "runner/recollector.h"

#include <gtest/gtest.h>

#include <QByteArray>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <thread>

using namespace std::chrono_literals;

namespace plimsoll {
namespace {

// Two shards over three 1-second intervals; shard 2 averages (0.60 + 0.20) = 0.80 of a core.
const char *kStats = R"([
  {"uid": "1", "node_uid": "1", "status": "active", "intervals": [
    {"interval": "1sec", "stime": "2026-01-01T00:00:00Z", "shard_cpu_user": 0.10, "shard_cpu_system": 0.05},
    {"interval": "1sec", "stime": "2026-01-01T00:00:01Z", "shard_cpu_user": 0.20, "shard_cpu_system": 0.05}]},
  {"uid": "2", "node_uid": "1", "status": "active", "intervals": [
    {"interval": "1sec", "stime": "2026-01-01T00:00:00Z", "shard_cpu_user": 0.50, "shard_cpu_system": 0.20},
    {"interval": "1sec", "stime": "2026-01-01T00:00:01Z", "shard_cpu_user": 0.70, "shard_cpu_system": 0.20},
    {"interval": "1sec", "stime": "2026-01-01T00:00:02Z", "shard_cpu_user": 0.60, "shard_cpu_system": 0.20}]}
])";

// HTTP/1.0 on 127.0.0.1: /v1/shards/stats with the right basic auth gets kStats, without it 401.
class FakeRestApi
{
public:
    FakeRestApi(std::string user, std::string password)
        : m_auth("Basic " + QByteArray::fromStdString(user + ":" + password).toBase64().toStdString())
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        EXPECT_EQ(::bind(m_fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr), 0);
        EXPECT_EQ(::listen(m_fd, 8), 0);
        socklen_t len = sizeof addr;
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~FakeRestApi()
    {
        m_stop = true;
        m_thread.join();
        ::close(m_fd);
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    std::vector<std::string> requests()
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }

private:
    void serve()
    {
        while (!m_stop) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) != 1)
                continue;
            const int client = ::accept(m_fd, nullptr, nullptr);
            if (client < 0)
                continue;
            std::string request;
            char buffer[4096];
            while (request.find("\r\n\r\n") == std::string::npos) {
                const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
                if (n <= 0)
                    break;
                request.append(buffer, static_cast<std::size_t>(n));
            }
            {
                std::lock_guard lock(m_mutex);
                m_requests.push_back(request);
            }
            const bool authorized = request.find("Authorization: " + m_auth + "\r\n") != std::string::npos;
            const bool path = request.rfind("GET /v1/shards/stats?", 0) == 0;
            const std::string body = authorized && path ? kStats : "{\"error\": \"unauthorized\"}";
            const std::string status = !authorized ? "401 Unauthorized" : path ? "200 OK" : "404 Not Found";
            const std::string reply = "HTTP/1.0 " + status + "\r\nContent-Type: application/json\r\nContent-Length: "
                                      + std::to_string(body.size()) + "\r\n\r\n" + body;
            ::send(client, reply.data(), reply.size(), MSG_NOSIGNAL);
            ::close(client);
        }
    }

    std::string m_auth;
    int m_fd = -1;
    uint16_t m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
    std::mutex m_mutex;
    std::vector<std::string> m_requests;
};

const std::string kPassword = "plimsoll-re-s3cret-pw";

TEST(runnerReCollector, ShardStatsGiveTheHottestShardsMeanCpu)
{
    const ReShardStats stats = parseReShardStats(kStats);
    ASSERT_EQ(stats.error, "");
    ASSERT_EQ(stats.cpuByShard.size(), 2u);
    EXPECT_NEAR(stats.cpuByShard.at("1"), 0.20, 1e-12);
    EXPECT_NEAR(stats.cpuByShard.at("2"), 0.80, 1e-12);
    EXPECT_FALSE(parseReShardStats("{\"uid\": 1}").error.empty());
    EXPECT_FALSE(parseReShardStats("[{\"uid\": \"1\", \"intervals\": [{\"shard_cpu_user\": 0.1}]}]").error.empty())
        << "a shard without shard_cpu_system is not a CPU reading";
}

TEST(runnerReCollector, StepReadsShardCpuWithCredentialsFromTheEnvironment)
{
    FakeRestApi api("plimsoll-admin@example.com", kPassword);
    ::setenv("PLIMSOLL_RE_USER", "plimsoll-admin@example.com", 1);
    ::setenv("PLIMSOLL_RE_PASSWORD", kPassword.c_str(), 1);
    const ReCredentials credentials = reCredentials("");
    ::unsetenv("PLIMSOLL_RE_USER");
    ::unsetenv("PLIMSOLL_RE_PASSWORD");
    EXPECT_TRUE(credentials.verifyTls) << "TLS verification is on unless turned off";

    StepCollectors collectors({}, {}, "korvet_broker_produce_seconds", 5s);
    collectors.setRedisEnterprise({api.url()}, credentials);
    ASSERT_FALSE(collectors.empty());
    collectors.beginAt(std::chrono::steady_clock::now(), nullptr);
    std::this_thread::sleep_for(1100ms);
    const StepServerMetrics m = collectors.end();
    ASSERT_EQ(m.metrics.count("shard_cpu_max"), 1u) << (m.warnings.empty() ? "" : m.warnings[0]);
    EXPECT_NEAR(m.metrics.at("shard_cpu_max"), 0.80, 1e-12);
    EXPECT_TRUE(m.warnings.empty());
    const auto requests = api.requests();
    ASSERT_EQ(requests.size(), 2u) << "one request at each window boundary";
    EXPECT_NE(requests[1].find("&stime="), std::string::npos) << "the second asks for the window: " << requests[1];
    for (const auto &w : m.warnings)
        EXPECT_EQ(w.find(kPassword), std::string::npos) << w;
}

TEST(runnerReCollector, WrongCredentialsWarnWithoutThePassword)
{
    FakeRestApi api("plimsoll-admin@example.com", "the-right-one");
    StepCollectors collectors({}, {}, "korvet_broker_produce_seconds", 5s);
    collectors.setRedisEnterprise({api.url()}, {"plimsoll-admin@example.com", kPassword, true});
    collectors.beginAt(std::chrono::steady_clock::now(), nullptr);
    std::this_thread::sleep_for(50ms);
    const StepServerMetrics m = collectors.end();
    EXPECT_EQ(m.metrics.count("shard_cpu_max"), 0u);
    ASSERT_FALSE(m.warnings.empty());
    EXPECT_NE(m.warnings[0].find("401"), std::string::npos) << m.warnings[0];
    for (const auto &w : m.warnings)
        EXPECT_EQ(w.find(kPassword), std::string::npos) << w;
    // Credentials in the URL are never shown either.
    const auto direct = fetchReShardStats("http://user:" + kPassword + "@127.0.0.1:1", {}, 2s);
    EXPECT_FALSE(direct.error.empty());
    EXPECT_EQ(direct.error.find(kPassword), std::string::npos) << direct.error;
}

} // namespace
} // namespace plimsoll
