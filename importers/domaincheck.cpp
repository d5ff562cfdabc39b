#include "importers/domaincheck.h"

#include "model/core/catalog.h"
#include "model/core/nametext.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace plimsoll {

namespace {

std::string number(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string where(const std::string &runKey, const ScenarioRecord &sc, const MetricValue &m)
{
    return "run '" + runKey + "', scenario '" + sc.name + "': " + m.name + " is " +
           number(m.value) + (std::isfinite(m.value) ? " (" + formatMetric(m.name, m.value) + ")" : "");
}

} // namespace

void DomainCheckSink::check(const std::string &runKey, const std::vector<ScenarioRecord> &scenarios)
{
    for (const ScenarioRecord &sc : scenarios) {
        if (const std::string problem = nameProblem(sc.name); !problem.empty()) {
            ImportError e;
            e.message = "run '" + shownName(runKey) + "': scenario name " + problem;
            e.line = sc.line;
            e.field = "scenario";
            throw DomainError(std::move(e));
        }
        for (const MetricValue &m : sc.metrics) {
            const MetricInfo *info = findMetric(m.name);
            if (!info)
                continue; // tool-specific dotted names have no stated domain
            const MetricDomain &d = info->domain;
            if (!(m.value >= d.min) || std::isinf(m.value)) {
                ImportError e;
                e.message = where(runKey, sc, m) + ", outside its domain (" +
                            std::string(d.text) + "): no measurement gives that";
                e.line = sc.line;
                e.field = m.name;
                throw DomainError(std::move(e));
            }
            if (m.value > d.plausibleMax && ++m_count <= kMaxWarnings)
                m_warnings.push_back({"out-of-domain", sc.line,
                                      where(runKey, sc, m) + ", above its plausible domain (" +
                                          std::string(d.text) +
                                          "); kept as imported: check the source's unit"});
        }
    }
}

void DomainCheckSink::put(RunRecord run)
{
    if (const std::string problem = nameProblem(run.runKey); !problem.empty()) {
        ImportError e;
        e.message = "run key " + problem;
        e.line = run.line;
        e.field = "run_key";
        throw DomainError(std::move(e));
    }
    check(run.runKey, run.scenarios);
    m_inner.put(std::move(run));
}

void DomainCheckSink::append(const std::string &runKey, std::vector<ScenarioRecord> scenarios)
{
    check(runKey, scenarios);
    m_inner.append(runKey, std::move(scenarios));
}

void DomainCheckSink::finish()
{
    if (m_count > kMaxWarnings)
        m_warnings.push_back({"out-of-domain", 0,
                              std::to_string(m_count - kMaxWarnings) +
                                  " more values above their plausible domain, like those above"});
}

} // namespace plimsoll
