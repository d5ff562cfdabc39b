// The store's reads for views over years of history: pages of runs that continue each other in
// every order the Library sorts by, one pass over every run giving what run() gives, the runs
// with ramps, and the model inputs read from only the runs that carry them.
#include "model/scaling/ramppoints.h"
#include "model/sizing/budgetrequest.h"
#include "model/sizing/sizing.h"
#include "model/sizing/sizingmodels.h"
#include "model/store/store.h"
#include "sampleruns.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <algorithm>
#include <tuple>

using namespace plimsoll;

namespace {

RunRecord run(const std::string &key, const std::string &ts, const std::string &tool,
              const std::string &commit, int steps)
{
    RunRecord r;
    r.runKey = key;
    r.timestamp = ts;
    r.commit = commit;
    r.tool = tool;
    r.toolVersion = tool.empty() ? "" : "1.2";
    r.target = key.size() % 2 ? "korvet" : "Kafka";
    r.tuning = {{"linger.ms", 5}};
    r.environment = {{"redis", "3 nodes"}};
    for (int i = 1; i <= steps; ++i) {
        ScenarioRecord s;
        s.name = "ramp/produce/step-" + std::to_string(i);
        s.kind = "ramp-step";
        s.topology.producers = i;
        s.topology.compression = "lz4";
        s.metrics = {{"records_per_s", 1000.0 * i}, {"latency_p99_s", 0.001 * i}};
        r.scenarios.push_back(s);
    }
    return r;
}

class StoreReads : public ::testing::TestWithParam<test::StoreBackend>
{
protected:
    void SetUp() override
    {
        m_store = std::make_unique<Store>(m_location.location());
        // Ties on purpose: two runs share a time, three a tool, two have no commit.
        m_store->importSource({"/a", "plimsoll-trend", "sha-a", "test", "1", "2026-01-01T00:00:00Z", false},
                              {run("n-04", "2026-09-04T02:00:00Z", "korvet-bench", "c0ffee", 3),
                               run("N-01", "2026-09-01T02:00:00Z", "Omb", "", 1),
                               run("n-07", "2026-09-07T02:00:00Z", "korvet-bench", "beef", 0),
                               run("n-02", "2026-09-04T02:00:00Z", "", "ABC", 2),
                               run("n-05", "2026-09-05T02:00:00Z", "korvet-bench", "", 4),
                               run("n-03", "2026-09-03T02:00:00Z", "omb", "abd", 1),
                               run("n-06", "2026-09-06T02:00:00Z", "ycsb", "c0ffee2", 2)});
    }

