#include "model/sizing/sizingconsume.h"

#include "model/sizing/sizingtext.h"

#include <algorithm>

namespace plimsoll {

using sizingtext::fmt;
using sizingtext::rateText;

// The consume inputs that only make sense together, as "<prefix><name> …", or nullopt.
std::optional<std::string> consumeProblem(const SizingInputs &in, const std::string &prefix)
{
    const double target = in.rate > 0 ? in.rate : in.bytesPerS / in.recordBytes;
    if (in.consumerGroups == 0 && in.consumeRate > 0)
        return prefix + "consume-rate is the rate of each consumer group: it needs " + prefix +
               "consumer-groups 1 or more";
    if (in.consumerGroups == 0 && in.tieredReads)
        return prefix + "tiered-reads says where consumer groups read: it needs " + prefix +
               "consumer-groups 1 or more";
    if (in.tieredReads && in.consumeFrom == ConsumeFrom::Tail)
        return prefix + "tiered-reads reads a backlog from the remote tier: it needs " + prefix +
               "consume-from backlog (the tail is served from Redis)";
    if (in.tieredReads && !in.tiered)
        return prefix + "tiered-reads reads what was offloaded: it needs " + prefix + "tiered";
    if (in.consumeFrom == ConsumeFrom::Tail && in.consumeRate > target * (1 + 1e-9))
        return prefix + "consume-rate " + fmt("%g", in.consumeRate) + " records/s is above the target " +
               fmt("%g", target) + " records/s: a group reading the tail reads at most what is produced (" +
               prefix + "consume-from backlog reads a backlog faster)";
    return std::nullopt;
}

// " + 300k records/s read per broker × 2.1% CPU per 10k records/s (the consume ramp)", or the
// margin held where the consume ramp did not measure the unit; "" without consumer groups.
std::string readsCpuText(const ConsumePlan &plan, const ComponentCapacity &reads, const ComponentCapacity &produce,
                         double units, const char *unit)
{
    if (!plan.active())
        return {};
    if (!reads.ok)
        return "; reads unmeasured: the limit is " + fmt("%.0f%%", plan.limitFor(produce, reads) * 100) + ", " +
               fmt("%.0f", plan.margin() * 100) + " % of the CPU held for them (--consume-margin)";
    return " + " + rateText(plan.readAtTarget() / units) + " records/s read per " + unit + " × " +
           fmt("%.3g", reads.slope * 1e6) + "% CPU per 10k records/s (the " + plan.model().path + " ramp)";
}

// The consume side's own lines: what the groups read, what their costs rest on, and the fetch
// p99 the reads are predicted at.
void addConsumeLines(SizingResult &r, const ConsumePlan &plan, const SizingModels &m, double sized, int brokers,
                     int shards)
{
    const ConsumeModel &reads = plan.model();
    r.lines.push_back({"consume_rate", "Consumed", plan.readAtTarget(), rateText(plan.readAtTarget()) + " records/s",
                       plan.demandText(), {}, EvidenceSource::None, {}});
    r.lines.push_back({"consume_side", "Consume side", reads.measured() ? 1.0 : 0.0,
                       reads.measured() ? std::string("measured") : fmt("unmeasured, %.0f%% margin", plan.margin() * 100),
                       plan.evidenceText(), reads.runKeys, EvidenceSource::None, {}});
    if (!reads.broker.ok || !reads.shard.ok)
        r.warnings.push_back("the " + reads.path + " side is unmeasured" +
                             (reads.measured() ? std::string(" for ") + (reads.broker.ok ? "shards" : "brokers") : "") +
                             ": " + fmt("%.0f", plan.margin() * 100) +
                             " % of the CPU is held back for consumer reads (--consume-margin), not their measured "
                             "cost; a consume ramp (bench ramp --ramp consumers) measures it");
    const auto fetch = plan.fetchP99(m.broker, m.shard, sized, brokers, shards);
    std::vector<std::string> runs;
    for (const FetchCurvePoint &p : reads.fetch)
        if (std::find(runs.begin(), runs.end(), p.runKey) == runs.end())
            runs.push_back(p.runKey);
    r.lines.push_back(
        {"fetch_p99", "Predicted fetch p99", fetch ? *fetch : 0, fetch ? fmt("%.3g ms", *fetch * 1e3) : std::string("—"),
         fetch ? "the " + reads.path + " ramp's fetch delivery p99 interpolated at the brokers' and shards' CPU "
                     "with ingest and reads together; budget " + fmt("%.3g ms", plan.fetchBudget() * 1e3)
               : reads.fetch.empty() ? "no " + reads.path + " ramp step measured fetch p99 with a broker count: no prediction"
                                     : "beyond the " + reads.path + " ramp's top: no prediction",
         runs, EvidenceSource::None, {}});
    if (fetch && *fetch > plan.fetchBudget())
        r.warnings.push_back("predicted fetch p99 exceeds the budget");
    r.consumeRate = plan.readAtTarget();
    r.consumeMeasured = reads.broker.ok && reads.shard.ok;
    r.consumeMargin = r.consumeMeasured ? 0 : plan.margin();
    r.fetchP99 = fetch;
}


} // namespace plimsoll
