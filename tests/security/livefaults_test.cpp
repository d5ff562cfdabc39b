// Live-run faults a user meets on day one: a mistyped host, a closed port, a wrong password,
// a password where the listener takes none, a cluster that does not create topics on first
// use. Each must end with a verdict that names the cause, exit code 1, the partial result
// kept in --result-file, and no hang past --timeout.
#include "security/securebrokerenv.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <QUuid>

#include <string>
#include <vector>

namespace plimsoll::test {
namespace {

constexpr int kTimeoutS = 8;

struct Fault
{
    std::string bootstrap;
    std::vector<std::string> config;   // --command-config lines; none when empty
    std::vector<std::string> verdicts; // any one of these, lower case, in what Plimsoll itself said
    bool createTopic = true;
};

void expectVerdict(const Fault &fault, const std::string &name)
{
    QTemporaryDir dir;
    const QString resultFile = dir.filePath("result.json");
    QStringList args{"--db", dir.filePath("store.db"), "bench", "producer",
                     "--bootstrap-server", QString::fromStdString(fault.bootstrap),
                     "--topic", "fault-" + QUuid::createUuid().toString(QUuid::WithoutBraces),
                     "--records", "2000", "--record-size", "256",
                     "--timeout", QString("%1s").arg(kTimeoutS), "--result-file", resultFile};
    if (fault.createTopic)
        args << "--create-topic";
    if (!fault.config.empty()) {
        std::string text;
        for (const std::string &line : fault.config)
            text += line + "\n";
        ASSERT_TRUE(writeText(dir.filePath("client.properties"), text));
        args << "--command-config" << dir.filePath("client.properties");
    }
    // The bound: admin, flush and drain each wait at most --timeout; anything past a few of
    // them is a hang.
    const CliRun r = runPlimsoll(args, 6 * kTimeoutS + 30);
    const std::string said = lowered(plimsollLines(r.out + r.err));
    SCOPED_TRACE(name + ": exit " + std::to_string(r.exitCode) + " after " +
                 std::to_string(r.seconds) + " s; output: " + said.substr(0, 1200));
    std::printf("%s: exit %d in %.1f s\n", name.c_str(), r.exitCode, r.seconds);
    EXPECT_FALSE(r.timedOut) << "hung past its --timeout";
    EXPECT_FALSE(r.crashed);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_LT(r.seconds, 4 * kTimeoutS + 10);
    bool named = false;
    for (const std::string &v : fault.verdicts)
        named = named || said.find(v) != std::string::npos;
    EXPECT_TRUE(named) << "the message does not name the cause";
    const QJsonObject result = readJsonObject(resultFile);
    ASSERT_FALSE(result.isEmpty()) << "no result file kept";
    EXPECT_TRUE(result.value("partial").toBool()) << "the result file does not say it is partial";
}

TEST(SecurityLiveFaults, DnsFailure)
{
    expectVerdict({"plimsoll-no-such-host.invalid:9092", {}, {"failed to resolve"}},
                  "dns failure");
}

TEST(SecurityLiveFaults, ConnectionRefused)
{
    expectVerdict({"127.0.0.1:" + std::to_string(freeLoopbackPort()), {}, {"connection refused"}},
                  "connection refused");
}

TEST(SecurityLiveFaults, WrongSaslPassword)
{
    const auto env = secureBroker();
    expectVerdict({env.at("PLIMSOLL_TEST_KAFKA_SASL_BOOTSTRAP"),
                   {"security.protocol=SASL_PLAINTEXT", "sasl.mechanism=PLAIN",
                    "sasl.username=plimsoll", "sasl.password=not-the-password"},
                   {"authentication failed"}},
                  "wrong SASL password");
}

TEST(SecurityLiveFaults, SaslAgainstAPlaintextListener)
{
    const auto env = sharedBroker();
    expectVerdict({env.at("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"),
                   {"security.protocol=SASL_PLAINTEXT", "sasl.mechanism=PLAIN",
                    "sasl.username=plimsoll", "sasl.password=whatever"},
                   {"handshake failed"}},
                  "SASL against PLAINTEXT");
}

TEST(SecurityLiveFaults, TopicAutoCreationDisabled)
{
    const auto env = secureBroker();
    Fault fault{env.at("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"), {},
                {"unknown topic", "does not exist", "unknown_topic"}};
    fault.createTopic = false;
    expectVerdict(fault, "topic auto-creation disabled");
}

} // namespace
} // namespace plimsoll::test
