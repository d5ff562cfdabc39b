// The store keeps what an import gave, exactly; refuses what it must; migrates old stores.
#include "model/store/store.h"
#include "model/store/storeschema.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>

#include <sqlite3.h>

using namespace plimsoll;

namespace {

RunRecord makeRun(const std::string &key, const std::string &ts, double rate)
{
    RunRecord r;
    r.runKey = key;
    r.timestamp = ts;
    r.commit = "abc1234";
    r.imageDigest = "sha256:feed";
    r.tool = "korvet-pipeline-benchmark";
    r.toolVersion = "0.20.0";
    r.target = "korvet";
    r.environment = {{"nodes", "m5.2xlarge"}};
    r.tuning = {{"batch.size", 16384}, {"linger.ms", 5}};
    r.provenance = "test";
    ScenarioRecord s;
    s.name = "pipeline/produce/step-16";
    s.kind = "ramp-step";
    s.topology.brokers = 3;
    s.topology.shards = 24;
    s.topology.partitions = 96;
    s.topology.producers = 16;
    s.topology.recordSizeBytes = 700;
    s.topology.compression = "lz4";
    s.topology.acks = "1";
    s.topology.agents = 4; // a fleet ramp's step
    s.topology.inferred = {"record_size_bytes"};
    s.metrics = {{"records_per_s", rate}, {"latency_p99_s", 0.059}, {"shard_cpu_max", 0.92}};
    s.provenance = "row 16";
    r.scenarios.push_back(s);
    ScenarioRecord s2 = s;
    s2.name = "pipeline/produce/step-1";
    s2.topology.producers = 1;
    s2.topology.agents.reset();
    s2.metrics = {{"records_per_s", rate / 8}};
    r.scenarios.push_back(s2);
    return r;
}

SourceRecord makeSource(const std::string &uri, const std::string &sha)
{
    return SourceRecord{uri, "plimsoll-trend", sha, "plimsoll-trend", "1",
                        "2026-11-30T12:00:00Z", false};
}

QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

// Every test of the store runs on both backends (the PostgreSQL variant in the fixture
// "postgres"); what only a SQLite file has is tested on a file.
class StoreTest : public ::testing::TestWithParam<test::StoreBackend>
{
protected:
    test::TestStoreLocation location{GetParam()};
    std::string path() const { return location.location(); }
    bool onPostgres() const { return GetParam() == test::StoreBackend::PostgreSQL; }
};

class StoreFileTest : public ::testing::Test
{
protected:
    QTemporaryDir dir;
    std::string path() const { return dir.filePath("store.db").toStdString(); }
};

} // namespace

TEST_P(StoreTest, ImportedRunReadsBackExactly)
{
    Store store(path());
    const RunRecord run = makeRun("nightly-1", "2026-08-11T03:00:00Z", 642352);
    const auto outcome = store.importSource(makeSource("/data/a.jsonl", "s1"), {run});
    EXPECT_EQ(outcome.status, ImportOutcome::Status::Imported);
    EXPECT_EQ(outcome.runs, 1);
    EXPECT_EQ(outcome.scenarios, 2);
    EXPECT_EQ(outcome.metrics, 4);

    const auto detail = store.run("nightly-1");
    ASSERT_TRUE(detail);
    EXPECT_EQ(detail->record, run);
    EXPECT_EQ(detail->source.uri, "/data/a.jsonl");
    EXPECT_EQ(detail->summary.scenarioCount, 2);
    // By numeric id too.
    const auto byId = store.run(std::to_string(detail->summary.id));
    ASSERT_TRUE(byId);
    EXPECT_EQ(byId->summary.runKey, "nightly-1");
}

TEST_P(StoreTest, SameBytesAgainAreUnchangedAndWriteNothing)
{
    Store store(path());
    store.importSource(makeSource("/data/a.jsonl", "s1"), {makeRun("k", "2026-08-11T03:00:00Z", 1)});
    const auto again =
        store.importSource(makeSource("/elsewhere/a.jsonl", "s1"), {makeRun("k", "2026-08-11T03:00:00Z", 1)});
    EXPECT_EQ(again.status, ImportOutcome::Status::Unchanged);
    EXPECT_EQ(again.runs, 1);
    EXPECT_EQ(again.scenarios, 2);
    EXPECT_EQ(store.runCount(), 1);
}

