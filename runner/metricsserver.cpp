#include "runner/metricsserver.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace plimsoll {

MetricsServer::~MetricsServer() { stop(); }

std::string MetricsServer::start(uint16_t port)
{
    m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listen < 0)
        return std::string("cannot open a socket for --metrics-port: ") + std::strerror(errno);
    const int yes = 1;
    ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    if (::bind(m_listen, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 || ::listen(m_listen, 16) != 0) {
        const std::string message = "cannot listen on 127.0.0.1:" + std::to_string(port) + " for --metrics-port: "
                                  + std::strerror(errno);
        ::close(m_listen);
        m_listen = -1;
        return message;
    }
    socklen_t length = sizeof address;
    ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&address), &length);
    m_port = ntohs(address.sin_port);
    m_thread = std::thread(&MetricsServer::serve, this);
    return {};
}

void MetricsServer::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_listen >= 0)
        ::close(m_listen);
    m_listen = -1;
}

void MetricsServer::setMetrics(std::string prometheusText)
{
    std::lock_guard lock(m_mutex);
    m_metrics = std::move(prometheusText);
}

void MetricsServer::setStatus(std::string status)
{
    std::lock_guard lock(m_mutex);
    m_status = std::move(status);
}

void MetricsServer::serve()
{
    while (!m_stop) {
        pollfd fd{m_listen, POLLIN, 0};
        // Wake up regularly to notice stop().
        if (::poll(&fd, 1, 100) <= 0)
            continue;
        const int client = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0)
            continue;
        answer(client);
        ::close(client);
    }
}

void MetricsServer::answer(int client)
{
    // Read the request head, bounded in size and time: a silent client must not stall us.
    std::string request;
    char buffer[1024];
    while (request.find("\r\n\r\n") == std::string::npos && request.find("\n\n") == std::string::npos
           && request.size() < 8192) {
        pollfd fd{client, POLLIN, 0};
        if (::poll(&fd, 1, 1000) <= 0)
            return;
        const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
        if (n <= 0)
            break;
        request.append(buffer, static_cast<std::size_t>(n));
    }
    const auto firstSpace = request.find(' ');
    const auto secondSpace = request.find(' ', firstSpace + 1);
    const std::string method = request.substr(0, firstSpace);
    std::string path = firstSpace == std::string::npos ? "" : request.substr(firstSpace + 1, secondSpace - firstSpace - 1);
    if (const auto query = path.find('?'); query != std::string::npos)
        path.resize(query);

    std::string status = "200 OK";
    std::string type = "text/plain; version=0.0.4; charset=utf-8";
    std::string body;
    {
        std::lock_guard lock(m_mutex);
        if (method != "GET" && method != "HEAD") {
            status = "405 Method Not Allowed";
            body = "only GET\n";
        } else if (path == "/metrics") {
            body = m_metrics;
        } else if (path == "/health") {
            type = "application/json";
            body = "{\"status\":\"" + m_status + "\"}\n";
        } else {
            status = "404 Not Found";
            body = "try /metrics or /health\n";
        }
    }
    std::string response = "HTTP/1.0 " + status + "\r\nContent-Type: " + type
                         + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
    if (method != "HEAD")
        response += body;
    std::size_t sent = 0;
    while (sent < response.size()) {
        const ssize_t n = ::send(client, response.data() + sent, response.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        sent += static_cast<std::size_t>(n);
    }
}

} // namespace plimsoll
