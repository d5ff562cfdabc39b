// A canary secret through every path a bench run writes: --command-config with SASL, key,
// JAAS and Redis Enterprise passwords (against the shared broker, where they are unused, and against a SASL
// listener, where the password is wrong), every --output, --result-file, --histogram-log,
// the store (database, WAL), and what `runs`, `show`, `export` and `report` print from it.
// Then every byte written is searched for the canary.
#include "security/securebrokerenv.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QUuid>

#include <string>
#include <vector>

namespace plimsoll::test {
namespace {

std::string secretsConfig(const std::string &canary, const std::string &protocol)
{
    return "security.protocol=" + protocol + "\n"
           "sasl.mechanism=PLAIN\n"
           "sasl.username=plimsoll\n"
           "sasl.password=" + canary + "\n"
           "ssl.key.password=" + canary + "\n"
           "plimsoll.re.user=admin\n"
           "plimsoll.re.password=" + canary + "\n"
           "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
           "username=\"plimsoll\" password=\"" + canary + "\";\n";
}

TEST(SecuritySecrets, CanaryNeverLeavesTheCommandConfig)
{
    const std::string canary = makeCanary();
    const auto shared = sharedBroker();
    const auto secure = secureBroker();
    QTemporaryDir dir;
    const QString db = dir.filePath("store.db");
    std::vector<CliRun> runs;
    auto plimsoll = [&](QStringList args, int timeout = 180) {
        runs.push_back(runPlimsoll(QStringList{"--db", db} + args, timeout));
        return runs.back();
    };

    struct Target
    {
        std::string bootstrap, protocol, output;
    };
    const std::vector<Target> targets = {
        {shared.at("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"), "PLAINTEXT", "text"},
        {shared.at("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"), "PLAINTEXT", "jsonl"},
        {secure.at("PLIMSOLL_TEST_KAFKA_SASL_BOOTSTRAP"), "SASL_PLAINTEXT", "json"},
    };
    int n = 0;
    for (const Target &t : targets) {
        const QString tag = QString::number(n++);
        const QString config = dir.filePath("client-" + tag + ".properties");
        ASSERT_TRUE(writeText(config, secretsConfig(canary, t.protocol)));
        const CliRun r = plimsoll({"bench", "producer", "--bootstrap-server",
                                   QString::fromStdString(t.bootstrap), "--topic",
                                   "canary-" + QUuid::createUuid().toString(QUuid::WithoutBraces),
                                   "--create-topic", "--records", "300", "--record-size", "128",
                                   "--timeout", "8s", "--command-config", config, "--output",
                                   QString::fromStdString(t.output), "--result-file",
                                   dir.filePath("result-" + tag + ".json"), "--histogram-log",
                                   dir.filePath("latency-" + tag + ".hlog")});
        EXPECT_FALSE(r.crashed) << r.err;
        const QJsonObject result = readJsonObject(dir.filePath("result-" + tag + ".json"));
        ASSERT_FALSE(result.isEmpty()) << "no result file: " << r.err;
        // The secret reached the run (so this test can see a leak), masked.
        EXPECT_NE(QJsonDocument(result).toJson().indexOf("<masked>"), -1)
            << "the result file shows no masked secret: the canary never reached the run";
        if (t.protocol == "SASL_PLAINTEXT") {
            EXPECT_EQ(r.exitCode, 1) << "a wrong SASL password must fail the run";
        }
    }

    // Everything that reads the store back.
    const CliRun list = plimsoll({"runs", "--json"});
    ASSERT_EQ(list.exitCode, 0) << list.err;
    for (const QJsonValue &run : QJsonDocument::fromJson(QByteArray::fromStdString(list.out)).array())
        plimsoll({"show", run.toObject().value("run_key").toString(), "--json"});
    for (const char *format : {"otava-csv", "csv", "json", "jsonl"})
        plimsoll({"export", "--format", format, "--out", dir.filePath(QString("export.") + format)});
    for (const char *format : {"md", "html"})
        plimsoll({"report", "--format", format, "--rate", "10k", "--out",
                  dir.filePath(QString("report.") + format)}, 300);

    // Keep what was written for a post-mortem; the canary is unique to this process, so a
    // hit anywhere under test-artifacts/ can only come from here.
    const QString artifacts = QString(PLIMSOLL_ARTIFACT_DIR) + "/security-canary";
    QDir().mkpath(artifacts);
    for (const QString &name : QDir(dir.path()).entryList(QDir::Files | QDir::Hidden))
        if (!name.endsWith(".properties")) {
            QFile::remove(artifacts + "/" + name);
            QFile::copy(dir.filePath(name), artifacts + "/" + name);
        }
    int i = 0;
    for (const CliRun &r : runs) {
        EXPECT_EQ(r.out.find(canary), std::string::npos) << "stdout of command " << i << ": " << r.out;
        EXPECT_EQ(r.err.find(canary), std::string::npos) << "stderr of command " << i << ": " << r.err;
        writeText(artifacts + QString("/command-%1.out").arg(i), r.out);
        writeText(artifacts + QString("/command-%1.err").arg(i), r.err);
        ++i;
    }
    std::vector<std::string> hits;
    for (const std::string &file : filesContaining(dir.path(), canary))
        if (!QString::fromStdString(file).endsWith(".properties"))
            hits.push_back(file);
    EXPECT_TRUE(hits.empty()) << "the canary is in " << hits.front();
    const auto artifactHits = filesContaining(PLIMSOLL_ARTIFACT_DIR, canary);
    EXPECT_TRUE(artifactHits.empty()) << "the canary is in " << artifactHits.front();
    EXPECT_TRUE(QFile::exists(db)) << "the store was never written, so it was never searched";
}

} // namespace
} // namespace plimsoll::test
