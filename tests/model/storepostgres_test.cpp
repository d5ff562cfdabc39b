// What only a team store on PostgreSQL has: roles (a read-only reader), several writers at
// once, a killed importer, passwords kept out of URIs, TLS with certificate verification. The
// rest of the store's behaviour is checked on both backends by the store suites.
#include "export/runexport.h"
#include "model/store/store.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <cmath>
#include <chrono>
#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace plimsoll;
using test::StoreBackend;

namespace {

RunRecord nightly(const std::string &key, const std::string &ts, double rate)
{
    RunRecord r;
    r.runKey = key;
    r.timestamp = ts;
    r.tool = "korvet-pipeline-benchmark";
    r.target = "korvet";
    ScenarioRecord s;
    s.name = "pipeline/produce/step-16";
    s.topology.brokers = 3;
    s.metrics = {{"records_per_s", rate}, {"latency_p99_s", 0.05}};
    r.scenarios.push_back(s);
    return r;
}

std::vector<RunRecord> nights(const std::string &prefix, int count)
{
    std::vector<RunRecord> runs;
    for (int i = 0; i < count; ++i)
        runs.push_back(nightly(prefix + std::to_string(i), "2026-08-" + std::to_string(10 + i % 18) +
                                                               "T03:00:00Z", 1000 + i));
    return runs;
}

SourceRecord source(const std::string &uri, const std::string &sha)
{
    return SourceRecord{uri, "plimsoll-trend", sha, "plimsoll-trend", "1", "2026-11-30T12:00:00Z", false};
}

std::string errorOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const StoreError &e) {
        return e.what();
    }
    return "";
}

// Runs with everything a store keeps of them: two scenarios each (a ramp step with a full topology,
// inferred factors, provenance and per-window series; a probe with few fields), environments,
// tunings that change now and then, commits, images, lines, inferred times, sample runs.
std::vector<RunRecord> richRuns(const std::string &prefix, int count, int firstLine = 1)
{
    std::vector<RunRecord> runs;
    for (int i = 0; i < count; ++i) {
        RunRecord r;
        r.runKey = prefix + std::to_string(i);
        r.timestamp = "2026-0" + std::to_string(1 + i % 9) + "-1" + std::to_string(i % 10) + "T0" +
                      std::to_string(i % 10) + ":00:00Z";
        r.commit = i % 3 == 0 ? "" : "c" + std::to_string(i / 7);
        r.imageDigest = i % 4 == 0 ? "sha256:" + std::to_string(i / 4) : "";
        r.tool = "korvet-pipeline-benchmark";
        r.toolVersion = i % 50 < 25 ? "1.2.0" : "1.3.0";
        r.target = i % 5 == 0 ? "" : "korvet";
        r.environment = {{"host", "ci-" + std::to_string(i % 3)}, {"cpus", 8}};
        r.tuning = i % 11 == 0 ? nlohmann::json() : nlohmann::json{{"acks", "all"}, {"linger_ms", i % 2 ? 5 : 10}};
        r.sample = i % 13 == 0;
        r.provenance = i % 2 ? "nightly \"quoted\" run, line " + std::to_string(i) : "";
        r.line = firstLine + i;
        r.timeSource = i % 17 == 0 ? TimeSource::FileModified : i % 19 == 0 ? TimeSource::Imported : TimeSource::Stated;
        ScenarioRecord step;
        step.name = "pipeline/produce/step-" + std::to_string(i % 4);
        step.kind = "ramp-step";
        step.topology.brokers = 3;
        step.topology.shards = 16;
        step.topology.partitions = 48 + i % 2;
        step.topology.producers = 4;
        step.topology.recordSizeBytes = 1024;
        step.topology.compression = i % 2 ? std::optional<std::string>("lz4") : std::nullopt;
        step.topology.acks = "1";
        step.topology.agents = i % 3 == 0 ? std::optional<int64_t>(2) : std::nullopt;
        step.topology.replication = i % 6 == 0 ? std::optional<int64_t>(3) : std::nullopt;
        step.topology.inferred = i % 2 ? std::vector<std::string>{"partitions"} : std::vector<std::string>{};
        step.metrics = {{"records_per_s", 1000.0 + i + 1.0 / 3.0},
                        {"latency_p99_s", 0.004 + 1e-7 * i},
                        {"cpu", i % 7 == 0 ? 0.0 : -1.5e-300 * i}};
        step.provenance = i % 2 ? "" : "harness";
        step.line = firstLine + i;
        SeriesRecord publish;
        publish.name = "publishRate";
        for (int k = 0; k < 5; ++k)
            publish.samples.push_back({10.0 * k, 990.0 + k + i * 0.1});
        if (i % 2)
            step.series.push_back(publish);
        ScenarioRecord probe;
        probe.name = "probe/e2e";
        probe.metrics = {{"latency_p50_s", 0.001 * (1 + i % 9)}};
        r.scenarios = {step, probe};
        runs.push_back(std::move(r));
    }
    return runs;
}

