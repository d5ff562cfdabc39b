// The measured-scenario read (Store::forEachMeasuredScenario): every scenario measuring the
// metrics named, across every run, from the trend tables. The rest of the trend reads are in
// model/store/storetrends.cpp.
#include "model/store/store.h"

#include "model/store/connection.h"
#include "model/store/trendtables.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <memory>
#include <unordered_set>

namespace plimsoll {

using sql::Statement;
using namespace trendtables;

namespace {

// One scenario name's rows measuring every required metric, over a part of the time span, in the
// trend order (Store::forEachMeasuredScenario): the scenario's trend rows (storeschema.cpp,
// 9 -> 10) merged with each named metric's range of the series index (7 -> 8) as they are read.
class MeasuredRows
{
public:
    MeasuredRows(sql::Connection &db, const std::string &scenario, const std::vector<std::string> &metrics,
                 std::size_t required, const TimeRange &range, const std::unordered_set<int64_t> &skipped)
        : m_rows(db, std::string("SELECT run_time, run_id, ordinal, run_key, target, inputs, scenario_id "
                                 "FROM trend_runs WHERE scenario = ?1") +
                         range.sql("run_time", 2) + kTrendOrder),
          m_scenario(scenario), m_requiredMask((1u << required) - 1), m_skipped(skipped),
          m_value(metrics.size())
    {
        m_rows.bindText(1, scenario);
        range.bind(m_rows, 2);
        for (const std::string &metric : metrics) {
            Values &v = m_values.emplace_back();
            v.query = std::make_unique<Statement>(db, std::string(kTrendValuesSelect) + range.sql("run_time", 3) +
                                                          kTrendOrder);
            v.query->bindText(1, scenario).bindText(2, metric);
            range.bind(*v.query, 3);
            v.next();
        }
    }

    // To the next row measuring every required metric; false at the end.
    bool next()
    {
        while (m_rows.step()) {
            const TrendKey key = TrendKey::of(m_rows);
            uint32_t present = 0;
            for (std::size_t i = 0; i < m_values.size(); ++i) {
                Values &v = m_values[i];
                // Nearly always the same row (a run and ordinal name one scenario): no time compared.
                const bool same = v.have && v.key.run == key.run && v.key.ordinal == key.ordinal;
                while (!same && v.have && v.key < key)
                    v.next();
                if (same || (v.have && !(key < v.key))) {
                    present |= 1u << i;
                    m_value[i] = v.query->real(3);
                    v.next();
                }
            }
            if ((present & m_requiredMask) != m_requiredMask ||
                (!m_skipped.empty() && m_skipped.count(m_rows.int64(6))))
                continue;
            m_key = key;
            m_present = present;
            return true;
        }
        return false;
    }

    // The current row's key (its views are into the row: valid until next()).
    const TrendKey &key() const { return m_key; }
    const std::string &scenario() const { return m_scenario; }
    std::string_view text(int column) const { return m_rows.textView(column); } // 3 key, 4 target
    int64_t inputsId() const { return m_rows.int64(5); }
    uint32_t present() const { return m_present; }
    double value(std::size_t i) const { return m_value[i]; }

private:
    struct Values
    {
        std::unique_ptr<Statement> query;
        TrendKey key;
        bool have = false;
        void next()
        {
            have = query->step();
            if (have)
                key = TrendKey::of(*query);
        }
    };
    Statement m_rows;
    std::string m_scenario;
    uint32_t m_requiredMask;
    const std::unordered_set<int64_t> &m_skipped;
    std::vector<Values> m_values;
    std::vector<double> m_value;
    TrendKey m_key;
    uint32_t m_present = 0;
};

// Every named scenario's measured rows over one time range, in the trend order across the names
// (a merge of their ranges by run time, run and ordinal): visit(rows, inputs) for each.
void readMeasuredRange(sql::Connection &db, const std::vector<std::string> &scenarios,
                       const std::vector<std::string> &metrics, std::size_t required, const TimeRange &range,
                       const std::unordered_set<int64_t> &skipped,
                       const std::function<void(const MeasuredRows &rows, const TrendInputs &inputs)> &visit)
{
    TrendInputsById inputsById(db);
    std::vector<std::unique_ptr<MeasuredRows>> streams;
    for (const std::string &scenario : scenarios)
        if (auto s = std::make_unique<MeasuredRows>(db, scenario, metrics, required, range, skipped); s->next())
            streams.push_back(std::move(s));
    const auto later = [](const MeasuredRows *a, const MeasuredRows *b) { return b->key() < a->key(); };
    std::vector<MeasuredRows *> heap;
    for (const auto &s : streams)
        heap.push_back(s.get());
    std::make_heap(heap.begin(), heap.end(), later);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        MeasuredRows *s = heap.back();
        heap.pop_back();
        // A long series is most of the rows: it goes on while it stays the earliest.
        bool more = true;
        do {
            visit(*s, inputsById[s->inputsId()]);
            more = s->next();
        } while (more && (heap.empty() || !(heap.front()->key() < s->key())));
        if (more) {
            heap.push_back(s);
            std::push_heap(heap.begin(), heap.end(), later);
        }
    }
}

} // namespace

