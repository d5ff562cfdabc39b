#pragma once
// The clients of one topic in a bench phase (benchphase.cpp coordinates them), and the
// scenario's numbers measured from them once every client has ended.

#include "runner/benchphase.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace plimsoll {

// The clients of one topic and what they measured so far.
struct PhaseGroup
{
    PhaseSpec spec;
    ClientShared shared;
    std::unique_ptr<SequenceTracker> tracker;
    std::vector<std::unique_ptr<ClientCounters>> producers;
    std::vector<std::unique_ptr<ClientCounters>> consumers;
    std::vector<std::thread> producerThreads;
    std::vector<std::thread> consumerThreads;
    HdrHistogram total[IntervalHistograms::KindCount] = {makeLatencyHistogram(), makeLatencyHistogram(),
                                                         makeLatencyHistogram()};
    int64_t lastProduced = 0, lastConsumed = 0, lastBytes = 0;  // measured, at the last snapshot
    int64_t lastProducedAll = 0, lastConsumedAll = 0;          // warm-up included
    int64_t lastConsumedTotal = 0;
    std::chrono::steady_clock::time_point producersDoneAt{};
    std::chrono::steady_clock::time_point lastConsumedAt{};
    std::chrono::steady_clock::time_point lastAckProgressAt{};
    int64_t lastAckCount = 0;
    std::atomic<double> rttAvgS{0};
    std::vector<std::string> errors;

    int64_t sum(const std::vector<std::unique_ptr<ClientCounters>> &clients,
                std::atomic<int64_t> ClientCounters::*field) const
    {
        int64_t total = 0;
        for (const auto &c : clients)
            total += ((*c).*field).load(std::memory_order_relaxed);
        return total;
    }
    bool producersFinished() const
    {
        for (const auto &c : producers)
            if (!c->finished)
                return false;
        return true;
    }
    bool consumersFinished() const
    {
        for (const auto &c : consumers)
            if (!c->finished)
                return false;
        return !consumers.empty();
    }
};

// The scenario's numbers: rates, latencies and counts of the main group `g`, the probe's
// latencies in place of the main group's ack_p99_s / e2e_p99_s when there is one, and what
// failed as errors in `outcome`. outcome.interrupted is set before.
void measurePhase(const PhaseGroup &g, const PhaseGroup *probe, const PhaseEnvironment &env, PhaseOutcome &outcome);

} // namespace plimsoll
