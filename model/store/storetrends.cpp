// The store's trend reads: scenario and metric names, a metric's series, the runs of one
// scenario in time order (with the change-point searches kept between reads), and the recent
// runs of a scenario a comparison reads. The rest of Store is in model/store/store.cpp.
#include "model/store/store.h"

#include "model/core/metricroles.h"
#include "model/store/connection.h"
#include "model/store/storerows.h"
#include "model/store/textblocks.h"
#include "model/store/trendtables.h"

#include <QDateTime>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <optional>
#include <iterator>
#include <unordered_map>
#include <unordered_set>
#include <tuple>

namespace plimsoll {

using sql::Statement;
using namespace storerows;
using namespace trendtables;

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

namespace {

// readSeriesRange on a team store: the points' range of the series index and the scenario's trend
// rows, both in their keys' order, merged here. A join on the server would be planned as a hash
// join of the whole runs table and a sort of its result spilled to disk (1,723 ms for 1M points,
// 6.4 × SQLite's); the two ordered ranges cost the server a walk of two indexes each. A trend row
// holds what names the run (its key, time, commit, image) and its tuning, in its inputs text.
StoredSeries readSeriesMerged(sql::Connection &db, const std::string &scenario, const std::string &metric,
                              const TimeRange &range, std::size_t reserve)
{
    Statement points(db, std::string(kTrendValuesSelect) + range.sql("run_time", 3) + kTrendOrder);
    points.bindText(1, scenario).bindText(2, metric);
    range.bind(points, 3);
    Statement rows(db, std::string(kTrendRowsSelect) + range.sql("run_time", 2) + kTrendOrder);
    rows.bindText(1, scenario);
    range.bind(rows, 2);
    TrendInputsById inputs(db);
    StoredSeries out;
    out.points.reserve(reserve);
    TextBlocks &text = *out.text;
    std::string tuningText;
    const nlohmann::json *tuning = nullptr;
    bool haveRow = rows.step();
    while (points.step()) {
        const TrendKey key = TrendKey::of(points);
        while (haveRow && TrendKey::of(rows) < key)
            haveRow = rows.step(); // a row of the scenario without the metric
        if (!haveRow)
            break;
        if (key < TrendKey::of(rows))
            continue; // a value without its trend row: none is written so
        const std::string_view commitBefore = out.points.empty() ? std::string_view() : out.points.back().commit;
        const std::string_view imageBefore = out.points.empty() ? std::string_view() : out.points.back().imageDigest;
        SeriesPoint &p = out.points.emplace_back();
        p.runId = rows.int64(1);
        p.runKey = text.keep(rows.textView(3));
        p.timestamp = text.keep(rows.textView(0));
        const std::string_view commit = rows.textView(4), image = rows.textView(5);
        p.commit = commit == commitBefore ? commitBefore : text.keep(commit);
        p.imageDigest = image == imageBefore ? imageBefore : text.keep(image);
        if (const std::string &json = inputs[rows.int64(8)].tuningText; !tuning || json != tuningText) {
            tuningText = json;
            tuning = out.tunings
                         ->emplace_back(std::make_unique<const nlohmann::json>(
                             parseStoredJson(tuningText, nlohmann::json::object())))
                         .get();
        }
        p.tuning = tuning;
        p.value = points.real(3);
    }
    return out;
}

// One metric's series over a part of its time span (Store::series).
StoredSeries readSeriesRange(sql::Connection &db, const std::string &scenario, const std::string &metric,
                             const TimeRange &range, std::size_t reserve)
{
    if (db.dialect() == sql::Dialect::PostgreSQL)
        return readSeriesMerged(db, scenario, metric, range, reserve);
    // One ordered range of the series index, and one seek into runs per point for what names the
    // run: the seeks follow the runs' ids, mostly in time order too, so each lands beside the one
    // before (cheaper, measured, than merging the scenario's trend rows alongside). CROSS JOIN
    // keeps the range outermost.
    Statement q(db, "SELECT r.id, r.run_key, r.timestamp, r.commit_sha, r.image_digest, "
                    "r.tuning, p.value FROM trend_points p CROSS JOIN runs r ON r.id = p.run_id "
                    "WHERE p.scenario = ?1 AND p.metric = ?2" + range.sql("p.run_time", 3) +
                    " ORDER BY p.run_time, p.run_id, p.ordinal");
    q.bindText(1, scenario).bindText(2, metric);
    range.bind(q, 3);
    StoredSeries out;
    out.points.reserve(reserve);
    TextBlocks &text = *out.text;
    // A nightly series is tuned alike for long stretches: each tuning text is parsed once, and
    // the points tuned alike share it; a commit or image the point before had is kept once.
    std::string tuningText;
    const nlohmann::json *tuning = nullptr;
    while (q.step()) {
        // The views of the point before (into the text, so they outlive the vector's growth).
        const std::string_view commitBefore = out.points.empty() ? std::string_view() : out.points.back().commit;
        const std::string_view imageBefore = out.points.empty() ? std::string_view() : out.points.back().imageDigest;
        SeriesPoint &p = out.points.emplace_back();
        p.runId = q.int64(0);
        p.runKey = text.keep(q.textView(1));
        p.timestamp = text.keep(q.textView(2));
        const std::string_view commit = q.textView(3), image = q.textView(4);
        p.commit = commit == commitBefore ? commitBefore : text.keep(commit);
        p.imageDigest = image == imageBefore ? imageBefore : text.keep(image);
        if (const std::string_view json = q.textView(5); !tuning || json != tuningText) {
            tuningText = json;
            tuning = out.tunings
                         ->emplace_back(std::make_unique<const nlohmann::json>(
                             parseStoredJson(tuningText, nlohmann::json::object())))
                         .get();
        }
        p.tuning = tuning;
        p.value = q.real(6);
    }
    return out;
}

} // namespace

StoredSeries Store::series(const std::string &scenario, const std::string &metric, std::size_t splitFrom) const
{
    // A point per run, but for a run with the scenario twice: reserved by an index seek.
    const std::size_t runs = runCountBound();
    // A long series is read in two halves of its time span at once (as forEachTrendRun is).
    const std::optional<std::string> mid =
        runs >= splitFrom ? trendMidTime(*m_db, scenario) : std::nullopt;
    StoredSeries out;
    if (!mid) {
        out = readSeriesRange(*m_db, scenario, metric, {}, runs);
    } else {
        ReadAside<StoredSeries> later(m_path, [&](const Store &other) {
            return readSeriesRange(*other.m_db, scenario, metric, {*mid, {}}, runs / 2);
        });
        out = readSeriesRange(*m_db, scenario, metric, {{}, *mid}, runs);
        StoredSeries rest = later.get();
        out.points.insert(out.points.end(), std::make_move_iterator(rest.points.begin()),
                          std::make_move_iterator(rest.points.end()));
        out.text->take(std::move(*rest.text));
        out.tunings->insert(out.tunings->end(), std::make_move_iterator(rest.tunings->begin()),
                            std::make_move_iterator(rest.tunings->end()));
    }
    if (out.points.size() < out.points.capacity() / 2)
        out.points.shrink_to_fit();
    return out;
}

std::size_t Store::runCountBound() const
{
    Statement q(*m_db, "SELECT COALESCE(MAX(id), 0) FROM runs");
    return q.step() ? std::size_t(std::max<int64_t>(q.int64(0), 0)) : 0;
}

std::vector<double> Store::seriesValues(const std::string &scenario, const std::string &metric,
                                        const std::function<bool()> &stopped) const
{
    // In the order the trend reads keep.
    Statement values(*m_db, std::string(kTrendValueOnlySelect) + kTrendOrder);
    values.bindText(1, scenario).bindText(2, metric);
    values.stopWhen(stopped);
    std::vector<double> out;
    out.reserve(runCountBound());
    for (std::size_t read = 1; values.step(); ++read) {
        out.push_back(values.real(0));
        if (stopped && read % 65536 == 0 && stopped())
            throw StoreError("the series was no longer wanted");
    }
    return out;
}

namespace {

// One metric's values of a scenario's trend rows, read beside them in the same order: at(key)
// gives the value of the row at `key`, if it measured the metric.
class ValuesBeside
{
public:
    ValuesBeside(sql::Connection &db, const std::string &scenario, const std::string &metric,
                 const TimeRange &range, const std::function<bool()> &stopped)
        : m_q(db, std::string(kTrendValuesSelect) + range.sql("run_time", 3) + kTrendOrder)
    {
        m_q.bindText(1, scenario).bindText(2, metric);
        range.bind(m_q, 3);
        m_q.stopWhen(stopped);
        next();
    }
    std::optional<double> at(const TrendKey &key)
    {
        while (m_have && m_key < key)
            next(); // a later scenario of the same name in a run, skipped by the caller
        if (!m_have || key < m_key)
            return std::nullopt;
        const double v = m_q.real(3);
        next();
        return v;
    }

private:
    void next()
    {
        m_have = m_q.step();
        if (m_have)
            m_key = TrendKey::of(m_q);
    }
    Statement m_q;
    TrendKey m_key;
    bool m_have = false;
};

// The metrics of a scenario that name an offered rate (metricroles.h), in name order: what its
// contract's offered_rate is read from (TuningContract::allSettings takes the first that is
// positive). None for nearly every scenario: one seek of scenario_metrics.
std::vector<std::string> offeredRateMetrics(sql::Connection &db, const std::string &scenario)
{
    Statement q(db, "SELECT metric FROM scenario_metrics WHERE scenario = ? ORDER BY metric");
    q.bindText(1, scenario);
    std::vector<std::string> out;
    while (q.step())
        if (std::string m = q.text(0); isOfferedRateMetric(m))
            out.push_back(std::move(m));
    return out;
}

// One time range of a scenario's trend rows, with one metric's values beside them:
// visit(row, its inputs' id) for each, in order.
void readTrendRange(sql::Connection &db, const std::string &scenario, const std::string &metric,
                    const TimeRange &range,
                    const std::function<void(TrendRunRow &row, int64_t inputsId)> &visit,
                    const std::function<bool()> &stopped)
{
    // The scenario's trend rows (storeschema.cpp, 9 -> 10) and the metric's values from the
    // series index (7 -> 8) beside them, both in the same order (run time, run, scenario
    // ordinal): merged as they are read, with no seek into scenarios, runs or metrics per run.
    Statement q(db, std::string(kTrendRowsSelect) + range.sql("run_time", 2) + kTrendOrder);
    q.bindText(1, scenario);
    range.bind(q, 2);
    q.stopWhen(stopped);
    ValuesBeside values(db, scenario, metric, range, stopped);
    // A stepped sweep's offered rate, where a metric states one: a part of each row's contract.
    std::vector<std::unique_ptr<ValuesBeside>> offered;
    for (const std::string &name : offeredRateMetrics(db, scenario))
        offered.push_back(std::make_unique<ValuesBeside>(db, scenario, name, range, stopped));
    TrendRunRow row;
    TrendInputsById inputsById(db);
    int64_t inputsId = 0;
    bool first = true;
    while (q.step()) {
        const TrendKey key = TrendKey::of(q);
        const std::optional<double> value = values.at(key);
        std::optional<double> offeredRate;
        for (const auto &o : offered)
            if (const auto v = o->at(key); v && !offeredRate && *v > 0 && std::isfinite(*v))
                offeredRate = v;
        if (!first && key.run == row.id)
            continue; // a later scenario of the same name in that run
        // What the contract is made of changes seldom: assigned only when it does.
        if (const int64_t id = q.int64(8); first || id != inputsId) {
            inputsId = id;
            const TrendInputs &inputs = inputsById[id];
            row.tool = inputs.tool;
            row.toolVersion = inputs.toolVersion;
            row.tuningText = inputs.tuningText;
            row.topology = inputs.topology;
        }
        first = false;
        row.id = key.run;
        row.runKey.assign(q.textView(3));
        row.timestamp.assign(key.time);
        row.commit.assign(q.textView(4));
        row.imageDigest.assign(q.textView(5));
        row.target.assign(q.textView(6));
        row.sample = q.int64(7) != 0;
        row.value = value;
        row.timeInferred = !q.isNull(9);
        row.offeredRate = offeredRate;
        visit(row, inputsId);
    }
}

// The rows of a later time range, read on another thread meanwhile and given to the visitor
// after the earlier range's: their text in blocks, their inputs once per id.
class HeldTrendRows
{
public:
    void hold(const TrendRunRow &row, int64_t inputsId)
    {
        if (m_inputs.empty() || m_inputs.back().first != inputsId)
            m_inputs.emplace_back(inputsId, TrendInputs{row.tool, row.toolVersion, row.tuningText, row.topology});
        m_rows.push_back({row.id, m_text.keep(row.runKey), m_text.keep(row.timestamp),
                          m_text.keep(row.commit), m_text.keep(row.imageDigest),
                          m_text.keep(row.target), m_inputs.size() - 1, row.value.value_or(0),
                          row.offeredRate.value_or(0), row.value.has_value(), row.sample, row.timeInferred});
    }

