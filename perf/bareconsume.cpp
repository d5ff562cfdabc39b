// The limit for any librdkafka consumer: assign every partition from the beginning and count
// records until RECORDS have arrived — no envelope check, no latency, no group.
//
//   bareconsume BOOTSTRAP TOPIC RECORDS FETCH_MAX_BYTES
//
// Prints one JSON line: records, bytes, seconds, records_per_s.
#include "perf/barekafka.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

constexpr const char *kTool = "bareconsume";

} // namespace

int main(int argc, char **argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: bareconsume BOOTSTRAP TOPIC RECORDS FETCH_MAX_BYTES\n");
        return 2;
    }
    const long wanted = std::atol(argv[3]);
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    bare::set(kTool, conf, "bootstrap.servers", argv[1]);
    bare::set(kTool, conf, "group.id", "plimsoll-bareconsume"); // required by the API; never joined (assign)
    bare::set(kTool, conf, "enable.auto.commit", "false");
    bare::set(kTool, conf, "enable.partition.eof", "false");
    bare::set(kTool, conf, "fetch.max.bytes", argv[4]);
    rd_kafka_t *rk = bare::client(kTool, RD_KAFKA_CONSUMER, conf);
    rd_kafka_poll_set_consumer(rk);
    const rd_kafka_metadata_t *metadata = nullptr;
    rd_kafka_topic_t *topic = rd_kafka_topic_new(rk, argv[2], nullptr);
    if (rd_kafka_metadata(rk, 0, topic, &metadata, 10'000) || metadata->topic_cnt != 1) {
        std::fprintf(stderr, "bareconsume: no metadata for %s\n", argv[2]);
        return 1;
    }
    rd_kafka_topic_partition_list_t *parts = rd_kafka_topic_partition_list_new(1);
    for (int p = 0; p < metadata->topics[0].partition_cnt; ++p)
        rd_kafka_topic_partition_list_add(parts, argv[2], metadata->topics[0].partitions[p].id)->offset =
            RD_KAFKA_OFFSET_BEGINNING;
    rd_kafka_metadata_destroy(metadata);
    rd_kafka_topic_destroy(topic);
    const auto start = std::chrono::steady_clock::now();
    rd_kafka_assign(rk, parts);
    rd_kafka_topic_partition_list_destroy(parts);
    long got = 0;
    long long bytes = 0;
    while (got < wanted) {
        rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 1000);
        if (!m) {
            if (std::chrono::steady_clock::now() - start > std::chrono::minutes(5)) {
                std::fprintf(stderr, "bareconsume: only %ld of %ld records after 5 minutes\n", got, wanted);
                return 1;
            }
            continue;
        }
        if (!m->err) {
            ++got;
            bytes += long(m->len);
        }
        rd_kafka_message_destroy(m);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    std::printf("{\"records\": %ld, \"bytes\": %lld, \"seconds\": %.3f, \"records_per_s\": %.0f}\n", got, bytes,
                seconds, double(got) / seconds);
    return 0;
}
