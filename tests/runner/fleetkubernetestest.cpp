// `plimsoll bench … --agents N --launcher kubernetes` applying its Job with kubectl. No API server
// or kubelet runs here, so kubectl is tests/runner/kubectl/kubectl-standin: it answers the
// commands Plimsoll issues as a cluster would and runs each pod's container command on this
// machine, as the kubelet would run it, against the real test broker.
#include "benchtestsupport.h"
#include "runner/kubernetesjob.h"
#include "brokerbinarytest.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <csignal>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

namespace plimsoll {
namespace {

class FleetKubernetes : public test::BrokerBinaryTest
{
protected:

    nlohmann::json bench(const QStringList &args, int *exitCode, bool context = true)
    {
        start(args, context);
        return finish(exitCode);
    }

    void start(const QStringList &args, bool context = true)
    {
        QProcess &p = m_process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PLIMSOLL_KUBECTL_STATE", m_dir.filePath("cluster"));
        env.insert("PLIMSOLL_BINARY", PLIMSOLL_BINARY);
        // Where a run without --out keeps its manifest and the pods' logs: the test's own directory.
        env.insert("TMPDIR", m_dir.path());
        if (!context)
            env.insert("PLIMSOLL_KUBECTL_NO_CONTEXT", "1");
        p.setProcessEnvironment(env);
        p.start(PLIMSOLL_BINARY, QStringList{"--db", m_dir.filePath("store.db"), "bench"} + args
                                     + QStringList{"--bootstrap-server", m_bootstrap, "--launcher", "kubernetes",
                                                   "--image", "registry.example/plimsoll:test", "--kubectl",
                                                   KUBECTL_STANDIN, "--output", "json"});
        EXPECT_TRUE(p.waitForStarted());
    }

    nlohmann::json finish(int *exitCode)
    {
        EXPECT_TRUE(m_process.waitForFinished(170000)) << "the fleet did not finish";
        *exitCode = m_process.exitCode();
        m_err = m_process.readAllStandardError().toStdString();
        return nlohmann::json::parse(m_process.readAllStandardOutput().toStdString(), nullptr, false);
    }