TEST_P(StoreTest, DuplicateRunKeyFromAnotherSourceFailsAndLeavesNothing)
{
    Store store(path());
    store.importSource(makeSource("/data/a.jsonl", "s1"), {makeRun("k", "2026-08-11T03:00:00Z", 1)});
    const std::vector<RunRecord> runs = {makeRun("new", "2026-08-12T03:00:00Z", 2),
                                         makeRun("k", "2026-08-12T03:00:00Z", 3)};
    try {
        store.importSource(makeSource("/data/b.jsonl", "s2"), runs);
        FAIL() << "expected a duplicate run key error";
    } catch (const StoreError &e) {
        EXPECT_NE(std::string(e.what()).find("run key 'k'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("/data/a.jsonl"), std::string::npos) << e.what();
    }
    // The first run of the failed source was rolled back with it.
    EXPECT_EQ(store.runCount(), 1);
    EXPECT_FALSE(store.run("new"));
    EXPECT_FALSE(store.hasSourceWithSha256("s2"));
}

TEST_P(StoreTest, ChangedFileAtSameUriReplacesItsEarlierRuns)
{
    Store store(path());
    store.importSource(makeSource("/data/series.jsonl", "v1"),
                       {makeRun("night-1", "2026-08-11T03:00:00Z", 1)});
    const auto out = store.importSource(
        makeSource("/data/series.jsonl", "v2"),
        {makeRun("night-1", "2026-08-11T03:00:00Z", 1), makeRun("night-2", "2026-08-12T03:00:00Z", 2)});
    EXPECT_EQ(out.status, ImportOutcome::Status::Imported);
    ASSERT_EQ(out.notes.size(), 1u);
    EXPECT_EQ(store.runCount(), 2);
}

TEST_P(StoreTest, SeriesIsOrderedByTimeAndFiltersWork)
{
    Store store(path());
    store.importSource(makeSource("/b", "s2"), {makeRun("late", "2026-08-12T03:00:00Z", 2)});
    auto early = makeRun("early", "2026-08-11T03:00:00Z", 1);
    early.commit = "fff0000";
    store.importSource(makeSource("/a", "s1"), {early});

    const auto series = store.series("pipeline/produce/step-16", "records_per_s");
    ASSERT_EQ(series.size(), 2u);
    EXPECT_EQ(series[0].runKey, "early");
    EXPECT_DOUBLE_EQ(series[0].value, 1);
    EXPECT_EQ(series[1].runKey, "late");
    EXPECT_EQ(series[1].tuning->at("linger.ms"), 5);

    EXPECT_EQ(store.scenarioNames(),
              (std::vector<std::string>{"pipeline/produce/step-1", "pipeline/produce/step-16"}));
    EXPECT_EQ(store.metricNames("pipeline/produce/step-1"),
              std::vector<std::string>{"records_per_s"});

    RunFilter byCommit;
    byCommit.commitPrefix = "fff";
    ASSERT_EQ(store.runs(byCommit).size(), 1u);
    EXPECT_EQ(store.runs(byCommit)[0].runKey, "early");
    RunFilter since;
    since.since = "2026-08-12T00:00:00Z";
    ASSERT_EQ(store.runs(since).size(), 1u);
    EXPECT_EQ(store.runs(since)[0].runKey, "late");
    RunFilter scenario;
    scenario.scenarioContains = "consume";
    EXPECT_TRUE(store.runs(scenario).empty());
}

// The latency budget's read: only the scenarios that measured every required metric, oldest run
// first, each with what forEachRun() gives of it (identity, name, kind, topology and the named
// metrics, an absent optional one left out).
TEST_P(StoreTest, MeasuredScenariosAreThoseOfTheWholeRunsThatMeasuredThem)
{
    Store store(path());
    auto late = makeRun("late", "2026-08-12T03:00:00Z", 2);
    late.scenarios[0].metrics.push_back({"latency_p999_s", 0.081});
    late.scenarios[1].metrics.push_back({"latency_p99_s", 0.012}); // step-1 measures both now
    late.scenarios[1].kind = "saturation";
    store.importSource(makeSource("/b", "s2"), {late});
    store.importSource(makeSource("/a", "s1"), {makeRun("early", "2026-08-11T03:00:00Z", 1)});
    RunRecord none = makeRun("no-p99", "2026-08-13T03:00:00Z", 3);
    none.scenarios[0].metrics = {{"records_per_s", 3}};
    store.importSource(makeSource("/c", "s3"), {none});

    std::vector<RunRecord> measured;
    store.forEachMeasuredScenario({"records_per_s", "latency_p99_s"}, {"latency_avg_s", "latency_p999_s"},
                                  [&](const RunRecord &run) { measured.push_back(run); });
    ASSERT_EQ(measured.size(), 3u);
    EXPECT_EQ(measured[0].runKey, "early");
    EXPECT_EQ(measured[0].scenarios.size(), 1u);
    EXPECT_EQ(measured[1].runKey, "late");
    EXPECT_EQ(measured[2].runKey, "late");
    EXPECT_EQ(measured[2].scenarios[0].name, "pipeline/produce/step-1");
    EXPECT_EQ(measured[2].scenarios[0].kind, "saturation");
    // What the whole runs hold of the same scenarios, the inferred list and provenance aside.
    std::vector<std::pair<std::string, ScenarioRecord>> whole;
    store.forEachRun({}, [&](int64_t, RunRecord &&run) {
        for (ScenarioRecord s : run.scenarios)
            if (s.metric("records_per_s") && s.metric("latency_p99_s")) {
                s.topology.inferred.clear();
                std::erase_if(s.metrics, [](const MetricValue &m) { return m.name == "shard_cpu_max"; });
                whole.emplace_back(run.runKey, s);
            }
    });
    ASSERT_EQ(whole.size(), measured.size());
    for (std::size_t i = 0; i < whole.size(); ++i) {
        SCOPED_TRACE(whole[i].first + " " + whole[i].second.name);
        EXPECT_EQ(measured[i].runKey, whole[i].first);
        EXPECT_EQ(measured[i].target, "korvet");
        const ScenarioRecord &s = measured[i].scenarios[0];
        EXPECT_EQ(s.name, whole[i].second.name);
        EXPECT_EQ(s.topology, whole[i].second.topology);
        EXPECT_EQ(s.metrics, whole[i].second.metrics);
    }
    EXPECT_EQ(measured[1].scenarios[0].metric("latency_p999_s"), 0.081);
    EXPECT_FALSE(measured[0].scenarios[0].metric("latency_p999_s"));
}

// A metric's series and the trend read follow every way runs leave or change: a removed run,
// a source replaced at its uri, samples removed, and a run with the scenario twice (its first).
TEST_P(StoreTest, SeriesFollowsRemovalsAndReplacements)
{
    Store store(path());
    const auto values = [&store] {
        std::vector<std::string> out;
        for (const SeriesPoint &p : store.series("pipeline/produce/step-16", "records_per_s"))
            out.push_back(p.runKey + "=" + std::to_string(int(p.value)));
        return out;
    };
    const auto trend = [&store] {
        std::vector<std::string> out;
        store.forEachTrendRun("pipeline/produce/step-16", "latency_p99_s", [&](TrendRunRow &row) {
            out.push_back(row.runKey + (row.value ? "=" + std::to_string(*row.value) : "=none"));
        });
        return out;
    };
    RunRecord twice = makeRun("night-2", "2026-08-12T03:00:00Z", 2);
    twice.scenarios.push_back(twice.scenarios[0]);
    twice.scenarios.back().metrics = {{"records_per_s", 99}}; // the second of that name
    twice.scenarios[0].metrics = {{"records_per_s", 2}};      // no latency in the first
    store.importSource(makeSource("/data/a.jsonl", "v1"),
                       {makeRun("night-1", "2026-08-11T03:00:00Z", 1), twice,
                        makeRun("night-3", "2026-08-13T03:00:00Z", 3)});
    auto sample = makeSource("qrc:/samples/s.jsonl", "sample");
    sample.sample = true;
    store.importSource(sample, {makeRun("sample-1", "2026-08-10T03:00:00Z", 7)});
    EXPECT_EQ(values(), (std::vector<std::string>{"sample-1=7", "night-1=1", "night-2=2",
                                                  "night-2=99", "night-3=3"}));
    EXPECT_EQ(trend(), (std::vector<std::string>{"sample-1=0.059000", "night-1=0.059000",
                                                 "night-2=none", "night-3=0.059000"}));
    EXPECT_EQ(store.removeSamples(), 1);
    EXPECT_EQ(store.removeRun("night-2"), 1);
    EXPECT_EQ(values(), (std::vector<std::string>{"night-1=1", "night-3=3"}));
    store.importSource(makeSource("/data/a.jsonl", "v2"),
                       {makeRun("night-1", "2026-08-11T03:00:00Z", 10),
                        makeRun("night-4", "2026-08-14T03:00:00Z", 40)});
    EXPECT_EQ(values(), (std::vector<std::string>{"night-1=10", "night-4=40"}));
    EXPECT_EQ(trend(), (std::vector<std::string>{"night-1=0.059000", "night-4=0.059000"}));
}

TEST_P(StoreTest, SamplesAreRemovedAsAGroupAndCanComeBack)
{
    Store store(path());
    auto sampleSource = makeSource("qrc:/samples/a.jsonl", "sample-sha");
    sampleSource.sample = true;
    store.importSource(sampleSource, {makeRun("sample-1", "2026-08-11T03:00:00Z", 1)});
    store.importSource(makeSource("/mine", "mine"), {makeRun("mine", "2026-08-12T03:00:00Z", 1)});
    ASSERT_TRUE(store.run("sample-1")->summary.sample);
    EXPECT_EQ(store.removeSamples(), 1);
    EXPECT_EQ(store.runCount(), 1);
    EXPECT_TRUE(store.run("mine"));
    // The sample source is forgotten, so installing the samples again works.
    EXPECT_FALSE(store.hasSourceWithSha256("sample-sha"));
    EXPECT_EQ(store.removeRun("mine"), 1);
    EXPECT_EQ(store.runCount(), 0);
    EXPECT_EQ(store.removeRun("mine"), 0);
}

TEST_P(StoreTest, OlderSchemaMigratesForwardKeepingData)
{
    test::writeStoreAtVersion(
        location, GetParam(), 1,
        "INSERT INTO sources VALUES (1,'/old','plimsoll-trend','x','i','1','2026-01-01T00:00:00Z',0);"
        "INSERT INTO runs (id, source_id, run_key, timestamp) VALUES (1,1,'old-run','2026-01-01T00:00:00Z');");
    Store store(path());
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
    const auto run = store.run("old-run");
    ASSERT_TRUE(run);
    EXPECT_EQ(run->source.uri, "/old");
}

TEST_P(StoreTest, VersionFiveStoreKeepsItsSeriesAndSortsByScenarioCountAfterMigrating)
{
    // A store as version 5 wrote it: three runs, the newest first by id, with 2, 3 and 1
    // scenarios, each step measuring records_per_s.
    test::writeStoreAtVersion(location, GetParam(), 5,
        "INSERT INTO sources (id, uri, format, sha256, importer, importer_version, imported_at) "
            "VALUES (1,'/old','plimsoll-trend','x','i','1','2026-01-01T00:00:00Z');"
            "INSERT INTO runs (id, source_id, run_key, timestamp, target, tuning) VALUES "
            "(1,1,'night-3','2026-01-03T02:00:00Z','korvet','{\"linger.ms\":5}'),"
            "(2,1,'night-1','2026-01-01T02:00:00Z','korvet','{\"linger.ms\":5}'),"
            "(3,1,'night-2','2026-01-02T02:00:00Z','korvet','{\"linger.ms\":5}');"
            "INSERT INTO scenarios (id, run_id, ordinal, name) VALUES "
            "(1,1,0,'step-1'),(2,1,1,'step-2'),(3,2,0,'step-1'),(4,2,1,'step-2'),(5,2,2,'step-3'),"
            "(6,3,0,'step-1');"
            "INSERT INTO metrics (scenario_id, ordinal, name, value) VALUES "
            "(1,0,'records_per_s',300),(3,0,'records_per_s',100),(6,0,'records_per_s',200),"
            "(2,0,'records_per_s',30),(4,0,'records_per_s',10),(5,0,'records_per_s',1);");
    Store store(path());
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);

    // The series reads in time order, whatever the ids.
    const auto series = store.series("step-1", "records_per_s");
    ASSERT_EQ(series.size(), 3u);
    EXPECT_EQ(series[0].runKey, "night-1");
    EXPECT_EQ(series[1].runKey, "night-2");
    EXPECT_EQ(series[2].runKey, "night-3");
    EXPECT_EQ(series[2].value, 300);
    EXPECT_EQ(series[0].tuning->at("linger.ms"), 5);
    std::vector<std::string> trend;
    store.forEachTrendRun("step-2", "records_per_s", [&](TrendRunRow &row) {
        trend.push_back(row.runKey + "=" + (row.value ? std::to_string(int(*row.value)) : "none"));
    });
    EXPECT_EQ(trend, (std::vector<std::string>{"night-1=10", "night-3=30"}));
    EXPECT_EQ(store.metricNames("step-3"), std::vector<std::string>{"records_per_s"});

    // Each run counts its scenarios, and the Library's page by that count comes in its order.
    RunPage byScenarios;
    byScenarios.order = RunPage::Order::Scenarios;
    byScenarios.descending = true;
    std::vector<std::string> keys;
    std::vector<int64_t> counts;
    for (const RunSummary &r : store.runs({}, byScenarios)) {
        keys.push_back(r.runKey);
        counts.push_back(r.scenarioCount);
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"night-1", "night-3", "night-2"}));
    EXPECT_EQ(counts, (std::vector<int64_t>{3, 2, 1}));

    // Runs imported after the migration read along with the migrated ones.
    RunRecord later = makeRun("night-4", "2026-01-04T02:00:00Z", 400);
    later.scenarios[0].name = "step-1";
    store.importSource(makeSource("/new", "s4"), {later});
    const auto grown = store.series("step-1", "records_per_s");
    ASSERT_EQ(grown.size(), 4u);
    EXPECT_EQ(grown.back().runKey, "night-4");
    EXPECT_EQ(store.runs({}, byScenarios).front().runKey, "night-1");
    EXPECT_EQ(store.run("night-4")->summary.scenarioCount, 2);
}

