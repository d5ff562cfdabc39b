// `plimsoll placement --cluster HOST:PORT --measure` against a real three-master Redis Cluster
// (tests/services/redis-cluster.sh, fixture "redis-cluster"): the slot map read from the
// cluster, the predicted shard of every partition's key, and the keys the test wrote there.
#include "model/sizing/placement.h"

#include <gtest/gtest.h>

#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <unistd.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace {

struct Result
{
    int exitCode = -1;
    std::string out;
    std::string err;
};

Result run(const QString &program, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove("PLIMSOLL_DB");
    p.setProcessEnvironment(e);
    p.start(program, args);
    EXPECT_TRUE(p.waitForFinished(60000)) << program.toStdString() << " did not finish";
    return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

class ClusterPlacement : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const char *fromEnv = std::getenv("PLIMSOLL_REDIS_CLUSTER_ENV");
        const std::string file = fromEnv && *fromEnv ? fromEnv : PLIMSOLL_REDIS_CLUSTER_ENV_FILE;
        std::ifstream in(file);
        ASSERT_TRUE(in) << "no cluster env file at " << file
                        << ": run through ctest (fixture redis-cluster), or start one with "
                           "tests/services/redis-cluster.sh start <build>/redis-cluster";
        for (std::string line; std::getline(in, line);) {
            const auto eq = line.find('=');
            if (eq == std::string::npos)
                continue;
            if (line.substr(0, eq) == "PLIMSOLL_TEST_REDIS_CLUSTER_SEED")
                m_seed = line.substr(eq + 1);
            if (line.substr(0, eq) == "PLIMSOLL_TEST_REDIS_CLUSTER_PORTS") {
                std::istringstream ports(line.substr(eq + 1));
                for (std::string p; ports >> p;)
                    m_ports.push_back(p);
            }
        }
        ASSERT_FALSE(m_seed.empty());
        ASSERT_EQ(m_ports.size(), 3u);
        ASSERT_TRUE(m_dir.isValid());
    }
    Result redis(QStringList args) const
    {
        args.prepend(QString::fromStdString(m_ports[0]));
        args.prepend("-p");
        args.prepend("127.0.0.1");
        args.prepend("-h");
        args.prepend("-c"); // follow MOVED to the master owning the key's slot
        return run("redis-cli", args);
    }
    Result plimsoll(QStringList args) const
    {
        args.prepend(m_dir.filePath("store.db"));
        args.prepend("--db");
        return run(PLIMSOLL_BINARY, args);
    }
    std::string m_seed;
    std::vector<std::string> m_ports;
    QTemporaryDir m_dir;
};

} // namespace