void Store::forEachMeasuredScenario(const std::vector<std::string> &required,
                                    const std::vector<std::string> &optional,
                                    const std::function<void(const MeasuredScenario &row, int half)> &visit,
                                    const std::string &skipKind, std::size_t splitFrom) const
{
    constexpr size_t kMaxNames = 8;
    if (required.empty() || required.size() > kMaxNames || optional.size() > kMaxNames)
        throw StoreError("internal: a measured-scenario read names 1 to 8 required metrics and up to 8 others");
    std::vector<std::string> metrics = required;
    metrics.insert(metrics.end(), optional.begin(), optional.end());
    // The scenario names measuring every required metric (scenario_metrics is kept exact).
    std::vector<std::string> scenarios;
    for (std::size_t i = 0; i < required.size(); ++i) {
        Statement q(*m_db, "SELECT scenario FROM scenario_metrics WHERE metric = ?1");
        q.bindText(1, required[i]);
        std::vector<std::string> having;
        while (q.step())
            having.push_back(q.text(0));
        std::sort(having.begin(), having.end()); // byte order (a server's collation may differ)
        if (i == 0) {
            scenarios = std::move(having);
            continue;
        }
        std::vector<std::string> both;
        std::set_intersection(scenarios.begin(), scenarios.end(), having.begin(), having.end(),
                              std::back_inserter(both));
        scenarios = std::move(both);
    }
    if (scenarios.empty())
        return;
    // The scenarios left out by their kind: few (a ramp's saturation summaries), by the kind index.
    std::unordered_set<int64_t> skipped;
    if (!skipKind.empty()) {
        Statement q(*m_db, "SELECT id FROM scenarios WHERE kind = ?1");
        q.bindText(1, skipKind);
        while (q.step())
            skipped.insert(q.int64(0));
    }
    // One time range on one connection.
    const auto readHalf = [&](sql::Connection &db, const TimeRange &range, int half) {
        MeasuredScenario row;
        double values[2 * kMaxNames];
        row.values = values;
        readMeasuredRange(db, scenarios, metrics, required.size(), range, skipped,
                          [&](const MeasuredRows &rows, const TrendInputs &inputs) {
                              row.runKey = rows.text(3);
                              row.timestamp = rows.key().time;
                              row.target = rows.text(4);
                              row.scenario = rows.scenario();
                              row.topology = &inputs.topology;
                              row.measured = rows.present();
                              for (std::size_t i = 0; i < metrics.size(); ++i)
                                  values[i] = rows.value(i);
                              visit(row, half);
                          });
    };
    // A long history is read in two halves of its time span at once (as forEachTrendRun reads),
    // each visited on its own thread.
    std::optional<std::string> mid;
    if (runCountBound() >= splitFrom) {
        Statement q(*m_db, "SELECT MIN(timestamp), MAX(timestamp) FROM runs");
        if (q.step() && !q.isNull(0))
            mid = midTime(q.textView(0), q.textView(1));
    }
    if (!mid) {
        readHalf(*m_db, {}, 0);
        return;
    }
    ReadAside<void> later(m_path, [&](const Store &other) { readHalf(*other.m_db, {*mid, {}}, 1); });
    readHalf(*m_db, {{}, *mid}, 0);
    later.get();
}

} // namespace plimsoll
