#include "runner/sequencetracker.h"

namespace plimsoll {

namespace {

// Sequences beyond this are not ours: a forged or corrupted id must not make us allocate
// gigabytes. 2^31 records per producer is far beyond any run.
constexpr uint64_t kMaxSequence = 1ULL << 31;

} // namespace

SequenceTracker::SequenceTracker(const std::array<uint8_t, 16> &runId, int producers, uint32_t firstProducerId)
    : m_runId(runId), m_firstProducerId(firstProducerId), m_acked(static_cast<std::size_t>(producers)), m_consumed(static_cast<std::size_t>(producers))
{}

void SequenceTracker::acked(int producer, uint64_t sequence)
{
    auto &acked = m_acked[static_cast<std::size_t>(producer)];
    if (sequence >= kMaxSequence)
        return;
    if (acked.size() <= sequence)
        acked.resize(std::max<std::size_t>(sequence + 1, acked.size() * 2), 0);
    acked[sequence] = 1;
}

SequenceTracker::Outcome SequenceTracker::consumed(const Envelope &envelope)
{
    std::lock_guard lock(m_mutex);
    const uint64_t producer = uint64_t(envelope.producerId) - m_firstProducerId; // wraps below the range
    if (envelope.runId != m_runId || producer >= m_consumed.size() || envelope.sequence >= kMaxSequence) {
        ++m_invalid;
        return Outcome::Invalid;
    }
    auto &seen = m_consumed[producer];
    if (seen.size() <= envelope.sequence)
        seen.resize(std::max<std::size_t>(envelope.sequence + 1, seen.size() * 2), 0);
    uint16_t &times = seen[envelope.sequence];
    if (times < UINT16_MAX)
        ++times;
    if (times == 1) {
        ++m_matched;
        return Outcome::Matched;
    }
    ++m_duplicate;
    return Outcome::Duplicate;
}

void SequenceTracker::consumedInvalid()
{
    std::lock_guard lock(m_mutex);
    ++m_invalid;
}

int64_t SequenceTracker::missing() const { return counts().missing; }

SequenceTracker::Counts SequenceTracker::counts() const
{
    std::lock_guard lock(m_mutex);
    Counts counts;
    counts.matched = m_matched;
    counts.duplicate = m_duplicate;
    counts.invalid = m_invalid;
    for (std::size_t p = 0; p < m_acked.size(); ++p) {
        const auto &acked = m_acked[p];
        const auto &seen = m_consumed[p];
        for (std::size_t s = 0; s < std::max(acked.size(), seen.size()); ++s) {
            const bool wasAcked = s < acked.size() && acked[s];
            const bool wasSeen = s < seen.size() && seen[s] > 0;
            counts.acknowledged += wasAcked;
            counts.missing += wasAcked && !wasSeen;
            counts.unacknowledgedConsumed += !wasAcked && wasSeen;
        }
    }
    return counts;
}

} // namespace plimsoll
