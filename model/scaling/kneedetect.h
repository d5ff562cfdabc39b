#pragma once
// Capacity from an offered-load sweep: fixed-rate steps (kafka-producer-perf-test --throughput,
// korvet bench --rate) where the system either keeps up or does not. The knee is the first
// step where achieved throughput falls short of what was offered, or where p99 latency turns
// up against the low-load p99; the capacity is the last step before it.
//
// Pure computation; no shared state.

#include <limits>
#include <string>
#include <vector>

namespace plimsoll {

struct SweepStep
{
    double offered = 0;  // records/s the load generator was asked for
    double achieved = 0; // records/s it actually delivered
    // p99 latency in seconds; NaN when the step did not measure it (the latency rule then
    // ignores the step).
    double p99 = std::numeric_limits<double>::quiet_NaN();
};

struct KneeOptions
{
    // Shortfall rule: achieved < offered × (1 − maxShortfall). 5% tolerates pacing jitter of a
    // load generator while catching a system that stopped keeping up.
    double maxShortfall = 0.05;
    // Latency rule: p99 > latencyFactor × the low-load p99 (the p99 at the lowest offered
    // step that measured one). Queueing makes p99 grow before throughput flattens.
    double latencyFactor = 2.0;
};

enum class KneeRule
{
    None,      // no step broke a rule: the sweep did not reach capacity
    Shortfall, // achieved fell short of offered
    Latency,   // p99 turned up
    Both,      // both at the same step
};
const char *toString(KneeRule rule);

struct KneeResult
{
    bool ok = false;
    std::string error;

    KneeRule rule = KneeRule::None;
    int kneeStep = -1;        // index (into the steps sorted by offered rate) of the first bad step
    double kneeOffered = 0;   // records/s offered at that step
    double kneeAchieved = 0;  // records/s achieved at that step
    double kneeP99 = std::numeric_limits<double>::quiet_NaN(); // seconds
    // Sustainable capacity: records/s achieved at the last step before the knee (or at the last
    // step when there is no knee, in which case it is only a lower bound: `bounded` is false).
    double capacity = 0;
    bool bounded = false;
    // The most any step achieved (records/s): past the knee a saturated system still delivers
    // about its ceiling, an upper reference for `capacity`.
    double ceiling = 0;
    double baselineP99 = std::numeric_limits<double>::quiet_NaN(); // seconds, lowest-load p99
    std::string reason; // one line for the reasoning panel
};

class KneeDetector
{
public:
    explicit KneeDetector(KneeOptions options = {});

    // Steps in any order; they are sorted by offered rate. Repeated offered rates are kept in
    // input order.
    KneeResult detect(std::vector<SweepStep> steps) const;

    const KneeOptions &options() const { return m_options; }

private:
    KneeOptions m_options;
};

} // namespace plimsoll
