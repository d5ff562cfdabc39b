// `plimsoll bench … --agents N` against the real broker of tests/services: N agent processes
// on this machine, one merged result.
#include "model/core/hdrhistogram.h"
#include "runner/kafkaclient.h"
#include "benchtestsupport.h"
#include "brokerbinarytest.h"

#include <gtest/gtest.h>

#include <QByteArray>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

using namespace std::chrono_literals;

namespace plimsoll {
namespace {

std::string unique(const std::string &purpose) { return test::uniqueTopic("plimsoll-test-fleet", purpose); }

class Fleet : public test::BrokerBinaryTest
{
protected:

    QProcess *start(QStringList args)
    {
        args = QStringList{"--db", m_dir.filePath("store.db"), "bench"} + args
             + QStringList{"--bootstrap-server", m_bootstrap};
        m_process.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(m_process.waitForStarted());
        return &m_process;
    }

    nlohmann::json finish(int *exitCode)
    {
        EXPECT_TRUE(m_process.waitForFinished(170000)) << "the fleet did not finish";
        *exitCode = m_process.exitCode();
        m_err = m_process.readAllStandardError().toStdString();
        return nlohmann::json::parse(m_process.readAllStandardOutput().toStdString(), nullptr, false);
    }

    // Every value of one tag ("ack") in an HdrHistogram interval log, as one histogram.
    static HdrHistogram fromLog(const std::string &path, const std::string &tag, HdrHistogram into)
    {
        std::ifstream in(path);
        EXPECT_TRUE(in) << path;
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("Tag=" + tag + ",", 0) != 0)
                continue;
            const std::string base64 = line.substr(line.rfind(',') + 1);
            const QByteArray bytes = QByteArray::fromBase64(QByteArray::fromStdString(base64));
            std::string error;
            auto h = HdrHistogram::decode(std::string_view(bytes.constData(), size_t(bytes.size())), &error);
            EXPECT_TRUE(h) << path << ": " << error;
            if (h)
                into.add(*h);
        }
        return into;
    }

};

// Four agents, one round trip: a coordinated start, each agent matching its own partitions,
// the counts adding up to what the topic holds and the percentiles those of every value at once.
TEST_F(Fleet, FourAgentsStartTogetherAndMergeExactly)
{
    const std::string topic = unique("four");
    const QString log = m_dir.filePath("fleet.hlog");
    start({"roundtrip", "--agents", "4", "--records", "24000", "--rate", "8000", "--partitions", "8", "--topic",
           QString::fromStdString(topic), "--create-topic", "--histogram-log", log, "--output", "json", "--no-store"});
    int exitCode = -1;
    const auto result = finish(&exitCode);
    ASSERT_TRUE(result.is_object()) << m_err;
    ASSERT_EQ(exitCode, 0) << result.value("errors", nlohmann::json()).dump() << m_err;
    EXPECT_EQ(result["status"], "ok");

    ASSERT_EQ(result["agents"].size(), 4u) << result["agents"].dump();
    std::set<int> producerIds, partitions;
    for (const auto &agent : result["agents"]) {
        EXPECT_EQ(agent["status"], "ok") << agent.dump();
        EXPECT_EQ(agent["records"], 6000) << agent.dump();
        EXPECT_LT(agent["start_late_s"].get<double>(), 0.05) << "an agent was ready after the start instant";
        for (int id = agent["producer_ids"][0]; id <= agent["producer_ids"][1].get<int>(); ++id)
            EXPECT_TRUE(producerIds.insert(id).second) << "producer id " << id << " shared by two agents";
        for (int p : agent["partitions"])
            EXPECT_TRUE(partitions.insert(p).second) << "partition " << p << " read by two agents";
    }
    EXPECT_EQ(partitions.size(), 8u);

    EXPECT_EQ(result["tuning"]["agents"], "4");
    EXPECT_EQ(result["tuning"]["producers"], "4");
    EXPECT_EQ(result["tuning"]["rate"], "8000");
    EXPECT_EQ(result["config"]["records"], 24000);
    ASSERT_EQ(result["scenarios"].size(), 1u);
    const auto &m = result["scenarios"][0]["metrics"];
    // The coordinated start: every agent's first record within 100 ms of the others'.
    EXPECT_LT(m["fleet.first_send_spread_s"].get<double>(), 0.1) << m.dump();
    EXPECT_EQ(m["roundtrip.matched"], 24000);
    EXPECT_EQ(m["roundtrip.missing"], 0);
    EXPECT_EQ(m["roundtrip.duplicate"], 0);
    EXPECT_EQ(m["producer.acknowledged"], 24000);
    KafkaClient client({{"bootstrap.servers", m_bootstrap.toStdString()}});
    int64_t onTopic = -1;
    ASSERT_TRUE(client.countRecords(topic, onTopic, 30000ms).ok());
    EXPECT_EQ(onTopic, 24000) << "the summed counts are not what the topic received";
    double perAgent = 0;
    for (int i = 0; i < 4; ++i)
        perAgent += m["agents." + std::to_string(i) + ".records_per_s"].get<double>();
    EXPECT_NEAR(m["records_per_s"].get<double>(), perAgent, perAgent * 0.05) << "same windows: the rates add up";

    // Exact: the fleet's percentiles are those of one histogram of every agent's logged values.
    HdrHistogram ack(1, 3600LL * 1000 * 1000, 3), e2e(1, 3600LL * 1000 * 1000, 3);
    for (int i = 0; i < 4; ++i) {
        const std::string agentLog = log.toStdString() + ".agent" + std::to_string(i);
        ack = fromLog(agentLog, "ack", std::move(ack));
        e2e = fromLog(agentLog, "e2e", std::move(e2e));
    }
    ASSERT_EQ(ack.totalCount(), 24000);
    for (const auto &[name, percentile] : {std::pair{"p50", 50.0}, {"p99", 99.0}, {"p999", 99.9}}) {
        EXPECT_DOUBLE_EQ(m[std::string("latency_") + name + "_s"].get<double>(), ack.valueAtPercentile(percentile) * 1e-6)
            << name;
        EXPECT_DOUBLE_EQ(m[std::string("e2e.latency_") + name + "_s"].get<double>(),
                         e2e.valueAtPercentile(percentile) * 1e-6)
            << name;
    }
    EXPECT_DOUBLE_EQ(m["latency_max_s"].get<double>(), ack.max() * 1e-6);
    client.deleteTopic(topic, 30000ms);
}