    // Every kubectl command Plimsoll issued, in order.
    std::vector<nlohmann::json> commands() const
    {
        std::vector<nlohmann::json> out;
        std::ifstream in(m_dir.filePath("cluster/commands.jsonl").toStdString());
        for (std::string line; std::getline(in, line);)
            out.push_back(nlohmann::json::parse(line));
        return out;
    }

};

// Applied, followed, each pod's log read and merged, the Job deleted by its name and labels.
TEST_F(FleetKubernetes, TheJobIsAppliedFollowedMergedAndDeleted)
{
    const QString topic = QString::fromStdString(test::uniqueTopic("plimsoll-test-kubernetes", "applied"));
    const QString out = m_dir.filePath("manifests");
    int exitCode = -1;
    const auto result = bench({"roundtrip", "--agents", "3", "--records", "6000", "--rate", "3000", "--partitions",
                               "6", "--topic", topic, "--start-margin", "8s", "--out", out, "--timeout", "10s"},
                              &exitCode);
    ASSERT_TRUE(result.is_object()) << m_err;
    ASSERT_EQ(exitCode, 0) << result.value("errors", nlohmann::json()).dump() << m_err;
    EXPECT_EQ(result["scenarios"][0]["metrics"]["roundtrip.matched"], 6000);
    EXPECT_EQ(result["scenarios"][0]["metrics"]["roundtrip.missing"], 0);
    ASSERT_EQ(result["agents"].size(), 3u);
    for (const auto &agent : result["agents"])
        EXPECT_EQ(agent["status"], "ok") << agent.dump();
    // A log per pod, kept beside the manifest.
    const QStringList logs = QDir(out).entryList({"*.log"}, QDir::Files);
    EXPECT_EQ(logs.size(), 3) << logs.join(' ').toStdString();
    const auto issued = commands();
    ASSERT_GE(issued.size(), 5u);
    EXPECT_EQ(issued[0], nlohmann::json::array({"config", "current-context"}));
    EXPECT_EQ(issued[1][0], "apply");
    const std::string job = "plimsoll-" + result["run_id"].get<std::string>();
    const auto &last = issued.back();
    ASSERT_EQ(last[0], "delete") << last.dump();
    EXPECT_NE(last.dump().find("metadata.name=" + job), std::string::npos) << last.dump();
    EXPECT_NE(last.dump().find(std::string(kRunIdKey) + "=" + job), std::string::npos) << last.dump();
    QFile jobs(m_dir.filePath("cluster/jobs.json"));
    ASSERT_TRUE(jobs.open(QIODevice::ReadOnly));
    EXPECT_EQ(nlohmann::json::parse(jobs.readAll().toStdString()).size(), 0u) << "the Job is left behind";
}

// A pod whose agent is killed fails the Job; Kubernetes then ends its other pods. Both are named,
// with what the cluster said of them, and the result is partial, exit 1.
TEST_F(FleetKubernetes, APodKilledMidRunFailsTheJobAndEveryAgentIsNamed)
{
    const std::string topic = test::uniqueTopic("plimsoll-test-kubernetes", "killed");
    start({"producer", "--agents", "2", "--records", "40000", "--rate", "2000", "--topic",
           QString::fromStdString(topic), "--start-margin", "6s", "--out", m_dir.filePath("manifests")});
    pid_t agent = -1;
    for (int i = 0; i < 200 && agent < 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        agent = test::processWith({topic, "--agent-index=1"});
    }
    ASSERT_GT(agent, 0) << "pod 1's agent never started";
    std::this_thread::sleep_for(std::chrono::seconds(8)); // past the start instant, mid-run
    ASSERT_EQ(::kill(agent, SIGKILL), 0);
    int exitCode = -1;
    const auto result = finish(&exitCode);
    ASSERT_TRUE(result.is_object()) << m_err;
    EXPECT_EQ(exitCode, 1);
    EXPECT_TRUE(result["partial"].get<bool>());
    const std::string errors = result["errors"].dump();
    EXPECT_NE(errors.find("agent 1 was killed by signal 9 before reporting its result"), std::string::npos) << errors;
    EXPECT_NE(errors.find("agent 0 ended before reporting its result: its pod was still Running when the Job ended"),
              std::string::npos)
        << errors;
}

// A fleet ramp on Kubernetes: one Job a step, each applied, merged and deleted before the next.
TEST_F(FleetKubernetes, AFleetRampAppliesOneJobAStep)
{
    const std::string topic = test::uniqueTopic("plimsoll-test-kubernetes", "ramp");
    int exitCode = -1;
    const auto result = bench({"ramp", "--agents-steps", "1,2", "--rate", "400", "--duration", "2s", "--warmup", "1s",
                               "--topic", QString::fromStdString(topic), "--create-topic", "--continue-past-saturation",
                               "--start-margin", "5s", "--out", m_dir.filePath("manifests")},
                              &exitCode);
    ASSERT_TRUE(result.is_object()) << m_err;
    ASSERT_EQ(exitCode, 0) << result.value("errors", nlohmann::json()).dump() << m_err;
    ASSERT_EQ(result["scenarios"].size(), 2u);
    for (int agents = 1; agents <= 2; ++agents) {
        const auto &s = result["scenarios"][agents - 1];
        EXPECT_EQ(s["name"], "bench/ramp/agents-" + std::to_string(agents));
        EXPECT_EQ(s["topology"]["agents"], agents);
        EXPECT_NEAR(s["metrics"]["records_per_s"].get<double>(), 400.0 * agents, 100.0 * agents) << s["metrics"].dump();
        EXPECT_GT(s["metrics"]["probe.records"].get<double>(), 0) << "the probe runs from this machine";
        EXPECT_EQ(QDir(m_dir.filePath("manifests/agents-" + QString::number(agents))).entryList({"*.log"}).size(),
                  agents);
    }
    int applied = 0, deleted = 0;
    for (const auto &c : commands()) {
        applied += c[0] == "apply";
        deleted += c[0] == "delete";
    }
    EXPECT_EQ(applied, 2);
    EXPECT_EQ(deleted, 2);
}

// No context configured: nothing is applied, and the user is told both ways on.
TEST_F(FleetKubernetes, WithoutAContextNothingIsAppliedAndTheDryRunIsNamed)
{
    int exitCode = -1;
    const auto result = bench({"producer", "--agents", "2", "--records", "100", "--start-margin", "5s"}, &exitCode,
                              false);
    EXPECT_EQ(exitCode, 1) << m_err;
    EXPECT_NE(m_err.find("no kubectl context to apply the Job with (error: current-context is not set): configure "
                         "one, or write the Job with --dry-run --out DIR"),
              std::string::npos)
        << m_err;
    for (const auto &c : commands())
        EXPECT_NE(c[0], "apply") << c.dump();
    // The Job written for it is kept for the user, in the temporary directory, to apply by hand.
    const QStringList kept = QDir(m_dir.path()).entryList({"plimsoll-kubernetes-*"}, QDir::Dirs);
    ASSERT_EQ(kept.size(), 1) << kept.join(' ').toStdString();
    EXPECT_EQ(QDir(m_dir.filePath(kept[0])).entryList({"plimsoll-*.json"}, QDir::Files).size(), 1);
}

} // namespace
} // namespace plimsoll
