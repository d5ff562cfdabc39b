#pragma once
// Per-component scaling models fitted across runs: where the evidence holds a sweep over the
// broker count (1 broker vs 3 brokers) or the shard count, a Universal Scalability Law fit of
// the cluster's throughput against that count. Its contention σ is what a CPU-linear capacity
// cannot see: a single broker that ceilings on internal contention regardless of CPU.
//
// The sizing engine reads the broker count three ways and shows them side by side — this fit,
// the CPU-linear capacity of the ramp (componentcapacity.h) and the Korvet page's rule of thumb
// ("+1 broker per ~200k msg/s") — taking one by the rule in chooseUnits() or as the user asks.
//
// Pure computation over records already read.

#include "model/core/records.h"
#include "model/scaling/usl.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct ComponentSweepModel
{
    bool ok = false;
    std::string error;
    std::string component; // "broker", "Redis shard"
    std::string factor;    // "brokers", "shards"
    UslFit fit;
    std::vector<std::string> runKeys;
    std::string contract;
    std::string workload;             // Sweep::workload of the points
    std::vector<std::string> leftOut; // SweepFit::leftOut: points left out, and why

    bool hasIntervals() const { return ok && fit.resamples > 0; }
    // The smallest count whose fitted throughput covers `rate` records/s; nullopt when none up to
    // `maxUnits` does (the fit peaks, or approaches λ/σ, below the rate).
    std::optional<int> unitsFor(double rate, int maxUnits = 4096) const;
    // "USL over brokers from 1 run (2 points, 2 broker counts): λ 200,000 records/s, σ 0.077,
    // κ 0 (no intervals: …)"
    std::string describe() const;
};

// The largest sweep over `factor` (records_per_s against it) among the runs, fitted; !ok with
// the reason when there is none.
ComponentSweepModel fitComponentSweep(const std::vector<RunRecord> &runs, const std::string &component,
                                      const std::string &factor, int bootstrapResamples = 1000);

// Which broker answer the sizing takes. Auto: the fitted model when it has intervals and a
// contention term (a linear fit sees nothing CPU does not), else the CPU-linear capacity.
enum class BrokerModel { Auto, Fitted, Cpu, Rule };
const char *toString(BrokerModel model);
std::optional<BrokerModel> brokerModelFromString(const std::string &text);

// The Korvet page's sizing guidance: "+1 broker per ~200k msg/s" (its rows up to 600k agree:
// 150k → 1, 400k → 2–3, 600k → 3).
inline constexpr double kBrokerRuleRecordsPerS = 200000;

struct UnitsAnswer
{
    std::string model; // "fitted", "cpu", "rule"
    std::optional<int> units; // nullopt: this model cannot reach the rate, or is missing
    std::string reasoning;
    std::vector<std::string> runKeys;
    bool taken = false;
};

struct UnitsChoice
{
    bool ok = false;
    std::string error; // the asked-for model is not available
    int units = 1;
    std::string taken; // model name
    std::string why;   // why that one
    std::vector<UnitsAnswer> answers; // every model, side by side
};

// The answers of the fitted sweep (when ok), the CPU-linear capacity (`cpuUnits`, explained by
// `cpuReason`) and, for brokers, the rule; then the one `asked` picks.
UnitsChoice chooseUnits(const std::string &component, double rate, const ComponentSweepModel &sweep,
                        int cpuUnits, const std::string &cpuReason,
                        const std::vector<std::string> &cpuRuns, bool withRule, BrokerModel asked);

} // namespace plimsoll
