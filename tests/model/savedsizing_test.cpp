// Saved sizings in the store, on both backends: every input and the run selection come back as
// saved, a damaged or newer body is refused by name and left as it is, a name is not taken twice
// unless replaced (not even by writers racing for it), a read-only role is told so, a SQLite
// store's earlier files move in once, and two sizings of the sample store compare component by
// component.
#include "model/store/savedsizing.h"
#include "model/store/store.h"
#include "model/store/sharedsettings.h"
#include "sampleruns.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>

#include <atomic>
#include <thread>

using namespace plimsoll;

namespace {

class SavedSizingsTest : public ::testing::TestWithParam<test::StoreBackend>
{
protected:
    void SetUp() override { m_store = std::make_unique<Store>(m_location.location()); }
    Store &store() { return *m_store; }
    // The body the store keeps for `name`, as it is kept.
    std::string rawBody(const std::string &name) const
    {
        return m_store->sharedSetting(kSavedSizingKind, name).value_or("");
    }
    void writeRaw(const std::string &name, const std::string &body)
    {
        m_store->putSharedSetting(kSavedSizingKind, name, body, true);
    }
    // The kind and message of what `action` throws.
    template <typename Action> std::pair<SavedSizingError::Kind, std::string> thrown(Action action)
    {
        try {
            action();
        } catch (const SavedSizingError &e) {
            return {e.kind(), e.what()};
        }
        ADD_FAILURE() << "nothing thrown";
        return {SavedSizingError::Kind::Invalid, ""};
    }
    test::TestStoreLocation m_location{GetParam()};
    std::unique_ptr<Store> m_store;
};

SavedSizing named(const std::string &name, double rate)
{
    SavedSizing s;
    s.name = name;
    s.inputs.rate = rate;
    return s;
}

// Every field away from its default, so a field the file forgets cannot come back equal.
SavedSizing everyFieldSet()
{
    SavedSizing s;
    s.name = "1.2M next year, Flex";
    s.savedAt = "2026-11-30T09:15:00Z";
    SizingInputs &in = s.inputs;
    in.rate = 1.2e6;
    in.bytesPerS = 0;
    in.recordBytes = 1024;
    in.compressionRatio = 8.5;
    in.retentionS = 300;
    in.replication = 3;
    in.p99Budget = 0.1;
    in.headroom = 0.2;
    in.tolerateNodeLoss = true;
    in.flex = true;
    in.tiered = true;
    in.localRetentionS = 45.5;
    in.trimTickS = 0.5;
    in.topic = "events";
    in.keyPattern = "stream:{topic}:{partition}";
    in.skewTarget = 1.5;
    in.shardsPerNode = 6;
    in.nodeRamBytes = 64.0 * 1024 * 1024 * 1024;
    in.nodeRamUsable = 0.6;
    in.brokerModel = BrokerModel::Rule;
    in.consumerGroups = 3;
    in.consumeRate = 2e6;
    in.consumeFrom = ConsumeFrom::Backlog;
    in.tieredReads = true;
    in.consumeMargin = 0.25;
    in.fetchP99Budget = 2.5;
    s.cpuLimit = 0.8;
    s.evidence.runs.runs = {"run-b", "run-a"};
    s.evidence.runs.scenario = "pipeline/produce";
    s.evidence.runs.tool = "korvet-bench";
    s.evidence.runs.target = "korvet";
    s.evidence.runs.since = "2026-01-01T00:00:00Z";
    s.evidence.runs.until = "2026-12-01T00:00:00Z";
    s.evidence.samples = SampleRuns::Exclude;
    return s;
}

} // namespace

