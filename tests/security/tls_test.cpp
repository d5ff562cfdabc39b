// TLS to a Kafka listener whose certificate a CA made by the test signed
// (tests/security/securebroker.sh): trusted with ssl.ca.location, refused with another CA,
// and the refusal says it was the certificate.
#include "security/securebrokerenv.h"

#include <gtest/gtest.h>

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QUuid>


namespace plimsoll::test {
namespace {

CliRun benchOverTls(const QTemporaryDir &dir, const std::string &bootstrap, const std::string &ca,
                    const QString &resultFile)
{
    writeText(dir.filePath("tls.properties"),
              "security.protocol=SSL\nssl.ca.location=" + ca + "\n");
    return runPlimsoll({"--db", dir.filePath("store.db"), "bench", "producer",
                        "--bootstrap-server", QString::fromStdString(bootstrap), "--topic",
                        "tls-" + QUuid::createUuid().toString(QUuid::WithoutBraces),
                        "--create-topic", "--partitions", "2", "--records", "1000",
                        "--record-size", "512", "--timeout", "10s", "--command-config",
                        dir.filePath("tls.properties"), "--result-file", resultFile},
                       120);
}

TEST(SecurityTls, ProducesThroughTheTestCa)
{
    const auto env = secureBroker();
    QTemporaryDir dir;
    const QString resultFile = dir.filePath("result.json");
    const CliRun r = benchOverTls(dir, env.at("PLIMSOLL_TEST_KAFKA_SSL_BOOTSTRAP"),
                                  env.at("PLIMSOLL_TEST_CA"), resultFile);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const QJsonObject result = readJsonObject(resultFile);
    ASSERT_FALSE(result.isEmpty());
    const auto scenario = result.value("scenarios").toArray().at(0).toObject();
    EXPECT_EQ(scenario.value("metrics").toObject().value("producer.acknowledged").toDouble(), 1000);
}

TEST(SecurityTls, WrongCaFailsNamingCertificateVerification)
{
    const auto env = secureBroker();
    QTemporaryDir dir;
    const QString resultFile = dir.filePath("result.json");
    const CliRun r = benchOverTls(dir, env.at("PLIMSOLL_TEST_KAFKA_SSL_BOOTSTRAP"),
                                  env.at("PLIMSOLL_TEST_WRONG_CA"), resultFile);
    const std::string said = lowered(plimsollLines(r.out + r.err));
    EXPECT_FALSE(r.crashed);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(said.find("certificate verify failed"), std::string::npos) << said.substr(0, 1500);
    EXPECT_LT(r.seconds, 60);
    EXPECT_TRUE(readJsonObject(resultFile).value("partial").toBool());
}

// An https server with the broker's certificate (signed by the test CA, which no system
// store trusts): `openssl s_server -WWW` serving the files of `root`.
class HttpsServer
{
public:
    HttpsServer(const QString &tlsDir, const QString &root)
    {
        m_port = freeLoopbackPort();
        m_process.setWorkingDirectory(root);
        m_process.start("openssl", {"s_server", "-quiet", "-WWW", "-accept",
                                    QString("127.0.0.1:%1").arg(m_port), "-cert",
                                    tlsDir + "/server.crt", "-key", tlsDir + "/server.key"});
        for (int i = 0; i < 100; ++i) {
            if (portAccepts(m_port))
                return;
            QThread::msleep(100);
        }
    }
    ~HttpsServer()
    {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    QString url(const QString &file) const { return QString("https://127.0.0.1:%1/%2").arg(m_port).arg(file); }

private:
    QProcess m_process;
    int m_port = 0;
};

const char *const kTrend =
    R"({"format":"plimsoll-trend/1","run_key":"https-1","timestamp":"2026-04-01T00:00:00Z","scenario":"s","metrics":{"records_per_s":1}})"
    "\n";

TEST(SecurityTls, HttpsImportVerifiesCertificatesUnlessToldNot)
{
    const auto env = secureBroker();
    QTemporaryDir dir;
    ASSERT_TRUE(writeText(dir.filePath("nightly.jsonl"), kTrend));
    HttpsServer server(QFileInfo(QString::fromStdString(env.at("PLIMSOLL_TEST_CA"))).path(), dir.path());
    const QString db = dir.filePath("store.db");

    const CliRun refused = runPlimsoll({"--db", db, "import", server.url("nightly.jsonl")}, 60);
    EXPECT_EQ(refused.exitCode, 1) << refused.out << refused.err;
    EXPECT_NE(lowered(refused.out + refused.err).find("tls verification failed"), std::string::npos)
        << refused.out << refused.err;

    const CliRun insecure =
        runPlimsoll({"--db", db, "import", "--json", "--insecure", server.url("nightly.jsonl")}, 60);
    EXPECT_EQ(insecure.exitCode, 0) << insecure.out << insecure.err;
    EXPECT_NE(insecure.out.find("tls-unverified"), std::string::npos) << insecure.out;
}

TEST(SecurityTls, UrlImportGivesUpAtItsTimeout)
{
    // A server that accepts connections (the kernel's backlog does) and never answers.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(fd, 8), 0);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len);
    const QString url = QString("http://127.0.0.1:%1/results.json").arg(ntohs(addr.sin_port));
    QTemporaryDir dir;
    const CliRun r = runPlimsoll({"--db", dir.filePath("store.db"), "import", "--timeout", "3", url}, 60);
    ::close(fd);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_LT(r.seconds, 15) << "the import outlived its --timeout";
    EXPECT_NE(lowered(r.err + r.out).find("timed out"), std::string::npos) << r.err;
}

} // namespace
} // namespace plimsoll::test
