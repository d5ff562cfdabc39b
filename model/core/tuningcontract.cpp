#include "model/core/tuningcontract.h"

#include "model/core/catalog.h"
#include "model/core/metricroles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plimsoll {

namespace {

std::string jsonValueText(const nlohmann::json &v)
{
    if (v.is_string())
        return v.get<std::string>();
    return v.dump();
}

void flatten(const std::string &prefix, const nlohmann::json &j, std::map<std::string, std::string> &out)
{
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string key = prefix + it.key();
        if (it->is_object())
            flatten(key + ".", *it, out);
        else
            out[key] = jsonValueText(*it);
    }
}

std::string quoteIfNeeded(const std::string &value)
{
    const bool plain = !value.empty() && value.find_first_of(" =\"\\\t\n") == std::string::npos;
    if (plain)
        return value;
    std::string q = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\')
            q += '\\';
        q += c;
    }
    return q + "\"";
}

} // namespace

bool ContractPolicy::excludes(const std::string &key) const
{
    for (const std::string &pattern : excluded) {
        if (pattern == key)
            return true;
        if (pattern.size() >= 2 && pattern.ends_with(".*") &&
            key.starts_with(pattern.substr(0, pattern.size() - 1)))
            return true;
    }
    return false;
}

std::string scenarioFamily(const std::string &scenario)
{
    const auto slash = scenario.rfind('/');
    return slash == std::string::npos ? scenario : scenario.substr(0, slash + 1);
}

ContractPolicies::ContractPolicies(std::vector<ContractPolicy> policies) : m_policies(std::move(policies))
{
    std::sort(m_policies.begin(), m_policies.end(),
              [](const ContractPolicy &a, const ContractPolicy &b) { return a.family < b.family; });
}

ContractPolicy ContractPolicies::forScenario(const std::string &scenario) const
{
    ContractPolicy best;
    bool found = false;
    for (const ContractPolicy &p : m_policies) {
        if (scenario.starts_with(p.family) && (!found || p.family.size() > best.family.size())) {
            best = p;
            found = true;
        }
    }
    if (!found)
        best.family = scenarioFamily(scenario);
    best.excluded.insert(best.excluded.end(), m_global.begin(), m_global.end());
    return best;
}

std::vector<std::string> ContractPolicies::excludedOf(const std::string &family) const
{
    for (const ContractPolicy &p : m_policies)
        if (p.family == family)
            return p.excluded;
    return {};
}

void ContractPolicies::set(const std::string &family, std::vector<std::string> excluded)
{
    std::sort(excluded.begin(), excluded.end());
    excluded.erase(std::unique(excluded.begin(), excluded.end()), excluded.end());
    auto it = std::find_if(m_policies.begin(), m_policies.end(),
                           [&](const ContractPolicy &p) { return p.family == family; });
    if (excluded.empty()) {
        if (it != m_policies.end())
            m_policies.erase(it);
        return;
    }
    if (it != m_policies.end())
        it->excluded = std::move(excluded);
    else
        m_policies.push_back({family, std::move(excluded)});
    std::sort(m_policies.begin(), m_policies.end(),
              [](const ContractPolicy &a, const ContractPolicy &b) { return a.family < b.family; });
}

void ContractPolicies::addGlobalExclusions(const std::vector<std::string> &keys)
{
    m_global.insert(m_global.end(), keys.begin(), keys.end());
}

std::map<std::string, std::string> TuningContract::allSettings(const RunRecord &run,
                                                               const ScenarioRecord &scenario)
{
    std::map<std::string, std::string> out;
    if (run.tuning.is_object())
        flatten("tuning.", run.tuning, out);
    if (!run.tool.empty())
        out["tool"] = run.tool;
    if (!run.toolVersion.empty())
        out["tool_major"] = toolMajorVersion(run.toolVersion);
    const Topology &t = scenario.topology;
    for (const char *factor : {"brokers", "shards", "partitions", "producers", "consumers", "clients",
                               "connections", "threads", "pipeline", "record_size_bytes", "agents",
                               "replication"}) {
        if (const auto v = t.factor(factor))
            out[std::string("topology.") + factor] = std::to_string(*v);
    }
    if (t.batchBytes)
        out["topology.batch_bytes"] = std::to_string(*t.batchBytes);
    if (t.acks)
        out["topology.acks"] = *t.acks;
    if (t.compression)
        out["compression"] = *t.compression;
    // Of the metrics naming an offered rate (metricroles.h), the positive one first by name: the
    // store's trend read takes the same one (storetrends.cpp), whatever order the metrics came in.
    const MetricValue *offered = nullptr;
    for (const MetricValue &m : scenario.metrics)
        if (isOfferedRateMetric(m.name) && std::isfinite(m.value) && m.value > 0 &&
            (!offered || m.name < offered->name))
            offered = &m;
    if (offered)
        out[kOfferedRateKey] = offeredRateText(offered->value);
    return out;
}

bool isLoadKey(const std::string &key)
{
    if (key == kOfferedRateKey)
        return true;
    if (!key.starts_with("topology."))
        return false;
    return findFactor(std::string_view(key).substr(9)) != nullptr;
}

std::string offeredRateText(double recordsPerS)
{
    // Ten digits: a rate read back from the store's JSON (fifteen digits) gives the same text.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", recordsPerS);
    return buf;
}

TuningContract TuningContract::of(const RunRecord &run, const ScenarioRecord &scenario,
                                  const ContractPolicy &policy)
{
    return fromSettings(allSettings(run, scenario), policy);
}

TuningContract TuningContract::fromSettings(std::map<std::string, std::string> settings,
                                            const ContractPolicy &policy)
{
    TuningContract c;
    for (auto &[key, value] : settings)
        if (!policy.excludes(key))
            c.m_settings.emplace(key, std::move(value));
    return c;
}

std::string TuningContract::canonical() const
{
    std::string out;
    for (const auto &[key, value] : m_settings) {
        if (!out.empty())
            out += ' ';
        out += key + "=" + quoteIfNeeded(value);
    }
    return out;
}

std::map<std::string, std::string> TuningContract::loadSettings() const
{
    std::map<std::string, std::string> out;
    for (const auto &[key, value] : m_settings)
        if (isLoadKey(key))
            out.emplace(key, value);
    return out;
}

std::string TuningContract::loadText() const
{
    std::string out;
    for (const auto &[key, value] : m_settings) {
        if (!isLoadKey(key))
            continue;
        if (!out.empty())
            out += ' ';
        out += key + "=" + quoteIfNeeded(value);
    }
    return out;
}

std::vector<ContractDifference> TuningContract::differences(const TuningContract &current) const
{
    std::vector<ContractDifference> out;
    auto a = m_settings.begin();
    auto b = current.m_settings.begin();
    // Both maps are sorted: one merge pass lists every key in order.
    while (a != m_settings.end() || b != current.m_settings.end()) {
        if (b == current.m_settings.end() || (a != m_settings.end() && a->first < b->first)) {
            out.push_back({a->first, a->second, std::nullopt});
            ++a;
        } else if (a == m_settings.end() || b->first < a->first) {
            out.push_back({b->first, std::nullopt, b->second});
            ++b;
        } else {
            if (a->second != b->second)
                out.push_back({a->first, a->second, b->second});
            ++a;
            ++b;
        }
    }
    return out;
}

std::string toolMajorVersion(const std::string &version)
{
    std::string v = version;
    if (!v.empty() && (v[0] == 'v' || v[0] == 'V'))
        v.erase(0, 1);
    const auto end = v.find_first_of(".-+ ");
    return end == std::string::npos ? v : v.substr(0, end);
}

} // namespace plimsoll