TEST_P(SavedSizingsTest, EveryFieldRoundTrips)
{
    const SavedSizing saved = everyFieldSet();
    SavedSizings::save(store(), saved, false);
    SavedSizing bytes;
    bytes.name = "40 MB/s, samples included";
    bytes.inputs.rate = 0;
    bytes.inputs.bytesPerS = 40.0 * 1024 * 1024;
    bytes.inputs.recordBytes = 1.0 / 3 * 2100; // not a short decimal: read back bit for bit
    bytes.evidence.samples = SampleRuns::Include;
    SavedSizings::save(store(), bytes, false);

    const auto back = SavedSizings::find(store(), saved.name);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, saved);
    EXPECT_EQ(back->modelOptions().cpuLimit, 0.8);
    EXPECT_EQ(back->modelOptions().saturation.cpuLimit, 0.8);
    const auto backBytes = SavedSizings::find(store(), bytes.name);
    ASSERT_TRUE(backBytes);
    EXPECT_EQ(backBytes->inputs, bytes.inputs);
    EXPECT_EQ(backBytes->evidence, bytes.evidence);
    EXPECT_EQ(backBytes->rateText(), "40MB/s");
    // savedAt is set on save when not given: now, in UTC.
    EXPECT_EQ(backBytes->savedAt.size(), 20u) << backBytes->savedAt;
    EXPECT_EQ(backBytes->savedAt.back(), 'Z');

    EXPECT_EQ(named("x", 600e3).rateText(), "600k records/s");
    EXPECT_EQ(named("x", 650).rateText(), "650 records/s");

    const auto all = SavedSizings::list(store());
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].name, saved.name); // sorted by name
    EXPECT_EQ(all[0].rateText(), "1.2M records/s");
    EXPECT_EQ(all[1].name, bytes.name);
    EXPECT_FALSE(SavedSizings::find(store(), "nope"));
}

TEST_P(SavedSizingsTest, ANameIsRefusedUnlessReplaced)
{
    SavedSizings::save(store(), named("now", 600e3), false);
    const auto [kind, message] = thrown([&] { SavedSizings::save(store(), named("now", 700e3), false); });
    EXPECT_EQ(kind, SavedSizingError::Kind::NameTaken);
    EXPECT_NE(message.find("'now'"), std::string::npos) << message;
    EXPECT_EQ(SavedSizings::find(store(), "now")->inputs.rate, 600e3);
    SavedSizings::save(store(), named("now", 700e3), true);
    EXPECT_EQ(SavedSizings::find(store(), "now")->inputs.rate, 700e3);
    EXPECT_EQ(SavedSizings::list(store()).size(), 1u);

    EXPECT_EQ(thrown([&] { SavedSizings::save(store(), named("  ", 1e3), false); }).first,
              SavedSizingError::Kind::Invalid);
    SavedSizing bad = named("bad", 1e3);
    bad.inputs.replication = 0;
    const auto refused = thrown([&] { SavedSizings::save(store(), bad, false); });
    EXPECT_NE(refused.second.find("replication must be"), std::string::npos) << refused.second;

    const auto unknown = thrown([&] { SavedSizings::remove(store(), "later"); });
    EXPECT_EQ(unknown.first, SavedSizingError::Kind::UnknownName);
    EXPECT_NE(unknown.second.find("'now'"), std::string::npos) << unknown.second; // lists the saved
    SavedSizings::remove(store(), "now");
    EXPECT_TRUE(SavedSizings::list(store()).empty());
}

TEST_P(SavedSizingsTest, ADamagedBodyIsNamedAndLeftAsItIs)
{
    SavedSizings::save(store(), named("later", 700e3), false);
    const std::string damaged = "{\"name\": \"now\", \"version\": 1, \"inputs\": ";
    writeRaw("now", damaged);
    const auto [kind, message] = thrown([&] { SavedSizings::list(store()); });
    EXPECT_EQ(kind, SavedSizingError::Kind::Unreadable);
    EXPECT_NE(message.find(store().path() + ": sizing 'now'"), std::string::npos) << message;
    EXPECT_NE(message.find("plimsoll sizings remove now"), std::string::npos) << "the way out: " << message;
    EXPECT_EQ(thrown([&] { SavedSizings::save(store(), named("now", 600e3), false); }).first,
              SavedSizingError::Kind::NameTaken);
    EXPECT_EQ(rawBody("now"), damaged) << "never overwritten without replace";
    EXPECT_EQ(SavedSizings::find(store(), "later")->inputs.rate, 700e3) << "the others still read";
    SavedSizings::remove(store(), "now");
    EXPECT_EQ(SavedSizings::list(store()).size(), 1u);

    writeRaw("newer", "{\"name\": \"newer\", \"version\": 2}");
    const auto newer = thrown([&] { SavedSizings::find(store(), "newer"); }).second;
    EXPECT_NE(newer.find("newer than this Plimsoll reads"), std::string::npos) << newer;
    EXPECT_NE(newer.find(store().path() + ": sizing 'newer'"), std::string::npos) << newer;
}

