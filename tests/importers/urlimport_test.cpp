// `plimsoll import https://…`: ImportService fetches http(s) paths with UrlFetcher and imports
// the bytes like a file. A small HTTP/1.1 server on a loopback port, in a thread of this test,
// answers with a good file, a 404, a redirect loop, an over-size body (with and without a
// Content-Length) and a file that needs a bearer token.
#include "importers/importservice.h"
#include "importers/urlfetcher.h"
#include "importertest.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <thread>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

const std::string kToken = "pl1ms0ll-test-bearer-7c3e";
const std::string kProm = "# TYPE korvet_records_produced_total counter\n"
                          "korvet_records_produced_total 1234\n";

// One request at a time is enough: libcurl fetches sequentially.
class LoopbackServer
{
public:
    LoopbackServer()
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        const int one = 1;
        ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0; // a free port
        ::bind(m_listen, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
        ::listen(m_listen, 8);
        socklen_t len = sizeof addr;
        ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~LoopbackServer()
    {
        m_stop = true;
        m_thread.join();
        ::close(m_listen);
    }
    std::string url(const std::string &path) const
    {
        return "http://127.0.0.1:" + std::to_string(m_port) + path;
    }
    std::vector<std::string> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }

private:
    static std::string response(int status, const std::string &reason, const std::string &body,
                                const std::string &extra = {}, bool length = true)
    {
        return "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\n" + extra +
               (length ? "Content-Length: " + std::to_string(body.size()) + "\r\n" : "") +
               "Connection: close\r\n\r\n" + body;
    }

    std::string answer(const std::string &request) const
    {
        const size_t sp = request.find(' ');
        const std::string target = request.substr(sp + 1, request.find(' ', sp + 1) - sp - 1);
        const std::string path = target.substr(0, target.find('?'));
        if (path == "/good.prom")
            return response(200, "OK", kProm);
        if (path == "/loop")
            return response(302, "Found", "", "Location: /loop\r\n");
        if (path == "/slow.prom") {
            // Longer than the test's 1 s --timeout: the answer never arrives in time.
            std::this_thread::sleep_for(std::chrono::milliseconds(1600));
            return response(200, "OK", kProm);
        }
        if (path == "/moved.prom")
            return response(301, "Moved Permanently", "", "Location: /good.prom\r\n");
        if (path == "/big.prom")
            return response(200, "OK", std::string(4096, '#'));
        if (path == "/big-unknown-length.prom")
            return response(200, "OK", std::string(64 * 1024, '#'), {}, false);
        if (path == "/secret.prom") {
            if (request.find("Authorization: Bearer " + kToken + "\r\n") == std::string::npos)
                return response(401, "Unauthorized", "no token\n");
            return response(200, "OK", kProm);
        }
        return response(404, "Not Found", "not here\n");
    }

    void serve()
    {
        while (!m_stop) {
            pollfd p{m_listen, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            const int fd = ::accept(m_listen, nullptr, nullptr);
            if (fd < 0)
                continue;
            std::string request;
            char buf[4096];
            while (request.find("\r\n\r\n") == std::string::npos) {
                const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
                if (n <= 0)
                    break;
                request.append(buf, size_t(n));
            }
            {
                std::lock_guard lock(m_mutex);
                m_requests.push_back(request);
            }
            const std::string out = answer(request);
            size_t sent = 0;
            while (sent < out.size()) {
                const ssize_t n = ::send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
                if (n <= 0)
                    break;
                sent += size_t(n);
            }
            ::close(fd);
        }
    }

    int m_listen = -1;
    uint16_t m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::vector<std::string> m_requests;
};

class UrlImportTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_dbPath = m_dir.filePath(QStringLiteral("store.db")).toStdString();
        m_store = std::make_unique<Store>(m_dbPath);
        m_service = std::make_unique<ImportService>(*m_store);
        // No netrc of the machine's user may answer for the test server.
        qputenv("NETRC", m_dir.filePath(QStringLiteral("netrc")).toUtf8());
    }
    void TearDown() override
    {
        qunsetenv("NETRC");
        qunsetenv("PLIMSOLL_HTTP_BEARER");
    }
    SourceReport import(const std::string &url, int64_t maxBytes = 256LL * 1024 * 1024)
    {
        ImportRequest request{url, {}, false, false};
        request.maxBytes = maxBytes;
        return m_service->importFile(request);
    }
    // Everything a user could find written down: the store and its log.
    std::string storeBytes() const
    {
        std::string all;
        for (const QString &suffix : {QString(), QStringLiteral("-wal")}) {
            QFile f(QString::fromStdString(m_dbPath) + suffix);
            if (f.open(QIODevice::ReadOnly))
                all += f.readAll().toStdString();
        }
        return all;
    }
    int64_t runCount() const { return int64_t(m_store->runs({}).size()); }

    QTemporaryDir m_dir;
    std::string m_dbPath;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<ImportService> m_service;
    LoopbackServer m_server;
};

} // namespace

