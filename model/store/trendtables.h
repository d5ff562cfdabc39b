#pragma once
// The trend tables as the store's reads walk them (storeschema.cpp, 7 -> 8 and 9 -> 10): a trend
// row's inputs, the order both tables keep a scenario's rows in, a part of a time span, and where
// a long read is cut in two. Shared by model/store/storetrends.cpp (the trend reads) and
// model/store/storemeasured.cpp (the measured-scenario read). Internal to the store.

#include "model/core/records.h"
#include "model/store/connection.h"
#include "model/store/store.h"

#include <QDateTime>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>
#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <unordered_map>

namespace plimsoll::trendtables {

using sql::Statement;

// A trend row's inputs (storeschema.h, trendRowInserts): the run's tool, tool version and
// tuning, and the scenario's topology, as the scenarios and runs tables hold them.
struct TrendInputs
{
    std::string tool, toolVersion, tuningText;
    Topology topology;
};

inline TrendInputs parseTrendInputs(std::string_view text)
{
    TrendInputs out;
    const nlohmann::json a = nlohmann::json::parse(text, nullptr, false);
    if (!a.is_array())
        return out;
    const auto str = [&a](std::size_t i) -> std::optional<std::string> {
        if (i < a.size() && a[i].is_string())
            return a[i].get<std::string>();
        return std::nullopt;
    };
    const auto number = [&a](std::size_t i) -> std::optional<int64_t> {
        if (i < a.size() && a[i].is_number_integer())
            return a[i].get<int64_t>();
        if (i < a.size() && a[i].is_number())
            return int64_t(a[i].get<double>()); // as SQLite reads a REAL as an integer
        return std::nullopt;
    };
    out.tool = str(0).value_or("");
    out.toolVersion = str(1).value_or("");
    out.tuningText = str(2).value_or("");
    Topology &t = out.topology; // kTopologyColumns' order, from the array's fourth element
    t.brokers = number(3);
    t.shards = number(4);
    t.partitions = number(5);
    t.producers = number(6);
    t.consumers = number(7);
    t.clients = number(8);
    t.connections = number(9);
    t.threads = number(10);
    t.pipeline = number(11);
    t.recordSizeBytes = number(12);
    t.batchBytes = number(13);
    t.compression = str(14);
    t.acks = str(15);
    t.agents = number(16);
    t.replication = number(17); // appended only where stated (storeschema.cpp, 10 -> 11)
    return out;
}

// The inputs of a read's trend rows by id, each read and parsed once: a scenario's runs share a
// few (a nightly series is tuned alike for long stretches).
class TrendInputsById
{
public:
    explicit TrendInputsById(sql::Connection &db)
        : m_query(db, "SELECT inputs FROM trend_inputs WHERE id = ?1")
    {
    }
    const TrendInputs &operator[](int64_t id)
    {
        if (m_last && m_lastId == id)
            return *m_last;
        auto it = m_byId.find(id);
        if (it == m_byId.end()) {
            m_query.reset();
            m_query.bind(1, id);
            it = m_byId.emplace(id, m_query.step() ? parseTrendInputs(m_query.textView(0)) : TrendInputs{})
                     .first;
        }
        m_lastId = id;
        m_last = &it->second;
        return *m_last;
    }

private:
    Statement m_query;
    std::unordered_map<int64_t, TrendInputs> m_byId;
    int64_t m_lastId = 0;
    const TrendInputs *m_last = nullptr;
};

// The order both trend tables keep a scenario's rows in: run time, run, scenario ordinal. Views
// into the current rows: each is read again after its statement steps.
struct TrendKey
{
    std::string_view time;
    int64_t run = 0, ordinal = 0;
    bool operator<(const TrendKey &o) const
    {
        return std::tie(time, run, ordinal) < std::tie(o.time, o.run, o.ordinal);
    }
    static TrendKey of(const Statement &q) { return {q.textView(0), q.int64(1), q.int64(2)}; }
};

// A scenario's trend rows, and one metric's values of them, in that order: what both reads
// merge (trend_runs holds every row of the scenario, trend_points those measuring the metric).
inline constexpr const char *kTrendRowsSelect =
    "SELECT run_time, run_id, ordinal, run_key, commit_sha, image_digest, target, sample, inputs, "
    "time_source FROM trend_runs WHERE scenario = ?1";
inline constexpr const char *kTrendValuesSelect =
    "SELECT run_time, run_id, ordinal, value FROM trend_points WHERE scenario = ?1 AND metric = ?2";
// The metric's values alone, for a search that needs no key (a team store's server and
// connection then carry a quarter of the bytes).
inline constexpr const char *kTrendValueOnlySelect =
    "SELECT value FROM trend_points WHERE scenario = ?1 AND metric = ?2";
inline constexpr const char *kTrendOrder = " ORDER BY run_time, run_id, ordinal";

// A part of a scenario's time span, `from` ≤ run time < `until` (empty: unbounded), as a
// condition on a statement whose own parameters end before `param` (a server wants no gap).
struct TimeRange
{
    std::string from, until;

