#include "model/store/bulkruns.h"

#include "model/store/copyrows.h"
#include "model/store/store.h"
#include "model/store/storeschema.h"
#include "model/store/storerows.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace plimsoll {

using sql::CopyRows;
using sql::Statement;

namespace {

// The tables' columns as the rows below are encoded, in this order.
constexpr const char *kRunColumns =
    "id, source_id, run_key, timestamp, commit_sha, image_digest, tool, tool_version, target, "
    "environment, tuning, sample, provenance, line, scenario_count, time_source, run_name, run_tags";
constexpr int kRunColumnCount = 18;
constexpr const char *kScenarioColumns =
    "id, run_id, ordinal, name, kind, brokers, shards, partitions, producers, consumers, clients, "
    "connections, threads, pipeline, record_size_bytes, batch_bytes, compression, acks, inferred, "
    "provenance, line, agents, replication, run_time";
constexpr int kScenarioColumnCount = 24;
constexpr const char *kMetricColumns = "scenario_id, ordinal, name, value";
constexpr const char *kPointColumns = "scenario, metric, run_time, run_id, ordinal, scenario_id, value";
constexpr const char *kSeriesColumns = "scenario_id, name, idx, t_offset_s, value";

// A PostgreSQL array of texts, as its input syntax has it: a parameter for = ANY(…) and unnest(…).
std::string textArray(const std::vector<const std::string *> &texts)
{
    std::string out = "{";
    for (const std::string *t : texts) {
        if (out.size() > 1)
            out += ',';
        out += '"';
        for (char c : *t) {
            if (c == '"' || c == '\\')
                out += '\\';
            out += c;
        }
        out += '"';
    }
    out += '}';
    return out;
}

std::optional<int64_t> lineOrNull(int64_t line)
{
    return line > 0 ? std::optional<int64_t>(line) : std::nullopt;
}

} // namespace

BulkRuns::BulkRuns(sql::Connection &db, int64_t sourceId, bool sample, std::string uri,
                   std::map<std::string, std::set<std::string>> &metricNames)
    : m_db(db), m_sourceId(sourceId), m_sample(sample), m_uri(std::move(uri)), m_metricNames(metricNames)
{
}

void BulkRuns::refuse(const RunRecord &run, const std::string &message)
{
    settle();
    refuseKeysOfOtherSources({&run});
    throw StoreError(message);
}

void BulkRuns::put(RunRecord run)
{
    if (holds(run.runKey)) {
        settle();
        throw StoreError("run key '" + run.runKey + "' appears twice in " + m_uri);
    }
    // What the tables' keys and NOT NULL columns would refuse, refused before anything is held.
    for (const ScenarioRecord &sc : run.scenarios) {
        std::set<std::string_view> metrics;
        for (const MetricValue &m : sc.metrics)
            if (std::isnan(m.value) || !metrics.insert(m.name).second)
                refuse(run, "scenario '" + sc.name + "' of run '" + run.runKey + "' has metric '" + m.name +
                       "' twice");
        std::set<std::string_view> series;
        for (const SeriesRecord &s : sc.series) {
            bool notANumber = false;
            for (const SeriesSample &sample : s.samples)
                notANumber = notANumber || std::isnan(sample.tOffsetS) || std::isnan(sample.value);
            if (notANumber || (!s.samples.empty() && !series.insert(s.name).second))
                refuse(run, "scenario '" + sc.name + "' of run '" + run.runKey + "' has series '" + s.name +
                       "' twice (or a value that is not a number)");
        }
    }
    m_keys.insert(run.runKey);
    int64_t rows = 1;
    for (const ScenarioRecord &sc : run.scenarios) {
        rows += 1 + 2 * int64_t(sc.metrics.size());
        for (const SeriesRecord &s : sc.series)
            rows += int64_t(s.samples.size());
        std::set<std::string> &known = m_metricNames[sc.name];
        for (const MetricValue &m : sc.metrics)
            if (known.insert(m.name).second)
                m_newNames.emplace_back(sc.name, m.name);
    }
    m_pending.push_back(std::move(run));
    m_pendingRows += rows;
    if (m_pendingRows >= kBatchRows)
        settle();
}

