#include "runner/kafkaconf.h"

#include "runner/clientproperties.h"

#include <librdkafka/rdkafkacpp.h>

namespace plimsoll {

KafkaError makeKafkaConf(const std::map<std::string, std::string> &config, std::unique_ptr<RdKafka::Conf> &conf)
{
    conf.reset(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
    for (const auto &[key, value] : config) {
        std::string errstr;
        if (conf->set(key, value, errstr) != RdKafka::Conf::CONF_OK) {
            // librdkafka's errstr quotes the value; a secret's must not reach the user.
            return KafkaError::fromCode(RdKafka::ERR__INVALID_ARG, "setting " + key,
                                        ClientProperties::isSecret(key) ? "value masked" : errstr);
        }
    }
    return {};
}

} // namespace plimsoll
