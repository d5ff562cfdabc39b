// Store::beginSource and SourceWriter: one source written in one transaction, run by run.
#include "model/store/bulkruns.h"
#include "model/store/connection.h"
#include "model/store/store.h"
#include "model/store/storeschema.h"
#include "model/store/storerows.h"

#include <map>
#include <unordered_map>
#include <set>

namespace plimsoll {

using sql::Statement;

struct SourceWriter::Impl
{
    explicit Impl(sql::Connection &database)
        : db(database), tx(database),
          findRun(db, "SELECT r.id, r.source_id, src.uri FROM runs r "
                      "JOIN sources src ON src.id = r.source_id WHERE r.run_key = ?"),
          insRun(db, "INSERT INTO runs (source_id, run_key, timestamp, commit_sha, image_digest, "
                     "tool, tool_version, target, environment, tuning, sample, provenance, line, "
                     "scenario_count, time_source, run_name, run_tags) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
                     "RETURNING id"),
          insScenario(db,
                      "INSERT INTO scenarios (run_id, ordinal, name, kind, brokers, shards, "
                      "partitions, producers, consumers, clients, connections, threads, pipeline, "
                      "record_size_bytes, batch_bytes, compression, acks, inferred, provenance, "
                      "line, agents, replication, run_time) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
                      "(SELECT timestamp FROM runs WHERE id = ?1)) RETURNING id"),
          // The scenario's row of the trend read (storeschema.cpp, 9 -> 10), from what was written.
          insTrendInputs(db, trendRowInserts(" WHERE s.id = ?1").inputs),
          trendInputsId(db, trendRowInserts(" WHERE s.id = ?1").inputsId),
          // (BIGINT: PostgreSQL types a bare parameter in a SELECT list as text.)
          insTrendRun(db, trendRowInserts(" WHERE s.id = ?1", "CAST(?2 AS BIGINT)").row),
          // A run of inferred time marks its trend rows (storeschema.cpp: time_source).
          markTrendTime(db, "UPDATE trend_runs SET time_source = ?2 WHERE scenario_id = ?1"),
          runTimeSource(db, "SELECT time_source FROM runs WHERE id = ?"),
          insMetric(db, "INSERT INTO metrics (scenario_id, ordinal, name, value) VALUES (?,?,?,?)"),
          // The same value in the series index (storeschema.cpp, 7 -> 8), beside its scenario.
          insPoint(db, "INSERT INTO trend_points (scenario, metric, run_time, run_id, ordinal, "
                       "scenario_id, value) VALUES (?1, ?2, (SELECT run_time FROM scenarios "
                       "WHERE id = ?5), ?3, ?4, ?5, ?6)"),
          insSeries(db, "INSERT INTO series (scenario_id, name, idx, t_offset_s, value) "
                        "VALUES (?,?,?,?,?)"),
          addMetricName(db, "INSERT INTO scenario_metrics (scenario, metric) VALUES (?, ?) "
                            "ON CONFLICT DO NOTHING"),
          addScenarios(db, "UPDATE runs SET scenario_count = scenario_count + ? WHERE id = ?"),
          nextOrdinal(db, "SELECT COALESCE(MAX(ordinal) + 1, 0) FROM scenarios WHERE run_id = ?"),
          header(db, "SELECT timestamp, commit_sha, image_digest, tool, tool_version, target, "
                     "environment, tuning, sample, provenance, line, run_name, run_tags FROM runs WHERE id = ?"),
          scenarioLine(db, "SELECT line FROM scenarios WHERE name = ? AND run_id = ?")
    {
    }

    // The names and tags the user gave the runs of a source about to be replaced: they stay with
    // the runs that come back (a nightly file grows by a line and is imported again).
    void keepLabelsOf(int64_t sourceId)
    {
        Statement labels(db, "SELECT run_key, run_name, run_tags FROM runs WHERE source_id = ? AND "
                             "(run_name IS NOT NULL OR run_tags IS NOT NULL)");
        labels.bind(1, sourceId);
        while (labels.step())
            keptLabels[labels.text(0)] = {labels.text(1), storerows::tagsOf(labels.textView(2))};
    }

    // This source's run with that key, or 0.
    int64_t ownRun(const std::string &runKey)
    {
        findRun.reset();
        findRun.bindText(1, runKey);
        if (!findRun.step())
            return 0;
        return findRun.int64(1) == sourceId ? findRun.int64(0) : 0;
    }

