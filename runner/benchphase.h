#pragma once
// One measured phase of a bench run: a set of producer and consumer clients on one topic
// (plus, for ramp steps, a latency probe on its own topic), coordinated until done.
// The coordinator runs on the engine's thread; every client has a thread of its own.

#include "runner/benchclients.h"
#include "runner/benchresult.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace plimsoll {

class HistogramLogWriter;

struct PhaseSpec
{
    std::string scenario;
    std::string kind = "benchmark";
    std::string topic;
    int producers = 0;
    int consumers = 0;
    int64_t records = 0;                // produce (or, consumers only, consume) this many; 0 = by duration
    std::chrono::nanoseconds duration{0}; // measured window after warm-up
    std::chrono::nanoseconds warmup{0};
    double rate = 0;                    // over all producers; 0 = unlimited
    bool roundtrip = false;             // envelope matching and end-to-end latency
    bool validateChecksum = true;
    std::vector<int64_t> startOffsets;  // consumers assign these (partition = index); empty: by autoOffsetReset
    // A fleet's agent: the partitions it owns (its producers write only these, its consumers
    // assign only these); empty: every partition. Its producers' ids start at producerIdBase.
    std::vector<int32_t> partitions;
    uint32_t producerIdBase = 0;
    std::string autoOffsetReset = "earliest";
    std::string group;
    int64_t fetchMaxBytes = 52428800;
    // Consumers alone: give up after this long without a record.
    std::chrono::milliseconds idleTimeout{30000};
    // A consume ramp's step: the consumers read a backlog of `records` in `group`, committing
    // as a group's members must for partitions to change hands in a rebalance; the step ends
    // when its window does or the backlog is read (falling short is no failure), and measures
    // lag, rebalance time and fetch latency besides the rates.
    bool backlogRead = false;
};

struct PhaseOutcome
{
    ScenarioResult scenario;
    std::vector<std::string> errors; // what went wrong, for the user
    std::vector<std::string> warnings; // worth telling, not a failure (e.g. a collector unreachable)
    bool failed = false;             // production or correctness failure
    bool interrupted = false;        // the user's stop (Ctrl-C, SIGTERM, Stop): counts are partial
    int64_t unacknowledged = 0;      // interrupted: sent, never acknowledged nor refused
    int64_t unconsumed = 0;          // interrupted round trip: acknowledged, not consumed yet
    // When the schedule started (the system clock), how long after the environment's
    // startAtUnixMs that was (0 when on time or none was set), and the first record's send.
    int64_t goUnixNs = 0;
    double startLateS = 0;
    int64_t firstSendUnixNs = 0;
};

struct PhaseEnvironment
{
    std::map<std::string, std::string> kafkaConfig;
    std::map<std::string, std::string> producerConfig;
    std::map<std::string, std::string> consumerConfig;
    std::array<uint8_t, 16> runId{};
    std::size_t recordSize = 1024;
    std::chrono::milliseconds timeout{30000};
    std::chrono::nanoseconds interval{std::chrono::seconds(1)};
    std::chrono::steady_clock::time_point runStart;
    // A fleet's coordinated start, Unix ms on the system clock: once ready, the clients wait
    // for it, so every agent's schedule and windows start at the same instant. 0: at once.
    int64_t startAtUnixMs = 0;
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(int, int64_t)> beforeSend;
    std::function<void(const BenchSnapshot &)> onSnapshot;
    HistogramLogWriter *histogramLog = nullptr;
};

// Runs `main` (and `probe`, when given, alongside it at its own rate until `main` ends).
// The probe's ack and end-to-end p99 land in the main scenario as ack_p99_s / e2e_p99_s.
PhaseOutcome runPhase(const PhaseEnvironment &environment, const PhaseSpec &main, const PhaseSpec *probe = nullptr);

} // namespace plimsoll
