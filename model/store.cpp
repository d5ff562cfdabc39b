#include "model/store.h"

#include "model/sqlite.h"
#include "model/storeschema.h"

#include <QFileInfo>

#include <cstdlib>

namespace plimsoll {

using sql::Statement;

namespace {

// How long a writer waits for another process's transaction before reporting "busy".
constexpr int kBusyTimeoutMs = 5000;

bool isNumber(const std::string &s)
{
    if (s.empty() || s.size() > 18)
        return false;
    for (char c : s)
        if (c < '0' || c > '9')
            return false;
    return true;
}

const char *kRunSummaryColumns =
    "r.id, r.run_key, r.timestamp, r.commit_sha, r.image_digest, r.tool, r.tool_version, "
    "r.target, r.sample, (SELECT COUNT(*) FROM scenarios s WHERE s.run_id = r.id), "
    "src.uri, src.format";

RunSummary readSummary(const Statement &q)
{
    RunSummary s;
    s.id = q.int64(0);
    s.runKey = q.text(1);
    s.timestamp = q.text(2);
    s.commit = q.text(3);
    s.imageDigest = q.text(4);
    s.tool = q.text(5);
    s.toolVersion = q.text(6);
    s.target = q.text(7);
    s.sample = q.int64(8) != 0;
    s.scenarioCount = q.int64(9);
    s.sourceUri = q.text(10);
    s.sourceFormat = q.text(11);
    return s;
}

nlohmann::json parseStoredJson(const std::string &text, nlohmann::json fallback)
{
    if (text.empty())
        return fallback;
    auto j = nlohmann::json::parse(text, nullptr, false);
    return j.is_discarded() ? fallback : j;
}

// Series of one scenario, by name (the store keeps no order among series), samples in order.
std::vector<SeriesRecord> readSeries(Statement &q, int64_t scenarioId)
{
    q.reset();
    q.bind(1, scenarioId);
    std::vector<SeriesRecord> out;
    while (q.step()) {
        const std::string name = q.text(0);
        if (out.empty() || out.back().name != name)
            out.push_back({name, {}});
        out.back().samples.push_back({q.real(1), q.real(2)});
    }
    return out;
}

} // namespace

Store::Store(const std::string &path) : m_path(path)
{
    const bool existed = QFileInfo::exists(QString::fromStdString(path));
    if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
        const std::string why = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw StoreError("cannot open store " + path + ": " + why);
    }
    sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
    try {
        // Reading the header first turns "file is not a database" into a clear message.
        // (Statements are scoped: an unfinished one holds a read transaction open.)
        int64_t appId = 0;
        int64_t version = 0;
        {
            Statement app(m_db, "PRAGMA application_id");
            app.step();
            appId = app.int64(0);
        }
        version = schemaVersion();
        if (existed && appId != kStoreApplicationId) {
            Statement tables(m_db, "SELECT COUNT(*) FROM sqlite_master");
            tables.step();
            const bool hasTables = tables.int64(0) > 0;
            tables.reset();
            if (appId != 0 || hasTables)
                throw StoreError("not a Plimsoll store");
        }
        if (version > kSchemaVersion)
            throw StoreError("written by a newer Plimsoll (schema version " +
                             std::to_string(version) + ", this one reads up to " +
                             std::to_string(kSchemaVersion) + "); it was left untouched");
        sql::exec(m_db, "PRAGMA journal_mode=WAL");
        sql::exec(m_db, "PRAGMA foreign_keys=ON");
        sql::exec(m_db, "PRAGMA synchronous=NORMAL");
        migrate();
    } catch (const StoreError &e) {
        sqlite3_close(m_db);
        m_db = nullptr;
        std::string what = e.what();
        if (what.find("file is not a database") != std::string::npos)
            what = "not a Plimsoll store (not an SQLite database)";
        throw StoreError("cannot open store " + path + ": " + what);
    }
}

Store::~Store() { sqlite3_close(m_db); }

int Store::schemaVersion() const
{
    Statement q(m_db, "PRAGMA user_version");
    q.step();
    return static_cast<int>(q.int64(0));
}

