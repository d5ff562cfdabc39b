// The store keeps what an import gave, exactly; refuses what it must (its migrations of older
// stores are in storemigration_test.cpp).
#include "model/store/store.h"
#include "model/store/storeschema.h"
#include "storetestsupport.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>

#include <limits>

#include <sqlite3.h>

using namespace plimsoll;
using namespace plimsoll::storetest;

namespace {

QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

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
// first, each with what forEachRun() gives of it (run key, time, target, name, topology and the
// named metrics, an absent optional one left out), those of a kind asked to be skipped left out, and
// the same rows in the same order when the read is cut in two halves of the time span.
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

    const auto read = [&store](const std::string &skipKind, std::size_t splitFrom) {
        // Each half in its own list (the later one is visited on a thread of its own), then one;
        // each row as a run of its one scenario, with the metrics it measured.
        const std::vector<std::string> names = {"records_per_s", "latency_p99_s", "latency_avg_s", "latency_p999_s"};
        std::vector<RunRecord> halves[2];
        store.forEachMeasuredScenario({names[0], names[1]}, {names[2], names[3]},
                                      [&](const MeasuredScenario &row, int half) {
                                          RunRecord &run = halves[half].emplace_back();
                                          run.runKey = row.runKey;
                                          run.timestamp = row.timestamp;
                                          run.target = row.target;
                                          ScenarioRecord &s = run.scenarios.emplace_back();
                                          s.name = row.scenario;
                                          s.topology = *row.topology;
                                          for (std::size_t i = 0; i < names.size(); ++i)
                                              if (const auto v = row.value(i))
                                                  s.metrics.push_back({names[i], *v});
                                      },
                                      skipKind, splitFrom);
        if (splitFrom > 0)
            EXPECT_TRUE(halves[1].empty()) << "a store this small is read whole";
        else
            EXPECT_FALSE(halves[1].empty()) << "the cut leaves the later runs to the second half";
        halves[0].insert(halves[0].end(), halves[1].begin(), halves[1].end());
        return halves[0];
    };
    const std::vector<RunRecord> measured = read({}, Store::kTrendSplitFrom);
    ASSERT_EQ(measured.size(), 3u);
    EXPECT_EQ(measured[0].runKey, "early");
    EXPECT_EQ(measured[0].scenarios.size(), 1u);
    EXPECT_EQ(measured[1].runKey, "late");
    EXPECT_EQ(measured[1].scenarios[0].name, "pipeline/produce/step-16");
    EXPECT_EQ(measured[2].runKey, "late");
    EXPECT_EQ(measured[2].scenarios[0].name, "pipeline/produce/step-1");
    // What the whole runs hold of the same scenarios, the inferred list and provenance aside.
    std::vector<std::pair<RunRecord, ScenarioRecord>> whole;
    store.forEachRun({}, [&](int64_t, RunRecord &&run) {
        for (ScenarioRecord s : run.scenarios)
            if (s.metric("records_per_s") && s.metric("latency_p99_s")) {
                s.topology.inferred.clear();
                std::erase_if(s.metrics, [](const MetricValue &m) { return m.name == "shard_cpu_max"; });
                whole.emplace_back(run, s);
            }
    });
    const auto sameAsWhole = [&whole](const std::vector<RunRecord> &rows) {
        ASSERT_EQ(whole.size(), rows.size());
        for (std::size_t i = 0; i < whole.size(); ++i) {
            const RunRecord &run = whole[i].first;
            SCOPED_TRACE(run.runKey + " " + whole[i].second.name);
            EXPECT_EQ(rows[i].runKey, run.runKey);
            EXPECT_EQ(rows[i].timestamp, run.timestamp);
            EXPECT_EQ(rows[i].target, "korvet");
            ASSERT_EQ(rows[i].scenarios.size(), 1u);
            const ScenarioRecord &s = rows[i].scenarios[0];
            EXPECT_EQ(s.name, whole[i].second.name);
            EXPECT_EQ(s.topology, whole[i].second.topology);
            EXPECT_EQ(s.metrics, whole[i].second.metrics);
        }
    };
    sameAsWhole(measured);
    EXPECT_EQ(measured[1].scenarios[0].metric("latency_p999_s"), 0.081);
    EXPECT_FALSE(measured[0].scenarios[0].metric("latency_p999_s"));
    // The cut (the middle of the runs' times) falls between "early" and "late": the later half,
    // read on a thread of its own, holds both of late's scenarios.
    sameAsWhole(read({}, 0));

