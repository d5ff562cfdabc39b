#include "runner/librdkafkainfo.h"

#include <librdkafka/rdkafka.h>

namespace plimsoll {
std::string librdkafkaVersion() { return rd_kafka_version_str(); }
} // namespace plimsoll
