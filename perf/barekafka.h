#pragma once
// What the two bare librdkafka loops (bareproduce, bareconsume) share: setting a property
// and creating the client, each failing with the tool's name and librdkafka's own message.
// Nothing of Plimsoll's is used here: these loops are the floor Plimsoll's clients are
// measured against.
#include <librdkafka/rdkafka.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace bare {

inline void set(const char *tool, rd_kafka_conf_t *conf, const char *key, const std::string &value)
{
    char err[512];
    if (rd_kafka_conf_set(conf, key, value.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
        std::fprintf(stderr, "%s: %s: %s\n", tool, key, err);
        std::exit(2);
    }
}

// The client, owning `conf`; exits 1 with the reason when librdkafka refuses.
inline rd_kafka_t *client(const char *tool, rd_kafka_type_t type, rd_kafka_conf_t *conf)
{
    char err[512];
    rd_kafka_t *rk = rd_kafka_new(type, conf, err, sizeof err);
    if (!rk) {
        std::fprintf(stderr, "%s: %s\n", tool, err);
        std::exit(1);
    }
    return rk;
}

} // namespace bare