TEST_F(ClusterPlacement, PredictedShardsMatchCrc16AndTheKeysMeasuredThere)
{
    // A topic of 24 partitions as Korvet keys its streams, and a key of another topic.
    const std::string topic = "orders-" + std::to_string(::getpid());
    for (int p = 0; p < 24; ++p) {
        const std::string key = plimsoll::Placement::streamKey(plimsoll::kKorvetStreamKeyPattern, topic, p);
        const Result r = redis({"XADD", QString::fromStdString(key), "*", "payload", QString(50 * (p + 1), 'x')});
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    ASSERT_EQ(redis({"XADD", "korvet:stream:other:0", "*", "f", "v"}).exitCode, 0);

    const Result r = plimsoll({"placement", "--cluster", QString::fromStdString(m_seed), "--measure",
                               "--topic", QString::fromStdString(topic), "--partitions", "24", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["cluster"]["source"], "CLUSTER SHARDS"); // Redis 7
    ASSERT_EQ(j["cluster"]["masters"].size(), 3u);
    ASSERT_EQ(j["shards"].size(), 3u);
    int owned = 0; // not "slots": Qt defines that as a macro
    for (const auto &s : j["shards"])
        owned += s["slots"].get<int>();
    EXPECT_EQ(owned, 16384);

    // The slot of each partition's key is CRC16 of the key, as the cluster itself says.
    for (int p : {0, 7, 23}) {
        const std::string key = plimsoll::Placement::streamKey(plimsoll::kKorvetStreamKeyPattern, topic, p);
        const Result slot = redis({"CLUSTER", "KEYSLOT", QString::fromStdString(key)});
        ASSERT_EQ(slot.exitCode, 0) << slot.err;
        EXPECT_EQ(std::stoi(slot.out), plimsoll::Placement::hashSlot(key)) << key;
    }
    // Each shard's predicted partitions are exactly the keys measured on its master.
    int measured = 0;
    for (const auto &s : j["shards"]) {
        EXPECT_EQ(s["partitions"], s["measured"]["partitions"]) << s["shard"];
        EXPECT_EQ(s["count"], s["measured"]["keys"]) << s["shard"];
        measured += s["measured"]["keys"].get<int>();
        if (s["measured"]["keys"].get<int>() > 0) {
            EXPECT_GT(s["measured"]["bytes"].get<int64_t>(), 0);
        }
        // And the cluster holds each of them where CRC16 says: ask the master directly.
        const std::string master = s["shard"];
        for (int p : s["partitions"]) {
            const std::string key = plimsoll::Placement::streamKey(plimsoll::kKorvetStreamKeyPattern, topic, p);
            const Result exists = run("redis-cli", {"-h", "127.0.0.1", "-p",
                                                    QString::fromStdString(master.substr(master.rfind(':') + 1)),
                                                    "EXISTS", QString::fromStdString(key)});
            EXPECT_EQ(exists.out, "1\n") << key << " on " << master;
        }
    }
    EXPECT_EQ(measured, 24);
    EXPECT_EQ(j["measured"]["keys"], 24);
    EXPECT_EQ(j["measured"]["misplaced"], 0);
    EXPECT_EQ(j["measured"]["unmatched"], 0); // the other topic's key does not match the SCAN

    // Text: predicted and measured side by side.
    const Result text = plimsoll({"placement", "--cluster", QString::fromStdString(m_seed), "--measure",
                                  "--topic", QString::fromStdString(topic), "--partitions", "24"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("predicted"), std::string::npos);
    EXPECT_NE(text.out.find("measured: 24 stream keys"), std::string::npos) << text.out;
}

// A server that does not answer CLUSTER SHARDS (before Redis 7, or a user without the right to
// it) is read through CLUSTER SLOTS, and gives the same slot map. The real server is made to
// refuse CLUSTER SHARDS with an ACL rule for the test's duration.
TEST_F(ClusterPlacement, WithoutClusterShardsTheSlotMapComesFromClusterSlots)
{
    const QStringList args{"placement", "--cluster", QString::fromStdString(m_seed), "--topic", "fallback",
                           "--partitions", "48", "--json"};
    const Result viaShards = plimsoll(args);
    ASSERT_EQ(viaShards.exitCode, 0) << viaShards.err;
    const QString seedPort = QString::fromStdString(m_seed.substr(m_seed.rfind(':') + 1));
    auto acl = [&](const char *rule) {
        return run("redis-cli", {"-h", "127.0.0.1", "-p", seedPort, "ACL", "SETUSER", "default", rule});
    };
    ASSERT_EQ(acl("-cluster|shards").out, "OK\n");
    const Result refused = run("redis-cli", {"-h", "127.0.0.1", "-p", seedPort, "CLUSTER", "SHARDS"});
    const Result viaSlots = plimsoll(args);
    EXPECT_EQ(acl("+cluster|shards").out, "OK\n");
    EXPECT_NE(refused.out.find("NOPERM"), std::string::npos) << refused.out << refused.err;
    ASSERT_EQ(viaSlots.exitCode, 0) << viaSlots.err;
    const auto a = nlohmann::json::parse(viaShards.out), b = nlohmann::json::parse(viaSlots.out);
    EXPECT_EQ(a["cluster"]["source"], "CLUSTER SHARDS");
    EXPECT_EQ(b["cluster"]["source"], "CLUSTER SLOTS");
    EXPECT_EQ(a["shards"], b["shards"]); // each master's slots and partitions
    EXPECT_EQ(a["max_skew"], b["max_skew"]);
}

// The predicted split is the one clusters are made with: the three masters
// tests/services/redis-cluster.sh made with `redis-cli --cluster create` own exactly the slots
// `placement --shards 3` predicts (0-5460, 5461-10922, 10923-16383), so every partition of a
// topic lands on the same master in the prediction and on the live map.
TEST_F(ClusterPlacement, ThePredictedSlotSplitIsTheOneRedisCliCreatedTheClusterWith)
{
    const QStringList placed{"--topic", "split", "--partitions", "96", "--json"};
    const Result live = plimsoll(QStringList{"placement", "--cluster", QString::fromStdString(m_seed)} + placed);
    const Result predicted = plimsoll(QStringList{"placement", "--shards", "3"} + placed);
    ASSERT_EQ(live.exitCode, 0) << live.err;
    ASSERT_EQ(predicted.exitCode, 0) << predicted.err;
    const auto a = nlohmann::json::parse(live.out), b = nlohmann::json::parse(predicted.out);
    EXPECT_EQ(a["slot_split"], "the live cluster's slot map");
    EXPECT_EQ(b["slot_split"], plimsoll::kSlotSplitText);
    ASSERT_EQ(a["shards"].size(), 3u);
    ASSERT_EQ(b["shards"].size(), 3u);
    const std::vector<plimsoll::SlotRange> ranges = plimsoll::Placement::clusterCreateRanges(3);
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(a["shards"][i]["slots"], b["shards"][i]["slots"]) << i;
        EXPECT_EQ(a["shards"][i]["slots"].get<int>(), ranges[i].end - ranges[i].start + 1) << i;
        EXPECT_EQ(a["shards"][i]["partitions"], b["shards"][i]["partitions"]) << i;
    }
    EXPECT_EQ(a["max_skew"], b["max_skew"]);
}

TEST_F(ClusterPlacement, DomainsAndAnUnreachableCluster)
{
    EXPECT_EQ(plimsoll({"placement", "--partitions", "8"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"placement", "--shards", "3", "--cluster", QString::fromStdString(m_seed),
                        "--partitions", "8"})
                  .exitCode,
              2);
    EXPECT_EQ(plimsoll({"placement", "--shards", "3", "--measure", "--partitions", "8"}).exitCode, 2);
    const Result down = plimsoll({"placement", "--cluster", "127.0.0.1:1", "--partitions", "8", "--timeout", "500"});
    EXPECT_EQ(down.exitCode, 1);
    EXPECT_NE(down.err.find("127.0.0.1:1"), std::string::npos) << down.err;
}