// A store as version 6 or 7 wrote it (before the series index): three runs out of time order
// by id, 'step-1' twice in one run, 'step-2' without records_per_s in one run, and a ramp run
// ('ramp/…' scenarios, two of them).
void writeStoreBeforeSeriesIndex(test::TestStoreLocation &location, test::StoreBackend backend,
                                 int version)
{
    test::writeStoreAtVersion(location, backend, version,
        "INSERT INTO sources (id, uri, format, sha256, importer, importer_version, imported_at) "
            "VALUES (1,'/old','plimsoll-trend','x','i','1','2026-01-01T00:00:00Z');"
            "INSERT INTO runs (id, source_id, run_key, timestamp, target, tuning, scenario_count) VALUES "
            "(1,1,'night-3','2026-01-03T02:00:00Z','korvet','{\"linger.ms\":5}',2),"
            "(2,1,'night-1','2026-01-01T02:00:00Z','korvet','{\"linger.ms\":5}',3),"
            "(3,1,'night-2','2026-01-02T02:00:00Z','korvet','{\"linger.ms\":5}',2),"
            "(4,1,'ramp-1','2026-01-01T12:00:00Z','korvet','{}',2);"
            "INSERT INTO scenarios (id, run_id, ordinal, name, kind, brokers, run_time) VALUES "
            "(1,1,0,'step-1','ramp-step',3,'2026-01-03T02:00:00Z'),"
            "(2,1,1,'step-2','ramp-step',3,'2026-01-03T02:00:00Z'),"
            "(3,2,0,'step-1','ramp-step',3,'2026-01-01T02:00:00Z'),"
            "(4,2,1,'step-2','ramp-step',3,'2026-01-01T02:00:00Z'),"
            "(5,2,2,'step-1','ramp-step',3,'2026-01-01T02:00:00Z'),"
            "(6,3,0,'step-1','ramp-step',3,'2026-01-02T02:00:00Z'),"
            "(7,3,1,'step-2','ramp-step',3,'2026-01-02T02:00:00Z'),"
            "(8,4,0,'ramp/step-1','ramp-step',3,'2026-01-01T12:00:00Z'),"
            "(9,4,1,'ramp/step-2','ramp-step',3,'2026-01-01T12:00:00Z');"
            "INSERT INTO metrics (scenario_id, ordinal, name, value) VALUES "
            "(1,0,'records_per_s',300),(3,0,'records_per_s',100),(5,0,'records_per_s',101),"
            "(6,0,'records_per_s',200),(2,0,'records_per_s',30),(4,0,'records_per_s',10),"
            "(7,0,'latency_p99_s',0.5),(8,0,'records_per_s',1000),(9,0,'records_per_s',1900);"
            "INSERT INTO scenario_metrics (scenario, metric) VALUES "
            "('step-1','records_per_s'),('step-2','records_per_s'),('step-2','latency_p99_s'),"
            "('ramp/step-1','records_per_s'),('ramp/step-2','records_per_s');");
}