// A sizing saved before the consume side existed has none of its fields: it loads with the
// defaults (no consumer groups), and is written back with them.
TEST_P(SavedSizingsTest, ASizingSavedBeforeTheConsumeSideLoadsWithItsDefaults)
{
    const SavedSizing saved = everyFieldSet();
    SavedSizings::save(store(), saved, false);
    auto doc = nlohmann::json::parse(rawBody(saved.name));
    auto &inputs = doc["inputs"];
    for (const char *field : {"consumer_groups", "consume_rate_records_per_s", "consume_from", "tiered_reads",
                              "consume_margin", "fetch_p99_budget_s"})
        ASSERT_EQ(inputs.erase(field), 1u) << field;
    writeRaw(saved.name, doc.dump());

    const auto back = SavedSizings::find(store(), saved.name);
    ASSERT_TRUE(back);
    const SizingInputs defaults;
    EXPECT_EQ(back->inputs.consumerGroups, 0);
    EXPECT_EQ(back->inputs.consumeRate, defaults.consumeRate);
    EXPECT_EQ(back->inputs.consumeFrom, ConsumeFrom::Tail);
    EXPECT_FALSE(back->inputs.tieredReads);
    EXPECT_EQ(back->inputs.consumeMargin, defaults.consumeMargin);
    EXPECT_EQ(back->inputs.fetchP99Budget, defaults.fetchP99Budget);
    EXPECT_EQ(back->inputs.replication, 3); // the rest as saved
    SavedSizings::save(store(), *back, true);
    EXPECT_NE(rawBody(saved.name).find("\"consumer_groups\":0"), std::string::npos) << rawBody(saved.name);
}

// Several people saving one name at the same moment: one is saved, every other is told the name
// is taken, and the one kept is whole.
TEST_P(SavedSizingsTest, WritersRacingForANameGetOneWinner)
{
    constexpr int kWriters = 4;
    std::atomic<int> saved{0}, taken{0}, other{0};
    std::vector<std::thread> writers;
    for (int i = 0; i < kWriters; ++i)
        writers.emplace_back([&, i] {
            try {
                Store own(m_location.location());
                SavedSizings::save(own, named("next year", 1e6 + i), false);
                ++saved;
            } catch (const SavedSizingError &e) {
                ++(e.kind() == SavedSizingError::Kind::NameTaken ? taken : other);
            } catch (const std::exception &) {
                ++other;
            }
        });
    for (std::thread &t : writers)
        t.join();
    EXPECT_EQ(saved.load(), 1);
    EXPECT_EQ(taken.load(), kWriters - 1);
    EXPECT_EQ(other.load(), 0);
    const auto kept = SavedSizings::list(store());
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_GE(kept[0].inputs.rate, 1e6);
    EXPECT_LT(kept[0].inputs.rate, 1e6 + kWriters);
}