// An agent killed mid-run: the others finish, the fleet's result is partial, names it, exit 1.
TEST_F(Fleet, AnAgentKilledMidRunIsNamedAndTheResultIsPartial)
{
    const std::string runId = unique("killed");
    start({"producer", "--agents", "3", "--duration", "10s", "--rate", "1500", "--run-id",
           QString::fromStdString(runId), "--output", "json"});
    pid_t agent = -1;
    for (int i = 0; i < 100 && agent < 0; ++i, std::this_thread::sleep_for(100ms))
        agent = test::processWith({runId, "--agent-index 1 "});
    ASSERT_GT(agent, 0) << "agent 1 never appeared";
    std::this_thread::sleep_for(7s); // past the start instant (4 s), into the measured window
    ASSERT_EQ(::kill(agent, SIGKILL), 0);
    int exitCode = -1;
    const auto result = finish(&exitCode);
    ASSERT_TRUE(result.is_object()) << m_err;
    EXPECT_EQ(exitCode, 1);
    EXPECT_EQ(result["status"], "failed");
    EXPECT_TRUE(result["partial"].get<bool>());
    const std::string errors = result["errors"].dump();
    EXPECT_NE(errors.find("agent 1 was killed by signal 9 before reporting its result"), std::string::npos) << errors;
    ASSERT_EQ(result["agents"].size(), 3u);
    EXPECT_EQ(result["agents"][1]["status"], "died");
    EXPECT_EQ(result["agents"][0]["status"], "ok");
    EXPECT_EQ(result["agents"][2]["status"], "ok");
    // The two that finished are still counted.
    ASSERT_EQ(result["scenarios"].size(), 1u);
    EXPECT_GT(result["scenarios"][0]["metrics"]["producer.acknowledged"].get<double>(), 2 * 1500 / 3 * 9);
}