void expectSeriesIndexAfterMigrating(Store &store, const test::TestStoreLocation &location)
{
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
    // Every metric value of every scenario is in the series index.
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_points"), 9);

    const auto values = [&store](const std::string &scenario) {
        std::vector<std::string> out;
        for (const SeriesPoint &p : store.series(scenario, "records_per_s"))
            out.push_back(p.runKey + "=" + std::to_string(int(p.value)));
        return out;
    };
    // In time order whatever the ids; a run with the scenario twice gives both, in its order.
    EXPECT_EQ(values("step-1"),
              (std::vector<std::string>{"night-1=100", "night-1=101", "night-2=200", "night-3=300"}));
    EXPECT_EQ(store.series("step-1", "records_per_s").front().tuning->at("linger.ms"), 5);
    // The trend read visits every run of the scenario, those without the metric too (its first
    // scenario of that name only).
    std::vector<std::string> trend;
    store.forEachTrendRun("step-2", "records_per_s", [&](TrendRunRow &row) {
        trend.push_back(row.runKey + "=" + (row.value ? std::to_string(int(*row.value)) : "none"));
    });
    EXPECT_EQ(trend, (std::vector<std::string>{"night-1=10", "night-2=none", "night-3=30"}));
    EXPECT_EQ(store.scenarioNames(),
              (std::vector<std::string>{"ramp/step-1", "ramp/step-2", "step-1", "step-2"}));
    EXPECT_EQ(store.rampRunKeys(), std::vector<std::string>{"ramp-1"});

    // Runs imported after the migration go into the index; a removed run leaves it.
    RunRecord later = makeRun("night-4", "2026-01-04T02:00:00Z", 400);
    later.scenarios[0].name = "step-1";
    store.importSource(makeSource("/new", "s4"), {later});
    EXPECT_EQ(values("step-1").back(), "night-4=400");
    EXPECT_EQ(store.removeRun("night-1"), 1);
    EXPECT_EQ(values("step-1"), (std::vector<std::string>{"night-2=200", "night-3=300", "night-4=400"}));
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_points"), 9 - 3 + 4);
}

