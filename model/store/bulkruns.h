#pragma once
// A source's runs written in bulk, for a store whose backend takes a COPY (a team store on
// PostgreSQL): SourceWriter hands each run over, and they are written batch by batch, each table's
// rows of a batch as one binary COPY, inside the source's one transaction. A round trip per row
// (about 1,200 records/s to a server on loopback) becomes a few round trips per batch.
//
// The same rows as the statements one by one write (SourceWriter::insertScenarios), with the same
// refusals, said the same way:
// - a run key put twice in the source, a scenario's metric twice (or not a number), a series twice
//   (or a value not a number): refused by put() at once, after the runs before it are written
//   (so that a run key of another source among them is said first, as it came first);
// - a run key another source holds: refused when its batch is written (settle(), or a put() that
//   fills a batch) as RunRefused, which names the run's line.
// Ids come from the tables' own sequences, taken a batch at a time. Internal to the store.

#include "model/core/records.h"
#include "model/store/connection.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace plimsoll {

class BulkRuns
{
public:
    // metricNames: the (scenario, metric) names this source has put into scenario_metrics, by
    // scenario name (SourceWriter's, shared with its writes one by one).
    BulkRuns(sql::Connection &db, int64_t sourceId, bool sample, std::string uri,
             std::map<std::string, std::set<std::string>> &metricNames);

    void put(RunRecord run);
    // True when this source has a run of that key (written or held back).
    bool holds(const std::string &runKey) const { return m_keys.count(runKey) != 0; }
    // Writes the runs held back. Throws StoreError (RunRefused for a key another source has).
    void settle();

    // A batch is written once it holds this many rows (runs, scenarios, metric values, series
    // samples): large enough that its few round trips are a small part of it, small enough that
    // a million-run copy keeps a few megabytes of rows in hand.
    static constexpr int64_t kBatchRows = 200'000;

private:
    // Throws the refusal of a scenario's metric or series of `run` (StoreError), after settle(),
    // unless its key is another source's: a write one by one would have said that first.
    [[noreturn]] void refuse(const RunRecord &run, const std::string &message);
    // Throws RunRefused for the first of `runs` whose key another source has.
    void refuseKeysOfOtherSources(const std::vector<const RunRecord *> &runs);
    std::vector<int64_t> newIds(const char *table, int64_t count);

    sql::Connection &m_db;
    int64_t m_sourceId;
    bool m_sample;
    std::string m_uri;
    std::map<std::string, std::set<std::string>> &m_metricNames;
    std::unordered_set<std::string> m_keys;
    std::vector<RunRecord> m_pending;
    int64_t m_pendingRows = 0;
    // (scenario, metric) names new to scenario_metrics among the runs held back.
    std::vector<std::pair<std::string, std::string>> m_newNames;
};

} // namespace plimsoll