// Everything the store gives back of its runs, less the ids each store assigns and the time of
// the import: the JSON export, each trend's rows, each series, each scenario's metric names.
nlohmann::json everythingStored(const Store &store)
{
    const auto withoutIds = [](auto &self, nlohmann::json j) -> nlohmann::json {
        if (j.is_object()) {
            j.erase("id");
            j.erase("imported_at");
            for (auto &[key, value] : j.items())
                value = self(self, value);
        } else if (j.is_array()) {
            for (auto &value : j)
                value = self(self, value);
        }
        return j;
    };
    ExportRequest request;
    request.format = "json";
    nlohmann::json out = {{"export", withoutIds(withoutIds, nlohmann::json::parse(exportRuns(store, request).text))}};
    for (const std::string &scenario : store.scenarioNames()) {
        out["metrics"][scenario] = store.metricNames(scenario);
        for (const std::string &metric : store.metricNames(scenario)) {
            nlohmann::json rows = nlohmann::json::array();
            store.forEachTrendRun(scenario, metric, [&](TrendRunRow &row) {
                const Topology &t = row.topology;
                rows.push_back({row.runKey, row.timestamp, row.commit, row.imageDigest, row.tool, row.toolVersion,
                                row.target, row.sample, row.tuningText, row.timeInferred,
                                row.value ? nlohmann::json(*row.value) : nlohmann::json(), t.brokers.value_or(-1),
                                t.partitions.value_or(-1), t.compression.value_or("-"), t.agents.value_or(-1),
                                t.replication.value_or(-1)});
            });
            out["trend"][scenario + " " + metric] = rows;
            nlohmann::json points = nlohmann::json::array();
            for (const SeriesPoint &p : store.series(scenario, metric))
                points.push_back({std::string(p.runKey), std::string(p.timestamp), std::string(p.commit),
                                  p.tuning->dump(), p.value});
            out["series"][scenario + " " + metric] = points;
        }
    }
    return out;
}

class TeamStoreTest : public ::testing::TestWithParam<StoreBackend>
{
protected:
    test::TestStoreLocation location{GetParam()};
};

} // namespace

TEST_P(TeamStoreTest, ReadOnlyRoleBrowsesEverythingAndIsToldOnAnyWrite)
{
    {
        Store writer(location.location());
        EXPECT_TRUE(writer.isTeamStore());
        writer.importSource(source("/nightly.jsonl", "sha-1"), nights("night-", 3));
    }
    Store reader(location.readerLocation());
    EXPECT_EQ(reader.runCount(), 3);
    EXPECT_EQ(reader.runs().size(), 3u);
    ASSERT_TRUE(reader.run("night-1"));
    EXPECT_EQ(reader.series("pipeline/produce/step-16", "records_per_s").size(), 3u);
    const std::string expected = "this store is read-only for user " + location.reader();
    EXPECT_EQ(errorOf([&] { reader.importSource(source("/other.jsonl", "sha-2"), nights("x-", 1)); }),
              expected);
    EXPECT_EQ(errorOf([&] { reader.removeRun("night-1"); }), expected);
    EXPECT_EQ(errorOf([&] { reader.removeSamples(); }), expected);
    reader.keepChangePoints({{"series", "bytes"}}); // a cache only: skipped, no error
    EXPECT_FALSE(reader.keptChangePoints("series"));
    EXPECT_EQ(reader.runCount(), 3);
}