TEST_P(StoreTest, VersionSixStoreGetsTheSeriesIndexWhenMigrated)
{
    writeStoreBeforeSeriesIndex(location, GetParam(), 6);
    Store store(path());
    expectSeriesIndexAfterMigrating(store, location);
}

TEST_P(StoreTest, VersionSevenStoreGetsTheSeriesIndexWhenMigrated)
{
    writeStoreBeforeSeriesIndex(location, GetParam(), 7);
    Store store(path());
    expectSeriesIndexAfterMigrating(store, location);
}

// A store from before the agents factor: its scenarios keep what they had, without agents, and
// a fleet ramp's steps imported after the migration keep theirs.
TEST_P(StoreTest, VersionEightStoreGainsTheAgentsFactorWhenMigrated)
{
    test::writeStoreAtVersion(
        location, GetParam(), 8,
        "INSERT INTO sources (id, uri, format, sha256, importer, importer_version, imported_at) "
        "VALUES (1,'/old','plimsoll-trend','x','i','1','2026-01-01T00:00:00Z');"
        "INSERT INTO runs (id, source_id, run_key, timestamp, scenario_count) "
        "VALUES (1,1,'old-run','2026-01-01T00:00:00Z',1);"
        "INSERT INTO scenarios (id, run_id, ordinal, name, producers, run_time) "
        "VALUES (1,1,0,'bench/ramp/step-2',2,'2026-01-01T00:00:00Z');");
    Store store(path());
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
    const auto old = store.run("old-run");
    ASSERT_TRUE(old);
    ASSERT_EQ(old->record.scenarios.size(), 1u);
    EXPECT_EQ(old->record.scenarios[0].topology.producers, 2);
    EXPECT_FALSE(old->record.scenarios[0].topology.agents.has_value());
    const RunRecord fleet = makeRun("fleet-ramp", "2026-08-11T03:00:00Z", 1000);
    store.importSource(makeSource("/data/fleet.jsonl", "s-fleet"), {fleet});
    const auto back = store.run("fleet-ramp");
    ASSERT_TRUE(back);
    EXPECT_EQ(back->record.scenarios[0].topology.agents, 4);
    EXPECT_EQ(back->record, fleet);
}

