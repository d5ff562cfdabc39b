// An older store opened is migrated forward keeping its data, on both backends: each version's
// additions are filled from what the store held, and runs imported afterwards read along with them.
#include "model/store/store.h"
#include "storetestsupport.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::storetest;

namespace {

class StoreMigrationTest : public StoreTest
{
};

} // namespace

TEST_P(StoreMigrationTest, OlderSchemaMigratesForwardKeepingData)
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

TEST_P(StoreMigrationTest, VersionFiveStoreKeepsItsSeriesAndSortsByScenarioCountAfterMigrating)
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
namespace {

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
            out.push_back(std::string(p.runKey) + "=" + std::to_string(int(p.value)));
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

} // namespace

TEST_P(StoreMigrationTest, VersionSixStoreGetsTheSeriesIndexWhenMigrated)
{
    writeStoreBeforeSeriesIndex(location, GetParam(), 6);
    Store store(path());
    expectSeriesIndexAfterMigrating(store, location);
}

TEST_P(StoreMigrationTest, VersionSevenStoreGetsTheSeriesIndexWhenMigrated)
{
    writeStoreBeforeSeriesIndex(location, GetParam(), 7);
    Store store(path());
    expectSeriesIndexAfterMigrating(store, location);
}

// A store from before the agents factor: its scenarios keep what they had, without agents, and
// a fleet ramp's steps imported after the migration keep theirs.
TEST_P(StoreMigrationTest, VersionEightStoreGainsTheAgentsFactorWhenMigrated)
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
TEST_P(StoreMigrationTest, VersionNineStoreGetsTheTrendRowsWhenMigrated)
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

INSTANTIATE_TEST_SUITE_P(Backends, StoreMigrationTest,
                         ::testing::Values(test::StoreBackend::SQLite, test::StoreBackend::PostgreSQL),
                         test::backendName);
