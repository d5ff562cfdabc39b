#pragma once
// The consume side of a sizing: what consumer groups cost the brokers and the Redis shards,
// learned from consume ramps (bench ramp --ramp consumers: pipeline/consume/step-N, and the
// tiered one, pipeline/consume-tiered/step-N), and what a sizing's groups add on top of ingest.
//
// A consume ramp's step gives CPU against the rate read, per broker and per shard, as a produce
// ramp's gives it against the rate written; the capacity of a unit for reads is fitted the same
// way (componentcapacity.h). A deployment's unit carries both: produced ÷ its produce capacity
// plus read ÷ its read capacity may not pass 1. The ramp's fetch delivery p99 against load is the
// fetch latency curve the p99 check holds against its budget. Where no consume ramp measured a
// component, the sizing holds an explicit margin of its CPU back instead (SizingInputs::
// consumeMargin) and says the consume side is unmeasured.
//
// Pure computation; no store access here.

#include "model/core/records.h"
#include "model/scaling/componentcapacity.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct SizingInputs;

struct FetchCurvePoint
{
    double perBrokerRate = 0; // records/s read per broker at this step (0: brokers unknown)
    double perShardRate = 0;  // records/s read per shard (0: shards unknown)
    double p99 = 0;           // s, broker fetch delivery p99 (else the consumers' fetch p99)
    std::string runKey;
    std::string scenario;
};

// One read path's measurements: from Redis (local) or from the remote tier (tiered).
struct ConsumeModel
{
    std::string path; // "consume" or "tiered consume", for the reasoning
    ComponentCapacity broker;
    ComponentCapacity shard;
    std::vector<FetchCurvePoint> fetch; // sorted by per-broker rate
    std::vector<std::string> runKeys;

    bool measured() const { return broker.ok || shard.ok; }
};

// Which read path a ramp step measured, or nullopt for a step that is not a consume step: the
// runner's pipeline/consume/ and pipeline/consume-tiered/ families, or any ramp step whose
// clients only consume.
enum class ReadPath { Local, Tiered };
std::optional<ReadPath> consumeStepPath(const ScenarioRecord &step);

// Collects consume ramp steps one at a time, then fits both paths.
class ConsumeModelBuilder
{
public:
    void add(ReadPath path, const ScenarioRecord &step, const std::string &runKey);
    void fit(double cpuLimit, ConsumeModel &local, ConsumeModel &tiered) const;

private:
    struct Points
    {
        std::vector<CapacityPoint> broker, shard;
        std::vector<FetchCurvePoint> fetch;
    };
    Points m_local, m_tiered;
};

// What a sizing's consumer groups ask of one deployment, and what it costs its units.
class ConsumePlan
{
public:
    // `rate` the target (records/s), `headroom` the fraction sized above it.
    ConsumePlan(const ConsumeModel &local, const ConsumeModel &tiered, const SizingInputs &in, double rate,
                double headroom);

    bool active() const { return m_groups > 0; }
    const ConsumeModel &model() const { return *m_model; }
    double readAtTarget() const { return m_read; }          // records/s, every group
    double readSized() const { return m_read * (1 + m_headroom); }
    double margin() const { return m_margin; }
    double fetchBudget() const { return m_fetchBudget; }
    bool measures(const ComponentCapacity &consume) const { return active() && consume.ok; }

    // Units of a component that carry `produced` records/s (with headroom) and the groups' reads
    // together at its CPU limit: the read capacity where the ramp measured it, else the margin.
    int unitsFor(const ComponentCapacity &produce, const ComponentCapacity &consume, double produced) const;
    // CPU fraction one of `units` runs at, at the target (reads included where measured).
    double cpuAt(const ComponentCapacity &produce, const ComponentCapacity &consume, double produced,
                 double units) const;
    // The CPU fraction the produce side may reach: the limit, less the margin where unmeasured.
    double limitFor(const ComponentCapacity &produce, const ComponentCapacity &consume) const;
    // Fetch delivery p99 at the sized load on `brokers` and `shards` (their CPU over the limit,
    // produce and reads together, placed on the ramp's curve); nullopt past the ramp's top or
    // without a curve.
    std::optional<double> fetchP99(const ComponentCapacity &produceBroker, const ComponentCapacity &produceShard,
                                   double produced, int brokers, int shards) const;
    // Whether the reads make up most of what a unit of the component does at the target.
    bool readsDominate(const ComponentCapacity &produce, const ComponentCapacity &consume, double produced) const;

    // "3 groups × 600k records/s from the tail"
    std::string demandText() const;
    // One line on where the read costs come from: the ramp's capacities, or the margin held.
    std::string evidenceText() const;
    // Why a component's unit count rose for the reads: "" when it did not.
    std::string raisedText(const std::string &unit, int produceOnly, int withReads,
                           const ComponentCapacity &consume) const;

private:
    std::string groupsText() const; // "3 groups × 600k records/s"

    const ConsumeModel *m_model = nullptr;
    int m_groups = 0;
    double m_perGroup = 0;
    double m_read = 0;
    double m_headroom = 0;
    double m_margin = 0;
    double m_fetchBudget = 0;
    bool m_tail = true;
    bool m_tiered = false;
    double m_retentionS = 0;
};

} // namespace plimsoll