// A store from before the trend rows (version 9): a scenario's runs out of time order by id,
// stated as makeRun() states its step-1 (tool, tuning, topology in part), one of them with an
// older tool and the scenario twice, and a sample run stating almost nothing. After the migration
// the trend read gives each run what the run itself holds; a run imported afterwards with the same
// inputs shares them, and a removed run's trend row goes with it.
TEST_P(StoreTest, VersionNineStoreGetsTheTrendRowsWhenMigrated)
{
    test::writeStoreAtVersion(
        location, GetParam(), 9,
        "INSERT INTO sources (id, uri, format, sha256, importer, importer_version, imported_at) "
        "VALUES (1,'/old','plimsoll-trend','x','i','1','2026-01-01T00:00:00Z');"
        "INSERT INTO runs (id, source_id, run_key, timestamp, commit_sha, image_digest, tool, "
        "tool_version, target, tuning, sample, scenario_count) VALUES "
        "(1,1,'night-2','2026-01-02T02:00:00Z','c2',NULL,'korvet-pipeline-benchmark','0.20.0','korvet',"
        "'{\"batch.size\":16384,\"linger.ms\":5}',0,1),"
        "(2,1,'night-1','2026-01-01T02:00:00Z','c1','sha256:aa','korvet-pipeline-benchmark','0.19.0',"
        "'korvet','{\"batch.size\":16384,\"linger.ms\":5}',0,2),"
        "(3,1,'sample-3','2026-01-03T02:00:00Z',NULL,NULL,NULL,NULL,NULL,'{}',1,1);"
        "INSERT INTO scenarios (id, run_id, ordinal, name, brokers, shards, partitions, producers, "
        "record_size_bytes, compression, acks, agents, run_time) VALUES "
        "(1,1,0,'pipeline/produce/step-1',3,24,96,1,700,'lz4','1',NULL,'2026-01-02T02:00:00Z'),"
        "(2,2,0,'pipeline/produce/step-1',3,24,96,1,700,'lz4','1',NULL,'2026-01-01T02:00:00Z'),"
        "(3,2,1,'pipeline/produce/step-1',3,24,96,2,700,'lz4','1',NULL,'2026-01-01T02:00:00Z'),"
        "(4,3,0,'pipeline/produce/step-1',NULL,NULL,NULL,NULL,NULL,NULL,NULL,2,'2026-01-03T02:00:00Z');"
        "INSERT INTO metrics (scenario_id, ordinal, name, value) VALUES "
        "(1,0,'records_per_s',200),(2,0,'records_per_s',100),(3,0,'records_per_s',101);"
        "INSERT INTO trend_points (scenario, metric, run_time, run_id, ordinal, scenario_id, value) VALUES "
        "('pipeline/produce/step-1','records_per_s','2026-01-02T02:00:00Z',1,0,1,200),"
        "('pipeline/produce/step-1','records_per_s','2026-01-01T02:00:00Z',2,0,2,100),"
        "('pipeline/produce/step-1','records_per_s','2026-01-01T02:00:00Z',2,1,3,101);"
        "INSERT INTO scenario_metrics (scenario, metric) VALUES ('pipeline/produce/step-1','records_per_s');");
    Store store(path());
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
    const auto trend = [&store] {
        std::vector<TrendRunRow> rows;
        store.forEachTrendRun("pipeline/produce/step-1", "records_per_s",
                              [&](TrendRunRow &row) { rows.push_back(row); });
        return rows;
    };
    const std::vector<TrendRunRow> rows = trend();
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].runKey, "night-1");
    EXPECT_EQ(rows[0].timestamp, "2026-01-01T02:00:00Z");
    EXPECT_EQ(rows[0].commit, "c1");
    EXPECT_EQ(rows[0].imageDigest, "sha256:aa");
    EXPECT_EQ(rows[0].toolVersion, "0.19.0");
    EXPECT_EQ(rows[0].topology.producers, 1); // its first scenario of the name
    EXPECT_EQ(rows[0].value, 100);
    EXPECT_EQ(rows[1].runKey, "night-2");
    EXPECT_EQ(rows[1].imageDigest, "");
    EXPECT_EQ(rows[1].value, 200);
    EXPECT_EQ(rows[2].runKey, "sample-3");
    EXPECT_TRUE(rows[2].sample);
    EXPECT_FALSE(rows[2].value);
    EXPECT_EQ(rows[2].tool, "");
    EXPECT_EQ(rows[2].tuningText, "{}");
    EXPECT_EQ(rows[2].topology.agents, 2);
    EXPECT_FALSE(rows[2].topology.brokers);
    EXPECT_FALSE(rows[2].topology.compression);
    // Each row as the run itself reads: its identity, tool, tuning and its scenario's topology.
    for (const TrendRunRow &row : rows) {
        const auto run = store.run(row.runKey);
        ASSERT_TRUE(run);
        EXPECT_EQ(row.id, run->summary.id);
        EXPECT_EQ(row.target, run->record.target);
        EXPECT_EQ(row.tool, run->record.tool);
        EXPECT_EQ(row.toolVersion, run->record.toolVersion);
        EXPECT_EQ(nlohmann::json::parse(row.tuningText), run->record.tuning);
        Topology topology = run->record.scenarios.front().topology;
        topology.inferred.clear();
        EXPECT_EQ(row.topology, topology) << row.runKey;
    }
    // night-2 and night-1's second scenario differ from night-1's first in one thing each.
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_inputs"), 4);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_runs"), 4);

    // makeRun's step-1 states what night-2's does: imported now, it shares night-2's inputs.
    store.importSource(makeSource("/new", "s4"), {makeRun("night-4", "2026-01-04T02:00:00Z", 400)});
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_inputs"), 4 + 1); // its step-16 is new
    const std::vector<TrendRunRow> grown = trend();
    ASSERT_EQ(grown.size(), 4u);
    EXPECT_EQ(grown.back().runKey, "night-4");
    EXPECT_EQ(grown.back().value, 50);
    EXPECT_EQ(grown.back().tuningText, rows[1].tuningText);
    EXPECT_EQ(grown.back().topology, rows[1].topology);
    EXPECT_EQ(store.series("pipeline/produce/step-1", "records_per_s").size(), 4u);

    EXPECT_EQ(store.removeRun("night-1"), 1);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_runs"), 4 + 2 - 2);
    EXPECT_EQ(trend().front().runKey, "night-2");
}