TEST_P(SavedSizingsTest, ValuesOutsideTheirDomainsAreRefusedWhenReadBack)
{
    const SavedSizing saved = everyFieldSet();
    SavedSizings::save(store(), saved, false);
    const QByteArray good = QByteArray::fromStdString(
        nlohmann::json::parse(rawBody(saved.name)).dump(2)); // spaced as the edits below are
    struct Edit
    {
        const char *from, *to, *expected;
    };
    const Edit edits[] = {
        {"\"replication\": 3", "\"replication\": 0", "replication must be"},
        {"\"headroom\": 0.2", "\"headroom\": 1.5", "headroom must be"},
        {"\"cpu_limit\": 0.8", "\"cpu_limit\": 2.0", "cpu_limit must be"},
        {"\"broker_model\": \"rule\"", "\"broker_model\": \"guess\"", "broker_model must be"},
        {"\"samples\": \"exclude\"", "\"samples\": \"some\"", "samples must be"},
        {"\"retention_s\": 300.0", "\"retention_s\": \"300\"", "field 'retention_s' is not a number"},
        {"\"since\": \"2026-01-01T00:00:00Z\"", "\"since\": \"soon\"", "'soon' is not an ISO-8601"},
        {"stream:{topic}:{partition}", "stream:{topic}", "must contain {partition}"},
        {"\"consumer_groups\": 3", "\"consumer_groups\": -1", "consumer-groups must be"},
        {"\"consume_from\": \"backlog\"", "\"consume_from\": \"head\"", "consume_from must be tail or backlog"},
        {"\"consume_margin\": 0.25", "\"consume_margin\": 1.5", "consume-margin must be"},
        {"\"consume_from\": \"backlog\"", "\"consume_from\": \"tail\"", "tiered-reads reads a backlog"},
    };
    for (const Edit &e : edits) {
        QByteArray edited = good;
        ASSERT_TRUE(edited.contains(e.from)) << e.from << "\n" << good.toStdString();
        edited.replace(e.from, e.to);
        writeRaw(saved.name, edited.toStdString());
        const auto [kind, message] = thrown([&] { SavedSizings::list(store()); });
        EXPECT_EQ(kind, SavedSizingError::Kind::Unreadable) << e.to;
        EXPECT_NE(message.find(e.expected), std::string::npos) << message;
        EXPECT_NE(message.find("sizing '1.2M next year, Flex'"), std::string::npos) << message;
    }
}

TEST(SavedSizingCompare, NowAndNextYearOnTheSampleStoreSideBySide)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string path = dir.filePath("store.db").toStdString();
    Store store(path);
    store.importSource({"samples", "plimsoll-trend", "sha-s", "test", "1", "2026-01-01T00:00:00Z", true},
                       test::sampleRuns());
    SavedSizings::save(store, named("600k now", 600e3), false);
    SavedSizings::save(store, named("1.2M next year", 1.2e6), false);

    std::vector<std::pair<std::string, SizingResult>> sized;
    for (const std::string name : {"600k now", "1.2M next year"})
        sized.emplace_back(name, sizeSaved(store, *SavedSizings::find(store, name)));
    ASSERT_TRUE(sized[0].second.ok) << sized[0].second.error;
    ASSERT_TRUE(sized[1].second.ok) << sized[1].second.error;
    const SizingComparison c = compareSizings(sized);
    EXPECT_EQ(c.names, (std::vector<std::string>{"600k now", "1.2M next year"}));

    const SizingComparisonRow *brokers = c.row("brokers");
    ASSERT_TRUE(brokers);
    EXPECT_EQ(brokers->label, "Korvet brokers");
    ASSERT_EQ(brokers->values.size(), 2u);
    EXPECT_EQ(brokers->values[0], std::to_string(sized[0].second.brokers));
    EXPECT_EQ(brokers->values[1], std::to_string(sized[1].second.brokers));
    EXPECT_LT(sized[0].second.brokers, sized[1].second.brokers);
    EXPECT_EQ(c.row("rate")->values, (std::vector<std::string>{"600k records/s", "1.2M records/s"}));
    for (const char *key : {"redis_nodes", "shards", "partitions", "memory_total_bytes", "p99", "bottleneck",
                            "broker_model"})
        ASSERT_TRUE(c.row(key)) << key;
    EXPECT_EQ(c.row("shards")->values[1], std::to_string(sized[1].second.shards));
    EXPECT_EQ(c.row("broker_model")->values[0], sized[0].second.brokerChoice.taken);
    // Neither asked for Flex or tiering: no row reads as if they were measured as nothing.
    EXPECT_FALSE(c.row("flex_ram_bytes"));
    EXPECT_FALSE(c.row("offload_streams"));
    EXPECT_FALSE(c.row("error"));

    // With Flex asked in one, the other shows a dash rather than a figure it never had.
    SavedSizing flex = named("flex", 600e3);
    flex.inputs.flex = true;
    sized.emplace_back("flex", sizeSaved(store, flex));
    ASSERT_TRUE(sized[2].second.ok) << sized[2].second.error;
    const SizingComparison withFlex = compareSizings(sized);
    ASSERT_TRUE(withFlex.row("flex_ram_bytes")); // the samples hold a Flex measurement
    EXPECT_EQ(withFlex.row("flex_ram_bytes")->values[0], "—");
    EXPECT_EQ(withFlex.row("flex_ram_bytes")->values[2], sized[2].second.line("flex_ram_bytes")->display);
}

