// A ramp measures every step over its window, whatever record count was typed.
#include <gtest/gtest.h>

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

TEST(BenchRamp, StepsAreMeasuredEvenWhenARecordCountIsGiven)
{
    QTemporaryDir dir;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("PLIMSOLL_DB");
    p.setProcessEnvironment(env);
    p.start(PLIMSOLL_BINARY, {"--db", dir.filePath("s.db"), "bench", "ramp", "--embedded", "--steps",
                              "1", "--records", "20000", "--rate", "20000",
                              "--output", "json"});
    ASSERT_TRUE(p.waitForFinished(120000));
    const auto result = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
    ASSERT_FALSE(result["scenarios"].empty()) << result.dump();
    const auto &step = result["scenarios"][0];
    EXPECT_EQ(step["kind"], "ramp-step");
    EXPECT_GT(step["metrics"]["records_per_s"].get<double>(), 1000.0) << step.dump();
}

namespace {

struct Refusal
{
    int exitCode = -1;
    std::string err;
};

Refusal refusalOf(const QStringList &args, const QString &db)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("PLIMSOLL_DB");
    p.setProcessEnvironment(env);
    p.start(PLIMSOLL_BINARY, QStringList{"--db", db} + args);
    EXPECT_TRUE(p.waitForFinished(60000));
    return {p.exitCode(), p.readAllStandardError().toStdString()};
}

} // namespace

// The consume ramp's options and --tuning are checked before anything runs: exit 2, the option
// or entry named, and no run in the store.
TEST(BenchRamp, ConsumeRampAndTuningMistakesAreRefusedBeforeAnythingRuns)
{
    QTemporaryDir dir;
    const QString db = dir.filePath("s.db");
    const struct
    {
        QStringList args;
        const char *says;
    } refused[] = {
        {{"bench", "ramp", "--embedded", "--ramp", "consumers", "--steps", "1,2"}, "--ramp consumers needs a backlog"},
        {{"bench", "ramp", "--embedded", "--ramp", "consumers", "--steps", "1", "--backlog", "1000", "--tuning",
          "icebergReadThreads=0"},
         "--tuning icebergReadThreads: 0 must be greater than 0"},
        {{"bench", "ramp", "--embedded", "--ramp", "consumers", "--steps", "1", "--backlog", "1000", "--tuning",
          "maxPollRecords=-1"},
         "--tuning maxPollRecords: -1 must be greater than 0"},
        {{"bench", "--embedded", "--tuning", "icebergReadThreads"}, "'icebergReadThreads' is malformed"},
        {{"bench", "producer", "--embedded", "--backlog", "1000"}, "--backlog applies to 'bench ramp --ramp consumers'"},
        {{"bench", "ramp", "--embedded", "--steps", "1", "--fetch-p99-limit", "1s"}, "--fetch-p99-limit applies to"},
        {{"bench", "ramp", "--embedded", "--ramp", "consumers", "--steps", "1", "--backlog", "1000", "--p99-limit",
          "1s"},
         "--fetch-p99-limit"},
        {{"bench", "roundtrip", "--embedded", "--ramp", "consumers"}, "--ramp applies to 'bench ramp' only"},
        {{"bench", "--embedded", "--agents", "2"}, "--agents needs a real cluster"},
        {{"bench", "ramp", "--bootstrap-server", "127.0.0.1:1", "--agents", "2", "--steps", "1"},
         "'bench ramp' runs in one process"},
        {{"bench", "--bootstrap-server", "127.0.0.1:1", "--agents", "0"}, "--agents must be"},
        {{"bench", "--bootstrap-server", "127.0.0.1:1", "--agents", "2", "--agent-index", "2", "--topic", "t"},
         "--agent-index 2 is not one of the fleet's agents 0..1"},
        {{"bench", "--bootstrap-server", "127.0.0.1:1", "--agents", "4", "--partitions", "2"},
         "--partitions 2 is fewer than --agents 4"},
        {{"bench", "consumer", "--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--agents", "2", "--group", "g"},
         "--group with --agents"},
        {{"bench", "producer", "--bootstrap-server", "127.0.0.1:1", "--agents", "3", "--records", "2"},
         "--records 2 is fewer than --agents 3"},
        {{"bench", "--bootstrap-server", "127.0.0.1:1", "--agents", "2", "--agent-index", "0"},
         "an agent (--agent-index) needs the fleet's --topic"},
        {{"bench", "--bootstrap-server", "127.0.0.1:1", "--agents", "2", "--metrics-port", "0"},
         "--metrics-port with --agents"},
    };
    for (const auto &r : refused) {
        const Refusal outcome = refusalOf(r.args, db);
        EXPECT_EQ(outcome.exitCode, 2) << r.args.join(' ').toStdString() << ": " << outcome.err;
        EXPECT_NE(outcome.err.find(r.says), std::string::npos) << r.args.join(' ').toStdString() << ": " << outcome.err;
    }
    EXPECT_FALSE(QFileInfo::exists(db)) << "a refused run opened the store";
}