    // A saturation summary repeats a step: the latency budget leaves it out.
    for (const std::size_t splitFrom : {Store::kTrendSplitFrom, std::size_t(0)}) {
        const std::vector<RunRecord> skipped = read("saturation", splitFrom);
        ASSERT_EQ(skipped.size(), 2u);
        EXPECT_EQ(skipped[0].runKey, "early");
        EXPECT_EQ(skipped[1].runKey, "late");
        EXPECT_EQ(skipped[1].scenarios[0].name, "pipeline/produce/step-16");
    }
}

// A metric's series and the trend read follow every way runs leave or change: a removed run,
// a source replaced at its uri, samples removed, and a run with the scenario twice (its first).
TEST_P(StoreTest, SeriesFollowsRemovalsAndReplacements)
{
    Store store(path());
    const auto values = [&store] {
        std::vector<std::string> out;
        for (const SeriesPoint &p : store.series("pipeline/produce/step-16", "records_per_s"))
            out.push_back(std::string(p.runKey) + "=" + std::to_string(int(p.value)));
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

// A long history's trend read is made in two halves of its time span at once: cut there or not,
// the visitor sees the same rows in the same order, each with its own contract inputs. The cut
// falls on a run holding the scenario twice, where the tuning changes.
TEST_P(StoreTest, ATrendReadInTwoHalvesIsTheWholeReadInOrder)
{
    Store store(path());
    std::vector<RunRecord> runs;
    for (int day = 0; day <= 40; ++day) {
        RunRecord run = makeRun("night-" + std::to_string(day),
                                QDateTime(QDate(2026, 8, 1).addDays(day), QTime(3, 0), Qt::UTC)
                                    .toString(Qt::ISODate).toStdString(),
                                100 + day);
        if (day >= 20)
            run.tuning["linger.ms"] = 10;
        if (day % 7 == 3)
            run.commit.clear();
        if (day % 5 == 4)
            std::erase_if(run.scenarios[0].metrics,
                          [](const MetricValue &m) { return m.name == "latency_p99_s"; });
        if (day == 20) { // the middle of the span: the cut
            run.scenarios.push_back(run.scenarios[0]);
            run.scenarios.back().metrics = {{"latency_p99_s", 9.0}};
        }
        runs.push_back(std::move(run));
    }
    store.importSource(makeSource("/data/nightly.jsonl", "v1"), runs);
    auto sample = makeSource("qrc:/samples/s.jsonl", "sample");
    sample.sample = true;
    store.importSource(sample, {makeRun("sample-1", "2026-07-30T03:00:00Z", 7)});
    const auto read = [&store](std::size_t splitFrom) {
        std::vector<std::string> out;
        store.forEachTrendRun("pipeline/produce/step-16", "latency_p99_s", [&](TrendRunRow &row) {
            out.push_back(std::to_string(row.id) + " " + row.runKey + " " + row.timestamp + " " +
                          row.commit + " " + row.imageDigest + " " + row.target + " " +
                          (row.sample ? "sample " : "") + row.tool + " " + row.toolVersion + " " +
                          row.tuningText + " " + std::to_string(row.topology.brokers.value_or(-1)) +
                          (row.value ? " =" + std::to_string(*row.value) : " none"));
        }, {}, splitFrom);
        return out;
    };
    const std::vector<std::string> whole = read(std::numeric_limits<std::size_t>::max());
    ASSERT_EQ(whole.size(), 42u) << "every run once, the sample first";
    EXPECT_NE(whole[0].find("sample-1"), std::string::npos);
    EXPECT_NE(whole[21].find("night-20"), std::string::npos);
    EXPECT_NE(whole[21].find("\"linger.ms\":10"), std::string::npos) << whole[21];
    EXPECT_NE(whole[20].find("\"linger.ms\":5"), std::string::npos) << whole[20];
    EXPECT_EQ(read(0), whole);
    // And the metric's series alike.
    const auto series = [&store](std::size_t splitFrom) {
        std::vector<std::string> out;
        for (const SeriesPoint &p : store.series("pipeline/produce/step-16", "latency_p99_s", splitFrom))
            out.push_back(std::to_string(p.runId) + " " + std::string(p.runKey) + " " +
                          std::string(p.timestamp) + " " + std::string(p.commit) + " " +
                          std::string(p.imageDigest) + " " + p.tuning->dump() + " =" + std::to_string(p.value));
        return out;
    };
    const std::vector<std::string> wholeSeries = series(std::numeric_limits<std::size_t>::max());
    ASSERT_EQ(wholeSeries.size(), 35u) << "the sample, the runs measuring it, night-20's twice";
    EXPECT_EQ(series(0), wholeSeries);
}

// A reader holding a snapshot sees one state of the store while another connection removes
// and imports runs: what an export writes existed, whole.
TEST_P(StoreTest, ASnapshotReadsOneStateWhateverOthersWrite)
{
    Store reader(path());
    Store writer(path());
    writer.importSource(makeSource("/a", "a"), {makeRun("first", "2026-08-11T03:00:00Z", 1)});
    writer.importSource(makeSource("/b", "b"), {makeRun("second", "2026-08-12T03:00:00Z", 2)});
    {
        const StoreSnapshot snapshot(reader);
        ASSERT_EQ(reader.runs().size(), 2u);
        EXPECT_EQ(writer.removeRun("first"), 1);
        writer.importSource(makeSource("/c", "c"), {makeRun("third", "2026-08-13T03:00:00Z", 3)});
        EXPECT_EQ(reader.runs().size(), 2u);
        EXPECT_TRUE(reader.run("first"));
        EXPECT_FALSE(reader.run("third"));
    }
    // Once it ends, the reader sees what was written.
    EXPECT_EQ(reader.runs().size(), 2u);
    EXPECT_FALSE(reader.run("first"));
    EXPECT_TRUE(reader.run("third"));
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

// A Trends read asks whether a metric has any kept change-point examination before it searches
// one afresh: by key prefix, where a longer metric name is not the same metric.
TEST_P(StoreTest, KeptChangePointsAreFoundByTheirKeysBeginning)
{
    Store store(path());
    const std::string sep = "\x1f";
    const std::string perSecond = "trend1" + sep + "produce" + sep + "records_per_s" + sep;
    EXPECT_FALSE(store.keepsChangePointsUnder(perSecond));
    store.keepChangePoints({{perSecond + "korvet" + sep + "{}" + sep + "30", "state"}});
    EXPECT_TRUE(store.keepsChangePointsUnder(perSecond));
    EXPECT_TRUE(store.keepsChangePointsUnder("trend1" + sep + "produce" + sep));
    EXPECT_FALSE(store.keepsChangePointsUnder("trend1" + sep + "produce" + sep + "records" + sep));
    EXPECT_FALSE(store.keepsChangePointsUnder("trend1" + sep + "produce" + sep + "records_per_s_max" + sep));
    EXPECT_FALSE(store.keepsChangePointsUnder("trend1" + sep + "consume" + sep));
    // A key sorting after the prefix's keys is not taken for one of them.
    store.keepChangePoints({{"trend1" + sep + "zzz", "state"}});
    EXPECT_FALSE(store.keepsChangePointsUnder("trend1" + sep + "produce" + sep + "records_per_t" + sep));
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

// A read no longer wanted ends its other half too: a file's statements do not ask `stopped`, so
// the half read on the second thread asks it as it goes, and the read ends with the store's error.
TEST_F(StoreFileTest, ATrendReadNoLongerWantedEndsBothHalves)
{
    Store store(path());
    std::vector<RunRecord> runs;
    for (int i = 0; i < 10'000; ++i)
        runs.push_back(makeRun("night-" + std::to_string(i),
                               QDateTime(QDate(2000, 1, 1), QTime(3, 0), Qt::UTC).addSecs(3600LL * i)
                                   .toString(Qt::ISODate).toStdString(),
                               i));
    store.importSource(makeSource("/data/nightly.jsonl", "v1"), runs);
    std::size_t visited = 0;
    const auto count = [&visited](TrendRunRow &) { ++visited; };
    store.forEachTrendRun("pipeline/produce/step-16", "records_per_s", count, {}, 0);
    EXPECT_EQ(visited, 10'000u);
    visited = 0;
    EXPECT_THROW(store.forEachTrendRun("pipeline/produce/step-16", "records_per_s", count,
                                       [] { return true; }, 0),
                 StoreError);
    EXPECT_LT(visited, 10'000u) << "the later half is not visited once the read is not wanted";
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
