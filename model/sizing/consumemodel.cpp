#include "model/sizing/consumemodel.h"

#include "model/sizing/sizing.h"
#include "model/sizing/sizingtext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plimsoll {

namespace {

using sizingtext::fmt;
using sizingtext::rateText;

bool startsWith(const std::string &text, const char *prefix)
{
    return text.rfind(prefix, 0) == 0;
}

// The fetch latency a consume step measured: the broker's delivery p99 (the responses that
// carried records, the seed's saturation signal), else the consumers' own.
std::optional<double> fetchP99Of(const ScenarioRecord &s)
{
    if (const auto broker = s.metric("broker.fetch_delivery_p99_s"))
        return broker;
    return s.metric("consumer.fetch_p99_s");
}

} // namespace

std::optional<ReadPath> consumeStepPath(const ScenarioRecord &s)
{
    if (s.kind != "ramp-step")
        return std::nullopt;
    if (startsWith(s.name, "pipeline/consume-tiered/"))
        return ReadPath::Tiered;
    if (startsWith(s.name, "pipeline/consume/"))
        return ReadPath::Local;
    const auto consumers = s.topology.consumers;
    const auto producers = s.topology.producers;
    if (consumers && *consumers > 0 && (!producers || *producers == 0))
        return ReadPath::Local;
    return std::nullopt;
}

void ConsumeModelBuilder::add(ReadPath path, const ScenarioRecord &s, const std::string &runKey)
{
    Points &p = path == ReadPath::Tiered ? m_tiered : m_local;
    const auto read = s.metric("records_per_s");
    if (!read || !(*read > 0))
        return;
    const Topology &t = s.topology;
    const double brokers = t.brokers && *t.brokers > 0 ? double(*t.brokers) : 0;
    const double shards = t.shards && *t.shards > 0 ? double(*t.shards) : 0;
    if (const auto cpu = s.metric("broker_cpu_avg"); cpu && brokers > 0)
        p.broker.push_back({*read / brokers, *cpu, runKey, s.name});
    if (const auto cpu = s.metric("shard_cpu_max"); cpu && shards > 0)
        p.shard.push_back({*read / shards, *cpu, runKey, s.name});
    if (const auto p99 = fetchP99Of(s); p99 && (brokers > 0 || shards > 0))
        p.fetch.push_back({brokers > 0 ? *read / brokers : 0, shards > 0 ? *read / shards : 0, *p99, runKey, s.name});
}

void ConsumeModelBuilder::fit(double cpuLimit, ConsumeModel &local, ConsumeModel &tiered) const
{
    const ComponentCapacityFitter fitter(CapacityOptions{cpuLimit});
    auto one = [&fitter](const Points &p, const char *path, ConsumeModel &m) {
        m.path = path;
        m.broker = fitter.fit("broker", p.broker);
        m.shard = fitter.fit("Redis shard", p.shard);
        m.fetch = p.fetch;
        std::sort(m.fetch.begin(), m.fetch.end(), [](const FetchCurvePoint &a, const FetchCurvePoint &b) {
            return a.perBrokerRate < b.perBrokerRate;
        });
        for (const auto *c : {&m.broker, &m.shard})
            for (const std::string &k : c->runKeys)
                if (std::find(m.runKeys.begin(), m.runKeys.end(), k) == m.runKeys.end())
                    m.runKeys.push_back(k);
    };
    one(m_local, "consume", local);
    one(m_tiered, "tiered consume", tiered);
}

ConsumePlan::ConsumePlan(const ConsumeModel &local, const ConsumeModel &tiered, const SizingInputs &in,
                         double rate, double headroom)
    : m_model(in.tieredReads ? &tiered : &local), m_groups(in.consumerGroups),
      m_perGroup(in.consumeRate > 0 ? in.consumeRate : rate), m_headroom(headroom), m_margin(in.consumeMargin),
      m_tail(in.consumeFrom == ConsumeFrom::Tail), m_tiered(in.tieredReads),
      m_retentionS(in.tiered ? in.localRetentionS : in.retentionS)
{
    m_read = m_groups * m_perGroup;
    m_fetchBudget = in.fetchP99Budget > 0 ? in.fetchP99Budget
                                          : (m_tiered ? SizingInputs::kTieredFetchP99 : SizingInputs::kLocalFetchP99);
}

int ConsumePlan::unitsFor(const ComponentCapacity &produce, const ComponentCapacity &consume, double produced) const
{
    if (!active() || !produce.ok || produce.capacityPerUnit <= 0)
        return produce.unitsFor(produced);
    const double need = measures(consume) ? produced / produce.capacityPerUnit + readSized() / consume.capacityPerUnit
                                          : produced / (produce.capacityPerUnit * (1 - m_margin));
    // A hair of tolerance so a load exactly at capacity does not round up on float noise.
    return std::max(1, int(std::ceil(need - 1e-9)));
}

