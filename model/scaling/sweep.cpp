#include "model/scaling/sweep.h"

#include "model/core/catalog.h"
#include "model/core/factorwords.h"
#include "model/core/metricroles.h"

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
    for (const MetricValue &m : s.metrics)
        if (isOfferedRateMetric(m.name) && std::isfinite(m.value) && m.value > 0) {
            if (from && hasInferred(s.topology, "offered_rate"))
                *from = sourceName.empty() ? std::string("the source's path (inferred on import)")
                                           : "file name '" + baseName(sourceName) + "' (inferred on import)";
            return m.value;
        }
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
    Settings all; // every setting, the factor's keys left out
    ContractPolicy policy;
    std::string workload;
    TuningContract contract;
};

// The ramp a scenario belongs to in its run: its name up to the last '/'.
std::string rampOf(const std::string &scenario)
{
    const auto slash = scenario.rfind('/');
    return slash == std::string::npos ? std::string() : scenario.substr(0, slash);
}

// The ramps of a run whose saturation summary stands for them in a sweep over `factor`: those
// whose steps do not vary it (a sweep across runs, one configuration each). A ramp that varies
// it gives its steps, and its summary, a repeat of one of them, is left out.
std::set<std::string> summarisedRamps(const RunRecord &run, const SweepSpec &spec, const std::string &sourceName)
{
    std::set<std::string> out;
    for (const ScenarioRecord &summary : run.scenarios) {
        if (summary.kind != "saturation")
            continue;
        const std::string ramp = rampOf(summary.name);
        std::set<double> xs;
        for (const ScenarioRecord &s : run.scenarios)
            if (s.kind != "saturation" && rampOf(s.name) == ramp)
                if (const auto x = sweepX(run, s, spec.factor, sourceName))
                    xs.insert(*x);
        if (xs.size() <= 1)
            out.insert(ramp);
    }
    return out;
}

std::vector<Candidate> candidates(const std::vector<RunRecord> &runs, const SweepSpec &spec,
                                  const RunSourceNames &sources)
{
    std::vector<Candidate> out;
    const std::vector<std::string> dropped = factorKeys(spec.factor);
    for (const RunRecord &run : runs) {
        const auto src = sources.find(run.runKey);
        const std::string sourceName = src == sources.end() ? std::string() : src->second;
        const std::set<std::string> summarised = summarisedRamps(run, spec, sourceName);
        for (const ScenarioRecord &s : run.scenarios) {
            if (!s.name.starts_with(spec.scenarioPrefix) ||
                s.name.find(spec.scenarioContains) == std::string::npos)
                continue;
            // One configuration, one point: its saturation summary where it has one that
            // stands for a ramp of unvaried steps, else its steps.
            if ((s.kind == "saturation") != (summarised.count(rampOf(s.name)) > 0))
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
            c.policy = spec.policies.forScenario(s.name);
            c.policy.excluded.insert(c.policy.excluded.end(), spec.excluded.begin(), spec.excluded.end());
            out.push_back(std::move(c));
        }
    }
    return out;
}

// The factors whose stated value is x at every point (clients and connections of one
// redis-benchmark -c): the same load as x, not a setting that differs.
std::vector<std::string> factorsSameAsX(const std::vector<Candidate *> &group, const std::string &factor)
{
    std::vector<std::string> out;
    if (group.empty())
        return out;
    for (const FactorInfo &f : factorCatalog()) {
        if (f.name == factor)
            continue;
        const std::string name(f.name);
        const std::string key = "topology." + name;
        const bool same = std::all_of(group.begin(), group.end(), [&](const Candidate *c) {
            const auto it = c->all.find(key);
            return it != c->all.end() && c->point.x == std::floor(c->point.x) &&
                   it->second == std::to_string(int64_t(c->point.x));
        });
        if (same)
            out.push_back(name);
    }
    return out;
}

// Workloads, then the contracts: the factors that equal x leave the contract, with x.
void settleContracts(const std::vector<Candidate *> &group, const std::string &factor,
                     std::vector<std::string> *sameAsX)
{
    const std::vector<std::string> same = factorsSameAsX(group, factor);
    std::vector<std::string> normalised{factor};
    normalised.insert(normalised.end(), same.begin(), same.end());
    for (Candidate *c : group) {
        for (const std::string &f : same)
            c->all.erase("topology." + f);
        c->workload = workloadOf(c->point.scenario, normalised);
        c->contract = TuningContract::fromSettings(c->all, c->policy);
    }
    if (sameAsX)
        *sameAsX = same;
}

