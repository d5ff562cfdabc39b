#include "runner/kafkaerror.h"

#include <librdkafka/rdkafka.h>

namespace plimsoll {

std::string KafkaError::name() const { return rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(code)); }

std::string KafkaError::toString() const { return ok() ? std::string("ok") : message + " (" + name() + ")"; }

KafkaError KafkaError::fromCode(RdKafka::ErrorCode code, const std::string &what, const std::string &detail)
{
    if (code == RdKafka::ERR_NO_ERROR)
        return {};
    std::string message = what + ": " + RdKafka::err2str(code);
    // An errstr often just repeats err2str; only add it when it says more.
    if (!detail.empty() && detail != RdKafka::err2str(code))
        message += " (" + detail + ")";
    return {code, std::move(message)};
}

KafkaError KafkaError::fromCode(int code, const std::string &what, const std::string &detail)
{
    return fromCode(static_cast<RdKafka::ErrorCode>(code), what, detail);
}

} // namespace plimsoll
