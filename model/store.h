#pragma once
// The SQLite trend store. One Store object is one connection: use it from one thread only
// (open another Store on the same path in another thread). WAL mode lets the window read
// while a CLI imports.
//
// Invariant: a source and everything it produced are written in one transaction, so a
// source is either fully present or absent.

#include "model/records.h"

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

class Store
{
public:
    static constexpr int kSchemaVersion = 3;

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
