#pragma once
// Round-trip bookkeeping: which records each producer had acknowledged and how often each
// came back to a consumer. Records are identified by (producer id, sequence), both dense
// from 0, so plain vectors index them.
//
// Threading: producer k alone calls sent()/acked() for k, on its own thread; consumers
// call consumed() from any thread (one mutex). missing()/counts() read the producers'
// vectors, so call them only after the producer threads were joined.

#include "runner/envelope.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace plimsoll {

class SequenceTracker
{
public:
    enum class Outcome { Matched, Duplicate, Invalid };

    struct Counts
    {
        int64_t acknowledged = 0;
        int64_t matched = 0;    // distinct records of this run consumed
        int64_t duplicate = 0;  // further copies of a record already consumed
        int64_t invalid = 0;    // bad magic or checksum, another run's id, unknown producer
        int64_t missing = 0;    // acknowledged but never consumed
        int64_t unacknowledgedConsumed = 0; // consumed though its delivery was not confirmed
    };

    // Producers firstProducerId .. firstProducerId + producers - 1 (a fleet's agent owns a range
    // of ids); acked() takes the producer's index within that range.
    SequenceTracker(const std::array<uint8_t, 16> &runId, int producers, uint32_t firstProducerId = 0);

    void acked(int producer, uint64_t sequence);
    Outcome consumed(const Envelope &envelope);
    void consumedInvalid();

    int64_t missing() const;
    Counts counts() const;

private:
    std::array<uint8_t, 16> m_runId;
    uint32_t m_firstProducerId = 0;
    std::vector<std::vector<uint8_t>> m_acked; // per producer, by sequence
    mutable std::mutex m_mutex;
    std::vector<std::vector<uint16_t>> m_consumed; // per producer: times seen (saturating)
    int64_t m_matched = 0;
    int64_t m_duplicate = 0;
    int64_t m_invalid = 0;
};

} // namespace plimsoll
