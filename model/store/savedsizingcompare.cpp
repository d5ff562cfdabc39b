// Saved sizings side by side (compareSizings) and sized again from the store (sizeSaved).
#include "model/store/savedsizing.h"

#include "model/store/store.h"

namespace plimsoll {

namespace {

// The components compared, in the order a reader goes down a deployment: what was asked, the
// broker and Redis tiers, partitions, memory, the optional tiers, then how it performs.
struct ComparedLine
{
    const char *key;
    const char *label; // when no sizing has the line (a failed sizing)
};
constexpr ComparedLine kCompared[] = {
    {"rate", "Target rate"},
    {"brokers", "Korvet brokers"},
    {"redis_nodes", "Redis nodes"},
    {"shards", "Redis shards"},
    {"partitions", "Partitions"},
    {"memory_total_bytes", "Redis memory (total)"},
    {"flex_ram_bytes", "Flex RAM"},
    {"flex_databases", "Flex databases"},
    {"offload_streams", "Offload streams"},
    {"p99", "Predicted p99"},
    {"bottleneck", "Bottleneck"},
};

constexpr const char *kNone = "—";

} // namespace

const SizingComparisonRow *SizingComparison::row(const std::string &key) const
{
    for (const SizingComparisonRow &r : rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

SizingComparison compareSizings(const std::vector<std::pair<std::string, SizingResult>> &sizings)
{
    SizingComparison c;
    for (const auto &[name, result] : sizings)
        c.names.push_back(name);
    for (const ComparedLine &compared : kCompared) {
        SizingComparisonRow row{compared.key, compared.label, {}};
        bool any = false;
        for (const auto &[name, result] : sizings) {
            const SizingLine *line = result.ok ? result.line(compared.key) : nullptr;
            row.values.push_back(line ? line->display : kNone);
            if (line) {
                row.label = line->label;
                any = true;
            }
        }
        // Flex and offload figures exist only where measured and asked for: a row of dashes
        // would read as "measured as nothing".
        if (any)
            c.rows.push_back(std::move(row));
    }
    SizingComparisonRow model{"broker_model", "Broker count from", {}};
    SizingComparisonRow failed{"error", "Not sized", {}};
    bool anyFailed = false;
    for (const auto &[name, result] : sizings) {
        model.values.push_back(result.ok && !result.brokerChoice.taken.empty() ? result.brokerChoice.taken : kNone);
        failed.values.push_back(result.ok ? "" : result.error);
        anyFailed = anyFailed || !result.ok;
    }
    c.rows.push_back(std::move(model));
    if (anyFailed)
        c.rows.push_back(std::move(failed));
    return c;
}

SizingResult sizeSaved(const Store &store, const SavedSizing &saved)
{
    const FittedEvidence fitted = fitEvidence(store, saved.evidence, saved.modelOptions());
    const Evidence &evidence = fitted.evidence;
    const Sizer sizer(fitted.models);
    SizingResult r = sizer.size(saved.inputs);
    if (!r.ok && evidence.samplesLeftOut > 0)
        r.error += " (" + evidence.note + ")";
    return r;
}

} // namespace plimsoll