// Ctrl-C at the coordinator stops every agent once: each keeps its partial result, and the
// fleet's is interrupted (exit 130), never failed.
TEST_F(Fleet, AStopReachesEveryAgentAndKeepsTheirPartialResults)
{
    start({"producer", "--agents", "2", "--duration", "30s", "--rate", "1000", "--output", "json", "--no-store"});
    std::this_thread::sleep_for(7s);
    ASSERT_EQ(::kill(static_cast<pid_t>(m_process.processId()), SIGINT), 0);
    int exitCode = -1;
    const auto result = finish(&exitCode);
    ASSERT_TRUE(result.is_object()) << m_err;
    EXPECT_EQ(exitCode, 130) << result.value("errors", nlohmann::json()).dump();
    EXPECT_EQ(result["status"], "interrupted");
    ASSERT_EQ(result["agents"].size(), 2u);
    for (const auto &agent : result["agents"])
        EXPECT_EQ(agent["status"], "interrupted") << agent.dump();
    EXPECT_GT(result["scenarios"][0]["metrics"]["producer.acknowledged"].get<double>(), 1000);
}

// Agents started by someone else (as a Kubernetes Job's pods are), their logs gathered, one file
// each, and merged: the same result as the local launcher's; a log missing is named.
TEST_F(Fleet, AgentsLogsGatheredByHandMergeIntoOneResult)
{
    const std::string topic = unique("merge"), runId = unique("merge-run");
    const int64_t startAt = std::chrono::duration_cast<std::chrono::milliseconds>(
                                (std::chrono::system_clock::now() + 4s).time_since_epoch())
                                .count();
    QStringList logs;
    std::vector<std::unique_ptr<QProcess>> agents;
    for (int i = 0; i < 2; ++i) {
        auto agent = std::make_unique<QProcess>();
        agent->setProcessChannelMode(QProcess::MergedChannels); // as kubectl logs gives both
        logs << m_dir.filePath(QString("pod-%1.log").arg(i));
        agent->setStandardOutputFile(logs.back());
        agent->start(PLIMSOLL_BINARY, {"bench", "roundtrip", "--bootstrap-server", m_bootstrap, "--topic",
                                       QString::fromStdString(topic), "--create-topic", "--partitions", "4",
                                       "--records", "6000", "--rate", "3000", "--agents", "2", "--agent-index",
                                       QString::number(i), "--start-at", QString::number(startAt), "--run-id",
                                       QString::fromStdString(runId), "--no-store", "--output", "jsonl"});
        agents.push_back(std::move(agent));
    }
    for (auto &agent : agents) {
        ASSERT_TRUE(agent->waitForFinished(120000));
        EXPECT_EQ(agent->exitCode(), 0);
    }
    const auto merge = [&](const QStringList &files) {
        QProcess p;
        p.start(PLIMSOLL_BINARY, QStringList{"--db", m_dir.filePath("store.db"), "bench", "merge"} + files
                                     + QStringList{"--output", "json"});
        EXPECT_TRUE(p.waitForFinished(60000));
        return std::make_pair(p.exitCode(), p.readAllStandardOutput().toStdString() + p.readAllStandardError().toStdString());
    };
    const auto [code, out] = merge(logs);
    ASSERT_EQ(code, 0) << out;
    const auto result = nlohmann::json::parse(out.substr(0, out.rfind('}') + 1));
    EXPECT_EQ(result["run_id"], runId);
    EXPECT_EQ(result["scenarios"][0]["metrics"]["roundtrip.matched"], 6000);
    EXPECT_EQ(result["scenarios"][0]["metrics"]["roundtrip.missing"], 0);
    EXPECT_LT(result["scenarios"][0]["metrics"]["fleet.first_send_spread_s"].get<double>(), 0.1);
    EXPECT_EQ(result["agents"].size(), 2u);

    const auto [partialCode, partial] = merge({logs[0]});
    EXPECT_EQ(partialCode, 1);
    EXPECT_NE(partial.find("agent 1 reported nothing: its report is not among the files given"), std::string::npos)
        << partial;
    const QString stranger = m_dir.filePath("not-a-pod.log");
    std::ofstream(stranger.toStdString()) << "plimsoll: note: nothing here\n";
    const auto [refused, why] = merge({logs[0], stranger});
    EXPECT_EQ(refused, 2);
    EXPECT_NE(why.find(stranger.toStdString() + ": no bench result in it"), std::string::npos) << why;
}

} // namespace
} // namespace plimsoll