std::vector<SweepWorkload> workloadsOf(const std::vector<Candidate *> &group)
{
    std::vector<SweepWorkload> out;
    for (const Candidate *c : group) {
        auto it = std::find_if(out.begin(), out.end(), [&](const SweepWorkload &w) { return w.workload == c->workload; });
        if (it == out.end())
            out.push_back({c->workload, 1});
        else
            ++it->points;
    }
    std::stable_sort(out.begin(), out.end(), [](const SweepWorkload &a, const SweepWorkload &b) {
        return a.points > b.points;
    });
    return out;
}

// What each point can show (SweepPoint::leftOut): nothing when it measured no throughput; latency
// at its rate, not capacity, when it kept up with an offered rate within the knee's shortfall
// tolerance (a point of an offered-rate sweep is read by the knee instead).
void classifyPoints(Sweep &sweep)
{
    const double tolerance = KneeOptions{}.maxShortfall;
    const bool offeredSweep = sweep.factor == kOfferedRateFactor;
    const bool throughput = isThroughputMetric(sweep.metric);
    for (SweepPoint &p : sweep.points) {
        if (p.p99 && (!(*p.p99 > 0) || !std::isfinite(*p.p99)))
            p.p99.reset(); // a p99 of 0 measured nothing
        if (!std::isfinite(p.y) || !(p.y > 0)) {
            p.degenerate = true;
            p.leftOut = "no throughput: " + sweep.metric + " is " + groupThousands(p.y, 0);
            continue;
        }
        if (!offeredSweep && throughput && p.offered && p.achieved && *p.offered > 0 &&
            *p.achieved >= *p.offered * (1 - tolerance) && *p.achieved <= *p.offered * (1 + tolerance)) {
            p.rateLimited = true;
            p.leftOut = "achieved its offered rate (" + formatMetric("records_per_s", *p.offered) +
                        "): latency at that rate, not capacity";
        }
    }
}

// A sweep of candidates already known to share one contract.
Sweep sweepOf(const std::vector<Candidate *> &group, const SweepSpec &spec,
              const std::vector<std::string> &sameAsX)
{
    Sweep sw;
    sw.factor = spec.factor;
    sw.metric = spec.metric;
    sw.workload = group.front()->workload;
    sw.sameAsX = sameAsX;
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
    classifyPoints(sw);
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
    // A number as a reader writes it (200,000, not the stored 200000.0); any other value as stored.
    const auto readable = [](const std::string &v) {
        char *end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        if (v.empty() || end != v.c_str() + v.size() || !std::isfinite(x) || v.find_first_of("xXpP") != std::string::npos)
            return v;
        if (x == std::floor(x) && std::fabs(x) < 1e15)
            return groupThousands(x, 0);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.6g", x);
        return std::string(buf);
    };
    std::vector<std::string> texts;
    bool grouped = false; // a value with a thousands separator: the list takes semicolons
    for (const auto &v : values) {
        texts.push_back(v ? readable(*v) : std::string("absent"));
        grouped = grouped || texts.back().find(',') != std::string::npos;
    }
    std::string out = key + " (";
    for (size_t i = 0; i < texts.size(); ++i)
        out += (i ? (grouped ? "; " : ", ") : "") + texts[i];
    return out + ")";
}

std::vector<UslPoint> Sweep::uslPoints() const
{
    std::vector<UslPoint> out;
    for (const SweepPoint &p : points)
        if (p.leftOut.empty())
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
    std::vector<Candidate> all = candidates(runs, spec, sources);
    Sweep refused;
    refused.factor = spec.factor;
    refused.metric = spec.metric;
    if (all.empty()) {
        refused.error = "no selected scenario has both " + factorLabel(spec.factor) + " and " +
                        spec.metric;
        return refused;
    }
    std::vector<Candidate *> group;
    for (Candidate &c : all)
        group.push_back(&c);
    std::vector<std::string> sameAsX;
    settleContracts(group, spec.factor, &sameAsX);

    // Points of one workload only: a SET sweep is not pooled with HSET's or MSET's.
    std::vector<SweepWorkload> workloads = workloadsOf(group);
    if (!spec.workload.empty()) {
        std::erase_if(group, [&](const Candidate *c) { return c->workload != spec.workload; });
        if (group.empty()) {
            std::string list;
            for (const SweepWorkload &w : workloads)
                list += (list.empty() ? "" : ", ") + w.workload;
            refused.error = "no selected point is of the workload '" + spec.workload +
                            "'; the selection holds " + list;
            refused.workloads = std::move(workloads);
            return refused;
        }
        settleContracts(group, spec.factor, &sameAsX);
        workloads = workloadsOf(group);
    }
    if (workloads.size() > 1) {
        std::string list;
        for (const SweepWorkload &w : workloads)
            list += (list.empty() ? "" : "; ") + w.workload + " (" + std::to_string(w.points) +
                    (w.points == 1 ? " point)" : " points)");
        refused.error = "the selected points are of " + std::to_string(workloads.size()) +
                        " workloads, and a sweep fits one: " + list +
                        ". Choose one (--workload NAME), or narrow the selection";
        refused.workloads = std::move(workloads);
        return refused;
    }

    const bool agree = std::all_of(group.begin(), group.end(), [&](const Candidate *c) {
        return c->contract == group.front()->contract;
    });
    if (agree)
        return sweepOf(group, spec, sameAsX);

    std::vector<const Settings *> kept;
    for (const Candidate *c : group)
        kept.push_back(&c->contract.settings());
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
    std::vector<Candidate> all = candidates(runs, spec, {});
    // Workload first (its name with x as '*'), then the factors equal to x within it, then the
    // contract: each group is one workload under one contract.
    std::map<std::string, std::vector<Candidate *>> byWorkload;
    for (Candidate &c : all)
        byWorkload[workloadOf(c.point.scenario, {factor})].push_back(&c);
    std::vector<Sweep> out;
    for (auto &[workload, members] : byWorkload) {
        std::vector<std::string> sameAsX;
        settleContracts(members, factor, &sameAsX);
        std::map<std::pair<std::string, std::string>, std::vector<Candidate *>> groups;
        for (Candidate *c : members)
            groups[{c->workload, c->contract.canonical()}].push_back(c);
        for (const auto &[key, group] : groups) {
            Sweep s = sweepOf(group, spec, sameAsX);
            if (s.distinctX >= 2)
                out.push_back(std::move(s));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Sweep &a, const Sweep &b) {
        return a.points.size() > b.points.size();
    });
    return out;
}

