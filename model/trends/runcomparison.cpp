#include "model/trends/runcomparison.h"

#include "model/trends/multipletesting.h"
#include "model/trends/seriesanalysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

namespace plimsoll {

namespace {

RunIdentity identityOf(const RunRecord &r)
{
    return {r.runKey, r.timestamp, r.commit, r.imageDigest, r.target, r.tuning};
}

// Two runs' contracts as a comparison weighs them: a metric-stated offered rate is left to the
// offered-rate rules (markNotComparable: the throughput of runs asked for different rates is
// not_comparable, the rest is compared), as it was before it joined the contract. (The noise of
// each metric still comes from its own series, offered rate included: historyBefore().)
ContractPolicy comparisonPolicy(const ContractPolicies &policies, const std::string &scenario)
{
    ContractPolicy policy = policies.forScenario(scenario);
    policy.excluded.push_back(kOfferedRateKey);
    return policy;
}

const ScenarioRecord *findScenario(const RunRecord &run, const std::string &name)
{
    for (const ScenarioRecord &s : run.scenarios)
        if (s.name == name)
            return &s;
    return nullptr;
}

// Sample standard deviation (n − 1): the history is a sample of the series' noise.
double sampleStddev(const std::vector<double> &v)
{
    if (v.size() < 2)
        return 0;
    double mean = 0;
    for (double x : v)
        mean += x;
    mean /= static_cast<double>(v.size());
    double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

double floorBand(const MetricComparison &m, const ComparisonOptions &options)
{
    return options.minRelativeBand * std::abs(m.baseline);
}

// The delta and its statistics; the verdict waits for the correction over every metric.
MetricComparison compareMetric(const TrendHistory &history, const RunRecord &current,
                               const std::string &scenario, const std::string &metric, double base,
                               double cur, const ContractPolicies &policies,
                               const ComparisonOptions &options)
{
    MetricComparison m;
    m.metric = metric;
    m.direction = trendDirection(metric);
    m.baseline = base;
    m.current = cur;
    m.delta = cur - base;
    if (base != 0)
        m.deltaPercent = m.delta / std::abs(base) * 100;
    std::vector<double> recent;
    if (const auto past = history.historyBefore(current, scenario, metric, policies)) {
        // Only the level since the last change point is noise: a window reaching across a step
        // would count the step itself as spread and wave every later regression through. So is
        // only the noise since its last change, and an outlier (one night's spike) is no part
        // of it either.
        const std::vector<double> values = past->values();
        const SeriesAnalysis analysis = analyzeSeries(values);
        std::size_t from = 0;
        for (const LevelChange &c : analysis.changes)
            from = std::max(from, c.change.index);
        for (const VarianceChange &v : analysis.varianceChanges)
            from = std::max(from, v.index);
        std::vector<bool> outlier(values.size(), false);
        for (const Outlier &o : analysis.outliers)
            outlier[o.index] = true;
        const std::size_t wanted = std::size_t(std::max(options.historyRuns, 0));
        for (std::size_t i = values.size(); i-- > from && recent.size() < wanted;)
            if (!outlier[i])
                recent.push_back(values[i]);
        std::reverse(recent.begin(), recent.end());
    }
    m.historyPoints = static_cast<int>(recent.size());
    m.historyStddev = sampleStddev(recent);
    m.noiseBand = floorBand(m, options);
    if (m.historyPoints >= 2 && std::isfinite(m.delta)) {
        // Baseline and current are one draw each: the delta's spread is s·√2.
        const double se = m.historyStddev * std::sqrt(2.0);
        if (se == 0)
            m.pValue = m.delta == 0 ? 1.0 : 0.0; // a flat history: any move is beyond its noise
        else
            m.pValue = studentTTwoSided(m.delta / se, m.historyPoints - 1);
    }
    return m;
}

// Throughput of runs at different offered rates measures the load generator, not the system.
void markNotComparable(ScenarioComparison &sc)
{
    if (!sc.offeredDiffers)
        return;
    for (MetricComparison &m : sc.metrics) {
        if (!isThroughputMetric(m.metric))
            continue;
        m.verdict = Verdict::NotComparable;
        m.note = "offered " + offeredText(*sc.offeredBaseline) + " -> " + offeredText(*sc.offeredCurrent);
        if (sc.offeredBaseline->recordsPerS && sc.offeredCurrent->recordsPerS && m.metric == "records_per_s") {
            char buf[96];
            std::snprintf(buf, sizeof buf, "; achieved/offered %.1f %% -> %.1f %%",
                          100 * m.baseline / *sc.offeredBaseline->recordsPerS,
                          100 * m.current / *sc.offeredCurrent->recordsPerS);
            m.note += buf;
        }
    }
}

// Holm over every metric with a p-value (the whole comparison is one decision: the gate), then
// each metric's band at the level Holm held it to, so |delta| > band is exactly its verdict.
void judgeMetrics(RunComparison &out, const ComparisonOptions &options)
{
    std::vector<MetricComparison *> tested;
    std::vector<double> p;
    for (ScenarioComparison &sc : out.scenarios)
        for (MetricComparison &m : sc.metrics)
            if (m.verdict != Verdict::NotComparable && m.pValue) {
                tested.push_back(&m);
                p.push_back(*m.pValue);
            }
    out.tested = static_cast<int>(tested.size());
    const HolmResult h = holm(p, options.alpha);
    for (std::size_t i = 0; i < tested.size(); ++i) {
        MetricComparison &m = *tested[i];
        m.adjustedPValue = h.adjusted[i];
        const double t = studentTCritical(h.level[i], m.historyPoints - 1);
        const double statBand = m.historyStddev == 0 ? 0 : t * m.historyStddev * std::sqrt(2.0);
        m.noiseBand = std::max(floorBand(m, options), statBand);
    }
    for (ScenarioComparison &sc : out.scenarios)
        for (MetricComparison &m : sc.metrics) {
            if (m.verdict == Verdict::NotComparable)
                continue;
            const bool significant = !m.adjustedPValue || *m.adjustedPValue <= options.alpha;
            m.verdict = significant && std::abs(m.delta) > m.noiseBand ? verdictForDelta(m.direction, m.delta)
                                                                      : Verdict::Unchanged;
        }
}

const MetricComparison *throughputOf(const ScenarioComparison &sc)
{
    for (const char *name : kHeadlineThroughputMetrics)
        for (const MetricComparison &m : sc.metrics)
            if (m.metric == name)
                return &m;
    for (const MetricComparison &m : sc.metrics)
        if (isThroughputMetric(m.metric))
            return &m;
    return nullptr;
}

// CPU and memory do less when less work arrives: when throughput moved, a resource is judged
// by its use per record, against its own band scaled to its baseline.
void judgeResources(ScenarioComparison &sc)
{
    const MetricComparison *tp = throughputOf(sc);
    if (!tp || !(tp->baseline > 0) || !(tp->current > 0))
        return;
    const bool moved = tp->verdict == Verdict::Regression || tp->verdict == Verdict::Improvement ||
                       tp->verdict == Verdict::NotComparable;
    if (!moved)
        return;
    const double work = tp->current / tp->baseline;
    for (MetricComparison &m : sc.metrics) {
        if (!isResourceMetric(m.metric) || !(m.baseline > 0) || m.verdict == Verdict::NotComparable)
            continue;
        const double perRecord = m.current / m.baseline / work - 1;
        m.perRecordChangePercent = perRecord * 100;
        char buf[128];
        std::snprintf(buf, sizeof buf, "per record %+.1f %% (%s %+.1f %%)", perRecord * 100, tp->metric.c_str(),
                      (work - 1) * 100);
        m.note = buf;
        m.verdict = std::abs(perRecord * m.baseline) <= m.noiseBand ? Verdict::FollowsThroughput
                                                                    : verdictForDelta(m.direction, perRecord);
    }
}

struct Ramp
{
    std::string factor;
    std::string metric;
    std::vector<const ScenarioRecord *> steps; // ordered by the factor
};

// The scenarios of one family form a ramp when one load factor takes at least three values
// across them. Factors are tried in the order a Korvet ramp usually varies them.
std::map<std::string, Ramp> rampsOf(const RunRecord &run)
{
    std::map<std::string, std::vector<const ScenarioRecord *>> families;
    for (const ScenarioRecord &s : run.scenarios)
        families[scenarioFamily(s.name)].push_back(&s);
    std::map<std::string, Ramp> out;
    for (auto &[family, steps] : families) {
        if (steps.size() < 3)
            continue;
        for (const char *factor : {"producers", "consumers", "clients", "connections", "threads",
                                   "brokers", "shards", "partitions", "pipeline"}) {
            std::set<int64_t> values;
            bool all = true;
            for (const ScenarioRecord *s : steps) {
                const auto v = s->topology.factor(factor);
                all = all && v && *v > 0;
                if (v)
                    values.insert(*v);
            }
            if (!all || values.size() < 3)
                continue;
            Ramp ramp;
            ramp.factor = factor;
            ramp.steps = steps;
            std::stable_sort(ramp.steps.begin(), ramp.steps.end(),
                             [&](const ScenarioRecord *a, const ScenarioRecord *b) {
                                 return *a->topology.factor(factor) < *b->topology.factor(factor);
                             });
            for (const char *metric : kHeadlineThroughputMetrics) {
                const auto n = std::count_if(steps.begin(), steps.end(),
                                             [&](const ScenarioRecord *s) { return s->metric(metric).has_value(); });
                if (n >= 3) {
                    ramp.metric = metric;
                    break;
                }
            }
            if (!ramp.metric.empty())
                out.emplace(family, std::move(ramp));
            break;
        }
    }
    return out;
}

UslFit fitRamp(const Ramp &ramp, const ComparisonOptions &options)
{
    std::vector<UslPoint> points;
    for (const ScenarioRecord *s : ramp.steps)
        if (const auto y = s->metric(ramp.metric); y && *y > 0)
            points.push_back({static_cast<double>(*s->topology.factor(ramp.factor)), *y});
    UslOptions o;
    o.bootstrapResamples = options.bootstrapResamples;
    return UslFitter(o).fit(points);
}

bool overlaps(const UslInterval &a, const UslInterval &b)
{
    if (std::isnan(a.lo) || std::isnan(b.lo))
        return false;
    return a.lo <= b.hi && b.lo <= a.hi;
}

ParameterComparison compareParameter(const char *name, Direction direction, double base, double cur,
                                     const UslInterval &baseCi, const UslInterval &curCi)
{
    ParameterComparison p{name, direction, base, cur, baseCi, curCi, Verdict::Unchanged};
    if (base == cur || (std::isinf(base) && std::isinf(cur)))
        return p;
    const bool haveIntervals = !std::isnan(baseCi.lo) && !std::isnan(curCi.lo);
    // Without intervals, a fitted parameter must move by a tenth before it counts: fits of a
    // few points wander that much between identical deployments.
    const bool significant = haveIntervals
                                 ? !overlaps(baseCi, curCi)
                                 : std::abs(cur - base) > 0.1 * std::max(std::abs(base), std::abs(cur));
    if (significant)
        p.verdict = verdictForDelta(direction, cur > base ? 1.0 : -1.0);
    return p;
}

RampComparison compareRamp(const std::string &family, const Ramp &base, const Ramp &cur,
                           const RunRecord &baseRun, const RunRecord &curRun,
                           const ContractPolicies &policies, const ComparisonOptions &options)
{
    RampComparison rc;
    rc.family = family;
    rc.factor = cur.factor;
    rc.metric = cur.metric;
    rc.baselineSteps = static_cast<int>(base.steps.size());
    rc.currentSteps = static_cast<int>(cur.steps.size());
    // Steps differ in the factor by definition; everything else must match.
    ContractPolicy policy = comparisonPolicy(policies, cur.steps.front()->name);
    policy.excluded.push_back("topology." + cur.factor);
    const TuningContract a = TuningContract::of(baseRun, *base.steps.front(), policy);
    const TuningContract b = TuningContract::of(curRun, *cur.steps.front(), policy);
    if (!a.compatibleWith(b)) {
        rc.compatible = false;
        rc.differences = a.differences(b);
        return rc;
    }
    const UslFit fa = fitRamp(base, options);
    const UslFit fb = fitRamp(cur, options);
    if (!fa.ok || !fb.ok) {
        rc.note = "no fit: " + (fa.ok ? fb.error : fa.error);
        return rc;
    }
    rc.parameters.push_back(compareParameter("lambda", Direction::HigherIsBetter, fa.params.lambda,
                                             fb.params.lambda, fa.lambdaCi, fb.lambdaCi));
    rc.parameters.push_back(compareParameter("sigma", Direction::LowerIsBetter, fa.params.sigma,
                                             fb.params.sigma, fa.sigmaCi, fb.sigmaCi));
    rc.parameters.push_back(compareParameter("kappa", Direction::LowerIsBetter, fa.params.kappa,
                                             fb.params.kappa, fa.kappaCi, fb.kappaCi));
    rc.parameters.push_back(compareParameter("n_star", Direction::HigherIsBetter, fa.nStar, fb.nStar,
                                             fa.nStarCi, fb.nStarCi));
    return rc;
}

} // namespace

int RunComparison::count(Verdict v) const
{
    int n = 0;
    if (v == Verdict::Incompatible) {
        for (const ScenarioComparison &s : scenarios)
            n += s.compatible ? 0 : 1;
        for (const RampComparison &r : ramps)
            n += r.compatible ? 0 : 1;
        return n;
    }
    for (const ScenarioComparison &s : scenarios)
        for (const MetricComparison &m : s.metrics)
            n += m.verdict == v ? 1 : 0;
    for (const RampComparison &r : ramps)
        for (const ParameterComparison &p : r.parameters)
            n += p.verdict == v ? 1 : 0;
    return n;
}

RunComparison compareRuns(const TrendHistory &history, const std::string &baselineRun,
                          const std::string &currentRun, const ContractPolicies &policies,
                          const ComparisonOptions &options, const ScenarioPairing &pairing)
{
    const RunRecord *base = history.findRun(baselineRun);
    if (!base)
        throw std::invalid_argument("no run '" + baselineRun + "'");
    const RunRecord *cur = history.findRun(currentRun);
    if (!cur)
        throw std::invalid_argument("no run '" + currentRun + "'");

    RunComparison out;
    out.baseline = identityOf(*base);
    out.current = identityOf(*cur);
    out.options = options;
    const auto partnerOf = [&](const std::string &baselineName) -> const ScenarioRecord * {
        if (pairing.byName())
            return findScenario(*cur, baselineName);
        for (const auto &[b, c] : pairing.pairs)
            if (b == baselineName)
                return findScenario(*cur, c);
        return nullptr;
    };
    const auto paired = [&](const std::string &currentName) {
        if (pairing.byName())
            return findScenario(*base, currentName) != nullptr;
        return std::any_of(pairing.pairs.begin(), pairing.pairs.end(),
                           [&](const auto &p) { return p.second == currentName; });
    };
    for (const ScenarioRecord &b : base->scenarios) {
        const ScenarioRecord *c = partnerOf(b.name);
        if (!c) {
            out.onlyInBaseline.push_back(b.name);
            continue;
        }
        ScenarioComparison sc;
        sc.scenario = b.name;
        sc.currentScenario = c->name;
        ContractPolicy policy = comparisonPolicy(policies, b.name);
        // The factor the scenarios were aligned by differs by design: every other setting must match.
        for (const std::string &factor : pairing.looseFactors) {
            if (factor != kOfferedRateKey) {
                policy.excluded.push_back("topology." + factor);
                continue;
            }
            // The setting an offered rate was read from ("tuning.producerRate") goes with it.
            for (const auto &rate : {offeredRate(*base, b), offeredRate(*cur, *c)})
                if (rate && !rate->source.empty())
                    policy.excluded.push_back(rate->source);
        }
        const TuningContract cb = TuningContract::of(*base, b, policy);
        const TuningContract cc = TuningContract::of(*cur, *c, policy);
        if (!cb.compatibleWith(cc) || base->target != cur->target) {
            sc.compatible = false;
            sc.differences = cb.differences(cc);
            if (base->target != cur->target)
                sc.differences.insert(sc.differences.begin(), {"target", base->target, cur->target});
            out.scenarios.push_back(std::move(sc));
            continue;
        }
        sc.contract = cc.canonical();
        sc.offeredBaseline = offeredRate(*base, b);
        sc.offeredCurrent = offeredRate(*cur, *c);
        sc.offeredDiffers = sc.offeredBaseline && sc.offeredCurrent &&
                            offeredRatesDiffer(*sc.offeredBaseline, *sc.offeredCurrent);
        for (const MetricValue &mb : b.metrics) {
            // The offered rate is a setting of the run, not a measurement of it.
            if (isOfferedRateMetric(mb.name))
                continue;
            if (const auto vc = c->metric(mb.name))
                sc.metrics.push_back(compareMetric(history, *cur, c->name, mb.name, mb.value, *vc,
                                                   policies, options));
        }
        markNotComparable(sc);
        out.scenarios.push_back(std::move(sc));
    }
    for (const ScenarioRecord &c : cur->scenarios)
        if (!paired(c.name))
            out.onlyInCurrent.push_back(c.name);
    judgeMetrics(out, options);
    for (ScenarioComparison &sc : out.scenarios)
        judgeResources(sc);

    if (options.scalability) {
        const auto baseRamps = rampsOf(*base);
        for (const auto &[family, curRamp] : rampsOf(*cur)) {
            const auto it = baseRamps.find(family);
            if (it == baseRamps.end() || it->second.factor != curRamp.factor ||
                it->second.metric != curRamp.metric)
                continue;
            out.ramps.push_back(compareRamp(family, it->second, curRamp, *base, *cur, policies, options));
        }
    }
    return out;
}

} // namespace plimsoll