TEST_P(TeamStoreTest, ReaderCannotCreateAStore)
{
    // An empty schema needs its tables: the reader is told why it cannot make them.
    const std::string what = errorOf([&] { Store s(location.readerLocation()); });
    EXPECT_NE(what.find("this store is read-only for user " + location.reader()), std::string::npos)
        << what;
}

TEST_P(TeamStoreTest, UriWithAPasswordIsRefusedWithTheAlternatives)
{
    const auto &env = test::postgresEnv();
    const std::string hostPort = env.at("PLIMSOLL_TEST_PG_HOST") + ":" + env.at("PLIMSOLL_TEST_PG_PORT");
    for (const std::string &uri :
         {"postgresql://" + location.writer() + ":s3cret-pw@" + hostPort + "/plimsoll",
          "postgres://" + location.writer() + "@" + hostPort + "/plimsoll?password=s3cret-pw&sslmode=disable"}) {
        const std::string what = errorOf([&] { Store s(uri); });
        EXPECT_NE(what.find("carries a password"), std::string::npos) << what;
        EXPECT_NE(what.find("~/.pgpass"), std::string::npos) << what;
        EXPECT_NE(what.find("PGPASSFILE"), std::string::npos) << what;
        EXPECT_NE(what.find("PGPASSWORD"), std::string::npos) << what;
        EXPECT_NE(what.find("service"), std::string::npos) << what;
        EXPECT_EQ(what.find("s3cret-pw"), std::string::npos) << what;
    }
    // Nothing was created: the refusal comes before any connection.
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()"), 0);
}

TEST_P(TeamStoreTest, TwoWritersImportingTheSameFileAtOnceImportItOnce)
{
    Store first(location.location());
    Store second(location.location());
    const std::vector<RunRecord> runs = nights("night-", 20);
    auto writer = first.beginSource(source("/ci/nightly.jsonl", "sha-same"));
    for (const RunRecord &r : runs)
        writer->put(r);
    // The second writer starts while the first holds its transaction open: it waits, then
    // finds the committed source.
    std::atomic<bool> started{false};
    ImportOutcome secondOutcome;
    std::string secondError;
    std::thread other([&] {
        started = true;
        try {
            secondOutcome = second.importSource(source("/laptop/nightly.jsonl", "sha-same"), runs);
        } catch (const StoreError &e) {
            secondError = e.what();
        }
    });
    while (!started)
        std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(Store(location.location()).runCount(), 0) << "an uncommitted source is not seen";
    const ImportOutcome firstOutcome = writer->commit();
    other.join();
    EXPECT_EQ(firstOutcome.status, ImportOutcome::Status::Imported);
    EXPECT_EQ(secondError, "");
    EXPECT_EQ(secondOutcome.status, ImportOutcome::Status::Unchanged);
    EXPECT_EQ(secondOutcome.runs, 20);
    EXPECT_EQ(first.runCount(), 20);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM sources"), 1);
}

TEST_P(TeamStoreTest, SeveralWritersOfOneOrOtherSourcesNeverDuplicate)
{
    // Four CI jobs: three import the same file, one another; each has its own connection.
    std::vector<ImportOutcome> outcomes(4);
    std::vector<std::string> errors(4);
    std::vector<std::thread> jobs;
    for (int i = 0; i < 4; ++i)
        jobs.emplace_back([&, i] {
            try {
                Store store(location.location());
                outcomes[size_t(i)] = i == 3 ? store.importSource(source("/b", "sha-b"), nights("b-", 15))
                                             : store.importSource(source("/a", "sha-a"), nights("a-", 15));
            } catch (const StoreError &e) {
                errors[size_t(i)] = e.what();
            }
        });
    for (auto &j : jobs)
        j.join();
    int imported = 0;
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(errors[size_t(i)], "");
        imported += errors[size_t(i)].empty() && outcomes[size_t(i)].status == ImportOutcome::Status::Imported;
    }
    EXPECT_EQ(imported, 1);
    EXPECT_EQ(outcomes[3].status, ImportOutcome::Status::Imported);
    EXPECT_EQ(Store(location.location()).runCount(), 30);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM sources"), 2);
}

