// The limit for any librdkafka producer: a bare produce loop with no envelope, no latency
// measurement and no pacing — the same records (fixed-size values, copied in) and settings as
// the bench client, so the CPU it spends per record is the floor for a client on librdkafka.
//
//   bareproduce BOOTSTRAP TOPIC RECORDS RECORD_BYTES ACKS LINGER_MS BATCH_BYTES
//
// Prints one JSON line: records, seconds, records_per_s, failed.
#include "perf/barekafka.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr const char *kTool = "bareproduce";

long g_failed = 0;

void onDelivery(rd_kafka_t *, const rd_kafka_message_t *message, void *)
{
    if (message->err)
        ++g_failed;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 8) {
        std::fprintf(stderr, "usage: bareproduce BOOTSTRAP TOPIC RECORDS RECORD_BYTES ACKS LINGER_MS BATCH_BYTES\n");
        return 2;
    }
    const long records = std::atol(argv[3]);
    const std::vector<char> value(size_t(std::atol(argv[4])), 'x');
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    bare::set(kTool, conf, "bootstrap.servers", argv[1]);
    bare::set(kTool, conf, "acks", argv[5]);
    bare::set(kTool, conf, "linger.ms", argv[6]);
    bare::set(kTool, conf, "batch.size", argv[7]);
    rd_kafka_conf_set_dr_msg_cb(conf, onDelivery);
    rd_kafka_t *rk = bare::client(kTool, RD_KAFKA_PRODUCER, conf);
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < records;) {
        const rd_kafka_resp_err_t code =
            rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(argv[2]), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                              RD_KAFKA_V_VALUE(const_cast<char *>(value.data()), value.size()), RD_KAFKA_V_END);
        if (code == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            rd_kafka_poll(rk, 10);
            continue;
        }
        if (code) {
            std::fprintf(stderr, "bareproduce: %s\n", rd_kafka_err2str(code));
            return 1;
        }
        ++i;
        rd_kafka_poll(rk, 0);
    }
    while (rd_kafka_outq_len(rk) > 0)
        rd_kafka_flush(rk, 100);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rd_kafka_destroy(rk);
    std::printf("{\"records\": %ld, \"seconds\": %.3f, \"records_per_s\": %.0f, \"failed\": %ld}\n", records,
                seconds, double(records) / seconds, g_failed);
    return g_failed ? 1 : 0;
}
