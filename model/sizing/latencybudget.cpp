#include "model/sizing/latencybudget.h"

#include <cmath>
#include <cstdio>

namespace plimsoll {

namespace {

std::string ms(double seconds)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.4g ms", seconds * 1e3);
    return buf;
}

// Ties on throughput go to the lower p99: the same work for a better tail.
bool better(const LatencyPoint &a, const LatencyPoint &b)
{
    return a.throughput > b.throughput || (a.throughput == b.throughput && a.p99 < b.p99);
}

void offer(std::vector<BudgetSelection> &groups, const std::string &product,
           const std::string &configuration, const BudgetedPoint &p)
{
    BudgetSelection *group = nullptr;
    for (BudgetSelection &g : groups)
        if (g.product == product && g.configuration == configuration)
            group = &g;
    if (!group) {
        groups.push_back({product, configuration, false, {}, {}, false});
        group = &groups.back();
    }
    if (p.leftOut)
        return; // the group exists (its row says why it has no pick), the point takes no part
    if (p.qualifies && (!group->found || better(p.point, group->best.point))) {
        group->found = true;
        group->best = p;
        group->missedBecause.clear();
    }
}

// The nearest miss of each group without a qualifying point (see BudgetSelection).
void explainMisses(std::vector<BudgetSelection> &groups, const std::vector<BudgetedPoint> &points, double p99Budget)
{
    for (BudgetSelection &g : groups) {
        if (g.found)
            continue;
        const BudgetedPoint *nearest = nullptr;
        const BudgetedPoint *leftOut = nullptr;
        int leftOutCount = 0;
        for (const BudgetedPoint &b : points) {
            if (b.point.product != g.product || (!g.configuration.empty() && b.point.configuration != g.configuration))
                continue;
            if (b.leftOut) {
                leftOut = leftOut ? leftOut : &b;
                ++leftOutCount;
                continue;
            }
            const bool p99Ok = b.point.p99 <= p99Budget;
            if (!nearest)
                nearest = &b;
            else if (const bool nearestOk = nearest->point.p99 <= p99Budget; p99Ok != nearestOk)
                nearest = p99Ok ? &b : nearest;
            else if (p99Ok ? better(b.point, nearest->point) : b.point.p99 < nearest->point.p99)
                nearest = &b;
        }
        if (nearest)
            g.missedBecause = nearest->reason.substr(0, nearest->reason.find("; Little's law"));
        else if (leftOut) {
            g.allLeftOut = true;
            g.missedBecause = (leftOutCount == 1 ? std::string("its only point ")
                                                 : "all " + std::to_string(leftOutCount) + " points were left out; the first ") +
                              degenerateReason(leftOut->point);
        }
    }
}

} // namespace

bool isDegenerate(const LatencyPoint &p)
{
    return !(p.throughput > 0 && std::isfinite(p.throughput) && p.p99 > 0 && std::isfinite(p.p99));
}

std::string degenerateReason(const LatencyPoint &p)
{
    const bool noThroughput = !(p.throughput > 0) || !std::isfinite(p.throughput);
    const bool noLatency = !(p.p99 > 0) || !std::isfinite(p.p99);
    if (noThroughput && noLatency)
        return "measured nothing: throughput 0/s and p99 0 (empty windows)";
    if (noThroughput)
        return "measured no throughput: 0/s, so its latency is of no load";
    if (noLatency)
        return "measured no latency: p99 0";
    return {};
}

LatencyBudgetSelector::LatencyBudgetSelector(LatencyBudget budget) : m_budget(budget) {}

LatencyBudgetSelector::LatencyBudgetSelector(double p99, std::optional<double> p999)
{
    m_budget.p99 = p99;
    m_budget.p999 = p999;
}

LittleCheck LatencyBudgetSelector::littleCheck(const LatencyPoint &point, double tolerance)
{
    LittleCheck c;
    if (point.asynchronousClient) {
        c.notApplicable = true;
        return c;
    }
    if (!point.avgLatency || point.connections <= 0 || point.pipeline <= 0)
        return c;
    c.checked = true;
    c.outstanding = point.throughput * *point.avgLatency;
    c.expected = double(point.connections) * double(point.pipeline);
    c.ratio = c.outstanding / c.expected;
    c.flagged = std::abs(c.ratio - 1.0) > tolerance;
    return c;
}

BudgetResult LatencyBudgetSelector::select(const std::vector<LatencyPoint> &points) const
{
    BudgetResult out;
    out.overall.found = false;
    out.points.reserve(points.size());
    // The budget's own words, the same in every point's reason: made once.
    const std::string p99Budget = ms(m_budget.p99);
    const std::string p999Budget = m_budget.p999 ? ms(*m_budget.p999) : std::string();
    for (const LatencyPoint &pt : points) {
        BudgetedPoint b;
        b.point = pt;
        b.index = out.points.size();
        if (isDegenerate(pt)) {
            b.leftOut = true;
            b.reason = "left out, it " + degenerateReason(pt);
            ++out.leftOutPoints;
            offer(out.perConfiguration, pt.product, pt.configuration, b);
            offer(out.perProduct, pt.product, std::string(), b);
            out.points.push_back(std::move(b));
            continue;
        }
        b.little = littleCheck(pt, m_budget.littleTolerance);
        out.flaggedPoints += b.little.flagged;

        const bool p99Ok = pt.p99 <= m_budget.p99;
        const bool p999Ok = !m_budget.p999 || (pt.p999 && *pt.p999 <= *m_budget.p999);
        b.qualifies = p99Ok && p999Ok;
        if (!p99Ok)
            b.reason = "p99 " + ms(pt.p99) + " exceeds the " + p99Budget + " budget";
        else if (!p999Ok)
            b.reason = pt.p999 ? "p99.9 " + ms(*pt.p999) + " exceeds the " + p999Budget + " budget"
                               : "p99.9 was not measured, so the p99.9 budget cannot be shown "
                                 "to hold";
        else
            b.reason = "p99 " + ms(pt.p99) + " within " + p99Budget +
                       (m_budget.p999 ? ", p99.9 " + ms(*pt.p999) + " within " + p999Budget : std::string());
        if (b.little.flagged) {
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          "; Little's law: %.4g in flight (throughput × avg latency) vs %.4g "
                          "(connections × pipeline), off by %.1f%%",
                          b.little.outstanding, b.little.expected,
                          100.0 * (b.little.ratio - 1.0));
            b.reason += buf;
        }

        offer(out.perConfiguration, pt.product, pt.configuration, b);
        offer(out.perProduct, pt.product, std::string(), b);
        if (b.qualifies && (!out.overall.found || better(pt, out.overall.best.point))) {
            out.overall.found = true;
            out.overall.best = b;
            out.overall.product = pt.product;
        }
        out.points.push_back(std::move(b));
    }
    explainMisses(out.perConfiguration, out.points, m_budget.p99);
    explainMisses(out.perProduct, out.points, m_budget.p99);
    return out;
}

} // namespace plimsoll
