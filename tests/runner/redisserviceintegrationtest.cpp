// The redis-server of tests/services answers on its port: PING, and INFO cpu (the section
// the shard collectors will sample). Plain POSIX sockets and inline commands, so this
// proves the service itself, independent of any Plimsoll client code.
#include "servicesenv.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>

namespace plimsoll {
namespace {

class RedisConnection
{
public:
    ~RedisConnection()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }

    // Empty on success, else why not.
    std::string connect(int port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (m_fd < 0)
            return std::string("socket: ") + std::strerror(errno);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<uint16_t>(port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0)
            return "connect to 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno);
        return {};
    }

    bool send(const std::string &command)
    {
        const std::string line = command + "\r\n";
        return ::send(m_fd, line.data(), line.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(line.size());
    }

    // One CRLF-terminated line (without the CRLF), or nullopt on timeout or close.
    std::optional<std::string> readLine() { return readUntil([this] { return m_buffer.find("\r\n"); }); }

    // A RESP reply: "+simple", "-error", or the payload of a "$N" bulk string.
    std::optional<std::string> readReply()
    {
        auto header = readLine();
        if (!header || header->empty() || header->front() != '$')
            return header;
        const auto length = static_cast<std::size_t>(std::stoul(header->substr(1)));
        auto payload = readUntil([&] { return m_buffer.size() >= length + 2 ? length : std::string::npos; });
        return payload;
    }

private:
    // Reads until `end()` gives the size of a complete item in m_buffer; a bounded wait.
    template<class End>
    std::optional<std::string> readUntil(End end)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        for (;;) {
            if (const auto size = end(); size != std::string::npos) {
                std::string item = m_buffer.substr(0, size);
                m_buffer.erase(0, size + 2);
                return item;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return std::nullopt;
            pollfd pfd{m_fd, POLLIN, 0};
            if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0)
                return std::nullopt;
            char chunk[4096];
            const auto got = ::recv(m_fd, chunk, sizeof chunk, 0);
            if (got <= 0)
                return std::nullopt;
            m_buffer.append(chunk, static_cast<std::size_t>(got));
        }
    }

    int m_fd = -1;
    std::string m_buffer;
};

class RedisServer : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(test::ServicesEnv::load(m_env));
        const std::string port = m_env.value("PLIMSOLL_TEST_REDIS_PORT");
        ASSERT_FALSE(port.empty()) << "PLIMSOLL_TEST_REDIS_PORT missing in " << m_env.file();
        m_port = std::stoi(port);
        const std::string error = m_connection.connect(m_port);
        ASSERT_TRUE(error.empty()) << error << " (redis log: " << m_env.value("PLIMSOLL_TEST_REDIS_LOG") << ")";
    }

    test::ServicesEnv m_env;
    int m_port = 0;
    RedisConnection m_connection;
};

TEST_F(RedisServer, AnswersPing)
{
    ASSERT_TRUE(m_connection.send("PING"));
    EXPECT_EQ(m_connection.readReply().value_or("<no reply>"), "+PONG");
}

TEST_F(RedisServer, ReportsCpuTimesInInfo)
{
    ASSERT_TRUE(m_connection.send("INFO cpu"));
    const auto info = m_connection.readReply();
    ASSERT_TRUE(info.has_value()) << "no reply to INFO cpu";
    EXPECT_NE(info->find("# CPU"), std::string::npos) << *info;
    // The counters a shard collector turns into CPU use (used_cpu_sys + used_cpu_user).
    EXPECT_NE(info->find("used_cpu_sys:"), std::string::npos) << *info;
    EXPECT_NE(info->find("used_cpu_user:"), std::string::npos) << *info;
}

TEST_F(RedisServer, RunsWithoutPersistence)
{
    ASSERT_TRUE(m_connection.send("CONFIG GET save"));
    // *2 / $4 save / $0 (empty): an empty save policy means no RDB snapshots.
    const auto header = m_connection.readLine();
    ASSERT_EQ(header.value_or(""), "*2");
    EXPECT_EQ(m_connection.readReply().value_or(""), "save");
    EXPECT_EQ(m_connection.readReply().value_or("<none>"), "");
}

} // namespace
} // namespace plimsoll
