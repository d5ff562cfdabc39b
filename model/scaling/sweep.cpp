#include "model/scaling/sweep.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>

namespace plimsoll {

namespace {

// Keys the swept factor appears under: left out of the contract, since they are what varies.
std::vector<std::string> factorKeys(const std::string &factor)
{
    if (factor == kOfferedRateFactor)
        return {"tuning.producerRate", "tuning.throughput", "tuning.rate", kOfferedRateKey};
    // An agent brings its clients: a fleet ramp's producers grow with its agents.
    if (factor == "agents")
        return {"topology.agents", "tuning.agents", "topology.producers", "topology.consumers", "topology.clients"};
    return {"topology." + factor, "tuning." + factor};
}

bool hasInferred(const Topology &t, const std::string &factor)
{
    return std::find(t.inferred.begin(), t.inferred.end(), factor) != t.inferred.end();
}

std::string baseName(const std::string &path)
{
    const auto slash = path.find_last_of("/\\:");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::optional<double> recordBytesOf(const ScenarioRecord &s)
{
    if (s.topology.recordSizeBytes && *s.topology.recordSizeBytes > 0)
        return double(*s.topology.recordSizeBytes);
    const auto bytes = s.metric("bytes_per_s");
    const auto records = s.metric("records_per_s");
    // Tools print MB/s to two decimals: the ratio is the record size to well under a byte.
    if (bytes && records && *records > 0 && *bytes > 0)
        return std::round(*bytes / *records);
    return std::nullopt;
}

std::optional<double> positiveNumber(const nlohmann::json &tuning, const char *key)
{
    if (!tuning.is_object())
        return std::nullopt;
    const auto it = tuning.find(key);
    if (it == tuning.end())
        return std::nullopt;
    double v = 0;
    if (it->is_number())
        v = it->get<double>();
    else if (it->is_string()) {
        try {
            v = std::stod(it->get<std::string>());
        } catch (const std::exception &) {
            return std::nullopt;
        }
    }
    return v > 0 && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// The offered rate of a scenario, whatever the sweep's factor: the knee needs it.
std::optional<double> offeredRate(const RunRecord &run, const ScenarioRecord &s,
                                  const std::string &sourceName, std::string *from)
{
    if (const auto v = s.metric("ramp.offered_records_per_s"); v && *v > 0)
        return v;
    for (const char *key : {"producerRate", "throughput", "rate"})
        if (const auto v = positiveNumber(run.tuning, key)) {
            if (from)
                *from = std::string("tuning.") + key;
            return v;
        }
    const auto recordBytes = recordBytesOf(s);
    if (const auto v = offeredRateInName(s.name, recordBytes)) {
        if (from)
            *from = "scenario name '" + s.name + "'";
        return v;
    }
    if (sourceName.empty())
        return std::nullopt;
    if (const auto v = offeredRateInName(baseName(sourceName), recordBytes)) {
        if (from)
            *from = "file name '" + baseName(sourceName) + "'";
        return v;
    }
    // A harness may name the step by a directory (".../15-throughput/0-trial/producer.txt").
    if (const auto v = offeredRateInName(sourceName, recordBytes)) {
        if (from)
            *from = "source path '" + sourceName + "'";
        return v;
    }
    return std::nullopt;
}

using Settings = std::map<std::string, std::string>;

// Keys whose values differ among the settings (absent counts as a value), in key order.
std::vector<SweepKeyDifference> differingKeys(const std::vector<const Settings *> &all)
{
    std::set<std::string> keys;
    for (const Settings *s : all)
        for (const auto &kv : *s)
            keys.insert(kv.first);
    std::vector<SweepKeyDifference> out;
    for (const std::string &key : keys) {
        SweepKeyDifference d{key, {}};
        for (const Settings *s : all) {
            const auto it = s->find(key);
            const std::optional<std::string> v =
                it == s->end() ? std::nullopt : std::optional<std::string>(it->second);
            if (std::find(d.values.begin(), d.values.end(), v) == d.values.end())
                d.values.push_back(v);
        }
        if (d.values.size() > 1)
            out.push_back(std::move(d));
    }
    return out;
}

struct Candidate
{
    SweepPoint point;
    Settings all;      // every setting, the factor's keys left out
    TuningContract contract;
};

std::vector<Candidate> candidates(const std::vector<RunRecord> &runs, const SweepSpec &spec,
                                  const RunSourceNames &sources)
{
    std::vector<Candidate> out;
    const std::vector<std::string> dropped = factorKeys(spec.factor);
    for (const RunRecord &run : runs) {
        const auto src = sources.find(run.runKey);
        const std::string sourceName = src == sources.end() ? std::string() : src->second;
        for (const ScenarioRecord &s : run.scenarios) {
            // A saturation summary repeats a step of its ramp.
            if (s.kind == "saturation" || !s.name.starts_with(spec.scenarioPrefix) ||
                s.name.find(spec.scenarioContains) == std::string::npos)
                continue;
            Candidate c;
            const auto x = sweepX(run, s, spec.factor, sourceName, &c.point.xInferredFrom);
            const auto y = s.metric(spec.metric);
            if (!x || !y)
                continue;
            c.point.runKey = run.runKey;
            c.point.scenario = s.name;
            c.point.timestamp = run.timestamp;
            c.point.x = *x;
            c.point.y = *y;
            c.point.p99 = s.metric("latency_p99_s");
            c.point.achieved = s.metric("records_per_s");
            c.point.offered = spec.factor == kOfferedRateFactor
                                  ? x
                                  : offeredRate(run, s, sourceName, nullptr);
            c.all = TuningContract::allSettings(run, s);
            for (const std::string &k : dropped)
                c.all.erase(k);
            ContractPolicy policy = spec.policies.forScenario(s.name);
            policy.excluded.insert(policy.excluded.end(), spec.excluded.begin(), spec.excluded.end());
            c.contract = TuningContract::fromSettings(c.all, policy);
            out.push_back(std::move(c));
        }
    }
    return out;
}

// A sweep of candidates already known to share one contract.
Sweep sweepOf(const std::vector<const Candidate *> &group, const SweepSpec &spec)
{
    Sweep sw;
    sw.factor = spec.factor;
    sw.metric = spec.metric;
    std::vector<const Settings *> all;
    for (const Candidate *c : group) {
        sw.points.push_back(c->point);
        all.push_back(&c->all);
    }
    std::stable_sort(sw.points.begin(), sw.points.end(), [](const SweepPoint &a, const SweepPoint &b) {
        return a.x != b.x ? a.x < b.x : a.timestamp < b.timestamp;
    });
    std::vector<std::pair<std::string, std::string>> byTime;
    std::set<double> xs;
    for (const SweepPoint &p : sw.points) {
        xs.insert(p.x);
        if (std::none_of(byTime.begin(), byTime.end(), [&](const auto &r) { return r.second == p.runKey; }))
            byTime.emplace_back(p.timestamp, p.runKey);
    }
    std::stable_sort(byTime.begin(), byTime.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &r : byTime)
        sw.runKeys.push_back(r.second);
    sw.distinctX = int(xs.size());
    sw.contract = group.front()->contract.canonical();
    sw.leftOut = differingKeys(all);
    sw.ok = true;
    return sw;
}

std::string factorLabel(const std::string &factor)
{
    return factor == kOfferedRateFactor ? "an offered rate" : "topology." + factor;
}

} // namespace

bool RunSelection::any() const
{
    return !runs.empty() || !scenario.empty() || !tool.empty() || !target.empty() ||
           !since.empty() || !until.empty();
}

bool RunSelection::matches(const RunRecord &run) const
{
    if (!runs.empty() && std::find(runs.begin(), runs.end(), run.runKey) == runs.end())
        return false;
    if (!tool.empty() && run.tool != tool)
        return false;
    if (!target.empty() && run.target != target)
        return false;
    // Normalized timestamps are "YYYY-MM-DDTHH:MM:SS…Z": text order is time order, and a bare
    // date compares as its midnight.
    if (!since.empty() && run.timestamp < since)
        return false;
    if (!until.empty() && !(run.timestamp < until))
        return false;
    if (!scenario.empty() &&
        std::none_of(run.scenarios.begin(), run.scenarios.end(), [&](const ScenarioRecord &s) {
            return s.name.find(scenario) != std::string::npos;
        }))
        return false;
    return true;
}

std::string SweepKeyDifference::describe() const
{
    std::string out = key + " (";
    for (size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + (values[i] ? *values[i] : std::string("absent"));
    return out + ")";
}

std::vector<UslPoint> Sweep::uslPoints() const
{
    std::vector<UslPoint> out;
    for (const SweepPoint &p : points)
        out.push_back({p.x, p.y});
    return out;
}

std::optional<double> offeredRateInName(const std::string &name, std::optional<double> recordBytes)
{
    static const std::regex rate(R"((?:^|[^0-9.])(\d+(?:\.\d+)?)\s*([km]?)[-_ ]?rate(?:[^a-z]|$))",
                                 std::regex::icase);
    static const std::regex throughput(R"((?:^|[^0-9.])(\d+(?:\.\d+)?)[-_]throughput(?:[^a-z]|$))",
                                       std::regex::icase);
    std::smatch m;
    if (std::regex_search(name, m, rate)) {
        const char unit = m[2].length() ? char(std::tolower(m[2].str()[0])) : ' ';
        const double v = std::stod(m[1].str()) * (unit == 'k' ? 1e3 : unit == 'm' ? 1e6 : 1);
        return v > 0 ? std::optional<double>(v) : std::nullopt;
    }
    if (std::regex_search(name, m, throughput) && recordBytes && *recordBytes > 0) {
        const double v = std::stod(m[1].str()) * 1e6 / *recordBytes;
        return v > 0 ? std::optional<double>(v) : std::nullopt;
    }
    return std::nullopt;
}

std::optional<double> sweepX(const RunRecord &run, const ScenarioRecord &scenario,
                             const std::string &factor, const std::string &sourceName,
                             std::string *inferredFrom)
{
    if (factor == kOfferedRateFactor)
        return offeredRate(run, scenario, sourceName, inferredFrom);
    const auto v = scenario.topology.factor(factor);
    if (!v)
        return std::nullopt;
    if (inferredFrom && hasInferred(scenario.topology, factor))
        *inferredFrom = "inferred on import";
    return double(*v);
}

Sweep assembleSweep(const std::vector<RunRecord> &runs, const SweepSpec &spec,
                    const RunSourceNames &sources)
{
    const std::vector<Candidate> all = candidates(runs, spec, sources);
    if (all.empty()) {
        Sweep none;
        none.factor = spec.factor;
        none.metric = spec.metric;
        none.error = "no selected scenario has both " + factorLabel(spec.factor) + " and " +
                     spec.metric;
        return none;
    }
    std::vector<const TuningContract *> contracts;
    std::vector<const Candidate *> group;
    for (const Candidate &c : all) {
        group.push_back(&c);
        contracts.push_back(&c.contract);
    }
    const bool agree = std::all_of(contracts.begin(), contracts.end(), [&](const TuningContract *c) {
        return *c == *contracts.front();
    });
    if (agree)
        return sweepOf(group, spec);

    Sweep refused;
    refused.factor = spec.factor;
    refused.metric = spec.metric;
    std::vector<const Settings *> kept;
    for (const TuningContract *c : contracts)
        kept.push_back(&c->settings());
    refused.conflicts = differingKeys(kept);
    std::string list;
    for (const SweepKeyDifference &d : refused.conflicts)
        list += (list.empty() ? "" : "; ") + d.describe();
    refused.error = "the selected points do not share a tuning contract: " + list +
                    ". Leave a key out (--contract-exclude KEY) to sweep across it, or select "
                    "fewer runs";
    return refused;
}

std::vector<Sweep> findSweeps(const std::vector<RunRecord> &runs, const std::string &factor,
                              const std::string &metric, const ContractPolicies &policies)
{
    SweepSpec spec;
    spec.factor = factor;
    spec.metric = metric;
    spec.policies = policies;
    const std::vector<Candidate> all = candidates(runs, spec, {});
    std::map<std::string, std::vector<const Candidate *>> groups;
    for (const Candidate &c : all)
        groups[c.contract.canonical()].push_back(&c);
    std::vector<Sweep> out;
    for (const auto &[contract, group] : groups) {
        Sweep s = sweepOf(group, spec);
        if (s.distinctX >= 2)
            out.push_back(std::move(s));
    }
    std::stable_sort(out.begin(), out.end(), [](const Sweep &a, const Sweep &b) {
        return a.points.size() > b.points.size();
    });
    return out;
}

SweepFit fitSweep(const Sweep &sweep, const UslOptions &usl, const KneeOptions &knee)
{
    SweepFit out;
    out.usl = UslFitter(usl).fit(sweep.uslPoints());
    std::vector<SweepStep> steps;
    int missing = 0;
    for (const SweepPoint &p : sweep.points) {
        if (!p.offered || !p.achieved) {
            ++missing;
            continue;
        }
        steps.push_back({*p.offered, *p.achieved,
                         p.p99 ? *p.p99 : std::numeric_limits<double>::quiet_NaN()});
    }
    if (missing == 0 && !steps.empty())
        out.knee = KneeDetector(knee).detect(std::move(steps));
    else
        out.kneeNote = "no knee: " + std::to_string(missing) + " of " +
                       std::to_string(sweep.points.size()) +
                       " points state no offered rate (a fixed-rate sweep has one: --x " +
                       kOfferedRateFactor + ")";
    return out;
}

} // namespace plimsoll