TEST_P(StoreTest, ScenariosStreamedIntoARunAreCounted)
{
    Store store(path());
    auto writer = store.beginSource(makeSource("/stream", "s1"));
    RunRecord run = makeRun("streamed", "2026-08-11T03:00:00Z", 1);
    std::vector<ScenarioRecord> rest = {run.scenarios[1]};
    run.scenarios.pop_back();
    writer->put(run);
    rest[0].name = "pipeline/produce/step-4";
    writer->append("streamed", rest);
    writer->commit();
    const auto summary = store.runs().front();
    EXPECT_EQ(summary.scenarioCount, 2);
    EXPECT_EQ(store.run("streamed")->record.scenarios.size(), 2u);
    // The appended scenario reads in the series of its name too.
    EXPECT_EQ(store.series("pipeline/produce/step-4", "records_per_s").size(), 1u);
}

TEST_P(StoreTest, MetricNamesFollowTheRunsThatMeasureThem)
{
    Store store(path());
    RunRecord a = makeRun("a", "2026-08-11T03:00:00Z", 1);
    RunRecord b = makeRun("b", "2026-08-12T03:00:00Z", 2);
    b.scenarios[0].metrics.push_back({"e2e_p99_s", 0.2}); // only b measured it
    store.importSource(makeSource("/a", "s1"), {a});
    store.importSource(makeSource("/b", "s2"), {b});
    const std::string scenario = "pipeline/produce/step-16";
    EXPECT_EQ(store.metricNames(scenario),
              (std::vector<std::string>{"e2e_p99_s", "latency_p99_s", "records_per_s", "shard_cpu_max"}));
    EXPECT_EQ(store.removeRun("b"), 1);
    EXPECT_EQ(store.metricNames(scenario),
              (std::vector<std::string>{"latency_p99_s", "records_per_s", "shard_cpu_max"}));

    // A changed file at the same place: what it no longer measures is no longer offered.
    RunRecord a2 = makeRun("a", "2026-08-11T03:00:00Z", 1);
    a2.scenarios[0].metrics = {{"records_per_s", 1}};
    store.importSource(makeSource("/a", "s1-changed"), {a2});
    EXPECT_EQ(store.metricNames(scenario), std::vector<std::string>{"records_per_s"});
    EXPECT_EQ(store.removeSamples(), 0);
    EXPECT_EQ(store.metricNames("pipeline/produce/step-1"), std::vector<std::string>{"records_per_s"});
    EXPECT_EQ(store.removeRun("a"), 1);
    EXPECT_TRUE(store.metricNames(scenario).empty());
}

