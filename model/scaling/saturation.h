#pragma once
// Saturation and bottleneck attribution of a ramp, by the seed page's rule: a step is
// saturated when any component crosses its limit (CPU ≥ 90%, produce p99 > 250 ms,
// back-pressure or errors) or throughput plateaus. The bottleneck is the component that
// saturates first; when several cross at the same step, the one furthest past its limit.
//
// Pure computation; no shared state.

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct SaturationStep
{
    std::string scenario;
    double load = 0;       // the ramp's load factor at this step (producers, clients, ...)
    double throughput = 0; // records/s
    std::optional<double> brokerCpu;    // fraction of the broker allocation (broker_cpu_avg)
    std::optional<double> shardCpu;     // fraction of one core, hottest shard (shard_cpu_max)
    std::optional<double> p99;          // seconds, produce p99
    std::optional<double> errors;       // count
    std::optional<double> backPressure; // count of back-pressure / pool-timeout events
    // Korvet's own pushback in the step's window (runner/korvetmetrics.h): Redis connection-pool
    // acquire timeouts per second (storage.pool_timeouts_per_s) and the broker's back-pressure
    // applied per second or connections still held (broker.backpressure_applied_per_s,
    // broker.backpressure_connections). Any above zero saturates the step, as the page says.
    std::optional<double> poolTimeoutsPerS;
    std::optional<double> brokerBackpressurePerS;
    std::optional<double> brokerBackpressureHeld;
};

struct SaturationOptions
{
    double cpuLimit = 0.90;
    double p99Limit = 0.250; // seconds
    // A step whose load grew but whose throughput gained less than this fraction over the
    // previous step has plateaued: more offered work bought nothing.
    double plateauGain = 0.05;
};

struct StepVerdict
{
    bool saturated = false;
    std::vector<std::string> reasons; // e.g. "Redis shard CPU 92% ≥ 90%"
    std::string component;            // the worst offender at this step, empty if none
    double severity = 0;              // value ÷ limit of that offender
};

struct SaturationResult
{
    std::vector<SaturationStep> steps; // sorted by load
    std::vector<StepVerdict> verdicts; // one per step
    int firstSaturated = -1;           // index into steps, −1 when none saturated
    std::string bottleneck; // component at the first saturated step, or the closest to its
                            // limit at the last step when none saturated
    double peakThroughput = 0; // highest records/s measured
    double sustainable = 0;    // records/s at the last step before the first saturated one
    std::string reason;
};

class SaturationDetector
{
public:
    explicit SaturationDetector(SaturationOptions options = {}) : m_options(options) {}
    SaturationResult detect(std::vector<SaturationStep> steps) const;
    const SaturationOptions &options() const { return m_options; }

private:
    SaturationOptions m_options;
};

} // namespace plimsoll
