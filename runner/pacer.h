#pragma once
// The send schedule of one producer client. With a rate, send i is due at
// start + offset + i / rate, a fixed timeline that does not move when the client falls
// behind: latency is measured from the due time, so a stall shows up in every record it
// delayed (coordinated-omission safe) instead of hiding between samples. Without a rate
// each send is due when the loop reaches it.

#include <chrono>
#include <cstdint>

namespace plimsoll {

class Pacer
{
public:
    using Clock = std::chrono::steady_clock;

    // ratePerSecond <= 0: unlimited.
    Pacer(double ratePerSecond, Clock::time_point start, Clock::duration offset = {})
        : m_rate(ratePerSecond), m_start(start + offset)
    {}

    bool limited() const { return m_rate > 0; }
    // Due time of send number `index`.
    Clock::time_point due(int64_t index) const
    {
        if (!limited())
            return Clock::now();
        const auto ns = static_cast<int64_t>(static_cast<double>(index) * 1e9 / m_rate);
        return m_start + std::chrono::nanoseconds(ns);
    }
    std::chrono::nanoseconds interval() const
    {
        return limited() ? std::chrono::nanoseconds(static_cast<int64_t>(1e9 / m_rate)) : std::chrono::nanoseconds(0);
    }

private:
    double m_rate;
    Clock::time_point m_start;
};

inline int64_t steadyNs(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

} // namespace plimsoll
