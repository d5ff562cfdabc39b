// Per-window series travel with their scenario: written in the source's transaction, read
// back exactly, removed with the run, and a version-2 store gains the table without losing data.
#include "model/store/store.h"
#include "model/store/storeschema.h"
#include "model/store/storecopy.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

#include <QTemporaryDir>


using namespace plimsoll;

namespace {

class SeriesTest : public ::testing::TestWithParam<test::StoreBackend>
{
protected:
    test::TestStoreLocation location{GetParam()};
    std::string path() const { return location.location(); }
};

SourceRecord source(const std::string &uri, const std::string &sha)
{
    return SourceRecord{uri, "omb", sha, "omb", "1", "2026-11-30T12:00:00Z", false};
}

RunRecord runWithSeries(const std::string &key)
{
    RunRecord r;
    r.runKey = key;
    r.timestamp = "2026-11-30T12:00:00Z";
    ScenarioRecord s;
    s.name = "omb/kafka";
    s.metrics = {{"records_per_s", 200000.0}};
    s.series = {
        {"backlog", {{0, -57}, {10, -42}, {20, 0}}},
        {"publish.latency_p99_s", {{0, 0.022003}, {10, 0.025263}, {20, 0.014797}}},
        {"records_per_s", {{0, 203974.153890742}, {10, 199991.37724374473}, {20, 199888.8811924253}}},
    };
    r.scenarios.push_back(s);
    return r;
}

} // namespace

TEST_P(SeriesTest, SeriesRoundTripExactly)
{
    Store store(path());
    const RunRecord run = runWithSeries("omb-1");
    store.importSource(source("/omb.json", "sha-1"), {run});

    const auto detail = store.run("omb-1");
    ASSERT_TRUE(detail);
    ASSERT_EQ(detail->record.scenarios.size(), 1u);
    // Series come back sorted by name; runWithSeries lists them so.
    EXPECT_EQ(detail->record.scenarios[0].series, run.scenarios[0].series);

    const auto series = store.scenarioSeries("omb-1", "omb/kafka");
    ASSERT_EQ(series.size(), 3u);
    EXPECT_EQ(series[0].name, "backlog");
    EXPECT_EQ(series[0].samples[0].value, -57);
    EXPECT_EQ(series[2].samples[1].tOffsetS, 10);
    EXPECT_EQ(series[2].samples[1].value, 199991.37724374473);
    EXPECT_TRUE(store.scenarioSeries("omb-1", "no-such").empty());
    EXPECT_TRUE(store.scenarioSeries("no-such-run", "omb/kafka").empty());
}

TEST_P(SeriesTest, RemovingTheRunRemovesItsSeries)
{
    Store store(path());
    store.importSource(source("/omb.json", "sha-1"), {runWithSeries("omb-1")});
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM series"), 3 * 3);
    EXPECT_EQ(store.removeRun("omb-1"), 1);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM series"), 0);
}

TEST_P(SeriesTest, NaNInASeriesFailsTheWholeSource)
{
    Store store(path());
    RunRecord bad = runWithSeries("omb-bad");
    bad.scenarios[0].series[0].samples[1].value = std::nan("");
    EXPECT_THROW(store.importSource(source("/bad.json", "sha-bad"), {bad}), StoreError);
    EXPECT_EQ(store.runCount(), 0);
    EXPECT_FALSE(store.hasSourceWithSha256("sha-bad"));
}

TEST_P(SeriesTest, VersionTwoStoreGainsTheSeriesTable)
{
    test::writeStoreAtVersion(location, GetParam(), 2,
                              "INSERT INTO sources VALUES (1,'/old','omb','x','i','1','2026-01-01T00:00:00Z',0);"
                              "INSERT INTO runs (id, source_id, run_key, timestamp) VALUES "
                              "(1,1,'old-run','2026-01-01T00:00:00Z');");
    Store store(path());
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
    EXPECT_TRUE(store.run("old-run"));
    store.importSource(source("/omb.json", "sha-1"), {runWithSeries("omb-1")});
    EXPECT_EQ(store.scenarioSeries("omb-1", "omb/kafka").size(), 3u);
}

// A store copied into another (on this backend, from a file) keeps every run whole, its
// per-window series included, and its source: what the copy reads back equals the original.
TEST_P(SeriesTest, ACopiedStoreKeepsItsSeries)
{
    QTemporaryDir dir;
    Store original(dir.filePath("original.db").toStdString());
    original.importSource(source("/omb.json", "sha-1"), {runWithSeries("omb-1"), runWithSeries("omb-2")});
    Store copy(path());
    const StoreCopyReport report = copyStore(original, copy);
    EXPECT_EQ(report.runsCopied, 2);
    EXPECT_EQ(report.sourcesCopied, 1);
    for (const char *key : {"omb-1", "omb-2"}) {
        const auto a = original.run(key), b = copy.run(key);
        ASSERT_TRUE(a && b) << key;
        EXPECT_EQ(b->record, a->record) << key;
        EXPECT_EQ(b->source.sha256, a->source.sha256);
        EXPECT_EQ(b->source.importedAt, a->source.importedAt);
        EXPECT_EQ(copy.scenarioSeries(key, "omb/kafka").size(), 3u);
    }
    EXPECT_EQ(copyStore(original, copy).sourcesAlreadyThere, 1) << "a second copy skips what is there";
    EXPECT_EQ(copy.runCount(), 2);
}

// A run removed before the copy stays removed in it, and the copy remembers it was removed: the
// same file imported into the copy brings it back, as it would in the original.
TEST_P(SeriesTest, ACopyRemembersRemovedRuns)
{
    QTemporaryDir dir;
    Store original(dir.filePath("original.db").toStdString());
    const std::vector<RunRecord> runs{runWithSeries("omb-1"), runWithSeries("omb-2")};
    original.importSource(source("/omb.json", "sha-1"), runs);
    ASSERT_EQ(original.removeRun("omb-2"), 1);
    Store copy(path());
    EXPECT_EQ(copyStore(original, copy).runsCopied, 1);
    EXPECT_FALSE(copy.run("omb-2"));
    const ImportOutcome again = copy.importSource(source("/omb.json", "sha-1"), runs);
    EXPECT_EQ(again.status, ImportOutcome::Status::Imported);
    ASSERT_FALSE(again.notes.empty());
    EXPECT_EQ(again.notes[0], "restores the 1 run removed since the earlier import of /omb.json");
    EXPECT_TRUE(copy.run("omb-2"));
    EXPECT_EQ(copy.runCount(), 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, SeriesTest,
                         ::testing::Values(test::StoreBackend::SQLite, test::StoreBackend::PostgreSQL),
                         test::backendName);
