// `plimsoll bench ramp --agents-steps …` against the real broker of tests/services: each step a
// local fleet of that many agents, one ramp result, and the Scaling fit with agents as its factor.
#include "runner/kafkaclient.h"
#include "benchtestsupport.h"
#include "brokerbinarytest.h"

#include <gtest/gtest.h>

#include <QProcess>
#include <QTemporaryDir>


#include <nlohmann/json.hpp>

using namespace std::chrono_literals;

namespace plimsoll {
namespace {

class FleetRamp : public test::BrokerBinaryTest
{
protected:

    // plimsoll with `args` on the test's store; its standard output, and its exit code in *exitCode.
    std::string plimsoll(const QStringList &args, int *exitCode)
    {
        QProcess p;
        p.start(PLIMSOLL_BINARY, QStringList{"--db", m_dir.filePath("store.db")} + args);
        EXPECT_TRUE(p.waitForFinished(170000)) << "plimsoll " << args.join(' ').toStdString() << " did not finish";
        *exitCode = p.exitCode();
        m_err = p.readAllStandardError().toStdString();
        return p.readAllStandardOutput().toStdString();
    }

};

// Three steps of 1, 2 and 3 agents, each agent offering 500 records/s: one result whose steps
// carry their agents, each agent's rate and the probe's latency, the topic holding every record
// the steps acknowledged, and the fit over agents read back from the store.
TEST_F(FleetRamp, StepsOfAgentsMakeOneRampTheScalingFitReadsByAgents)
{
    const std::string topic = test::uniqueTopic("plimsoll-test-fleet", "ramp");
    int exitCode = -1;
    const std::string out = plimsoll({"bench", "ramp", "--agents-steps", "1,2,3", "--rate", "500", "--duration", "2s",
                                      "--warmup", "1s", "--partitions", "6", "--topic", QString::fromStdString(topic),
                                      "--create-topic", "--continue-past-saturation", "--probe-rate", "50",
                                      "--bootstrap-server", m_bootstrap, "--output", "json"},
                                     &exitCode);
    const auto result = nlohmann::json::parse(out, nullptr, false);
    ASSERT_TRUE(result.is_object()) << out << m_err;
    ASSERT_EQ(exitCode, 0) << result.value("errors", nlohmann::json()).dump() << m_err;
    EXPECT_EQ(result["workload"], "ramp");
    EXPECT_EQ(result["config"]["agents_steps"], nlohmann::json::array({1, 2, 3}));
    ASSERT_EQ(result["scenarios"].size(), 3u) << result["scenarios"].dump();
    double acknowledged = 0;
    for (int agents = 1; agents <= 3; ++agents) {
        const auto &s = result["scenarios"][agents - 1];
        SCOPED_TRACE(s["name"].dump() + " " + s["metrics"].dump());
        EXPECT_EQ(s["name"], "bench/ramp/agents-" + std::to_string(agents));
        EXPECT_EQ(s["kind"], "ramp-step");
        EXPECT_EQ(s["topology"]["agents"], agents);
        EXPECT_EQ(s["topology"]["producers"], agents) << "one producer client per agent";
        const auto &m = s["metrics"];
        // Each agent offers --rate: the step's rate grows with its agents (a loaded machine may fall
        // short of it, never beyond it), and is the sum of its agents' over the common window.
        EXPECT_LE(m["records_per_s"].get<double>(), 500.0 * agents * 1.05);
        EXPECT_GE(m["records_per_s"].get<double>(), 500.0 * agents * 0.5);
        double sum = 0;
        for (int i = 0; i < agents; ++i)
            sum += m["agents." + std::to_string(i) + ".records_per_s"].get<double>();
        EXPECT_NEAR(m["records_per_s"].get<double>(), sum, sum * 0.05);
        EXPECT_GT(m["ack_p99_s"].get<double>(), 0) << "the probe's latency";
        EXPECT_GT(m["probe.records"].get<double>(), 50) << "the probe ran alongside the window";
        EXPECT_FALSE(s["bottleneck"].get<std::string>().empty());
        acknowledged += m["producer.acknowledged"].get<double>();
    }
    KafkaClient client({{"bootstrap.servers", m_bootstrap.toStdString()}});
    int64_t onTopic = -1;
    ASSERT_TRUE(client.countRecords(topic, onTopic, 30000ms).ok());
    EXPECT_EQ(double(onTopic), acknowledged) << "every step's acknowledged records, and no others, are on the topic";

    // The Scaling fit of the stored run with agents as the load factor.
    const QString runKey = QString::fromStdString("plimsoll-bench-" + result["run_id"].get<std::string>());
    const std::string fit = plimsoll({"fit", "--run", runKey, "--scenarios",
                                      "bench/ramp/agents-", "--x", "agents", "--y", "records_per_s", "--resamples",
                                      "0", "--json"},
                                     &exitCode);
    ASSERT_EQ(exitCode, 0) << fit << m_err;
    const auto fitted = nlohmann::json::parse(fit, nullptr, false);
    ASSERT_TRUE(fitted.is_object()) << fit;
    EXPECT_EQ(fitted["x_factor"], "agents") << fit;
    EXPECT_EQ(fitted["distinct_x"], 3) << fit;
    ASSERT_EQ(fitted["data"].size(), 3u) << fit;
    // Each agent was offered 500 records/s: a step that kept up with its rate measured latency
    // at it, not capacity, and is left out of the capacity fit, named (how many keep up depends
    // on how loaded the machine is).
    int keptUp = 0;
    for (const auto &p : fitted["data"])
        if (!p["left_out"].is_null()) {
            EXPECT_NE(p["left_out"].get<std::string>().find("achieved its offered rate"), std::string::npos) << fit;
            ++keptUp;
        }
    if (keptUp >= 2) {
        EXPECT_EQ(fitted["answer"], "latency") << fit;
        EXPECT_TRUE(fitted["lambda"].is_null()) << fit;
    } else {
        EXPECT_EQ(fitted["answer"], "capacity") << fit;
        EXPECT_EQ(fitted["points"], 3 - keptUp) << fit;
        // The throughput the fit reads is each step's: about 500 records/s an agent.
        EXPECT_NEAR(fitted["lambda"].get<double>(), 500, 125) << fit;
    }
    client.deleteTopic(topic, 30000ms);
    client.deleteTopic("plimsoll-probe-" + result["run_id"].get<std::string>(), 30000ms);
}

// A fleet ramp that cannot start is refused before any agent runs, naming what to change.
TEST_F(FleetRamp, MistakesAreRefusedBeforeAnyAgentStarts)
{
    int exitCode = -1;
    for (const auto &[args, expected] :
         std::vector<std::pair<QStringList, std::string>>{
             {{"--agents-steps", "2,1"}, "--agents-steps must increase step by step (e.g. 1,2,4,8): got 2 then 1"},
             {{"--agents-steps", "1,2", "--steps", "1,2"}, "--agents-steps and --steps exclude each other"},
             {{"--agents-steps", "1,2", "--agents", "2"}, "--agents-steps and --agents exclude each other"},
             {{"--agents-steps", "1,0"}, "--agents-steps"},
             {{"--agents-steps", "1,2", "--ramp", "consumers"}, "(not --ramp consumers)"},
             {{"--agents-steps", "1,2", "--launcher", "kubernetes", "--image", "x/plimsoll:1", "--dry-run", "--out", "m"},
              "--dry-run with --agents-steps: a fleet ramp applies one Job a step"}}) {
        plimsoll(QStringList{"bench", "ramp", "--bootstrap-server", m_bootstrap, "--no-store"} + args, &exitCode);
        EXPECT_EQ(exitCode, 2) << args.join(' ').toStdString() << ": " << m_err;
        EXPECT_NE(m_err.find(expected), std::string::npos) << args.join(' ').toStdString() << ": " << m_err;
    }
    plimsoll({"bench", "ramp", "--agents-steps", "1,2", "--embedded", "--no-store"}, &exitCode);
    EXPECT_EQ(exitCode, 2);
    EXPECT_NE(m_err.find("--agents-steps needs a real cluster"), std::string::npos) << m_err;
    plimsoll({"bench", "producer", "--agents-steps", "1,2", "--bootstrap-server", m_bootstrap, "--no-store"}, &exitCode);
    EXPECT_EQ(exitCode, 2);
    EXPECT_NE(m_err.find("--agents-steps applies to 'bench ramp' only"), std::string::npos) << m_err;
}

} // namespace
} // namespace plimsoll
