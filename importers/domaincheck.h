#pragma once
// Every imported value of a catalog metric checked against the metric's domain (catalog.h),
// in one place for every format: ImportService puts the runs through this sink on their way
// to the store. Impossible values (below the domain's minimum, or not a number: a negative
// latency, rate or count) fail the source with the run, scenario, metric and line named.
// Implausible ones (above the domain's plausible maximum: a CPU fraction of a hundred cores, a
// latency of days) are kept and warned, one "out-of-domain" warning per value.

#include "importers/importer.h"
#include "model/core/nametext.h"
#include "model/core/runsink.h"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace plimsoll {

// Run keys and scenario names are checked by nameProblem (model/core/nametext.h).

// Thrown by DomainCheckSink for an impossible value; ImportService turns it into the
// source's error.
class DomainError : public std::runtime_error
{
public:
    explicit DomainError(ImportError e) : std::runtime_error(e.message), error(std::move(e)) {}
    ImportError error;
};

class DomainCheckSink final : public RunSink
{
public:
    DomainCheckSink(RunSink &inner, std::vector<ImportWarning> &warnings)
        : m_inner(inner), m_warnings(warnings)
    {
    }
    void put(RunRecord run) override;
    void append(const std::string &runKey, std::vector<ScenarioRecord> scenarios) override;
    std::optional<RunRecord> earlierRun(const std::string &runKey) override
    {
        return m_inner.earlierRun(runKey);
    }
    std::optional<int64_t> earlierScenarioLine(const std::string &runKey,
                                               const std::string &scenario) override
    {
        return m_inner.earlierScenarioLine(runKey, scenario);
    }
    // After the last run: the count of warnings left out beyond the first ones.
    void finish();

    // Warnings beyond this many are counted, not listed: a file of a million bad rows stays
    // readable.
    static constexpr int kMaxWarnings = 50;

private:
    void check(const std::string &runKey, const std::vector<ScenarioRecord> &scenarios);
    RunSink &m_inner;
    std::vector<ImportWarning> &m_warnings;
    int64_t m_count = 0;
};

} // namespace plimsoll