    void replay(const std::function<void(TrendRunRow &row)> &visit) const
    {
        TrendRunRow row;
        std::size_t inputs = m_inputs.size();
        for (const Held &held : m_rows) {
            if (held.inputs != inputs) {
                inputs = held.inputs;
                const TrendInputs &in = m_inputs[inputs].second;
                row.tool = in.tool;
                row.toolVersion = in.toolVersion;
                row.tuningText = in.tuningText;
                row.topology = in.topology;
            }
            row.id = held.run;
            row.runKey.assign(held.runKey);
            row.timestamp.assign(held.timestamp);
            row.commit.assign(held.commit);
            row.imageDigest.assign(held.imageDigest);
            row.target.assign(held.target);
            row.sample = held.sample;
            row.value = held.hasValue ? std::optional<double>(held.value) : std::nullopt;
            row.offeredRate = held.offeredRate > 0 ? std::optional<double>(held.offeredRate) : std::nullopt;
            row.timeInferred = held.timeInferred;
            visit(row);
        }
    }

private:
    struct Held
    {
        int64_t run;
        std::string_view runKey, timestamp, commit, imageDigest, target;
        std::size_t inputs; // into m_inputs
        double value;
        double offeredRate; // 0: none
        bool hasValue, sample, timeInferred;
    };
    TextBlocks m_text;
    std::vector<std::pair<int64_t, TrendInputs>> m_inputs; // by id, as they changed
    std::vector<Held> m_rows;
};

} // namespace

void Store::forEachTrendRun(const std::string &scenario, const std::string &metric,
                            const std::function<void(TrendRunRow &row)> &visit,
                            const std::function<bool()> &stopped, std::size_t splitFrom) const
{
    const auto visitRow = [&visit](TrendRunRow &row, int64_t) { visit(row); };
    // A long history is read in two halves of its time span at once, the later on a connection
    // and thread of its own, and visited after the earlier, in order. (A run's rows share its
    // time, so the cut never falls within a run; the order both ranges keep is the text order
    // the whole read would keep.)
    const std::optional<std::string> mid =
        runCountBound() >= splitFrom ? trendMidTime(*m_db, scenario) : std::nullopt;
    if (!mid) {
        readTrendRange(*m_db, scenario, metric, {}, visitRow, stopped);
        return;
    }
    std::atomic<bool> abandoned = false; // this thread's read ended early: the other stops too
    const auto stopLater = [&] { return abandoned.load() || (stopped && stopped()); };
    ReadAside<HeldTrendRows> later(m_path, [&](const Store &other) {
        HeldTrendRows held;
        // A file's statements do not ask `stopped` themselves: asked here every 4096 rows.
        std::size_t rows = 0;
        readTrendRange(*other.m_db, scenario, metric, {*mid, {}},
                       [&](TrendRunRow &row, int64_t inputsId) {
                           if (++rows % 4096 == 0 && stopLater())
                               throw StoreError("the series was no longer wanted");
                           held.hold(row, inputsId);
                       },
                       stopLater);
        return held;
    });
    try {
        readTrendRange(*m_db, scenario, metric, {{}, *mid}, visitRow, stopped);
    } catch (...) {
        abandoned = true;
        throw; // `later` waits for the other read to stop
    }
    later.get().replay(visit);
}

std::optional<std::string> Store::keptChangePoints(const std::string &seriesKey) const
{
    Statement q(*m_db, "SELECT state FROM change_point_states WHERE series_key = ?");
    q.bindText(1, seriesKey);
    if (!q.step())
        return std::nullopt;
    return q.blob(0);
}

bool Store::keepsChangePointsUnder(const std::string &prefix) const
{
    // The keys from `prefix` on, in key order: the first one tells. (No LIKE: a prefix may hold
    // its wildcards, and a range keeps to the index on both backends.)
    Statement q(*m_db, "SELECT series_key FROM change_point_states WHERE series_key >= ? "
                       "ORDER BY series_key LIMIT 1");
    q.bindText(1, prefix);
    return q.step() && q.textView(0).substr(0, prefix.size()) == prefix;
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
