#pragma once
// The clients of a bench run. Each runs on a std::thread of its own and owns its
// librdkafka handle: the handle's callbacks (delivery reports, statistics) then run on that
// thread during poll()/consume(), so they record without cross-thread traffic. The
// coordinator (BenchEngine) reads counters and swaps interval histograms.

#include "runner/benchconfig.h"
#include "runner/latency.h"
#include "runner/pacer.h"
#include "runner/sequencetracker.h"

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace RdKafka {
class Conf;
class Handle;
}

namespace plimsoll {

// What one client did, shared with the coordinator. Measured counts exclude warm-up.
struct ClientCounters
{
    std::atomic<int64_t> sent{0};
    std::atomic<int64_t> acked{0};
    std::atomic<int64_t> failed{0};      // delivery reports with an error
    std::atomic<int64_t> undelivered{0}; // still queued when the flush timed out (purged)
    std::atomic<int64_t> measuredRecords{0}; // acked (producer) or consumed (consumer) after warm-up
    std::atomic<int64_t> measuredBytes{0};
    std::atomic<int64_t> totalRecords{0};    // acked or consumed, warm-up included
    std::atomic<int64_t> queueFullNs{0};     // time spent blocked on a full local queue
    std::atomic<int64_t> queued{0};          // records in the local queue (producer)
    std::atomic<int64_t> errors{0};          // client errors other than failed deliveries
    std::atomic<int64_t> invalid{0};         // consumer: envelope checks that failed
    // Consume ramp (ClientShared::backlogRead): when the consumer last got an assignment
    // (steady ns, 0: never), and its fetch latency over the measured window from librdkafka's
    // statistics: the worst interval's broker round-trip p99 and the sum of the p50s (µs).
    std::atomic<int64_t> lastAssignedNs{0};
    std::atomic<int64_t> fetchP99MaxUs{0};
    std::atomic<int64_t> fetchP50SumUs{0};
    std::atomic<int64_t> fetchIntervals{0};
    // Consume ramp: the offsets the consumer read, as runs of consecutive offsets {partition,
    // first, last}; written by its thread when it ends, read once the thread was joined.
    std::vector<std::array<int64_t, 3>> offsetRuns;
    std::atomic<int64_t> firstSendUnixNs{0}; // producer: the system clock at its first send (0: none)
    std::atomic<bool> ready{false};          // connected, the topic's partitions have leaders
    std::atomic<bool> finished{false};
    IntervalHistograms histograms;

    void noteError(const std::string &message)
    {
        std::lock_guard lock(m_errorMutex);
        if (m_firstError.empty())
            m_firstError = message;
    }
    // A client error other than a failed delivery: counted, and the first one kept.
    void noteFailure(const std::string &message)
    {
        errors.fetch_add(1, std::memory_order_relaxed);
        noteError(message);
    }
    std::string firstError() const
    {
        std::lock_guard lock(m_errorMutex);
        return m_firstError;
    }

private:
    mutable std::mutex m_errorMutex;
    std::string m_firstError;
};

// Marks a client finished however its function returns.
struct FinishedOnReturn
{
    ClientCounters &counters;
    ~FinishedOnReturn() { counters.finished = true; }
};

// Everything the clients of one phase share; owned by the engine, outlives the clients.
struct ClientShared
{
    using Clock = std::chrono::steady_clock;
    std::map<std::string, std::string> kafkaConfig; // librdkafka names: bootstrap, client config
    std::map<std::string, std::string> producerConfig; // acks, compression, linger, batch
    std::map<std::string, std::string> consumerConfig; // the embedded target's fetch wait
    std::string topic;
    std::array<uint8_t, 16> runId{};
    uint32_t producerIdBase = 0; // a fleet's agent: the envelope's producer id is base + index
    std::size_t recordSize = 1024;
    // The schedule. Written by the coordinator once every client of the phase is ready, then
    // published by `go` (release): a client reads them only after it saw `go` (acquire), so
    // the send timeline starts after connections and leaders, not before the clients exist,
    // and no start-up delay is charged to the first records.
    std::atomic<bool> go{false};
    Clock::time_point start;
    Clock::time_point measureStart; // end of warm-up
    Clock::time_point produceUntil = Clock::time_point::max();
    Clock::time_point readyBy;      // a client not ready by then gives up with an error
    std::chrono::milliseconds flushTimeout{30000};
    std::chrono::milliseconds statisticsInterval{1000};
    const std::atomic<bool> *cancel = nullptr;   // the user's stop
    std::atomic<bool> stopProducers{false};       // the engine's stop (ramp step over, fault)
    std::atomic<bool> stopConsumers{false};
    SequenceTracker *tracker = nullptr;           // round trip and probe only
    bool validateChecksum = true;
    bool measureEndToEnd = false;                 // consumers record e2e from the envelope
    std::atomic<int64_t> consumedTotal{0};
    int64_t consumeTarget = 0;                    // 0 = until stopped
    bool backlogRead = false;                     // PhaseSpec::backlogRead: commits, rebalance, fetch stats
    std::function<void(int, int64_t)> beforeSend; // test hook
    // librdkafka's statistics JSON of client 0, at statisticsInterval.
    std::function<void(const std::string &)> onStatistics;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

// Readiness of one client: the topic's metadata through the client's own connection, with a
// leader for every partition, retried until shared.readyBy. Sets counters.ready, then waits
// for shared.go while `serve` keeps the handle's events flowing. False when the client must
// end: not ready in time (the error noted in counters) or stopped meanwhile.
bool awaitReadyAndGo(RdKafka::Handle &handle, ClientShared &shared, ClientCounters &counters,
                     const std::string &role, const std::function<void()> &serve);

// The settings every bench client starts from (librdkafka names): the run's (bootstrap,
// client config), a client.id naming the role and index unless the user set one, and, for
// client 0 only, librdkafka's statistics at shared.statisticsInterval.
std::map<std::string, std::string> benchClientConfig(const ClientShared &shared, const std::string &role,
                                                     int index);

// A client's librdkafka configuration from `config` (librdkafka names), or nullptr when a
// setting is refused: the error is counted and noted in `counters`, a secret's value masked.
// Shared by the producer and consumer clients.
std::unique_ptr<RdKafka::Conf> clientConf(const std::map<std::string, std::string> &config,
                                          ClientCounters &counters);

struct ProducerPlan
{
    int index = 0;
    int64_t records = -1; // -1: until produceUntil or stop
    double rate = 0;      // this client's records/s, 0 = unlimited
    std::chrono::nanoseconds offset{0};
    // The partitions to write, in turn, record by record; empty: librdkafka's partitioner.
    std::vector<int32_t> partitions;
};

// Runs one producer to completion. Returns after the flush (bounded by flushTimeout).
void runProducerClient(ClientShared &shared, const ProducerPlan &plan, ClientCounters &counters);

struct ConsumerPlan
{
    int index = 0;
    std::string group;     // subscribe when set; else assign `partitions`
    std::vector<std::pair<int32_t, int64_t>> partitions; // partition, start offset
    std::string autoOffsetReset = "earliest";
    int64_t fetchMaxBytes = 52428800;
};

// Runs one consumer until shared.stopConsumers, cancel, or consumeTarget is reached.
void runConsumerClient(ClientShared &shared, const ConsumerPlan &plan, ClientCounters &counters);

} // namespace plimsoll
