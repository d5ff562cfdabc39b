#pragma once
#include <string>

namespace plimsoll {
// The librdkafka the runner is linked with, e.g. "2.0.2", for --version and result files.
std::string librdkafkaVersion();
} // namespace plimsoll