TEST_P(TeamStoreTest, AKilledImporterLeavesNothing)
{
    { Store create(location.location()); }
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // The importer: half a source written, then it hangs until killed.
        Store store(location.location());
        auto writer = store.beginSource(source("/big.jsonl", "sha-big"));
        for (const RunRecord &r : nights("half-", 50))
            writer->put(r);
        const char byte = 1;
        (void)!write(ready[1], &byte, 1);
        pause();
        _exit(0);
    }
    close(ready[1]);
    char byte = 0;
    ASSERT_EQ(read(ready[0], &byte, 1), 1);
    close(ready[0]);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));

    Store store(location.location());
    // The server notices the closed connection and rolls its transaction back; the next writer
    // waits for that (the write lock is the killed one's until then) and finds nothing.
    const auto outcome = store.importSource(source("/big.jsonl", "sha-big"), nights("half-", 50));
    EXPECT_EQ(outcome.status, ImportOutcome::Status::Imported);
    EXPECT_EQ(store.runCount(), 50);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM sources"), 1);
}

TEST_P(TeamStoreTest, TlsWithCertificateVerification)
{
    const auto &env = test::postgresEnv();
    const std::string root = env.at("PLIMSOLL_TEST_PG_ROOTCERT");
    // verify-full: the server's certificate is signed by the given CA and names the host.
    const std::string verified = test::postgresUri(location.writer(), location.schema(),
                                                   "sslmode=verify-full&sslrootcert=" + root);
    {
        Store store(verified);
        store.importSource(source("/a", "sha-a"), nights("tls-", 2));
    }
    EXPECT_EQ(Store(verified).runCount(), 2);
    // Another CA's certificate list does not vouch for it.
    const std::string wrongCa = test::postgresUri(location.writer(), location.schema(),
                                                  "sslmode=verify-full&sslrootcert=/etc/ssl/certs/ca-certificates.crt");
    const std::string what = errorOf([&] { Store s(wrongCa); });
    EXPECT_NE(what.find("certificate"), std::string::npos) << what;
}

TEST_P(TeamStoreTest, ASchemaOfOtherTablesIsNotAStore)
{
    location.exec("CREATE TABLE invoices (id integer)");
    const std::string what = errorOf([&] { Store s(location.location()); });
    EXPECT_NE(what.find("not a Plimsoll store"), std::string::npos) << what;
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()"), 1);
}

// A series read no longer wanted (the user chose another metric) stops costing the server:
// here the read waits on a lock another session holds, and once `stopped` says so it is
// cancelled on the server and ends with a StoreError at once, not when the lock goes. The same
// Store then reads the series whole.
TEST_P(TeamStoreTest, AReadNoLongerWantedIsCancelledOnTheServer)
{
    Store store(location.location());
    store.importSource(source("/ci/nights.jsonl", "sha-n"), nights("night-", 3));
    // Read once first: the statement is then prepared on the connection (preparing it would wait
    // for the lock too, before there is a read to stop).
    int rows = 0;
    store.forEachTrendRun("pipeline/produce/step-16", "records_per_s", [&](TrendRunRow &) { ++rows; });
    ASSERT_EQ(rows, 3);
    PGconn *locker = PQconnectdb(location.location().c_str());
    ASSERT_EQ(PQstatus(locker), CONNECTION_OK);
    // Were the read not cancelled, the server ends this session after 10 s and the read then
    // completes: the test fails on its figures rather than waiting for ever.
    PQclear(PQexec(locker, "SET idle_in_transaction_session_timeout = '10s'"));
    PQclear(PQexec(locker, "BEGIN"));
    PGresult *locked = PQexec(locker, "LOCK TABLE trend_runs IN ACCESS EXCLUSIVE MODE");
    ASSERT_EQ(PQresultStatus(locked), PGRES_COMMAND_OK) << PQresultErrorMessage(locked);
    PQclear(locked);

    const auto start = std::chrono::steady_clock::now();
    const auto after = [&](int ms) {
        return [&, ms] { return std::chrono::steady_clock::now() - start > std::chrono::milliseconds(ms); };
    };
    rows = 0;
    const std::string what = errorOf([&] {
        store.forEachTrendRun("pipeline/produce/step-16", "records_per_s", [&](TrendRunRow &) { ++rows; }, after(300));
    });
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(what, "the read was stopped: no longer wanted");
    EXPECT_EQ(rows, 0);
    EXPECT_LT(took, std::chrono::seconds(5)) << "the read waited for the lock";
    PQclear(PQexec(locker, "ROLLBACK"));
    PQfinish(locker);

    store.forEachTrendRun("pipeline/produce/step-16", "records_per_s", [&](TrendRunRow &) { ++rows; }, after(60000));
    EXPECT_EQ(rows, 3);
}