void Store::migrate()
{
    const auto &steps = storeMigrations();
    static_assert(kSchemaVersion > 0);
    if (static_cast<int>(steps.size()) != kSchemaVersion)
        throw StoreError("internal: schema steps do not match the schema version");
    if (schemaVersion() >= kSchemaVersion)
        return; // the common case takes no write lock
    sql::Transaction tx(m_db);
    int version = schemaVersion(); // again, under the lock: another process may have migrated
    if (version >= kSchemaVersion)
        return;
    for (; version < kSchemaVersion; ++version)
        sql::exec(m_db, steps[static_cast<size_t>(version)].c_str());
    // PRAGMA takes no bound parameters; both values are compile-time integers.
    sql::exec(m_db, ("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str());
    sql::exec(m_db, ("PRAGMA application_id=" + std::to_string(kStoreApplicationId)).c_str());
    tx.commit();
}

bool Store::hasSourceWithSha256(const std::string &sha256) const
{
    Statement q(m_db, "SELECT 1 FROM sources WHERE sha256 = ?");
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
    std::string q = std::string("SELECT ") + kRunSummaryColumns +
                    " FROM runs r JOIN sources src ON src.id = r.source_id WHERE 1=1";
    // Every value is bound; only the shape of the WHERE clause varies.
    if (!filter.scenarioContains.empty())
        q += " AND EXISTS (SELECT 1 FROM scenarios s WHERE s.run_id = r.id AND "
             "instr(s.name, ?1) > 0)";
    if (!filter.commitPrefix.empty())
        q += " AND substr(r.commit_sha, 1, length(?2)) = ?2";
    if (!filter.since.empty())
        q += " AND r.timestamp >= ?3";
    if (!filter.until.empty())
        q += " AND r.timestamp < ?4";
    if (filter.sample)
        q += " AND r.sample = ?5";
    q += " ORDER BY r.timestamp, r.id";
    Statement st(m_db, q);
    if (!filter.scenarioContains.empty())
        st.bindText(1, filter.scenarioContains);
    if (!filter.commitPrefix.empty())
        st.bindText(2, filter.commitPrefix);
    if (!filter.since.empty())
        st.bindText(3, filter.since);
    if (!filter.until.empty())
        st.bindText(4, filter.until);
    if (filter.sample)
        st.bind(5, int64_t(*filter.sample ? 1 : 0));
    std::vector<RunSummary> out;
    while (st.step())
        out.push_back(readSummary(st));
    return out;
}

std::optional<RunDetail> Store::run(const std::string &idOrKey) const
{
    const bool byId = isNumber(idOrKey);
    Statement q(m_db, std::string("SELECT ") + kRunSummaryColumns +
                          ", r.environment, r.tuning, r.provenance, src.sha256, src.importer, "
                          "src.importer_version, src.imported_at, src.sample "
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
    r.environment = parseStoredJson(q.text(12), nlohmann::json::object());
    r.tuning = parseStoredJson(q.text(13), nlohmann::json::object());
    r.provenance = q.text(14);
    d.source.uri = d.summary.sourceUri;
    d.source.format = d.summary.sourceFormat;
    d.source.sha256 = q.text(15);
    d.source.importer = q.text(16);
    d.source.importerVersion = q.text(17);
    d.source.importedAt = q.text(18);
    d.source.sample = q.int64(19) != 0;

    Statement sc(m_db, "SELECT id, name, kind, brokers, shards, partitions, producers, consumers, "
                       "clients, connections, threads, pipeline, record_size_bytes, batch_bytes, "
                       "compression, acks, inferred, provenance FROM scenarios WHERE run_id = ? "
                       "ORDER BY ordinal");
    sc.bind(1, d.summary.id);
    Statement mq(m_db, "SELECT name, value FROM metrics WHERE scenario_id = ? ORDER BY ordinal");
    Statement sq(m_db, "SELECT name, t_offset_s, value FROM series WHERE scenario_id = ? "
                       "ORDER BY name, idx");
    while (sc.step()) {
        ScenarioRecord s;
        s.name = sc.text(1);
        s.kind = sc.text(2);
        Topology &t = s.topology;
        t.brokers = sc.optInt64(3);
        t.shards = sc.optInt64(4);
        t.partitions = sc.optInt64(5);
        t.producers = sc.optInt64(6);
        t.consumers = sc.optInt64(7);
        t.clients = sc.optInt64(8);
        t.connections = sc.optInt64(9);
        t.threads = sc.optInt64(10);
        t.pipeline = sc.optInt64(11);
        t.recordSizeBytes = sc.optInt64(12);
        t.batchBytes = sc.optInt64(13);
        t.compression = sc.optText(14);
        t.acks = sc.optText(15);
        const auto inferred = parseStoredJson(sc.text(16), nlohmann::json::array());
        for (const auto &v : inferred)
            if (v.is_string())
                t.inferred.push_back(v.get<std::string>());
        s.provenance = sc.text(17);
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

std::vector<std::string> Store::scenarioNames() const
{
    Statement q(m_db, "SELECT DISTINCT name FROM scenarios ORDER BY name");
    std::vector<std::string> out;
    while (q.step())
        out.push_back(q.text(0));
    return out;
}

std::vector<std::string> Store::metricNames(const std::string &scenario) const
{
    Statement q(m_db, "SELECT DISTINCT m.name FROM metrics m JOIN scenarios s ON s.id = "
                      "m.scenario_id WHERE s.name = ? ORDER BY m.name");
    q.bindText(1, scenario);
    std::vector<std::string> out;
    while (q.step())
        out.push_back(q.text(0));
    return out;
}

std::vector<SeriesPoint> Store::series(const std::string &scenario, const std::string &metric) const
{
    Statement q(m_db, "SELECT r.id, r.run_key, r.timestamp, r.commit_sha, r.image_digest, "
                      "r.tuning, m.value FROM metrics m "
                      "JOIN scenarios s ON s.id = m.scenario_id JOIN runs r ON r.id = s.run_id "
                      "WHERE s.name = ? AND m.name = ? ORDER BY r.timestamp, r.id, s.ordinal");
    q.bindText(1, scenario).bindText(2, metric);
    std::vector<SeriesPoint> out;
    while (q.step()) {
        SeriesPoint p;
        p.runId = q.int64(0);
        p.runKey = q.text(1);
        p.timestamp = q.text(2);
        p.commit = q.text(3);
        p.imageDigest = q.text(4);
        p.tuning = parseStoredJson(q.text(5), nlohmann::json::object());
        p.value = q.real(6);
        out.push_back(std::move(p));
    }
    return out;
}

int64_t Store::removeRun(const std::string &idOrKey)
{
    const auto detail = run(idOrKey);
    if (!detail)
        return 0;
    sql::Transaction tx(m_db);
    Statement del(m_db, "DELETE FROM runs WHERE id = ?");
    del.bind(1, detail->summary.id);
    del.run();
    // A source with nothing left is forgotten, so importing the file again brings it back.
    sql::exec(m_db, "DELETE FROM sources WHERE NOT EXISTS "
                    "(SELECT 1 FROM runs WHERE runs.source_id = sources.id)");
    tx.commit();
    return 1;
}

int64_t Store::removeSamples()
{
    sql::Transaction tx(m_db);
    Statement count(m_db, "SELECT COUNT(*) FROM runs WHERE sample = 1");
    count.step();
    const int64_t n = count.int64(0);
    sql::exec(m_db, "DELETE FROM runs WHERE sample = 1");
    sql::exec(m_db, "DELETE FROM sources WHERE NOT EXISTS "
                    "(SELECT 1 FROM runs WHERE runs.source_id = sources.id)");
    tx.commit();
    return n;
}

int64_t Store::runCount() const
{
    Statement q(m_db, "SELECT COUNT(*) FROM runs");
    q.step();
    return q.int64(0);
}

} // namespace plimsoll