    // The id of a scenario's trend inputs (storeschema.h, trendRowInserts), written first when
    // the store has none like them. `key` (optional): what the inputs are made of, in a form of
    // this writer's, under which the id is remembered for the scenarios after it: a source's
    // runs are mostly tuned alike.
    int64_t trendInputs(int64_t scenarioId, const std::string *key)
    {
        if (key)
            if (const auto it = inputsIds.find(*key); it != inputsIds.end())
                return it->second;
        insTrendInputs.reset();
        insTrendInputs.bind(1, scenarioId);
        insTrendInputs.run();
        trendInputsId.reset();
        trendInputsId.bind(1, scenarioId);
        if (!trendInputsId.step() || trendInputsId.isNull(0))
            throw StoreError("internal: a scenario's trend inputs were not written");
        const int64_t id = trendInputsId.int64(0);
        if (key)
            inputsIds.emplace(*key, id);
        return id;
    }

    sql::Connection &db;
    sql::Transaction tx;
    Statement findRun, insRun, insScenario, insTrendInputs, trendInputsId, insTrendRun, markTrendTime,
        runTimeSource, insMetric, insPoint, insSeries, addMetricName, addScenarios,
        nextOrdinal, header, scenarioLine;
    // The metric names this source has put into scenario_metrics already, by scenario name:
    // looked up without building a key, as they repeat on every run of a nightly series.
    std::map<std::string, std::set<std::string>> metricNames;
    std::unordered_map<std::string, int64_t> inputsIds; // trendInputs(), by key
    // The labels of the runs of the import this one replaces, by run key (name, tags).
    std::unordered_map<std::string, std::pair<std::string, std::vector<std::string>>> keptLabels;
    // A backend that takes a COPY: the runs put() are written in batches (bulkruns.h); what
    // reads them back (append, earlierRun) settles the batch first.
    std::unique_ptr<BulkRuns> bulk;
    // The time source of the run whose scenarios are being written (NULL: stated).
    std::optional<std::string> timeSource;
    bool removedRuns = false; // an earlier import's runs were deleted: the names are checked at commit
    int64_t sourceId = 0;
    bool sample = false;
    std::string uri;
    bool committed = false;
};

std::unique_ptr<SourceWriter> Store::beginSource(const SourceRecord &source)
{
    return std::unique_ptr<SourceWriter>(new SourceWriter(*m_db, source));
}

SourceWriter::SourceWriter(sql::Connection &db, const SourceRecord &source)
    : m_impl(std::make_unique<Impl>(db))
{
    Impl &d = *m_impl;
    d.sample = source.sample;
    d.uri = source.uri;
    {
        Statement same(db, "SELECT id, runs_removed, uri FROM sources WHERE sha256 = ?");
        same.bindText(1, source.sha256);
        const bool found = same.step();
        if (found && same.int64(1) > 0) {
            // Some of its runs were removed: the same bytes bring them back, so the source is
            // written again whole (its remaining runs replaced by the same ones).
            const int64_t id = same.int64(0);
            const int64_t removed = same.int64(1);
            m_outcome.notes.push_back("restores the " + std::to_string(removed) +
                                      (removed == 1 ? " run" : " runs") +
                                      " removed since the earlier import of " + same.text(2));
            same.reset();
            d.keepLabelsOf(id);
            Statement del(db, "DELETE FROM sources WHERE id = ?");
            del.bind(1, id);
            del.run();
            d.removedRuns = true;
        } else if (found) {
            m_outcome.status = ImportOutcome::Status::Unchanged;
            m_outcome.sourceId = same.int64(0);
            Statement counts(db,
                             "SELECT COUNT(DISTINCT r.id), COUNT(DISTINCT s.id), COUNT(m.name) "
                             "FROM runs r LEFT JOIN scenarios s ON s.run_id = r.id "
                             "LEFT JOIN metrics m ON m.scenario_id = s.id WHERE r.source_id = ?");
            counts.bind(1, m_outcome.sourceId);
            if (counts.step()) {
                m_outcome.runs = counts.int64(0);
                m_outcome.scenarios = counts.int64(1);
                m_outcome.metrics = counts.int64(2);
            }
            counts.reset();
            Statement latest(db, "SELECT run_key, timestamp FROM runs WHERE source_id = ? "
                                 "ORDER BY timestamp DESC, id DESC LIMIT 1");
            latest.bind(1, m_outcome.sourceId);
            if (latest.step()) {
                m_outcome.latestRunKey = latest.text(0);
                m_outcome.latestRunTime = latest.text(1);
            }
            return; // nothing to write
        }
    }
    {
        // A changed file at the same place replaces what it gave before (a nightly series
        // that grows by a line a day).
        Statement earlier(db, "SELECT id, (SELECT COUNT(*) FROM runs WHERE source_id = "
                              "sources.id) FROM sources WHERE uri = ?");
        earlier.bindText(1, source.uri);
        std::vector<std::pair<int64_t, int64_t>> replaced;
        while (earlier.step())
            replaced.emplace_back(earlier.int64(0), earlier.int64(1));
        for (const auto &[id, count] : replaced) {
            d.keepLabelsOf(id);
            Statement del(db, "DELETE FROM sources WHERE id = ?");
            del.bind(1, id);
            del.run();
            d.removedRuns = true;
            m_outcome.notes.push_back("replaces the earlier import of " + source.uri + " (" +
                                      std::to_string(count) + " runs)");
        }
    }
    Statement insSource(db, "INSERT INTO sources (uri, format, sha256, importer, "
                            "importer_version, imported_at, sample) VALUES (?,?,?,?,?,?,?) "
                            "RETURNING id");
    insSource.bindText(1, source.uri)
        .bindText(2, source.format)
        .bindText(3, source.sha256)
        .bindText(4, source.importer)
        .bindText(5, source.importerVersion)
        .bindText(6, source.importedAt)
        .bind(7, int64_t(source.sample ? 1 : 0));
    d.sourceId = insSource.runReturningId();
    m_outcome.sourceId = d.sourceId;
    if (db.supportsCopy())
        d.bulk = std::make_unique<BulkRuns>(db, d.sourceId, d.sample, d.uri, d.metricNames);
}

SourceWriter::~SourceWriter() = default; // Impl's transaction rolls back unless committed

void SourceWriter::put(RunRecord run)
{
    if (unchanged())
        throw StoreError("internal: runs put into an unchanged source");
    Impl &d = *m_impl;
    if (!d.keptLabels.empty() && run.name.empty() && run.tags.empty())
        if (const auto it = d.keptLabels.find(run.runKey); it != d.keptLabels.end()) {
            run.name = it->second.first;
            run.tags = it->second.second;
        }
    if (d.bulk) {
        const int64_t scenarios = int64_t(run.scenarios.size());
        int64_t metrics = 0;
        for (const ScenarioRecord &sc : run.scenarios)
            metrics += int64_t(sc.metrics.size());
        const bool latest = run.timestamp >= m_outcome.latestRunTime;
        std::string key = latest ? run.runKey : std::string(), time = latest ? run.timestamp : std::string();
        d.bulk->put(std::move(run));
        ++m_outcome.runs;
        m_outcome.scenarios += scenarios;
        m_outcome.metrics += metrics;
        if (latest) {
            m_outcome.latestRunKey = std::move(key);
            m_outcome.latestRunTime = std::move(time);
        }
        return;
    }
    d.findRun.reset();
    d.findRun.bindText(1, run.runKey);
    if (d.findRun.step()) {
        if (d.findRun.int64(1) == d.sourceId)
            throw StoreError("run key '" + run.runKey + "' appears twice in " + d.uri);
        throw StoreError("run key '" + run.runKey + "' is already in the store (from " +
                         d.findRun.text(2) + "); remove that run first");
    }
    const std::string tuning = run.tuning.is_null() ? "{}" : run.tuning.dump();
    d.insRun.reset();
    d.insRun.bind(1, d.sourceId)
        .bindText(2, run.runKey)
        .bindText(3, run.timestamp)
        .bind(4, run.commit)
        .bind(5, run.imageDigest)
        .bind(6, run.tool)
        .bind(7, run.toolVersion)
        .bind(8, run.target)
        .bindText(9, run.environment.is_null() ? "{}" : run.environment.dump())
        .bindText(10, tuning)
        .bind(11, int64_t((run.sample || d.sample) ? 1 : 0))
        .bind(12, run.provenance)
        .bind(13, run.line > 0 ? std::optional<int64_t>(run.line) : std::nullopt)
        .bind(14, int64_t(run.scenarios.size()))
        .bind(15, run.timeSource == TimeSource::Stated ? std::nullopt
                                                        : std::optional<std::string>(toString(run.timeSource)))
        .bind(16, run.name)
        .bind(17, storerows::tagsText(run.tags));
    const int64_t runId = d.insRun.runReturningId();
    d.timeSource = run.timeSource == TimeSource::Stated ? std::nullopt
                                                         : std::optional<std::string>(toString(run.timeSource));
    ++m_outcome.runs;
    if (run.timestamp >= m_outcome.latestRunTime) {
        m_outcome.latestRunKey = run.runKey;
        m_outcome.latestRunTime = run.timestamp;
    }
    constexpr char kSep = '\x1f'; // unit separator: in no tool name or version
    const std::string runInputs = run.tool + kSep + run.toolVersion + kSep + tuning;
    insertScenarios(runId, run.runKey, 0, run.scenarios, &runInputs);
}

void SourceWriter::append(const std::string &runKey, std::vector<ScenarioRecord> scenarios)
{
    Impl &d = *m_impl;
    if (d.bulk)
        d.bulk->settle(); // the scenarios go in one by one, after their run
    const int64_t runId = d.ownRun(runKey);
    if (runId == 0)
        throw StoreError("internal: no run '" + runKey + "' in this source to add scenarios to");
    d.nextOrdinal.reset();
    d.nextOrdinal.bind(1, runId);
    d.nextOrdinal.step();
    d.runTimeSource.reset();
    d.runTimeSource.bind(1, runId);
    d.timeSource = d.runTimeSource.step() && !d.runTimeSource.isNull(0)
                       ? std::optional<std::string>(d.runTimeSource.text(0))
                       : std::nullopt;
    insertScenarios(runId, runKey, d.nextOrdinal.int64(0), scenarios, nullptr);
    d.addScenarios.reset();
    d.addScenarios.bind(1, int64_t(scenarios.size())).bind(2, runId);
    d.addScenarios.run();
}

namespace {

// A topology's part of a trend inputs key (SourceWriter::Impl::trendInputs): each field, or a
// mark of its own where it is not stated.
void appendTopologyKey(std::string &key, const Topology &t)
{
    for (const std::optional<int64_t> &n : {t.brokers, t.shards, t.partitions, t.producers, t.consumers,
                                            t.clients, t.connections, t.threads, t.pipeline,
                                            t.recordSizeBytes, t.batchBytes, t.agents, t.replication}) {
        key += '\x1f';
        if (n)
            key += std::to_string(*n);
        else
            key += '\x1e';
    }
    for (const std::optional<std::string> &text : {t.compression, t.acks}) {
        key += '\x1f';
        key += text ? *text : std::string(1, '\x1e');
    }
}

} // namespace

void SourceWriter::insertScenarios(int64_t runId, const std::string &runKey, int64_t firstOrdinal,
                                   const std::vector<ScenarioRecord> &scenarios,
                                   const std::string *runInputs)
{
    Impl &d = *m_impl;
    int64_t ordinal = firstOrdinal;
    for (const ScenarioRecord &sc : scenarios) {
        const Topology &t = sc.topology;
        const int64_t scenarioOrdinal = ordinal++;
        d.insScenario.reset();
        d.insScenario.bind(1, runId)
            .bind(2, scenarioOrdinal)
            .bindText(3, sc.name)
            .bind(4, sc.kind)
            .bind(5, t.brokers)
            .bind(6, t.shards)
            .bind(7, t.partitions)
            .bind(8, t.producers)
            .bind(9, t.consumers)
            .bind(10, t.clients)
            .bind(11, t.connections)
            .bind(12, t.threads)
            .bind(13, t.pipeline)
            .bind(14, t.recordSizeBytes)
            .bind(15, t.batchBytes)
            .bind(16, t.compression)
            .bind(17, t.acks)
            .bind(18, t.inferred.empty() ? std::string() : nlohmann::json(t.inferred).dump())
            .bind(19, sc.provenance)
            .bind(20, sc.line > 0 ? std::optional<int64_t>(sc.line) : std::nullopt)
            .bind(21, t.agents)
            .bind(22, t.replication);
        const int64_t scenarioId = d.insScenario.runReturningId();
        std::string inputsKey;
        if (runInputs) {
            inputsKey = *runInputs;
            appendTopologyKey(inputsKey, t);
        }
        const int64_t inputsId = d.trendInputs(scenarioId, runInputs ? &inputsKey : nullptr);
        d.insTrendRun.reset();
        d.insTrendRun.bind(1, scenarioId).bind(2, inputsId);
        d.insTrendRun.run();
        if (d.timeSource) {
            d.markTrendTime.reset();
            d.markTrendTime.bind(1, scenarioId).bindText(2, *d.timeSource);
            d.markTrendTime.run();
        }
        ++m_outcome.scenarios;
        int64_t metricOrdinal = 0;
        std::set<std::string> &known = d.metricNames[sc.name];
        for (const MetricValue &m : sc.metrics) {
            d.insMetric.reset();
            d.insMetric.bind(1, scenarioId).bind(2, metricOrdinal++).bindText(3, m.name).bind(4, m.value);
            try {
                d.insMetric.run();
            } catch (const StoreError &) {
                throw StoreError("scenario '" + sc.name + "' of run '" + runKey +
                                 "' has metric '" + m.name + "' twice");
            }
            d.insPoint.reset();
            d.insPoint.bindText(1, sc.name).bindText(2, m.name).bind(3, runId);
            d.insPoint.bind(4, scenarioOrdinal).bind(5, scenarioId).bind(6, m.value);
            d.insPoint.run();
            ++m_outcome.metrics;
            if (known.find(m.name) == known.end()) {
                known.insert(m.name);
                d.addMetricName.reset();
                d.addMetricName.bindText(1, sc.name).bindText(2, m.name);
                d.addMetricName.run();
            }
        }
        for (const SeriesRecord &series : sc.series) {
            int64_t idx = 0;
            for (const SeriesSample &sample : series.samples) {
                d.insSeries.reset();
                d.insSeries.bind(1, scenarioId)
                    .bindText(2, series.name)
                    .bind(3, idx++)
                    .bind(4, sample.tOffsetS)
                    .bind(5, sample.value);
                try {
                    d.insSeries.run();
                } catch (const StoreError &) {
                    throw StoreError("scenario '" + sc.name + "' of run '" + runKey +
                                     "' has series '" + series.name +
                                     "' twice (or a value that is not a number)");
                }
            }
        }
    }
}

std::optional<RunRecord> SourceWriter::earlierRun(const std::string &runKey)
{
    Impl &d = *m_impl;
    if (d.bulk) {
        if (!d.bulk->holds(runKey))
            return std::nullopt; // asked of every new run: answered without a write or a read
        d.bulk->settle();
    }
    const int64_t runId = d.ownRun(runKey);
    if (runId == 0)
        return std::nullopt;
    d.header.reset();
    d.header.bind(1, runId);
    if (!d.header.step())
        return std::nullopt;
    auto storedJson = [](const std::string &text) {
        auto j = nlohmann::json::parse(text, nullptr, false);
        return j.is_discarded() ? nlohmann::json::object() : j;
    };
    RunRecord run;
    run.runKey = runKey;
    run.timestamp = d.header.text(0);
    run.commit = d.header.text(1);
    run.imageDigest = d.header.text(2);
    run.tool = d.header.text(3);
    run.toolVersion = d.header.text(4);
    run.target = d.header.text(5);
    run.environment = storedJson(d.header.text(6));
    run.tuning = storedJson(d.header.text(7));
    run.sample = d.header.int64(8) != 0; // as stored: true for every run of a sample source
    run.provenance = d.header.text(9);
    run.line = d.header.int64(10);
    run.name = d.header.text(11);
    run.tags = storerows::tagsOf(d.header.textView(12));
    return run;
}

std::optional<int64_t> SourceWriter::earlierScenarioLine(const std::string &runKey,
                                                         const std::string &scenario)
{
    Impl &d = *m_impl;
    if (d.bulk) {
        if (!d.bulk->holds(runKey))
            return std::nullopt;
        d.bulk->settle();
    }
    const int64_t runId = d.ownRun(runKey);
    if (runId == 0)
        return std::nullopt;
    d.scenarioLine.reset();
    d.scenarioLine.bindText(1, scenario).bind(2, runId);
    if (!d.scenarioLine.step())
        return std::nullopt;
    return d.scenarioLine.int64(0);
}

void SourceWriter::setRunsRemoved(int64_t count)
{
    if (unchanged())
        throw StoreError("internal: runs removed set on an unchanged source");
    Statement set(m_impl->db, "UPDATE sources SET runs_removed = ? WHERE id = ?");
    set.bind(1, count).bind(2, m_impl->sourceId);
    set.run();
}

void SourceWriter::settle()
{
    if (m_impl->bulk)
        m_impl->bulk->settle();
}

ImportOutcome SourceWriter::commit()
{
    Impl &d = *m_impl;
    if (d.committed)
        throw StoreError("internal: a source committed twice");
    d.committed = true;
    if (!unchanged()) {
        if (d.bulk)
            d.bulk->settle();
        if (d.removedRuns)
            forgetVanishedMetricNames(d.db);
        d.tx.commit();
    }
    return m_outcome;
}

} // namespace plimsoll
