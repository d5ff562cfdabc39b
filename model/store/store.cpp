#include "model/store/store.h"

#include "model/store/connection.h"
#include "model/store/sharedsettings.h"
#include "model/store/storeschema.h"
#include "model/store/storerows.h"

#include <algorithm>
#include <set>
#include <cstdlib>

#include <unistd.h>

namespace plimsoll {

using sql::Statement;

using namespace storerows;

void forgetVanishedMetricNames(sql::Connection &db)
{
    // A name still measured is found at its first row; only a vanished one is looked for through
    // the runs of its scenario.
    sql::exec(db, "DELETE FROM scenario_metrics WHERE NOT EXISTS (SELECT 1 FROM scenarios s "
                  "JOIN metrics m ON m.scenario_id = s.id AND m.name = scenario_metrics.metric "
                  "WHERE s.name = scenario_metrics.scenario)");
}

Store::Store(const std::string &location) : m_path(location)
{
    m_db = sql::isPostgresUri(location) ? sql::openPostgres(location) : sql::openSqlite(location);
    try {
        if (const int version = m_db->schemaVersion(); version > kSchemaVersion)
            throw StoreError("written by a newer Plimsoll (schema version " +
                             std::to_string(version) + ", this one reads up to " +
                             std::to_string(kSchemaVersion) + "); it was left untouched");
        migrate();
    } catch (const StoreError &e) {
        throw StoreError("cannot open store " + location + ": " + e.what());
    }
}

Store::~Store() = default;

StoreSnapshot::StoreSnapshot(const Store &store) : m_db(*store.m_db) { m_db.beginRead(); }

StoreSnapshot::~StoreSnapshot() { m_db.rollback(); }

bool Store::isTeamStore() const { return m_db->dialect() == sql::Dialect::PostgreSQL; }

int Store::schemaVersion() const { return m_db->schemaVersion(); }

void Store::migrate()
{
    const auto &steps = storeMigrations(m_db->dialect());
    static_assert(kSchemaVersion > 0);
    if (static_cast<int>(steps.size()) != kSchemaVersion)
        throw StoreError("internal: schema steps do not match the schema version");
    if (schemaVersion() >= kSchemaVersion)
        return; // the common case takes no write lock
    sql::Transaction tx(*m_db);
    int version = schemaVersion(); // again, under the lock: another process may have migrated
    if (version >= kSchemaVersion)
        return;
    const int from = version;
    for (; version < kSchemaVersion; ++version)
        m_db->exec(steps[static_cast<size_t>(version)]);
    // A SQLite store kept what its users share beside itself until version 7.
    std::vector<std::string> moved;
    if (from > 0 && from < 7 && m_db->dialect() == sql::Dialect::SQLite)
        moved = moveSettingsFilesIn(*m_db, m_path);
    m_db->setSchemaVersion(kSchemaVersion);
    tx.commit();
    markSettingsFilesMoved(moved);
}

bool Store::hasSourceWithSha256(const std::string &sha256) const
{
    Statement q(*m_db, "SELECT 1 FROM sources WHERE sha256 = ?");
    q.bindText(1, sha256);
    return q.step();
}

ImportOutcome Store::importSource(const SourceRecord &source, const std::vector<RunRecord> &runs)
{
    std::unique_ptr<SourceWriter> writer = beginSource(source);
    if (!writer->unchanged())
        for (const RunRecord &run : runs)
            writer->put(run);
    return writer->commit();
}

std::vector<RunSummary> Store::runs(const RunFilter &filter) const
{
    Statement st(*m_db, std::string("SELECT ") + kRunSummaryColumns +
                           " FROM runs r JOIN sources src ON src.id = r.source_id WHERE 1=1" +
                           runFilterConditions(filter) + " ORDER BY r.timestamp, r.id");
    bindRunFilter(st, filter);
    std::vector<RunSummary> out;
    while (st.step())
        out.push_back(readSummary(st));
    return out;
}

std::vector<RunSummary> Store::runs(const RunFilter &filter, const RunPage &page) const
{
    // Keyset paging: the page starts after the cursor in the order's key, then id, so a page deep
    // in a large store costs what the first one does (an OFFSET would re-read every run before).
    const std::string key = pageOrderKey(page.order);
    const char *dir = page.descending ? " DESC" : "";
    std::string q = std::string("SELECT ") + kRunSummaryColumns +
                    " FROM runs r JOIN sources src ON src.id = r.source_id WHERE 1=1" +
                    runFilterConditions(filter);
    // The key's own bound first: SQLite seeks its index to it, where the row value alone would
    // have it walk the index from the start to the cursor.
    if (page.after)
        q += " AND " + key + (page.descending ? " <= ?6" : " >= ?6") + " AND (" + key + ", r.id) " +
             (page.descending ? "<" : ">") + " (?6, ?7)";
    q += " ORDER BY " + key + dir + ", r.id" + dir + " LIMIT ?8";
    Statement st(*m_db, q);
    bindRunFilter(st, filter);
    if (page.after) {
        bindPageCursor(st, 6, page.order, *page.after);
        st.bind(7, page.after->id);
    }
    st.bind(8, std::max<int64_t>(page.limit, 0));
    std::vector<RunSummary> out;
    while (st.step())
        out.push_back(readSummary(st));
    return out;
}

void Store::forEachRun(const RunRecordFilter &filter,
                       const std::function<void(int64_t id, RunRecord &&run)> &visit) const
{
    // One row per metric (a scenario without metrics, a run without scenarios: one row with
    // NULLs), grouped back into runs in order. Parameters: ?1 contains, ?2 the only scenario,
    // ?10.. kinds, ?40.. metrics — only their number varies, never SQL made from data.
    std::string q = "SELECT r.id, r.run_key, r.timestamp, r.commit_sha, r.image_digest, r.tool, "
                    "r.tool_version, r.target, r.environment, r.tuning, r.sample, r.provenance, "
                    "r.line, s.id, s.line, ";
    q += kScenarioColumns;
    // Driven by the time index: rows come in order as they are read, with no sort of the whole
    // result first (a temporary B-tree of every row at a million runs), so the first run arrives
    // at once and a visitor that stops early stops the work.
    q += ", m.name, m.value, r.time_source, r.run_name, r.run_tags FROM runs r INDEXED BY runs_by_time ";
    q += filter.onlyScenario.empty() ? "LEFT JOIN scenarios s ON s.run_id = r.id "
                                     : "JOIN scenarios s ON s.run_id = r.id AND s.name = ?2 ";
    q += "LEFT JOIN metrics m ON m.scenario_id = s.id WHERE 1=1";
    if (!filter.scenarioContains.empty())
        q += " AND EXISTS (SELECT 1 FROM scenarios c WHERE c.run_id = r.id AND "
             "instr(c.name, ?1) > 0)";
    constexpr size_t kMaxListed = 30;
    if (filter.scenarioKinds.size() > kMaxListed || filter.metrics.size() > kMaxListed)
        throw StoreError("internal: too many kinds or metrics in one run filter");
    const auto placeholders = [](int first, size_t count) {
        std::string p;
        for (size_t i = 0; i < count; ++i)
            p += (i ? ", ?" : "?") + std::to_string(first + int(i));
        return p;
    };
    // Factor names become column names: only those of the schema, never the caller's text.
    static const std::set<std::string> kFactorColumns = {
        "brokers", "shards", "partitions", "producers", "consumers", "clients",
        "connections", "threads", "pipeline", "record_size_bytes", "batch_bytes", "agents",
        "replication"};
    for (const std::string &f : filter.factors)
        if (!kFactorColumns.count(f))
            throw StoreError("internal: '" + f + "' is not a load factor column");
    if (!filter.scenarioKinds.empty() || !filter.metrics.empty() || !filter.factors.empty()) {
        // The runs that qualify, found once from the indexes on kind, metric name and the
        // stated factors (storeschema.cpp, 7 -> 8) rather than by examining every run.
        std::vector<std::string> sets;
        for (const std::string &f : filter.factors)
            sets.push_back("SELECT run_id FROM scenarios WHERE " + f + " IS NOT NULL");
        if (!filter.scenarioKinds.empty())
            sets.push_back("SELECT run_id FROM scenarios WHERE kind IN (" +
                           placeholders(10, filter.scenarioKinds.size()) + ")");
        if (!filter.metrics.empty())
            sets.push_back("SELECT c.run_id FROM metrics cm JOIN scenarios c ON c.id = cm.scenario_id "
                           "WHERE cm.name IN (" + placeholders(40, filter.metrics.size()) + ")");
        q += " AND r.id IN (";
        for (size_t i = 0; i < sets.size(); ++i)
            q += (i ? " UNION " : "") + sets[i];
        q += ")";
    }
    q += " ORDER BY r.timestamp, r.id, s.ordinal, m.ordinal";
    Statement st(*m_db, q);
    if (!filter.scenarioContains.empty())
        st.bindText(1, filter.scenarioContains);
    if (!filter.onlyScenario.empty())
        st.bindText(2, filter.onlyScenario);
    for (size_t i = 0; i < filter.scenarioKinds.size(); ++i)
        st.bindText(10 + int(i), filter.scenarioKinds[i]);
    for (size_t i = 0; i < filter.metrics.size(); ++i)
        st.bindText(40 + int(i), filter.metrics[i]);

    constexpr int kScenarioId = 13, kScenario = 15, kMetric = kScenario + 4 + kTopologyColumnCount;
    RunRecord run;
    int64_t runId = 0, scenarioId = 0;
    bool haveRun = false;
    // Runs of a nightly series mostly carry the same environment and tuning: parse each text once.
    std::optional<std::string> environmentText, tuningText;
    nlohmann::json environment, tuning;
    while (st.step()) {
        const int64_t id = st.int64(0);
        if (!haveRun || id != runId) {
            if (haveRun)
                visit(runId, std::move(run));
            run = RunRecord{};
            haveRun = true;
            runId = id;
            scenarioId = 0;
            readRunIdentity(st, run);
            if (!st.isNull(kMetric + 2))
                run.timeSource = timeSourceFromString(st.textView(kMetric + 2)).value_or(TimeSource::Stated);
            run.name = st.text(kMetric + 3);
            run.tags = tagsOf(st.textView(kMetric + 4));
            if (std::string text = st.text(8); !environmentText || text != *environmentText) {
                environment = parseStoredJson(text, nlohmann::json::object());
                environmentText = std::move(text);
            }
            run.environment = environment;
            if (std::string text = st.text(9); !tuningText || text != *tuningText) {
                tuning = parseStoredJson(text, nlohmann::json::object());
                tuningText = std::move(text);
            }
            run.tuning = tuning;
            run.sample = st.int64(10) != 0;
            run.provenance = st.text(11);
            run.line = st.int64(12);
        }
        if (st.isNull(kScenarioId))
            continue; // a run without scenarios
        if (const int64_t sid = st.int64(kScenarioId); run.scenarios.empty() || sid != scenarioId) {
            scenarioId = sid;
            run.scenarios.push_back(readScenario(st, kScenario));
            run.scenarios.back().line = st.int64(14);
        }
        if (!st.isNull(kMetric))
            run.scenarios.back().metrics.push_back({st.text(kMetric), st.real(kMetric + 1)});
    }
    if (haveRun)
        visit(runId, std::move(run));
}

std::vector<std::string> Store::rampRunKeys() const
{
    std::vector<std::string> keys;
    for (RampRun &r : rampRuns())
        keys.push_back(std::move(r.runKey));
    return keys;
}

std::vector<Store::RampRun> Store::rampRuns() const
{
    // Only a run of two scenarios or more can be one: those are read from the count's index,
    // not every run of the store (a nightly history of one scenario per run has none).
    Statement q(*m_db, "SELECT r.id, r.run_key, s.name, r.run_name FROM runs r INDEXED BY runs_by_scenario_count "
                      "JOIN scenarios s ON s.run_id = r.id "
                      "WHERE r.scenario_count >= 2 AND instr(s.name, '/') > 0 "
                      "ORDER BY r.timestamp, r.id");
    std::vector<RampRun> out;
    int64_t runId = 0;
    bool first = true;
    std::string runKey, runName;
    std::vector<std::string> families; // of the current run, to count steps per family
    bool ramp = false;
    const auto finish = [&] {
        if (ramp)
            out.push_back({runKey, runName});
    };
    while (q.step()) {
        if (first || q.int64(0) != runId) {
            if (!first)
                finish();
            first = false;
            runId = q.int64(0);
            runKey = q.text(1);
            runName = q.text(3);
            families.clear();
            ramp = false;
        }
        std::string family = familyOf(q.text(2));
        if (!ramp && std::find(families.begin(), families.end(), family) != families.end())
            ramp = true;
        families.push_back(std::move(family));
    }
    if (!first)
        finish();
    return out;
}

std::optional<RunDetail> Store::run(const std::string &idOrKey) const
{
    const bool byId = isNumber(idOrKey);
    Statement q(*m_db, std::string("SELECT ") + kRunSummaryColumns +
                          ", r.environment, r.tuning, r.provenance, src.sha256, src.importer, "
                          "src.importer_version, src.imported_at, src.sample, r.time_source "
                          "FROM runs r JOIN sources src ON src.id = r.source_id WHERE " +
                          (byId ? "r.id = ?1 OR r.run_key = ?2" : "r.run_key = ?2") +
                          " ORDER BY (r.run_key = ?2) DESC LIMIT 1");
    if (byId)
        q.bind(1, static_cast<int64_t>(std::strtoll(idOrKey.c_str(), nullptr, 10)));
    q.bindText(2, idOrKey);
    if (!q.step())
        return std::nullopt;
    RunDetail d;
    d.summary = readSummary(q);
    RunRecord &r = d.record;
    r.runKey = d.summary.runKey;
    r.timestamp = d.summary.timestamp;
    r.commit = d.summary.commit;
    r.imageDigest = d.summary.imageDigest;
    r.tool = d.summary.tool;
    r.toolVersion = d.summary.toolVersion;
    r.target = d.summary.target;
    r.sample = d.summary.sample;
    r.name = d.summary.name;
    r.tags = d.summary.tags;
    r.environment = parseStoredJson(q.text(14), nlohmann::json::object());
    r.tuning = parseStoredJson(q.text(15), nlohmann::json::object());
    r.provenance = q.text(16);
    if (!q.isNull(22))
        r.timeSource = timeSourceFromString(q.textView(22)).value_or(TimeSource::Stated);
    d.source.uri = d.summary.sourceUri;
    d.source.format = d.summary.sourceFormat;
    d.source.sha256 = q.text(17);
    d.source.importer = q.text(18);
    d.source.importerVersion = q.text(19);
    d.source.importedAt = q.text(20);
    d.source.sample = q.int64(21) != 0;

    Statement sc(*m_db, std::string("SELECT s.id, ") + kScenarioColumns +
                           " FROM scenarios s WHERE s.run_id = ? ORDER BY s.ordinal");
    sc.bind(1, d.summary.id);
    Statement mq(*m_db, "SELECT name, value FROM metrics WHERE scenario_id = ? ORDER BY ordinal");
    Statement sq(*m_db, "SELECT name, t_offset_s, value FROM series WHERE scenario_id = ? "
                       "ORDER BY name, idx");
    while (sc.step()) {
        ScenarioRecord s = readScenario(sc, 1);
        mq.reset();
        mq.bind(1, sc.int64(0));
        while (mq.step())
            s.metrics.push_back({mq.text(0), mq.real(1)});
        s.series = readSeries(sq, sc.int64(0));
        r.scenarios.push_back(std::move(s));
    }
    return d;
}

std::vector<SeriesRecord> Store::scenarioSeries(const std::string &runIdOrKey,
                                                const std::string &scenario) const
{
    const auto detail = run(runIdOrKey);
    if (!detail)
        return {};
    for (const ScenarioRecord &s : detail->record.scenarios) {
        if (s.name == scenario)
            return s.series;
    }
    return {};
}

int64_t Store::removeRun(const std::string &idOrKey)
{
    const auto detail = run(idOrKey);
    if (!detail)
        return 0;
    sql::Transaction tx(*m_db);
    // The source remembers the loss, so that importing its bytes again restores the run.
    Statement mark(*m_db, "UPDATE sources SET runs_removed = runs_removed + 1 "
                         "WHERE id = (SELECT source_id FROM runs WHERE id = ?)");
    mark.bind(1, detail->summary.id);
    mark.run();
    Statement del(*m_db, "DELETE FROM runs WHERE id = ?");
    del.bind(1, detail->summary.id);
    del.run();
    forgetVanishedMetricNames(*m_db);
    // A source with nothing left is forgotten, so importing the file again brings it back.
    sql::exec(*m_db, "DELETE FROM sources WHERE NOT EXISTS "
                    "(SELECT 1 FROM runs WHERE runs.source_id = sources.id)");
    tx.commit();
    return 1;
}

int64_t Store::removeSamples()
{
    sql::Transaction tx(*m_db);
    Statement count(*m_db, "SELECT COUNT(*) FROM runs WHERE sample = 1");
    count.step();
    const int64_t n = count.int64(0);
    sql::exec(*m_db, "UPDATE sources SET runs_removed = runs_removed + (SELECT COUNT(*) FROM runs "
                    "WHERE runs.source_id = sources.id AND runs.sample = 1)");
    sql::exec(*m_db, "DELETE FROM runs WHERE sample = 1");
    forgetVanishedMetricNames(*m_db);
    sql::exec(*m_db, "DELETE FROM sources WHERE NOT EXISTS "
                    "(SELECT 1 FROM runs WHERE runs.source_id = sources.id)");
    tx.commit();
    return n;
}

bool Store::setRunLabels(int64_t runId, const std::string &name, const std::vector<std::string> &tags)
{
    sql::Transaction tx(*m_db);
    Statement put(*m_db, "UPDATE runs SET run_name = ?2, run_tags = ?3 WHERE id = ?1 RETURNING 1");
    put.bind(1, runId);
    put.bind(2, name);
    put.bind(3, tagsText(tags));
    const bool found = put.step();
    put.reset();
    if (!found)
        return false;
    sql::exec(*m_db, "UPDATE store_revisions SET revision = revision + 1 WHERE part = 'labels'");
    tx.commit();
    return true;
}

std::vector<RunSummary> Store::runsNamed(const std::string &name) const
{
    Statement st(*m_db, std::string("SELECT ") + kRunSummaryColumns +
                            " FROM runs r JOIN sources src ON src.id = r.source_id "
                            "WHERE COALESCE(r.run_name, '') COLLATE NOCASE = ?1 AND r.run_name IS NOT NULL "
                            "ORDER BY r.timestamp, r.id");
    st.bindText(1, name);
    std::vector<RunSummary> out;
    while (st.step())
        out.push_back(readSummary(st));
    return out;
}

int64_t Store::runCount() const
{
    Statement q(*m_db, "SELECT COUNT(*) FROM runs");
    q.step();
    return q.int64(0);
}

std::vector<Store::SharedSetting> Store::sharedSettings(const std::string &kind) const
{
    Statement q(*m_db, "SELECT name, body FROM shared_settings WHERE kind = ? ORDER BY name");
    q.bindText(1, kind);
    std::vector<SharedSetting> out;
    while (q.step())
        out.push_back({q.text(0), q.text(1)});
    return out;
}

std::optional<std::string> Store::sharedSetting(const std::string &kind, const std::string &name) const
{
    Statement q(*m_db, "SELECT body FROM shared_settings WHERE kind = ? AND name = ?");
    q.bindText(1, kind).bindText(2, name);
    if (!q.step())
        return std::nullopt;
    return q.text(0);
}

bool Store::putSharedSetting(const std::string &kind, const std::string &name, const std::string &body,
                             bool replace)
{
    sql::Transaction tx(*m_db);
    Statement put(*m_db, std::string("INSERT INTO shared_settings (kind, name, body) VALUES (?1, ?2, ?3) "
                                     "ON CONFLICT (kind, name) DO ") +
                             (replace ? "UPDATE SET body = excluded.body" : "NOTHING") + " RETURNING 1");
    put.bindText(1, kind).bindText(2, name).bindText(3, body);
    const bool written = put.step();
    put.reset();
    tx.commit();
    return written;
}

bool Store::removeSharedSetting(const std::string &kind, const std::string &name)
{
    sql::Transaction tx(*m_db);
    Statement del(*m_db, "DELETE FROM shared_settings WHERE kind = ? AND name = ? RETURNING 1");
    del.bindText(1, kind).bindText(2, name);
    const bool removed = del.step();
    del.reset();
    tx.commit();
    return removed;
}

std::vector<Store::StoredSource> Store::sources() const
{
    Statement q(*m_db, "SELECT src.id, src.uri, src.format, src.sha256, src.importer, src.importer_version, "
                       "src.imported_at, src.sample, r.run_key, src.runs_removed FROM sources src "
                       "LEFT JOIN runs r ON r.source_id = src.id ORDER BY src.id, r.id");
    std::vector<StoredSource> out;
    int64_t current = 0;
    while (q.step()) {
        if (out.empty() || q.int64(0) != current) {
            current = q.int64(0);
            out.push_back({{q.text(1), q.text(2), q.text(3), q.text(4), q.text(5), q.text(6), q.int64(7) != 0},
                           {},
                           q.int64(9)});
        }
        if (!q.isNull(8))
            out.back().runKeys.push_back(q.text(8));
    }
    return out;
}

std::optional<std::string> Store::readOnlyReason() const
{
    if (m_db->dialect() == sql::Dialect::SQLite) {
        if (::access(m_path.c_str(), W_OK) != 0)
            return "the file is read-only";
        return std::nullopt;
    }
    Statement q(*m_db, "SELECT has_table_privilege('runs', 'INSERT'), current_user");
    if (q.step() && q.text(0) != "t" && q.text(0) != "1" && q.text(0) != "true")
        return "read-only for user " + q.text(1);
    return std::nullopt;
}

std::string Store::changeToken() const
{
    Statement q(*m_db, "SELECT (SELECT COALESCE(MAX(id), 0) FROM runs), (SELECT COUNT(*) FROM runs), "
                       "(SELECT COUNT(*) FROM shared_settings), "
                       "(SELECT COALESCE(SUM(LENGTH(body)), 0) FROM shared_settings), "
                       "(SELECT revision FROM store_revisions WHERE part = 'labels')");
    q.step();
    return q.text(0) + "/" + q.text(1) + "/" + q.text(2) + "/" + q.text(3) + "/" + q.text(4);
}

} // namespace plimsoll
