#pragma once
// The one place settings become a librdkafka configuration: the admin and smoke-test client
// (KafkaClient) and every bench client build theirs here, so a refused setting reads the
// same everywhere and a secret's value never reaches the user.

#include "runner/kafkaerror.h"

#include <map>
#include <memory>
#include <string>

namespace RdKafka {
class Conf;
}

namespace plimsoll {

// A global configuration holding every setting of `config` (librdkafka names), or the error
// of the first one librdkafka refuses ("setting <key>: <why>", a secret's value masked).
KafkaError makeKafkaConf(const std::map<std::string, std::string> &config, std::unique_ptr<RdKafka::Conf> &conf);

} // namespace plimsoll
