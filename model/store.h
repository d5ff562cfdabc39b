#pragma once
// The SQLite trend store. One Store object is one connection: use it from one thread only
// (open another Store on the same path in another thread). WAL mode lets the window read
// while a CLI imports.
//
// Invariant: a source and everything it produced are written in one transaction, so a
// source is either fully present or absent.

#include "model/records.h"
#include "model/runsink.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace plimsoll {

class StoreError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct RunSummary
{
    int64_t id = 0;
    std::string runKey;
    std::string timestamp;
    std::string commit;
    std::string imageDigest;
    std::string tool;
    std::string toolVersion;
    std::string target;
    bool sample = false;
    int64_t scenarioCount = 0;
    std::string sourceUri;
    std::string sourceFormat;
};

struct RunDetail
{
    RunSummary summary;
    RunRecord record; // with scenarios and metrics
    SourceRecord source;
};

struct RunFilter
{
    std::string scenarioContains; // runs having a scenario whose name contains this
    std::string commitPrefix;
    std::string since; // ISO-8601, inclusive
    std::string until; // ISO-8601, exclusive
    std::optional<bool> sample;
};

struct SeriesPoint
{
    int64_t runId = 0;
    std::string runKey;
    std::string timestamp;
    std::string commit;
    std::string imageDigest;
    nlohmann::json tuning;
    double value = 0;
};

struct ImportOutcome
{
    enum class Status { Imported, Unchanged };
    Status status = Status::Imported;
    int64_t sourceId = 0;
    int64_t runs = 0;
    int64_t scenarios = 0;
    int64_t metrics = 0;
    std::vector<std::string> notes; // e.g. "replaces the earlier import of this file"
};

class Store;

// The writing of one source, as a sink its importer streams runs into: everything put goes
// into one transaction, committed by commit() and rolled back when the writer is destroyed
// without it (an error, a cancel, a dry run). While it lives, the store takes no other write.
class SourceWriter final : public RunSink
{
public:
    ~SourceWriter() override;
    SourceWriter(const SourceWriter &) = delete;
    SourceWriter &operator=(const SourceWriter &) = delete;

    // The same bytes are already in the store: nothing will be written; commit() reports
    // the earlier import as Unchanged.
    bool unchanged() const { return m_outcome.status == ImportOutcome::Status::Unchanged; }

    // A run key already in the store (from another source, or put twice) -> StoreError.
    void put(RunRecord run) override;
    void append(const std::string &runKey, std::vector<ScenarioRecord> scenarios) override;
    std::optional<RunRecord> earlierRun(const std::string &runKey) override;
    std::optional<int64_t> earlierScenarioLine(const std::string &runKey,
                                               const std::string &scenario) override;

    ImportOutcome commit();

private:
    friend class Store;
    struct Impl;
    SourceWriter(sqlite3 *db, const SourceRecord &source);
    void insertScenarios(int64_t runId, const std::string &runKey, int64_t firstOrdinal,
                         const std::vector<ScenarioRecord> &scenarios);
    std::unique_ptr<Impl> m_impl;
    ImportOutcome m_outcome;
};

class Store
{
public:
    static constexpr int kSchemaVersion = 4;

    // Opens (creating when missing) and migrates forward. Throws StoreError with the path in
    // the message when the file is not a Plimsoll store or was written by a newer version.
    explicit Store(const std::string &path);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    const std::string &path() const { return m_path; }
    int schemaVersion() const;

    // Writes the source and its runs (scenarios, metrics, series) in one transaction. Same sha256 already present ->
    // Unchanged, nothing written. Same uri with other bytes -> the earlier import of that uri is
    // replaced. A run key already present from another source -> StoreError, nothing written.
    ImportOutcome importSource(const SourceRecord &source, const std::vector<RunRecord> &runs);
    // The same, streamed: put the runs into the writer, then commit it. Takes the write lock
    // (waits for another writer up to a few seconds, then throws StoreError "busy").
    std::unique_ptr<SourceWriter> beginSource(const SourceRecord &source);
    bool hasSourceWithSha256(const std::string &sha256) const;

    std::vector<RunSummary> runs(const RunFilter &filter = {}) const;
    // By numeric id or by run key; scenarios come with their metrics and series.
    std::optional<RunDetail> run(const std::string &idOrKey) const;
    // The per-window series of one scenario of one run (by run id or key), by series name.
    std::vector<SeriesRecord> scenarioSeries(const std::string &runIdOrKey,
                                             const std::string &scenario) const;
    std::vector<std::string> scenarioNames() const;
    std::vector<std::string> metricNames(const std::string &scenario) const;
    // One metric of one scenario over time, oldest first.
    std::vector<SeriesPoint> series(const std::string &scenario, const std::string &metric) const;

    int64_t removeRun(const std::string &idOrKey); // returns runs removed (0 or 1)
    int64_t removeSamples();                        // returns runs removed
    int64_t runCount() const;

private:
    void migrate();
    std::string m_path;
    sqlite3 *m_db = nullptr;
};

} // namespace plimsoll