void BulkRuns::refuseKeysOfOtherSources(const std::vector<const RunRecord *> &runs)
{
    std::vector<const std::string *> keys;
    keys.reserve(runs.size());
    for (const RunRecord *r : runs)
        keys.push_back(&r->runKey);
    Statement q(m_db, "SELECT r.run_key, src.uri FROM runs r JOIN sources src ON src.id = r.source_id "
                      "WHERE r.run_key = ANY(CAST(?1 AS TEXT[]))");
    q.bindText(1, textArray(keys));
    std::unordered_map<std::string, std::string> taken;
    while (q.step())
        taken.emplace(q.text(0), q.text(1));
    if (taken.empty())
        return;
    // The first in the source's order, as a write one by one would have met it.
    for (const RunRecord *r : runs)
        if (const auto it = taken.find(r->runKey); it != taken.end())
            throw RunRefused("run key '" + r->runKey + "' is already in the store (from " + it->second +
                                 "); remove that run first",
                             r->line);
}

std::vector<int64_t> BulkRuns::newIds(const char *table, int64_t count)
{
    Statement q(m_db, "SELECT nextval(q.s) FROM (SELECT CAST(pg_get_serial_sequence(?1, 'id') AS regclass) "
                      "AS s) q, generate_series(1, CAST(?2 AS BIGINT))");
    q.bindText(1, table).bind(2, count);
    std::vector<int64_t> ids;
    ids.reserve(size_t(count));
    while (q.step())
        ids.push_back(q.int64(0));
    if (int64_t(ids.size()) != count)
        throw StoreError(std::string("internal: the ") + table + " sequence gave too few ids");
    return ids;
}

