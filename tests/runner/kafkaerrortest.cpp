// KafkaError: one shape for librdkafka's codes and texts.
#include "runner/kafkaerror.h"

#include <gtest/gtest.h>

namespace plimsoll {
namespace {

TEST(runnerKafkaError, DefaultIsSuccess)
{
    const KafkaError error;
    EXPECT_TRUE(error.ok());
    EXPECT_EQ(error.toString(), "ok");
    EXPECT_TRUE(KafkaError::fromCode(RdKafka::ERR_NO_ERROR, "anything").ok());
}

TEST(runnerKafkaError, SaysWhatFailedAndNamesTheCode)
{
    const auto error = KafkaError::fromCode(RdKafka::ERR__TIMED_OUT, "reading cluster metadata from 127.0.0.1:1");
    EXPECT_FALSE(error.ok());
    EXPECT_TRUE(error.is(RdKafka::ERR__TIMED_OUT));
    EXPECT_EQ(error.name(), "_TIMED_OUT");
    EXPECT_EQ(error.message, "reading cluster metadata from 127.0.0.1:1: " + RdKafka::err2str(RdKafka::ERR__TIMED_OUT));
    EXPECT_EQ(error.toString(), error.message + " (_TIMED_OUT)");
}

TEST(runnerKafkaError, AddsDetailOnlyWhenItSaysMore)
{
    const auto same = KafkaError::fromCode(RdKafka::ERR__FAIL, "x", RdKafka::err2str(RdKafka::ERR__FAIL));
    EXPECT_EQ(same.message, "x: " + RdKafka::err2str(RdKafka::ERR__FAIL));
    const auto more = KafkaError::fromCode(static_cast<int>(RdKafka::ERR__FAIL), "x", "because");
    EXPECT_EQ(more.message, "x: " + RdKafka::err2str(RdKafka::ERR__FAIL) + " (because)");
}

} // namespace
} // namespace plimsoll