TEST(SavedSizingCompare, ASizingThatFailsSaysWhyInItsColumn)
{
    SizingResult ok;
    ok.ok = true;
    ok.brokers = 3;
    ok.lines.push_back({"brokers", "Korvet brokers", 3, "3", "", {}, EvidenceSource::None, {}});
    ok.brokerChoice.taken = "cpu";
    SizingResult failed;
    failed.error = "no ramp with shard and broker CPU in the store";
    const SizingComparison c = compareSizings({{"a", ok}, {"b", failed}});
    EXPECT_EQ(c.row("brokers")->values, (std::vector<std::string>{"3", "—"}));
    EXPECT_EQ(c.row("broker_model")->values, (std::vector<std::string>{"cpu", "—"}));
    ASSERT_TRUE(c.row("error"));
    EXPECT_EQ(c.row("error")->values[1], failed.error);
}

TEST_P(SavedSizingsTest, ContractChoicesAreSharedFamilyByFamily)
{
    saveContractPolicy(store(), "pipeline/produce/", {"topology.producers", "tuning.linger.ms", "tuning.linger.ms"});
    // Another member, on a Store of their own, changes another family meanwhile.
    Store other(m_location.location());
    saveContractPolicy(other, "archive/", {"compression"});
    const ContractPolicies loaded = loadContractPolicies(store());
    ASSERT_EQ(loaded.policies().size(), 2u) << "neither choice lost the other";
    const ContractPolicy forStep = loaded.forScenario("pipeline/produce/step-16");
    EXPECT_EQ(forStep.family, "pipeline/produce/");
    EXPECT_EQ(forStep.excluded, (std::vector<std::string>{"topology.producers", "tuning.linger.ms"}));
    EXPECT_EQ(loadContractPolicies(other).forScenario("archive/x").excluded, std::vector<std::string>{"compression"});
    saveContractPolicy(other, "pipeline/produce/", {});
    EXPECT_EQ(loadContractPolicies(store()).policies().size(), 1u) << "no exclusions: the choice is forgotten";

    store().putSharedSetting(kContractPolicyKind, "bad/", "{\"not\": \"a list\"}", true);
    try {
        loadContractPolicies(store());
        ADD_FAILURE() << "a damaged choice was read";
    } catch (const StoreError &e) {
        EXPECT_NE(std::string(e.what()).find("family 'bad/'"), std::string::npos) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, SavedSizingsTest,
                         ::testing::Values(test::StoreBackend::SQLite, test::StoreBackend::PostgreSQL),
                         test::backendName);

// The read-only role of a team store browses the saved sizings and contract choices and is told,
// on any change, that the store is read-only for it.
class TeamStoreSettings : public ::testing::TestWithParam<test::StoreBackend>
{
};

TEST_P(TeamStoreSettings, TheReaderIsToldTheStoreIsReadOnly)
{
    test::TestStoreLocation location(GetParam());
    Store writer(location.location());
    SavedSizings::save(writer, named("now", 600e3), false);
    saveContractPolicy(writer, "pipeline/produce/", {"tuning.linger.ms"});
    Store reader(location.readerLocation());
    ASSERT_EQ(SavedSizings::list(reader).size(), 1u);
    EXPECT_EQ(loadContractPolicies(reader).policies().size(), 1u);
    const std::string expected = "this store is read-only for user " + location.reader();
    try {
        SavedSizings::save(reader, named("later", 700e3), false);
        ADD_FAILURE() << "saved as the reader";
    } catch (const SavedSizingError &e) {
        EXPECT_EQ(e.kind(), SavedSizingError::Kind::WriteFailed);
        EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
    try {
        saveContractPolicy(reader, "archive/", {"compression"});
        ADD_FAILURE() << "a contract choice saved as the reader";
    } catch (const StoreError &e) {
        EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
    EXPECT_EQ(SavedSizings::list(writer).size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Backends, TeamStoreSettings, ::testing::Values(test::StoreBackend::PostgreSQL),
                         test::backendName);

// A SQLite store of schema 6 kept its contract choices and saved sizings in files beside it: its
// first open moves both in, once, and renames the files so that nothing reads them again.
TEST(StoreMigration, FilesBesideASQLiteStoreMoveInOnce)
{
    test::TestStoreLocation location(test::StoreBackend::SQLite);
    const std::string path = location.location();
    test::writeStoreAtVersion(location, test::StoreBackend::SQLite, 6, "");
    {
        // As Plimsoll wrote it: one key a family, percent-encoded (QSettings keys hold no '/').
        QSettings ini(QString::fromStdString(path + ".contracts.ini"), QSettings::IniFormat);
        ini.setValue(QStringLiteral("families/") +
                         QString::fromUtf8(QByteArray("pipeline/produce/").toPercentEncoding()),
                     QStringList{QStringLiteral("tuning.linger.ms"), QStringLiteral("topology.producers")});
    }
    const SavedSizing saved = everyFieldSet();
    {
        QFile f(QString::fromStdString(path + ".sizings.json"));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        Store scratch(location.dir().filePath("scratch.db").toStdString());
        SavedSizings::save(scratch, saved, false);
        nlohmann::json body = nlohmann::json::parse(*scratch.sharedSetting(kSavedSizingKind, saved.name));
        body.erase("version");
        f.write(nlohmann::json{{"format", "plimsoll-saved-sizings"}, {"version", 1}, {"sizings", nlohmann::json::array({body})}}
                    .dump(2)
                    .c_str());
    }
    {
        Store store(path);
        EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
        EXPECT_EQ(loadContractPolicies(store).forScenario("pipeline/produce/step-4").excluded,
                  (std::vector<std::string>{"topology.producers", "tuning.linger.ms"}));
        ASSERT_EQ(SavedSizings::list(store).size(), 1u);
        EXPECT_EQ(SavedSizings::list(store)[0], saved);
    }
    for (const char *file : {".contracts.ini", ".sizings.json"}) {
        EXPECT_FALSE(QFile::exists(QString::fromStdString(path + file))) << file;
        EXPECT_TRUE(QFile::exists(QString::fromStdString(path + file + ".migrated"))) << file;
    }
    Store again(path);
    EXPECT_EQ(SavedSizings::list(again).size(), 1u);
}

// A sizings file the migration cannot read is named, and the store is left at its version with
// the file as it was, until the user fixes it or moves it aside.
TEST(StoreMigration, AnUnreadableSizingsFileStopsTheMoveAndIsNamed)
{
    test::TestStoreLocation location(test::StoreBackend::SQLite);
    const std::string path = location.location();
    test::writeStoreAtVersion(location, test::StoreBackend::SQLite, 6, "");
    const QByteArray damaged = "{\"format\": \"plimsoll-saved-sizings\", \"version\": 1, \"sizings\": [";
    {
        QFile f(QString::fromStdString(path + ".sizings.json"));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(damaged);
    }
    try {
        Store store(path);
        ADD_FAILURE() << "opened past an unreadable sizings file";
    } catch (const StoreError &e) {
        EXPECT_NE(std::string(e.what()).find(path + ".sizings.json"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("move it aside"), std::string::npos) << e.what();
    }
    EXPECT_EQ(location.queryInt("PRAGMA user_version"), 6);
    QFile f(QString::fromStdString(path + ".sizings.json"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_EQ(f.readAll(), damaged);
    f.close();
    ASSERT_TRUE(QFile::rename(f.fileName(), f.fileName() + ".aside"));
    Store store(path);
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
    EXPECT_TRUE(SavedSizings::list(store).empty());
}
