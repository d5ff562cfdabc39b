// The readiness barrier of a bench client (benchclients.h): a client is ready once its own
// connection has served the topic's metadata with a leader for every partition. Until then
// a send would wait in librdkafka's queue for the first metadata answer (and, on a partial
// answer, for the next topic scan, up to a second later), and a schedule already running
// would charge that wait to the first records.
#include "runner/benchclients.h"
#include "runner/kafkaerror.h"

#include <librdkafka/rdkafkacpp.h>

#include <memory>
#include <thread>

namespace plimsoll {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

int msLeft(Clock::time_point deadline)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<int64_t>(left, 1, 1000));
}

// Ok once the topic has partitions and each has a leader; else the reason it has not (yet).
KafkaError topicLeaders(RdKafka::Handle &handle, RdKafka::Topic &topic, Clock::time_point deadline)
{
    RdKafka::Metadata *raw = nullptr;
    const auto code = handle.metadata(false, &topic, &raw, msLeft(deadline));
    const std::unique_ptr<RdKafka::Metadata> metadata(raw);
    if (code != RdKafka::ERR_NO_ERROR)
        return KafkaError::fromCode(code, "reading the metadata of '" + topic.name() + "'");
    for (const auto *t : *metadata->topics()) {
        if (t->topic() != topic.name())
            continue;
        if (t->err() != RdKafka::ERR_NO_ERROR)
            return KafkaError::fromCode(t->err(), "reading the metadata of '" + topic.name() + "'");
        if (t->partitions()->empty())
            break;
        for (const auto *p : *t->partitions())
            if (p->leader() < 0)
                return KafkaError::fromCode(RdKafka::ERR_LEADER_NOT_AVAILABLE,
                                            "partition " + std::to_string(p->id()) + " of '" + topic.name() + "'");
        return {};
    }
    return KafkaError::fromCode(RdKafka::ERR_UNKNOWN_TOPIC_OR_PART, "reading the metadata of '" + topic.name() + "'");
}

} // namespace

bool awaitReadyAndGo(RdKafka::Handle &handle, ClientShared &shared, ClientCounters &counters,
                     const std::string &role, const std::function<void()> &serve)
{
    const auto stopRequested = [&] {
        return shared.cancelled() || shared.stopProducers.load(std::memory_order_relaxed)
            || shared.stopConsumers.load(std::memory_order_relaxed);
    };
    std::string errstr;
    const std::unique_ptr<RdKafka::Topic> topic(RdKafka::Topic::create(&handle, shared.topic, nullptr, errstr));
    if (!topic) {
        counters.errors.fetch_add(1);
        counters.noteError(KafkaError::fromCode(RdKafka::ERR__FAIL, role + ": opening topic '" + shared.topic + "'",
                                                errstr)
                               .toString());
        return false;
    }
    KafkaError last;
    for (;;) {
        if (stopRequested())
            return false;
        // Leaders may still be settling right after the topic was created: retry until readyBy.
        last = topicLeaders(handle, *topic, shared.readyBy);
        if (last.ok())
            break;
        if (Clock::now() >= shared.readyBy) {
            counters.errors.fetch_add(1);
            counters.noteError(role + " was not ready within the timeout: " + last.toString());
            return false;
        }
        serve();
        std::this_thread::sleep_for(20ms);
    }
    counters.ready.store(true);
    while (!shared.go.load(std::memory_order_acquire)) {
        if (stopRequested())
            return false;
        serve();
    }
    return true;
}

} // namespace plimsoll
