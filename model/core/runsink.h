#pragma once
// Where the runs of a source go as they are read, so that a large source never sits in memory
// whole: the store's SourceWriter (one transaction) or, for tests and previews, a vector.

#include "model/core/records.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace plimsoll {

class RunSink
{
public:
    virtual ~RunSink() = default;
    // A new run. A run key this sink already holds is an error (thrown).
    virtual void put(RunRecord run) = 0;
    // More scenarios of a run put() earlier (a format whose lines of one run may be apart).
    virtual void append(const std::string &runKey, std::vector<ScenarioRecord> scenarios) = 0;
    // The run-level fields of a run put() earlier, with its first line in `line` and no
    // scenarios; nullopt when this sink has no such run. A sink that marks a whole source as
    // samples reports `sample` true for each of its runs.
    virtual std::optional<RunRecord> earlierRun(const std::string &runKey) = 0;
    // The line of scenario `scenario` of run `runKey` given earlier; nullopt when none
    // (0 when it was given without a line).
    virtual std::optional<int64_t> earlierScenarioLine(const std::string &runKey,
                                                       const std::string &scenario) = 0;
};

// Keeps every run in memory, in the order put: Importer::parse() and small sources.
class VectorRunSink final : public RunSink
{
public:
    void put(RunRecord run) override;
    void append(const std::string &runKey, std::vector<ScenarioRecord> scenarios) override;
    std::optional<RunRecord> earlierRun(const std::string &runKey) override;
    std::optional<int64_t> earlierScenarioLine(const std::string &runKey,
                                               const std::string &scenario) override;

    std::vector<RunRecord> runs; // read (or moved out) once the parse is done

private:
    RunRecord *find(const std::string &runKey);
    std::unordered_map<std::string, size_t> m_index; // run key -> position in `runs`
};

} // namespace plimsoll