    test::TestStoreLocation m_location{GetParam()};
    std::unique_ptr<Store> m_store;
};

std::vector<std::string> keysOf(const std::vector<RunSummary> &runs)
{
    std::vector<std::string> keys;
    for (const RunSummary &r : runs)
        keys.push_back(r.runKey);
    return keys;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

} // namespace

TEST_P(StoreReads, PagesContinueEachOtherInEveryOrder)
{
    const std::vector<RunSummary> all = m_store->runs();
    ASSERT_EQ(all.size(), 7u);
    using Key = std::tuple<std::string, int64_t, int64_t>; // text key, number key, id
    const std::vector<std::pair<RunPage::Order, std::function<Key(const RunSummary &)>>> orders = {
        {RunPage::Order::Time, [](const RunSummary &r) { return Key{r.timestamp, 0, r.id}; }},
        {RunPage::Order::RunKey, [](const RunSummary &r) { return Key{lower(r.runKey), 0, r.id}; }},
        {RunPage::Order::Tool,
         [](const RunSummary &r) { return Key{lower(r.tool + " " + r.toolVersion), 0, r.id}; }},
        {RunPage::Order::Target, [](const RunSummary &r) { return Key{lower(r.target), 0, r.id}; }},
        {RunPage::Order::Commit, [](const RunSummary &r) { return Key{lower(r.commit), 0, r.id}; }},
        {RunPage::Order::Scenarios, [](const RunSummary &r) { return Key{"", r.scenarioCount, r.id}; }},
        {RunPage::Order::Sample, [](const RunSummary &r) { return Key{"", r.sample, r.id}; }},
    };
    for (const auto &[order, key] : orders) {
        for (const bool descending : {false, true}) {
            std::vector<RunSummary> expected = all;
            std::sort(expected.begin(), expected.end(), [&, &key = key](const RunSummary &a, const RunSummary &b) {
                return descending ? key(b) < key(a) : key(a) < key(b);
            });
            // Pages of three, each starting after the last run of the one before.
            RunPage page;
            page.order = order;
            page.descending = descending;
            page.limit = 3;
            std::vector<RunSummary> read;
            for (int pages = 0; pages < 5; ++pages) {
                const std::vector<RunSummary> next = m_store->runs({}, page);
                read.insert(read.end(), next.begin(), next.end());
                if (static_cast<int64_t>(next.size()) < page.limit)
                    break;
                page.after = next.back();
            }
            EXPECT_EQ(keysOf(read), keysOf(expected))
                << "order " << int(order) << (descending ? " descending" : " ascending");
        }
    }
    // A page keeps the filter: only runs with a step 3 (n-04, n-05), newest first.
    RunFilter steps;
    steps.scenarioContains = "step-3";
    RunPage newest;
    newest.descending = true;
    newest.limit = 1;
    const auto first = m_store->runs(steps, newest);
    ASSERT_EQ(keysOf(first), std::vector<std::string>{"n-05"});
    newest.after = first.back();
    EXPECT_EQ(keysOf(m_store->runs(steps, newest)), std::vector<std::string>{"n-04"});
    newest.after = m_store->runs(steps, newest).back();
    EXPECT_TRUE(m_store->runs(steps, newest).empty());
}

TEST_P(StoreReads, OnePassGivesWhatRunGivesInTimeOrder)
{
    std::vector<std::string> visited;
    m_store->forEachRun({}, [&](int64_t id, RunRecord &&r) {
        const auto detail = m_store->run(r.runKey);
        ASSERT_TRUE(detail);
        EXPECT_EQ(id, detail->summary.id);
        EXPECT_EQ(r, detail->record) << r.runKey; // no per-window series in these runs
        EXPECT_EQ(r.environment, detail->record.environment);
        visited.push_back(r.runKey);
    });
    EXPECT_EQ(visited, keysOf(m_store->runs())); // oldest first, ties by id, runs without scenarios too

    // One scenario of each run that has it.
    RunRecordFilter only;
    only.onlyScenario = "ramp/produce/step-2";
    visited.clear();
    m_store->forEachRun(only, [&](int64_t, RunRecord &&r) {
        ASSERT_EQ(r.scenarios.size(), 1u);
        EXPECT_EQ(r.scenarios[0].name, "ramp/produce/step-2");
        EXPECT_EQ(r.scenarios[0].metrics.size(), 2u);
        EXPECT_EQ(r.scenarios[0].topology.compression, "lz4");
        visited.push_back(r.runKey);
    });
    EXPECT_EQ(visited, (std::vector<std::string>{"n-04", "n-02", "n-05", "n-06"})); // a tie: by id

    // By kind or metric: nothing is a probe; every run with a scenario measures p99.
    RunRecordFilter kinds;
    kinds.scenarioKinds = {"probe"};
    int count = 0;
    m_store->forEachRun(kinds, [&](int64_t, RunRecord &&) { ++count; });
    EXPECT_EQ(count, 0);
    kinds.metrics = {"latency_p99_s"};
    m_store->forEachRun(kinds, [&](int64_t, RunRecord &&) { ++count; });
    EXPECT_EQ(count, 6);
}

TEST_P(StoreReads, RampRunsHaveTwoStepsOfOneFamily)
{
    RunRecord mixed = run("mixed", "2026-09-08T02:00:00Z", "t", "", 1);
    mixed.scenarios.push_back(mixed.scenarios[0]);
    mixed.scenarios[1].name = "other/step-2"; // two scenarios, two families: no ramp
    m_store->importSource({"/b", "plimsoll-trend", "sha-b", "test", "1", "2026-01-01T00:00:00Z", false}, {mixed});
    EXPECT_EQ(m_store->rampRunKeys(), (std::vector<std::string>{"n-04", "n-02", "n-05", "n-06"}));
}

class StoreModelReads : public ::testing::TestWithParam<test::StoreBackend>
{
};

TEST_P(StoreModelReads, SizingAndLatencyFromTheirRunsEqualThoseFromEveryRun)
{
    test::TestStoreLocation location(GetParam());
    Store store(location.location());
    store.importSource({"samples", "plimsoll-trend", "sha-s", "test", "1", "2026-01-01T00:00:00Z", true},
                       test::sampleRuns());
    // A Redis benchmark states no broker or shard count, no ramp step, memory or Flex check.
    RunRecord redis;
    redis.runKey = "redis-benchmark:set";
    redis.timestamp = "2026-02-01T00:00:00Z";
    redis.tool = "redis-benchmark";
    ScenarioRecord set;
    set.name = "SET";
    set.kind = "benchmark";
    set.topology.connections = 50;
    set.metrics = {{"records_per_s", 150000}, {"latency_p99_s", 0.0008}};
    redis.scenarios.push_back(set);
    store.importSource({"redis.csv", "redis-benchmark-csv", "sha-r", "test", "1", "2026-02-01T00:00:00Z", false},
                       {redis});
    const std::vector<RunRecord> every = readRunRecords(store);
    const std::vector<RunRecord> sizing = readSizingRuns(store);
    ASSERT_LT(sizing.size(), every.size()); // that run carries nothing the models learn from
    ASSERT_FALSE(sizing.empty());
    const Sizer fromEvery(fitSizingModels(every)), fromSizing(fitSizingModels(sizing));
    for (const double rate : {150e3, 600e3, 2e6}) {
        SizingInputs in;
        in.rate = rate;
        const SizingResult a = fromEvery.size(in), b = fromSizing.size(in);
        EXPECT_EQ(a.ok, b.ok);
        EXPECT_EQ(a.brokers, b.brokers);
        EXPECT_EQ(a.shards, b.shards);
        EXPECT_EQ(a.partitions, b.partitions);
        EXPECT_EQ(a.bottleneck, b.bottleneck);
        ASSERT_EQ(a.lines.size(), b.lines.size());
        for (size_t i = 0; i < a.lines.size(); ++i)
        {
            EXPECT_EQ(a.lines[i].value, b.lines[i].value) << a.lines[i].key;
            EXPECT_EQ(a.lines[i].reasoning, b.lines[i].reasoning) << a.lines[i].key;
        }
    }
    std::vector<LatencyPointOrigin> originsEvery, originsRead;
    const auto pointsEvery = latencyPoints(every, &originsEvery);
    const auto pointsRead = readLatencyPoints(store, &originsRead);
    ASSERT_EQ(pointsRead.size(), pointsEvery.size());
    ASSERT_FALSE(pointsRead.empty());
    for (size_t i = 0; i < pointsRead.size(); ++i) {
        EXPECT_EQ(originsRead[i].runKey, originsEvery[i].runKey);
        EXPECT_EQ(originsRead[i].scenario, originsEvery[i].scenario);
        EXPECT_EQ(pointsRead[i].product, pointsEvery[i].product);
        EXPECT_EQ(pointsRead[i].configuration, pointsEvery[i].configuration);
        EXPECT_EQ(pointsRead[i].connections, pointsEvery[i].connections);
        EXPECT_EQ(pointsRead[i].throughput, pointsEvery[i].throughput);
        EXPECT_EQ(pointsRead[i].p99, pointsEvery[i].p99);
    }
    // The view's read, which names no point's run: the same points, no origins.
    const BudgetPoints unnamed = readBudgetPoints(store, {}, PointOrigins::Left);
    EXPECT_TRUE(unnamed.origins.empty());
    ASSERT_EQ(unnamed.points.size(), pointsEvery.size());
    for (size_t i = 0; i < unnamed.points.size(); ++i)
        EXPECT_EQ(unnamed.points[i].throughput, pointsEvery[i].throughput);
    EXPECT_EQ(readBudgetPoints(store).origins.size(), pointsEvery.size());
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreReads,
                         ::testing::Values(test::StoreBackend::SQLite, test::StoreBackend::PostgreSQL),
                         test::backendName);
INSTANTIATE_TEST_SUITE_P(Backends, StoreModelReads,
                         ::testing::Values(test::StoreBackend::SQLite, test::StoreBackend::PostgreSQL),
                         test::backendName);