TEST_P(StoreTest, NewerSchemaIsRefusedAndLeftUntouched)
{
    {
        Store store(path());
        store.importSource(makeSource("/a", "s1"), {makeRun("k", "2026-08-11T03:00:00Z", 1)});
    }
    if (onPostgres()) {
        location.exec("UPDATE plimsoll_schema SET version = 99");
    } else {
        sqlite3 *db = nullptr;
        ASSERT_EQ(sqlite3_open(path().c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, "PRAGMA journal_mode=DELETE; PRAGMA user_version=99", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    // A file is compared byte for byte; a team store by its version and rows (below).
    const QByteArray before = onPostgres() ? QByteArray() : fileHash(QString::fromStdString(path()));
    const char *tables = "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()";
    const int64_t tablesBefore = onPostgres() ? location.queryInt(tables) : 0;
    try {
        Store store(path());
        FAIL() << "a newer store must be refused";
    } catch (const StoreError &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("newer"), std::string::npos) << what;
        EXPECT_NE(what.find("schema version 99"), std::string::npos) << what;
        EXPECT_NE(what.find(path()), std::string::npos) << what;
    }
    if (!onPostgres()) {
        EXPECT_EQ(fileHash(QString::fromStdString(path())), before);
        return;
    }
    // Untouched: the version stays 99 and the run is there (a failed check would throw).
    EXPECT_EQ(location.queryInt("SELECT version FROM plimsoll_schema"), 99);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM runs"), 1);
    EXPECT_EQ(location.queryInt(tables), tablesBefore);
    EXPECT_GE(tablesBefore, 10) << "every table of the schema, none dropped";
}

TEST_F(StoreFileTest, ForeignFilesAreRefusedClearly)
{
    const QString text = dir.filePath("notes.txt");
    QFile f(text);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(4096, 'x'));
    f.close();
    EXPECT_THROW(
        {
            try {
                Store s(text.toStdString());
            } catch (const StoreError &e) {
                EXPECT_NE(std::string(e.what()).find("not a Plimsoll store"), std::string::npos)
                    << e.what();
                throw;
            }
        },
        StoreError);

    const std::string other = dir.filePath("other.db").toStdString();
    sqlite3 *db = nullptr;
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t(x)", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    EXPECT_THROW(Store s(other), StoreError);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreTest,
                         ::testing::Values(test::StoreBackend::SQLite, test::StoreBackend::PostgreSQL),
                         test::backendName);
