#pragma once
// One librdkafka failure: its error code and a message that says what Plimsoll was doing.
// librdkafka reports errors as a code plus, sometimes, an errstr buffer or an event
// string; every call site in the runner folds them into this one shape.

#include <librdkafka/rdkafkacpp.h>

#include <string>

namespace plimsoll {

struct KafkaError
{
    RdKafka::ErrorCode code = RdKafka::ERR_NO_ERROR;
    std::string message; // complete sentence for the user; empty when ok()

    bool ok() const { return code == RdKafka::ERR_NO_ERROR; }
    bool is(RdKafka::ErrorCode other) const { return code == other; }
    // librdkafka's symbolic name without the ERR_ prefix, e.g. "TOPIC_ALREADY_EXISTS".
    std::string name() const;
    // "message (NAME)", or "ok".
    std::string toString() const;

    static KafkaError success() { return {}; }
    // `what` says what failed, e.g. "creating topic 'x'"; librdkafka's text for the
    // code is appended, and `detail` (an errstr) when it adds something.
    static KafkaError fromCode(RdKafka::ErrorCode code, const std::string &what, const std::string &detail = {});
    static KafkaError fromCode(int code, const std::string &what, const std::string &detail = {});
};

} // namespace plimsoll
