#include "importers/domaincheck.h"

#include "model/core/catalog.h"

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

// The name as it can be shown: control and format characters as U+XXXX, cut at 60 characters.
std::string shown(std::string_view name)
{
    std::string out;
    int chars = 0;
    for (size_t i = 0; i < name.size() && chars < 60;) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        const size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
        uint32_t cp = len == 1 ? c : c & (0x7F >> len);
        for (size_t k = 1; k < len && i + k < name.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(name[i + k]) & 0x3F);
        char buf[16];
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || (cp >= 0x200B && cp <= 0x200F) ||
            (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
            std::snprintf(buf, sizeof buf, "<U+%04X>", unsigned(cp));
            out += buf;
        } else {
            out.append(name.substr(i, len));
        }
        i += len;
        ++chars;
    }
    return out;
}

} // namespace

std::string nameProblem(std::string_view name)
{
    size_t chars = 0;
    for (size_t i = 0; i < name.size();) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        const size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > name.size())
            return "is not UTF-8 text (byte " + std::to_string(i + 1) + ")";
        uint32_t cp = len == 1 ? c : c & (0x7F >> len);
        for (size_t k = 1; k < len; ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(name[i + k]) & 0x3F);
        ++chars;
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", unsigned(cp));
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0))
            return std::string("holds the control character ") + code + " at character " + std::to_string(chars) +
                   " ('" + shown(name) + "'): names are printed in terminals, CSV and reports; remove it";
        if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F)
            return std::string("holds the bidirectional control ") + code + " at character " + std::to_string(chars) +
                   " ('" + shown(name) + "'), which makes it read otherwise than it is; remove it";
        i += len;
    }
    if (chars > kMaxNameChars)
        return "is " + std::to_string(chars) + " characters long ('" + shown(name) + "…'), more than the " +
               std::to_string(kMaxNameChars) + " a name may have; shorten it";
    return {};
}

void DomainCheckSink::check(const std::string &runKey, const std::vector<ScenarioRecord> &scenarios)
{
    for (const ScenarioRecord &sc : scenarios) {
        if (const std::string problem = nameProblem(sc.name); !problem.empty()) {
            ImportError e;
            e.message = "run '" + shown(runKey) + "': scenario name " + problem;
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