double ConsumePlan::cpuAt(const ComponentCapacity &produce, const ComponentCapacity &consume, double produced,
                          double units) const
{
    double cpu = produce.cpuAt(produced / units);
    if (measures(consume))
        cpu += consume.cpuAt(m_read / units);
    return cpu;
}

double ConsumePlan::limitFor(const ComponentCapacity &produce, const ComponentCapacity &consume) const
{
    return active() && !consume.ok ? produce.cpuLimit * (1 - m_margin) : produce.cpuLimit;
}

bool ConsumePlan::readsDominate(const ComponentCapacity &produce, const ComponentCapacity &consume,
                                double produced) const
{
    return measures(consume) && consume.cpuAt(m_read) > produce.cpuAt(produced);
}

std::optional<double> ConsumePlan::fetchP99(const ComponentCapacity &produceBroker,
                                            const ComponentCapacity &produceShard, double produced, int brokers,
                                            int shards) const
{
    const ConsumeModel &m = *m_model;
    if (!active() || m.fetch.empty() || !m.broker.ok)
        return std::nullopt;
    // On the ramp a unit was busy with reads alone; in the deployment it is busy with both
    // sides: the load is the unit's CPU over its limit, whoever keeps it busy.
    const bool shardsKnown = m.shard.ok && produceShard.ok;
    auto rampFraction = [&m, shardsKnown](const FetchCurvePoint &p) {
        double f = m.broker.cpuAt(p.perBrokerRate) / m.broker.cpuLimit;
        if (shardsKnown && p.perShardRate > 0)
            f = std::max(f, m.shard.cpuAt(p.perShardRate) / m.shard.cpuLimit);
        return f;
    };
    double f = cpuAt(produceBroker, m.broker, produced, brokers) / m.broker.cpuLimit;
    if (shardsKnown)
        f = std::max(f, cpuAt(produceShard, m.shard, produced, shards) / m.shard.cpuLimit);
    std::vector<std::pair<double, double>> curve;
    for (const FetchCurvePoint &p : m.fetch)
        curve.emplace_back(rampFraction(p), p.p99);
    std::sort(curve.begin(), curve.end());
    if (f <= curve.front().first)
        return curve.front().second;
    for (size_t i = 1; i < curve.size(); ++i)
        if (f <= curve[i].first) {
            const auto &[x0, y0] = curve[i - 1];
            const auto &[x1, y1] = curve[i];
            return x1 > x0 ? y0 + (y1 - y0) * (f - x0) / (x1 - x0) : y1;
        }
    return std::nullopt;
}

std::string ConsumePlan::groupsText() const
{
    return std::to_string(m_groups) + (m_groups == 1 ? " group × " : " groups × ") + rateText(m_perGroup) +
           " records/s";
}

std::string ConsumePlan::demandText() const
{
    const std::string out = groupsText();
    if (m_tail)
        return out + " from the tail (each group reads what is produced, served from Redis)";
    if (m_tiered)
        return out + " from a backlog in the remote tier";
    return out + " from a backlog in Redis (it reaches back at most the " + fmt("%g", m_retentionS) + " s kept there)";
}

std::string ConsumePlan::evidenceText() const
{
    const ConsumeModel &m = *m_model;
    const std::string margin = fmt("%.0f", m_margin * 100) + " % of its CPU held back for the reads (--consume-margin)";
    auto part = [&](const ComponentCapacity &c, const char *unit) {
        return c.ok ? std::string(unit) + ": " + c.reason
                    : std::string(unit) + ": unmeasured, " + margin + ", whatever the number of groups";
    };
    std::string out = m.measured() ? "the " + m.path + " ramp: " : "no " + m.path + " ramp among the runs (`bench ramp --ramp consumers" +
                                                                        (m_tiered ? " --tiered" : "") + "` measures one); ";
    out += part(m.broker, "per broker") + "; " + part(m.shard, "per shard");
    if (m_tail && m.measured())
        out += "; the ramp read a backlog, and its cost per record read is applied to tail reads";
    return out;
}

std::string ConsumePlan::raisedText(const std::string &unit, int produceOnly, int withReads,
                                    const ComponentCapacity &consume) const
{
    if (!active() || withReads <= produceOnly)
        return {};
    if (!consume.ok)
        return "raised from " + std::to_string(produceOnly) + " for ingest alone to " + std::to_string(withReads) +
               ": " + fmt("%.0f", m_margin * 100) + " % of each " + unit + "'s CPU held for consumer traffic, unmeasured";
    return "raised from " + std::to_string(produceOnly) + " for ingest alone to " + std::to_string(withReads) +
           " for ingest and the reads together: " + groupsText() + " = " +
           rateText(readSized()) + " records/s read at " + rateText(consume.capacityPerUnit) + " per " + unit + " (the " +
           m_model->path + " ramp)";
}

} // namespace plimsoll