TEST_F(UrlImportTest, GoodFileImportsThroughTheSamePathAsAFile)
{
    const SourceReport r = import(m_server.url("/good.prom"));
    ASSERT_EQ(r.status, "imported") << r.errorText;
    EXPECT_EQ(r.format, "prometheus");
    EXPECT_EQ(r.uri, m_server.url("/good.prom"));
    EXPECT_EQ(r.runs, 1);
    EXPECT_EQ(runCount(), 1);
    // The same bytes again: unchanged, as for a file.
    EXPECT_EQ(import(m_server.url("/good.prom")).status, "unchanged");
}

TEST_F(UrlImportTest, NotFoundNamesTheUrlAndStatus)
{
    const SourceReport r = import(m_server.url("/nothing.json"));
    EXPECT_EQ(r.status, "failed");
    EXPECT_EQ(r.errorText, "GET " + m_server.url("/nothing.json") + ": HTTP 404");
    EXPECT_EQ(runCount(), 0);
}

TEST_F(UrlImportTest, RedirectLoopIsBounded)
{
    const SourceReport r = import(m_server.url("/loop"));
    EXPECT_EQ(r.status, "failed");
    EXPECT_NE(r.errorText.find("GET " + m_server.url("/loop") + ": more than 5 redirects"),
              std::string::npos)
        << r.errorText;
    EXPECT_EQ(m_server.requests().size(), 6u); // the first request and five redirects
}

TEST_F(UrlImportTest, RedirectIsFollowedAndTheSourceKeepsTheUrlAsked)
{
    const SourceReport r = import(m_server.url("/moved.prom"));
    ASSERT_EQ(r.status, "imported") << r.errorText;
    EXPECT_EQ(r.uri, m_server.url("/moved.prom"));
    EXPECT_EQ(runCount(), 1);
    ASSERT_EQ(m_server.requests().size(), 2u);
    EXPECT_EQ(m_server.requests().back().rfind("GET /good.prom ", 0), 0u);
}

TEST_F(UrlImportTest, SlowServerTimesOutNamingBothLimits)
{
    ImportRequest request{m_server.url("/slow.prom"), {}, false, false};
    request.timeoutS = 1;
    const SourceReport r = m_service->importFile(request);
    EXPECT_EQ(r.status, "failed");
    EXPECT_EQ(r.errorText, "GET " + m_server.url("/slow.prom") +
                               ": timed out (connect 10 s, whole transfer 1 s; --timeout)");
    EXPECT_EQ(runCount(), 0);
}

TEST_F(UrlImportTest, OverSizeBodyIsRefusedAndNothingWritten)
{
    for (const char *path : {"/big.prom", "/big-unknown-length.prom"}) {
        const SourceReport r = import(m_server.url(path), 1024);
        EXPECT_EQ(r.status, "failed") << path;
        EXPECT_NE(r.errorText.find("larger than the 1024 bytes limit; refused"), std::string::npos)
            << r.errorText;
    }
    EXPECT_EQ(runCount(), 0);
}

TEST_F(UrlImportTest, BearerTokenIsSentButNeverStoredOrShown)
{
    const std::string url = m_server.url("/secret.prom?token=" + kToken + "&step=4");
    const SourceReport denied = import(url);
    EXPECT_EQ(denied.status, "failed");
    EXPECT_EQ(denied.errorText.find(kToken), std::string::npos) << denied.errorText;
    EXPECT_NE(denied.errorText.find("HTTP 401"), std::string::npos);

    qputenv("PLIMSOLL_HTTP_BEARER", QByteArray::fromStdString(kToken));
    const SourceReport r = import(url);
    ASSERT_EQ(r.status, "imported") << r.errorText;
    EXPECT_EQ(r.uri, m_server.url("/secret.prom?token=REDACTED&step=4"));
    EXPECT_NE(m_server.requests().back().find("Authorization: Bearer " + kToken),
              std::string::npos);
    EXPECT_EQ(r.toJson().dump().find(kToken), std::string::npos);
    m_store.reset(); // flush and close before reading the files
    EXPECT_EQ(storeBytes().find(kToken), std::string::npos);
}

TEST_F(UrlImportTest, InsecureIsAWarningInTheReport)
{
    ImportRequest request{m_server.url("/good.prom"), {}, true, false};
    request.insecure = true;
    const SourceReport r = m_service->importFile(request);
    ASSERT_EQ(r.status, "checked") << r.errorText;
    ASSERT_FALSE(r.warnings.empty());
    EXPECT_EQ(r.warnings.front().kind, "tls-unverified");
}

TEST(UrlFetcher, RedactsUserinfoAndCredentialParameters)
{
    EXPECT_EQ(UrlFetcher::redactUrl("https://ann:pw@ci.example/r.json?api_key=1&sig=2&run=7"),
              "https://ci.example/r.json?api_key=REDACTED&sig=REDACTED&run=7");
    EXPECT_EQ(UrlFetcher::redactUrl("https://s3.example/b/r.json?X-Amz-Signature=ab&X-Amz-Credential=cd"),
              "https://s3.example/b/r.json?X-Amz-Signature=REDACTED&X-Amz-Credential=REDACTED");
    EXPECT_TRUE(UrlFetcher::isUrl("HTTPS://x"));
    EXPECT_FALSE(UrlFetcher::isUrl("/tmp/http://x"));
}