const char *toString(SweepAnswer answer)
{
    switch (answer) {
    case SweepAnswer::Capacity:
        return "capacity";
    case SweepAnswer::Knee:
        return "knee";
    case SweepAnswer::Latency:
        return "latency";
    case SweepAnswer::None:
        return "none";
    }
    return "none";
}

namespace {

std::string factorWords(const std::string &factor, double x)
{
    if (factor == kOfferedRateFactor)
        return formatMetric("records_per_s", x) + " offered";
    const std::string value = x == std::floor(x) ? groupThousands(x, 0) : groupThousands(x, 2);
    std::string name = factor == "record_size_bytes" ? "B records" : factor;
    if (x == 1 && name.size() > 1 && name.back() == 's')
        name.pop_back();
    return value + " " + name;
}

std::string countOf(int n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// p99 from the smallest x that measured one to the largest.
void p99Span(const Sweep &sweep, SweepFit &out)
{
    std::optional<SweepPoint> lo, hi;
    for (const SweepPoint &p : sweep.points) {
        if (!p.p99 || !(*p.p99 > 0) || !std::isfinite(*p.p99) || p.degenerate)
            continue;
        if (!lo || p.x < lo->x)
            lo = p;
        if (!hi || p.x >= hi->x)
            hi = p;
    }
    if (lo && hi && hi->x > lo->x) {
        out.p99Low = lo->p99;
        out.p99LowX = lo->x;
        out.p99High = hi->p99;
        out.p99HighX = hi->x;
    }
}

std::string p99Sentence(const Sweep &sweep, const SweepFit &f)
{
    if (!f.p99Low || !f.p99High)
        return "no two loads measured a p99";
    const double ratio = *f.p99High / *f.p99Low;
    char times[32];
    std::snprintf(times, sizeof times, ratio >= 10 ? "%.0f×" : "%.2g×", ratio);
    const std::string from = formatSeconds(*f.p99Low) + " at " + factorWords(sweep.factor, *f.p99LowX);
    const std::string to = formatSeconds(*f.p99High) + " at " + factorWords(sweep.factor, *f.p99HighX);
    if (ratio > 1.05)
        return "p99 rose " + std::string(times) + ", from " + from + " to " + to;
    if (ratio < 1 / 1.05)
        return "p99 fell to " + std::string(times) + ", from " + from + " to " + to;
    return "p99 held within 5 %, from " + from + " to " + to;
}

} // namespace

SweepFit fitSweep(const Sweep &sweep, const UslOptions &usl, const KneeOptions &knee)
{
    SweepFit out;
    const bool offeredSweep = sweep.factor == kOfferedRateFactor;
    const bool throughput = isThroughputMetric(sweep.metric);
    std::vector<std::string> degenerate, limited;
    std::optional<double> commonOffered;
    bool oneOffered = true;
    for (const SweepPoint &p : sweep.points) {
        if (p.degenerate)
            degenerate.push_back(p.runKey + " / " + p.scenario);
        if (!p.rateLimited)
            continue;
        limited.push_back(p.runKey + " / " + p.scenario);
        if (commonOffered && std::fabs(*commonOffered - *p.offered) > 0.005 * *commonOffered)
            oneOffered = false;
        commonOffered = commonOffered.value_or(*p.offered);
    }
    out.degenerate = int(degenerate.size());
    out.rateLimited = int(limited.size());
    if (!degenerate.empty())
        out.leftOut.push_back(countOf(out.degenerate, "point has", "points have") +
                              " no throughput and " + (out.degenerate == 1 ? "is" : "are") +
                              " left out of the fit, the knee and p99 against load");
    if (!limited.empty())
        out.leftOut.push_back(countOf(out.rateLimited, "point", "points") +
                              " achieved " + (out.rateLimited == 1 ? "its" : "their") +
                              " offered rate and " + (out.rateLimited == 1 ? "measures" : "measure") +
                              " latency at it, not capacity: left out of the capacity fit");
    p99Span(sweep, out);
    const int usable = int(sweep.points.size()) - out.degenerate;

    // The knee: achieved = min(offered, capacity) over offered-rate steps.
    std::vector<SweepStep> steps;
    int missing = 0;
    for (const SweepPoint &p : sweep.points) {
        if (p.degenerate)
            continue;
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
        out.kneeNote = "no knee: " + std::to_string(missing) + " of " + std::to_string(usable) +
                       " points state no offered rate (a fixed-rate sweep has one: --x " +
                       kOfferedRateFactor + ")";

    if (usable == 0) {
        out.why = "every point has no throughput: nothing was measured";
        return out;
    }
    if (offeredSweep) {
        // Against what was offered, the law is achieved = min(offered, capacity): a slope above
        // one would claim more delivered than asked for.
        out.usl.error = "not fitted: against an offered rate the knee model applies (achieved = "
                        "min(offered, capacity)), not the Universal Scalability Law";
        if (!out.knee || !out.knee->ok) {
            out.why = out.knee ? out.knee->error : out.kneeNote;
            return out;
        }
        out.answer = SweepAnswer::Knee;
        out.headline = out.knee->reason;
        return out;
    }
    if (throughput && out.rateLimited == usable) {
        out.answer = SweepAnswer::Latency;
        out.usl.error = "not fitted: every point achieved its offered rate, so none measured capacity";
        out.headline = (usable == 1 ? std::string("The point achieved its offered rate")
                                    : "Every point achieved its offered rate") +
                       (oneOffered && commonOffered ? " of " + formatMetric("records_per_s", *commonOffered) : "") +
                       ": the runs measured latency at that rate, not capacity (capacity is at "
                       "least the largest rate achieved). " +
                       p99Sentence(sweep, out) + ".";
        return out;
    }
    out.usl = UslFitter(usl).fit(sweep.uslPoints());
    if (!out.usl.ok) {
        out.why = out.usl.error;
        if (out.rateLimited > 0) {
            // The points that kept up with their rate still say something: latency.
            out.answer = SweepAnswer::Latency;
            out.headline = "No capacity fit (" + out.usl.error + "; " +
                           countOf(out.rateLimited, "point", "points") + " achieved " +
                           (out.rateLimited == 1 ? "its" : "their") + " offered rate). " +
                           p99Sentence(sweep, out) + ".";
        }
        return out;
    }
    out.answer = SweepAnswer::Capacity;
    const UslFit &f = out.usl;
    std::string what = f.model == UslModel::Full        ? "USL (λ, σ, κ)"
                       : f.model == UslModel::Contention ? "contention only (λ, σ; κ held at 0)"
                                                         : "linear (λ; σ and κ held at 0)";
    out.headline = what + " over " + countOf(f.points, "point", "points") + " at " +
                   std::to_string(f.distinctN) + " distinct " + sweep.factor;
    if (f.peakMeasured())
        out.headline += ": peak " + formatMetric(sweep.metric, f.xAtNStar) + " at " +
                        factorWords(sweep.factor, f.nStar) + ", between measured points";
    else if (f.peak == UslPeak::Beyond)
        out.headline += ": no peak within the measured range (" + f.nStarNote + ")";
    else if (f.peak == UslPeak::Below)
        out.headline += ": " + f.nStarNote;
    else
        out.headline += ": " + f.nStarNote;
    if (!f.modelNote.empty())
        out.headline += "; " + f.modelNote;
    return out;
}

std::string extrapolationNote(const UslFit &fit, double x, const std::string &factor)
{
    if (!fit.ok || (x >= fit.minN && x <= fit.maxN))
        return {};
    char buf[160];
    if (x > fit.maxN)
        std::snprintf(buf, sizeof buf, "extrapolated, %.2g× the largest measured %s (%g)", x / fit.maxN,
                      factor.c_str(), fit.maxN);
    else
        std::snprintf(buf, sizeof buf, "extrapolated, below the smallest measured %s (%g)", factor.c_str(),
                      fit.minN);
    return buf;
}

} // namespace plimsoll