void BulkRuns::settle()
{
    if (m_pending.empty())
        return;
    {
        std::vector<const RunRecord *> runs;
        runs.reserve(m_pending.size());
        for (const RunRecord &r : m_pending)
            runs.push_back(&r);
        refuseKeysOfOtherSources(runs);
    }
    int64_t scenarioCount = 0;
    for (const RunRecord &r : m_pending)
        scenarioCount += int64_t(r.scenarios.size());
    const std::vector<int64_t> runIds = newIds("runs", int64_t(m_pending.size()));
    const std::vector<int64_t> scenarioIds =
        scenarioCount > 0 ? newIds("scenarios", scenarioCount) : std::vector<int64_t>();

    CopyRows runs(kRunColumnCount), scenarios(kScenarioColumnCount), metrics(4), points(7), series(5);
    bool timeSources = false;
    size_t nextScenario = 0;
    for (size_t i = 0; i < m_pending.size(); ++i) {
        const RunRecord &run = m_pending[i];
        const int64_t runId = runIds[i];
        const std::optional<std::string> timeSource =
            run.timeSource == TimeSource::Stated ? std::nullopt : std::optional<std::string>(toString(run.timeSource));
        timeSources = timeSources || timeSource.has_value();
        runs.int64(runId)
            .int64(m_sourceId)
            .text(run.runKey)
            .text(run.timestamp)
            .textOrNull(run.commit)
            .textOrNull(run.imageDigest)
            .textOrNull(run.tool)
            .textOrNull(run.toolVersion)
            .textOrNull(run.target)
            .text(run.environment.is_null() ? "{}" : run.environment.dump())
            .text(run.tuning.is_null() ? "{}" : run.tuning.dump())
            .int64((run.sample || m_sample) ? 1 : 0)
            .textOrNull(run.provenance)
            .int64(lineOrNull(run.line))
            .int64(int64_t(run.scenarios.size()))
            .text(timeSource)
            .textOrNull(run.name)
            .textOrNull(storerows::tagsText(run.tags));
        runs.endRow();
        int64_t ordinal = 0;
        for (const ScenarioRecord &sc : run.scenarios) {
            const Topology &t = sc.topology;
            const int64_t scenarioId = scenarioIds[nextScenario++];
            const int64_t scenarioOrdinal = ordinal++;
            scenarios.int64(scenarioId)
                .int64(runId)
                .int64(scenarioOrdinal)
                .text(sc.name)
                .textOrNull(sc.kind)
                .int64(t.brokers)
                .int64(t.shards)
                .int64(t.partitions)
                .int64(t.producers)
                .int64(t.consumers)
                .int64(t.clients)
                .int64(t.connections)
                .int64(t.threads)
                .int64(t.pipeline)
                .int64(t.recordSizeBytes)
                .int64(t.batchBytes)
                .text(t.compression)
                .text(t.acks)
                .textOrNull(t.inferred.empty() ? std::string() : nlohmann::json(t.inferred).dump())
                .textOrNull(sc.provenance)
                .int64(lineOrNull(sc.line))
                .int64(t.agents)
                .int64(t.replication)
                .text(run.timestamp); // the scenario's run time: its run's
            scenarios.endRow();
            int64_t metricOrdinal = 0;
            for (const MetricValue &m : sc.metrics) {
                metrics.int64(scenarioId).int64(metricOrdinal++).text(m.name).real(m.value);
                metrics.endRow();
                points.text(sc.name)
                    .text(m.name)
                    .text(run.timestamp)
                    .int64(runId)
                    .int64(scenarioOrdinal)
                    .int64(scenarioId)
                    .real(m.value);
                points.endRow();
            }
            for (const SeriesRecord &s : sc.series) {
                int64_t idx = 0;
                for (const SeriesSample &sample : s.samples) {
                    series.int64(scenarioId).text(s.name).int64(idx++).real(sample.tOffsetS).real(sample.value);
                    series.endRow();
                }
            }
        }
    }
    // Parents first: each COPY's foreign keys are checked at its end.
    m_db.copyIn("runs", kRunColumns, runs.finish());
    if (scenarios.rows() > 0)
        m_db.copyIn("scenarios", kScenarioColumns, scenarios.finish());
    if (metrics.rows() > 0) {
        m_db.copyIn("metrics", kMetricColumns, metrics.finish());
        m_db.copyIn("trend_points", kPointColumns, points.finish());
    }
    if (series.rows() > 0)
        m_db.copyIn("series", kSeriesColumns, series.finish());
    if (scenarioCount > 0) {
        // The batch's trend rows from what was written, by the store's one definition of them.
        // Its scenarios: this source's with ids from the batch's range (taken under the store's
        // write lock, so no other writer's are among them).
        const auto [lo, hi] = std::minmax_element(scenarioIds.begin(), scenarioIds.end());
        const std::string batch = " WHERE s.id BETWEEN ?1 AND ?2 AND r.source_id = ?3";
        const TrendRowInserts trend = trendRowInserts(batch);
        for (const std::string &text : {trend.inputs, trend.row}) {
            Statement st(m_db, text);
            st.bind(1, *lo).bind(2, *hi).bind(3, m_sourceId);
            st.run();
        }
        if (timeSources) {
            Statement mark(m_db, "UPDATE trend_runs SET time_source = r.time_source FROM runs r "
                                 "WHERE r.id = trend_runs.run_id AND trend_runs.scenario_id BETWEEN ?1 AND ?2 "
                                 "AND r.source_id = ?3 AND r.time_source IS NOT NULL");
            mark.bind(1, *lo).bind(2, *hi).bind(3, m_sourceId);
            mark.run();
        }
    }
    if (!m_newNames.empty()) {
        std::vector<const std::string *> scenarioNames, metricNames;
        for (const auto &[scenario, metric] : m_newNames) {
            scenarioNames.push_back(&scenario);
            metricNames.push_back(&metric);
        }
        Statement names(m_db, "INSERT INTO scenario_metrics (scenario, metric) SELECT * FROM "
                              "unnest(CAST(?1 AS TEXT[]), CAST(?2 AS TEXT[])) ON CONFLICT DO NOTHING");
        names.bindText(1, textArray(scenarioNames)).bindText(2, textArray(metricNames));
        names.run();
    }
    m_pending.clear();
    m_newNames.clear();
    m_pendingRows = 0;
}

} // namespace plimsoll
