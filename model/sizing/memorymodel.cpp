#include "model/sizing/memorymodel.h"

#include "model/sizing/sizingtext.h"

#include <algorithm>

namespace plimsoll {

using sizingtext::fmt;
using sizingtext::rateText;
constexpr auto gib = sizingtext::gibText;

StoredBytesModel StoredBytesModel::fit(const std::vector<MemorySample> &samples)
{
    StoredBytesModel model;
    double storedSum = 0, payloadSum = 0;
    std::string from;
    for (const MemorySample &s : samples) {
        if (!(s.memoryBytes > 0 && s.records > 0 && s.recordBytes > 0))
            continue;
        // Weighted by records: a long run's figure is the steadier one.
        storedSum += s.memoryBytes;
        payloadSum += s.records * s.recordBytes;
        if (std::find(model.runKeys.begin(), model.runKeys.end(), s.runKey) == model.runKeys.end())
            model.runKeys.push_back(s.runKey);
        from += (from.empty() ? "" : ", ") + s.scenario + " (" +
                fmt("%.0f", s.memoryBytes / s.records) + " B per " + fmt("%.0f", s.recordBytes) +
                " B record)";
    }
    if (payloadSum <= 0) {
        model.reason = "stored bytes per record: default " + fmt("%.2f", model.ratio) +
                       "× the record size (no run reports memory with its record count)";
        return model;
    }
    model.ratio = storedSum / payloadSum;
    model.fitted = true;
    model.reason = "stored bytes per record: " + fmt("%.3f", model.ratio) +
                   "× the record size, from " + from;
    return model;
}

MemoryEstimate estimateMemory(const StoredBytesModel &model, const MemoryInputs &in)
{
    MemoryEstimate e;
    e.storedBytesPerRecord = model.storedBytes(in.recordBytes);
    e.retainedBytes = in.rate * in.retentionS * e.storedBytesPerRecord;
    e.overshootBytes = in.rate * in.trimTickS * e.storedBytesPerRecord;
    const int replication = std::max(1, in.replication);
    e.usageBytes = (e.retainedBytes + e.overshootBytes) * replication;
    const double skew = std::max(1.0, in.skew);
    e.provisionBytes = e.usageBytes * skew * (1 + std::max(0.0, in.headroom));
    // A shard's primary and each of its replicas hold the same; the copies live on other nodes.
    e.perShardBytes = e.provisionBytes / (double(std::max(1, in.shards)) * replication);
    e.lines.push_back(rateText(in.rate) + " records/s × " + fmt("%g", in.retentionS) +
                      " s × " + fmt("%.0f", e.storedBytesPerRecord) + " B stored = " +
                      gib(e.retainedBytes) + " retained (one copy)");
    e.lines.push_back("trim-tick overshoot: " + rateText(in.rate) + " records/s × " +
                      fmt("%g", in.trimTickS) + " s tick × " +
                      fmt("%.0f", e.storedBytesPerRecord) + " B = " + gib(e.overshootBytes));
    e.lines.push_back("× replication " + std::to_string(replication) + " = " +
                      gib(e.usageBytes) + " held in Redis");
    e.lines.push_back("× skew " + fmt("%.2f", skew) + " (hottest shard ÷ mean) × (1 + " +
                      fmt("%.0f", in.headroom * 100) + "% headroom) = " + gib(e.provisionBytes) +
                      " to provision, " + gib(e.perShardBytes) + " in each shard (primary or replica)");
    return e;
}

} // namespace plimsoll
