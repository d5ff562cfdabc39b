// The store's trend reads: scenario and metric names, a metric's series, the runs of one
// scenario in time order (with the change-point searches kept between reads), and the recent
// runs of a scenario a comparison reads. The rest of Store is in model/store/store.cpp.
#include "model/store/store.h"

#include "model/store/connection.h"
#include "model/store/storerows.h"

#include <optional>
#include <tuple>

namespace plimsoll {

using sql::Statement;
using namespace storerows;

std::vector<std::string> Store::scenarioNames() const
{
    // One seek of the name index per distinct name (each the least name after the one before),
    // rather than a walk over every scenario of every run.
    Statement q(*m_db, "WITH RECURSIVE names(name) AS (SELECT MIN(name) FROM scenarios UNION ALL "
                      "SELECT (SELECT MIN(s.name) FROM scenarios s WHERE s.name > names.name) "
                      "FROM names WHERE names.name IS NOT NULL) "
                      "SELECT name FROM names WHERE name IS NOT NULL");
    std::vector<std::string> out;
    while (q.step())
        out.push_back(q.text(0));
    return out;
}

std::vector<std::string> Store::metricNames(const std::string &scenario) const
{
    Statement q(*m_db, "SELECT metric FROM scenario_metrics WHERE scenario = ? ORDER BY metric");
    q.bindText(1, scenario);
    std::vector<std::string> out;
    while (q.step())
        out.push_back(q.text(0));
    return out;
}

std::vector<SeriesPoint> Store::series(const std::string &scenario, const std::string &metric) const
{
    // One ordered range of the series index (trend_points: scenario, metric, run time), and one
    // seek into runs per point for what names the run. CROSS JOIN keeps the range outermost.
    Statement q(*m_db, "SELECT r.id, r.run_key, r.timestamp, r.commit_sha, r.image_digest, "
                      "r.tuning, p.value FROM trend_points p CROSS JOIN runs r ON r.id = p.run_id "
                      "WHERE p.scenario = ?1 AND p.metric = ?2 "
                      "ORDER BY p.run_time, p.run_id, p.ordinal");
    q.bindText(1, scenario).bindText(2, metric);
    std::vector<SeriesPoint> out;
    out.reserve(seriesLength(scenario, metric));
    // A nightly series is tuned alike for long stretches: each tuning text is parsed once, and
    // the points tuned alike share it.
    std::string tuningText;
    std::shared_ptr<const nlohmann::json> tuning;
    while (q.step()) {
        SeriesPoint &p = out.emplace_back();
        p.runId = q.int64(0);
        p.runKey = q.text(1);
        p.timestamp = q.text(2);
        p.commit = q.text(3);
        p.imageDigest = q.text(4);
        if (const std::string_view text = q.textView(5); !tuning || text != tuningText) {
            tuningText = text;
            tuning = std::make_shared<const nlohmann::json>(
                parseStoredJson(tuningText, nlohmann::json::object()));
        }
        p.tuning = tuning;
        p.value = q.real(6);
    }
    return out;
}

std::size_t Store::seriesLength(const std::string &scenario, const std::string &metric) const
{
    Statement q(*m_db, "SELECT count(*) FROM trend_points WHERE scenario = ?1 AND metric = ?2");
    q.bindText(1, scenario).bindText(2, metric);
    return q.step() ? std::size_t(q.int64(0)) : 0;
}

void Store::forEachTrendRun(const std::string &scenario, const std::string &metric,
                            const std::function<void(TrendRunRow &row)> &visit,
                            const std::function<bool()> &stopped) const
{
    // The scenario's runs from its time index, and the metric's values from the series index
    // (storeschema.cpp, 7 -> 8) beside them, both in the same order (run time, run, scenario
    // ordinal): merged as they are read, with no seek into metrics per run.
    Statement q(*m_db, "SELECT r.id, r.run_key, r.timestamp, r.commit_sha, r.image_digest, r.tool, "
                      "r.tool_version, r.target, r.sample, r.tuning, s.brokers, s.shards, "
                      "s.partitions, s.producers, s.consumers, s.clients, s.connections, s.threads, "
                      "s.pipeline, s.record_size_bytes, s.batch_bytes, s.compression, s.acks, s.agents, "
                      "s.run_time, s.ordinal FROM scenarios s INDEXED BY scenarios_by_name_time "
                      "CROSS JOIN runs r ON r.id = s.run_id "
                      "WHERE s.name = ?1 ORDER BY s.run_time, s.run_id, s.ordinal");
    q.bindText(1, scenario);
    q.stopWhen(stopped);
    Statement values(*m_db, "SELECT run_time, run_id, ordinal, value FROM trend_points "
                            "WHERE scenario = ?1 AND metric = ?2 ORDER BY run_time, run_id, ordinal");
    values.bindText(1, scenario).bindText(2, metric);
    values.stopWhen(stopped);
    struct Key // views into the current rows: each is read again after its statement steps
    {
        std::string_view time;
        int64_t run = 0, ordinal = 0;
        bool operator<(const Key &o) const
        {
            return std::tie(time, run, ordinal) < std::tie(o.time, o.run, o.ordinal);
        }
    };
    Key valueKey;
    bool haveValue = false;
    const auto nextValue = [&] {
        haveValue = values.step();
        if (haveValue)
            valueKey = {values.textView(0), values.int64(1), values.int64(2)};
    };
    nextValue();
    TrendRunRow row;
    Key key;
    bool first = true;
    while (q.step()) {
        key = {q.textView(10 + kTopologyColumnCount), q.int64(0), q.int64(11 + kTopologyColumnCount)};
        while (haveValue && valueKey < key)
            nextValue(); // a later scenario of the same name in a run, skipped below
        const bool measured = haveValue && !(key < valueKey);
        std::optional<double> value = measured ? std::optional<double>(values.real(3)) : std::nullopt;
        if (measured)
            nextValue();
        const int64_t id = key.run;
        if (!first && id == row.id)
            continue; // a later scenario of the same name in that run
        first = false;
        readIdentity(q, row);
        row.tuningText.assign(q.textView(9));
        readTopology(q, 10, row.topology);
        row.value = value;
        visit(row);
    }
}

std::optional<std::string> Store::keptChangePoints(const std::string &seriesKey) const
{
    Statement q(*m_db, "SELECT state FROM change_point_states WHERE series_key = ?");
    q.bindText(1, seriesKey);
    if (!q.step())
        return std::nullopt;
    return q.blob(0);
}

void Store::keepChangePoints(const std::vector<std::pair<std::string, std::string>> &states)
{
    if (states.empty())
        return;
    // A reader keeps what it computed on the way: it never waits for an import to finish.
    try {
        sql::Transaction tx(*m_db, false);
        Statement put(*m_db, "INSERT INTO change_point_states (series_key, state) VALUES (?, ?) "
                             "ON CONFLICT (series_key) DO UPDATE SET state = excluded.state");
        for (const auto &[key, state] : states) {
            put.reset();
            put.bindText(1, key).bindBlob(2, state);
            put.run();
        }
        tx.commit();
    } catch (const StoreError &) {
        // Busy or read-only: the next reader examines these series again.
    }
}


std::vector<RunRecord> Store::recentRunsOf(const std::string &scenario, const std::string &target,
                                           const std::string &until, int64_t limit) const
{
    // Driven backwards by the time index from `until`, so the read stops after `limit` runs of
    // the scenario instead of collecting a long series and sorting it.
    std::string q = "WITH recent(id) AS (SELECT r.id FROM runs r INDEXED BY runs_by_time "
                    "WHERE r.timestamp <= ?3 AND COALESCE(r.target, '') = ?2 AND EXISTS "
                    "(SELECT 1 FROM scenarios c WHERE c.run_id = r.id AND c.name = ?1) "
                    "ORDER BY r.timestamp DESC, r.id DESC LIMIT ?4) "
                    "SELECT r.id, r.run_key, r.timestamp, r.commit_sha, r.image_digest, r.tool, "
                    "r.tool_version, r.target, r.tuning, r.sample, s.id, ";
    q += kScenarioColumns;
    // CROSS JOIN keeps the few recent runs outermost: driven by the scenario's name instead, the
    // planner would walk every run of the scenario (a million) to find them.
    q += ", m.name, m.value FROM recent CROSS JOIN runs r ON r.id = recent.id "
         "CROSS JOIN scenarios s ON s.run_id = r.id AND s.name = ?1 "
         "LEFT JOIN metrics m ON m.scenario_id = s.id ORDER BY r.timestamp, r.id, s.ordinal, m.ordinal";
    Statement st(*m_db, q);
    st.bindText(1, scenario).bindText(2, target).bindText(3, until);
    st.bind(4, std::max<int64_t>(limit, 0));
    constexpr int kScenarioId = 10, kScenario = 11, kMetric = kScenario + 4 + kTopologyColumnCount;
    std::vector<RunRecord> out;
    int64_t runId = 0, scenarioId = 0;
    std::optional<std::string> tuningText; // a series mostly keeps its tuning: parse it once
    nlohmann::json tuning;
    while (st.step()) {
        if (const int64_t id = st.int64(0); out.empty() || id != runId) {
            runId = id;
            scenarioId = 0;
            RunRecord &run = out.emplace_back();
            readRunIdentity(st, run);
            if (std::string text = st.text(8); !tuningText || text != *tuningText) {
                tuning = parseStoredJson(text, nlohmann::json::object());
                tuningText = std::move(text);
            }
            run.tuning = tuning;
            run.sample = st.int64(9) != 0;
        }
        RunRecord &run = out.back();
        if (const int64_t sid = st.int64(kScenarioId); run.scenarios.empty() || sid != scenarioId) {
            scenarioId = sid;
            run.scenarios.push_back(readScenario(st, kScenario));
        }
        if (!st.isNull(kMetric))
            run.scenarios.back().metrics.push_back({st.text(kMetric), st.real(kMetric + 1)});
    }
    return out;
}

} // namespace plimsoll