    std::string sql(const char *column, int param) const
    {
        std::string out;
        if (!from.empty())
            out += std::string(" AND ") + column + " >= ?" + std::to_string(param++);
        if (!until.empty())
            out += std::string(" AND ") + column + " < ?" + std::to_string(param);
        return out;
    }
    void bind(Statement &q, int param) const
    {
        if (!from.empty())
            q.bindText(param++, from);
        if (!until.empty())
            q.bindText(param, until);
    }
};


// Where a scenario's trend rows are cut in two for reading each half on a core of its own: the
// middle of its time span, or nothing when the span is not two readable times apart.
inline std::optional<std::string> midTime(std::string_view firstText, std::string_view lastText)
{
    const auto parse = [](std::string_view text) {
        return QDateTime::fromString(QString::fromUtf8(text.data(), qsizetype(text.size())), Qt::ISODateWithMs);
    };
    const QDateTime first = parse(firstText), last = parse(lastText);
    if (!first.isValid() || !last.isValid() || first >= last)
        return std::nullopt;
    const qint64 mid = first.toMSecsSinceEpoch() + (last.toMSecsSinceEpoch() - first.toMSecsSinceEpoch()) / 2;
    return QDateTime::fromMSecsSinceEpoch(mid, Qt::UTC).toString(Qt::ISODateWithMs).toStdString();
}

inline std::optional<std::string> trendMidTime(sql::Connection &db, const std::string &scenario)
{
    const auto end = [&](const char *order) {
        Statement q(db, std::string("SELECT run_time FROM trend_runs WHERE scenario = ?1 ORDER BY run_time ") +
                            order + " LIMIT 1");
        q.bindText(1, scenario);
        return q.step() ? q.text(0) : std::string();
    };
    return midTime(end("ASC"), end("DESC"));
}

// One half of a long read, made on a thread and a connection of its own (a Store of the same
// path): read(store) gives the half, handed over as soon as it is made. The connection closes
// after that, while the caller goes on: closing a large file's connection unmaps it, about 17 ms
// of a 1M-run store that get() need not wait for. Destroyed, it waits for the thread.
template <class T>
class ReadAside
{
public:
    template <class Read>
    ReadAside(const std::string &path, Read read)
        : m_thread([this, path, read = std::move(read)]() mutable {
              try {
                  const Store store(path);
                  if constexpr (std::is_void_v<T>) {
                      read(store);
                      m_result.set_value();
                  } else {
                      m_result.set_value(read(store));
                  }
              } catch (...) {
                  m_result.set_exception(std::current_exception());
              }
          })
    {
    }
    ReadAside(const ReadAside &) = delete;
    ReadAside &operator=(const ReadAside &) = delete;

    T get() { return m_future.get(); }

private:
    std::promise<T> m_result;
    std::future<T> m_future = m_result.get_future();
    std::jthread m_thread; // started last, joined first
};

} // namespace plimsoll::trendtables
