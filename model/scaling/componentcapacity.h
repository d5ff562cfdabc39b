#pragma once
// Per-unit capacity of one component (a Redis shard, a broker) from a ramp: how much load one
// unit carries when its CPU reaches a limit.
//
// Each measured step gives a CPU reading against the rate one unit carried (the step's
// records/s divided by the unit count). CPU per record/s is the slope; the capacity of one
// unit is limit ÷ slope. Two slopes are computed:
//   - least squares through the origin over every step (the average cost of a record), and
//   - the secant to the hottest step (the highest CPU measured, the closest to the limit).
// The larger slope is used: a Redis shard's CPU climbs steeply near saturation (the seed ramp
// goes 28% → 92% over its last 8% of rate), so a line through the whole ramp would promise
// nearly twice what the hottest shard showed. The hottest reading sets the ceiling.
//
// For shards the CPU is the hottest shard's (shard_cpu_max) against the mean per-shard rate,
// so the capacity already carries the measured configuration's placement skew.
//
// Pure computation; results are plain values.

#include <string>
#include <vector>

namespace plimsoll {

struct CapacityPoint
{
    double perUnitRate = 0; // records/s one unit carried (step rate ÷ units), > 0
    double cpu = 0;         // fraction: 0.92 = 92% (of one core for a shard, of the allocation
                            // for a broker)
    std::string runKey;
    std::string scenario;
};

struct CapacityOptions
{
    double cpuLimit = 0.90; // the seed's saturation rule: CPU ≥ 90%
};

struct ComponentCapacity
{
    bool ok = false;
    std::string error;

    std::string component; // "Redis shard", "broker"
    double cpuLimit = 0.90;
    double fittedSlope = 0;  // CPU fraction per (record/s per unit), least squares via origin
    double hottestSlope = 0; // CPU ÷ per-unit rate at the hottest step
    double slope = 0;        // the larger of the two: what capacity and utilization use
    bool hottestSets = false; // slope == hottestSlope
    double hottestCpu = 0;    // fraction
    double hottestRate = 0;   // records/s per unit at the hottest step
    std::string hottestScenario;
    double capacityPerUnit = 0; // records/s per unit at cpuLimit
    int points = 0;
    std::vector<std::string> runKeys; // distinct, in first-seen order
    std::string reason; // one line for the reasoning panel

    // CPU fraction one unit runs at while carrying `perUnitRate` records/s.
    double cpuAt(double perUnitRate) const { return perUnitRate * slope; }
    // Units needed so that none passes the CPU limit at `totalRate` records/s (≥ 1).
    int unitsFor(double totalRate) const;
};

class ComponentCapacityFitter
{
public:
    explicit ComponentCapacityFitter(CapacityOptions options = {}) : m_options(options) {}
    ComponentCapacity fit(const std::string &component,
                          const std::vector<CapacityPoint> &points) const;

private:
    CapacityOptions m_options;
};

} // namespace plimsoll