TEST_P(TeamStoreTest, AnImportGivesTheSameRunsAsASqliteFile)
{
    test::TestStoreLocation file{StoreBackend::SQLite};
    Store team(location.location()), local(file.location());
    // Two sources, the second with more than one batch of rows (BulkRuns::kBatchRows), a run of
    // it appended to after others, and a source imported again with runs removed from it.
    const std::vector<RunRecord> first = richRuns("night-", 40), second = richRuns("big-", 30'000, 100);
    for (Store *store : {&team, &local}) {
        store->importSource(source("/ci/first.jsonl", "sha-first"), first);
        auto writer = store->beginSource(source("/ci/second.jsonl", "sha-second"));
        for (const RunRecord &r : second)
            writer->put(r);
        ScenarioRecord late = second[5].scenarios[1];
        late.name = "probe/late";
        writer->append("big-5", {late});
        writer->put(richRuns("after-", 3).front());
        writer->commit();
        store->removeRun("night-3");
        store->importSource(source("/ci/first.jsonl", "sha-first"), first);
    }
    EXPECT_EQ(team.runCount(), 40 + 30'000 + 1);
    const nlohmann::json teamStored = everythingStored(team), fileStored = everythingStored(local);
    EXPECT_EQ(teamStored["export"].size(), size_t(40 + 30'000 + 1));
    EXPECT_EQ(teamStored["export"], fileStored["export"]);
    EXPECT_EQ(teamStored["metrics"], fileStored["metrics"]);
    EXPECT_EQ(teamStored["trend"], fileStored["trend"]);
    EXPECT_EQ(teamStored["series"], fileStored["series"]);
}

TEST_P(TeamStoreTest, ARunKeyOfAnotherSourceMidFileIsRefusedWithItsLineAndNothingOfTheFileStays)
{
    Store store(location.location());
    store.importSource(source("/ci/first.jsonl", "sha-first"), nights("night-", 3));
    // Far enough into the file that earlier batches were written before the refusal.
    std::vector<RunRecord> runs = richRuns("big-", 12'000, 10);
    runs[11'000].runKey = "night-1";
    std::string error;
    int64_t line = 0;
    try {
        store.importSource(source("/ci/second.jsonl", "sha-second"), runs);
    } catch (const RunRefused &e) {
        error = e.what();
        line = e.line();
    }
    EXPECT_EQ(error, "run key 'night-1' is already in the store (from /ci/first.jsonl); remove that run first");
    EXPECT_EQ(line, 11'010);
    EXPECT_EQ(store.runCount(), 3);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM sources"), 1);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM scenarios"), 3);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_points"), 6);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_runs"), 3);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM series"), 0);
    EXPECT_EQ(store.series("pipeline/produce/step-0", "records_per_s").size(), 0u);
    // The file corrected imports whole.
    runs[11'000].runKey = "big-11000";
    EXPECT_EQ(store.importSource(source("/ci/second.jsonl", "sha-second"), runs).runs, 12'000);
    EXPECT_EQ(store.runCount(), 12'003);
}

TEST_P(TeamStoreTest, ABadRecordMidFileLeavesNothingOfTheFile)
{
    Store store(location.location());
    store.importSource(source("/ci/first.jsonl", "sha-first"), nights("night-", 3));
    const auto refusal = [&](std::vector<RunRecord> runs) {
        const std::string what = errorOf([&] { store.importSource(source("/ci/bad.jsonl", "sha-bad"), runs); });
        EXPECT_EQ(store.runCount(), 3) << what;
        EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM sources"), 1) << what;
        EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM metrics"), 6) << what;
        EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_runs"), 3) << what;
        EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM scenario_metrics"), 2) << what;
        EXPECT_EQ(store.scenarioNames(), std::vector<std::string>{"pipeline/produce/step-16"}) << what;
        return what;
    };
    std::vector<RunRecord> runs = richRuns("big-", 12'000);
    runs[11'000].scenarios[0].metrics.push_back({"records_per_s", 1.0});
    EXPECT_EQ(refusal(runs), "scenario 'pipeline/produce/step-0' of run 'big-11000' has metric 'records_per_s' twice");
    runs = richRuns("big-", 12'000);
    runs[11'000].scenarios[0].metrics[1].value = std::nan("");
    EXPECT_EQ(refusal(runs), "scenario 'pipeline/produce/step-0' of run 'big-11000' has metric 'latency_p99_s' twice");
    runs = richRuns("big-", 12'000);
    runs[11'001].scenarios[0].series.push_back(runs[11'001].scenarios[0].series.front());
    EXPECT_EQ(refusal(runs), "scenario 'pipeline/produce/step-1' of run 'big-11001' has series 'publishRate' twice "
                             "(or a value that is not a number)");
    runs = richRuns("big-", 12'000);
    runs[11'000].runKey = "big-17";
    EXPECT_EQ(refusal(runs), "run key 'big-17' appears twice in /ci/bad.jsonl");
    // A key of another source before a bad record of the same file: the earlier is said.
    runs = richRuns("big-", 12'000);
    runs[10'999].runKey = "night-2";
    runs[11'000].scenarios[0].metrics.push_back({"records_per_s", 1.0});
    EXPECT_EQ(refusal(runs), "run key 'night-2' is already in the store (from /ci/first.jsonl); remove that run first");
}

TEST_P(TeamStoreTest, ImportsOfOneKeyAtOnceStoreItOnce)
{
    // Two CI jobs import different files holding the same runs, each through its own connection,
    // at the same time: one imports them whole, the other is told and writes nothing.
    const std::vector<RunRecord> runs = richRuns("night-", 15'000);
    std::vector<std::string> errors(2);
    std::vector<std::thread> jobs;
    for (int i = 0; i < 2; ++i)
        jobs.emplace_back([&, i] {
            try {
                Store store(location.location());
                store.importSource(source("/ci/job-" + std::to_string(i) + ".jsonl", "sha-" + std::to_string(i)), runs);
            } catch (const StoreError &e) {
                errors[size_t(i)] = e.what();
            }
        });
    for (auto &j : jobs)
        j.join();
    EXPECT_NE(errors[0].empty(), errors[1].empty()) << errors[0] << " / " << errors[1];
    const std::string &error = errors[0].empty() ? errors[1] : errors[0];
    EXPECT_NE(error.find("run key 'night-0' is already in the store (from /ci/job-"), std::string::npos) << error;
    Store store(location.location());
    EXPECT_EQ(store.runCount(), 15'000);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM sources"), 1);
    EXPECT_EQ(location.queryInt("SELECT COUNT(*) FROM trend_runs"), 30'000);
    EXPECT_EQ(store.series("probe/e2e", "latency_p50_s").size(), 15'000u);
}

INSTANTIATE_TEST_SUITE_P(Team, TeamStoreTest, ::testing::Values(StoreBackend::PostgreSQL),
                         test::backendName);
