// makeKafkaConf and the bench clients' configuration: what a refused setting tells the user,
// and the settings every producer and consumer of a bench run starts from.
#include "runner/benchclients.h"
#include "runner/kafkaconf.h"

#include <librdkafka/rdkafkacpp.h>

#include <gtest/gtest.h>

namespace plimsoll {
namespace {

std::string valueOf(RdKafka::Conf &conf, const std::string &key)
{
    std::string value;
    EXPECT_EQ(conf.get(key, value), RdKafka::Conf::CONF_OK) << key;
    return value;
}

TEST(runnerKafkaConf, HoldsEverySetting)
{
    std::unique_ptr<RdKafka::Conf> conf;
    const auto error = makeKafkaConf({{"bootstrap.servers", "127.0.0.1:9092"}, {"linger.ms", "7"}}, conf);
    ASSERT_TRUE(error.ok()) << error.toString();
    EXPECT_EQ(valueOf(*conf, "bootstrap.servers"), "127.0.0.1:9092");
    EXPECT_EQ(valueOf(*conf, "linger.ms"), "7");
}

TEST(runnerKafkaConf, RefusedSettingIsNamedWithLibrdkafkasReason)
{
    std::unique_ptr<RdKafka::Conf> conf;
    const auto error = makeKafkaConf({{"bootstrap.servers", "127.0.0.1:9092"}, {"linger.ms", "soon"}}, conf);
    ASSERT_TRUE(error.is(RdKafka::ERR__INVALID_ARG));
    EXPECT_NE(error.message.find("setting linger.ms: "), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("(Invalid value for configuration property"), std::string::npos)
        << "librdkafka's reason: " << error.message;
}

TEST(runnerKafkaConf, RefusedSecretNeverShowsItsValue)
{
    std::unique_ptr<RdKafka::Conf> conf;
    const auto error = makeKafkaConf({{"sasl.passwrd.typo.password", "hunter2-secret"}}, conf);
    ASSERT_FALSE(error.ok());
    EXPECT_NE(error.message.find("setting sasl.passwrd.typo.password"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("value masked"), std::string::npos) << error.message;
    EXPECT_EQ(error.message.find("hunter2"), std::string::npos) << error.message;
}

TEST(runnerKafkaConf, BenchClientsNameThemselvesAndOnlyTheFirstSendsStatistics)
{
    ClientShared shared;
    shared.kafkaConfig = {{"bootstrap.servers", "127.0.0.1:9092"}};
    shared.statisticsInterval = std::chrono::milliseconds(250);
    const auto first = benchClientConfig(shared, "producer", 0);
    EXPECT_EQ(first.at("client.id"), "plimsoll-bench-producer-0");
    EXPECT_EQ(first.at("statistics.interval.ms"), "250");
    EXPECT_EQ(first.at("bootstrap.servers"), "127.0.0.1:9092");
    const auto second = benchClientConfig(shared, "consumer", 1);
    EXPECT_EQ(second.at("client.id"), "plimsoll-bench-consumer-1");
    EXPECT_EQ(second.count("statistics.interval.ms"), 0u);

    // The user's client.id (from --command-config) is kept.
    shared.kafkaConfig["client.id"] = "team-bench";
    EXPECT_EQ(benchClientConfig(shared, "producer", 3).at("client.id"), "team-bench");
}

TEST(runnerKafkaConf, BenchClientRefusalIsCountedAndKept)
{
    ClientCounters counters;
    EXPECT_EQ(clientConf({{"no.such.setting", "1"}}, counters), nullptr);
    EXPECT_EQ(counters.errors.load(), 1);
    EXPECT_NE(counters.firstError().find("setting no.such.setting"), std::string::npos) << counters.firstError();
    EXPECT_NE(clientConf({{"linger.ms", "3"}}, counters), nullptr);
    EXPECT_EQ(counters.errors.load(), 1);
}

} // namespace
} // namespace plimsoll
