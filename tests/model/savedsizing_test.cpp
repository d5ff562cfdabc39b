// Saved sizings beside the store: every input and the run selection come back as saved, a
// damaged or newer file is refused by name and left as it is, a name is not taken twice unless
// replaced, and two sizings of the sample store compare component by component.
#include "model/store/savedsizing.h"
#include "model/store/store.h"
#include "sampleruns.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

using namespace plimsoll;

namespace {

class SavedSizingsTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_store = m_dir.filePath("store.db").toStdString();
    }
    void writeRaw(const QByteArray &bytes)
    {
        QFile f(QString::fromStdString(SavedSizings::pathFor(m_store)));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    QByteArray readRaw() const
    {
        QFile f(QString::fromStdString(SavedSizings::pathFor(m_store)));
        EXPECT_TRUE(f.open(QIODevice::ReadOnly));
        return f.readAll();
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
    QTemporaryDir m_dir;
    std::string m_store;
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

TEST_F(SavedSizingsTest, EveryFieldRoundTrips)
{
    const SavedSizing saved = everyFieldSet();
    SavedSizings::save(m_store, saved, false);
    SavedSizing bytes;
    bytes.name = "40 MB/s, samples included";
    bytes.inputs.rate = 0;
    bytes.inputs.bytesPerS = 40.0 * 1024 * 1024;
    bytes.inputs.recordBytes = 1.0 / 3 * 2100; // not a short decimal: read back bit for bit
    bytes.evidence.samples = SampleRuns::Include;
    SavedSizings::save(m_store, bytes, false);

    const auto back = SavedSizings::find(m_store, saved.name);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, saved);
    EXPECT_EQ(back->modelOptions().cpuLimit, 0.8);
    EXPECT_EQ(back->modelOptions().saturation.cpuLimit, 0.8);
    const auto backBytes = SavedSizings::find(m_store, bytes.name);
    ASSERT_TRUE(backBytes);
    EXPECT_EQ(backBytes->inputs, bytes.inputs);
    EXPECT_EQ(backBytes->evidence, bytes.evidence);
    EXPECT_EQ(backBytes->rateText(), "40MB/s");
    // savedAt is set on save when not given: now, in UTC.
    EXPECT_EQ(backBytes->savedAt.size(), 20u) << backBytes->savedAt;
    EXPECT_EQ(backBytes->savedAt.back(), 'Z');

    EXPECT_EQ(named("x", 600e3).rateText(), "600k records/s");
    EXPECT_EQ(named("x", 650).rateText(), "650 records/s");

    const auto all = SavedSizings::list(m_store);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].name, saved.name); // sorted by name
    EXPECT_EQ(all[0].rateText(), "1.2M records/s");
    EXPECT_EQ(all[1].name, bytes.name);
    EXPECT_FALSE(SavedSizings::find(m_store, "nope"));
}

TEST_F(SavedSizingsTest, ANameIsRefusedUnlessReplaced)
{
    SavedSizings::save(m_store, named("now", 600e3), false);
    const auto [kind, message] = thrown([&] { SavedSizings::save(m_store, named("now", 700e3), false); });
    EXPECT_EQ(kind, SavedSizingError::Kind::NameTaken);
    EXPECT_NE(message.find("'now'"), std::string::npos) << message;
    EXPECT_EQ(SavedSizings::find(m_store, "now")->inputs.rate, 600e3);
    SavedSizings::save(m_store, named("now", 700e3), true);
    EXPECT_EQ(SavedSizings::find(m_store, "now")->inputs.rate, 700e3);
    EXPECT_EQ(SavedSizings::list(m_store).size(), 1u);

    EXPECT_EQ(thrown([&] { SavedSizings::save(m_store, named("  ", 1e3), false); }).first,
              SavedSizingError::Kind::Invalid);
    SavedSizing bad = named("bad", 1e3);
    bad.inputs.replication = 0;
    const auto refused = thrown([&] { SavedSizings::save(m_store, bad, false); });
    EXPECT_NE(refused.second.find("replication must be"), std::string::npos) << refused.second;

    const auto unknown = thrown([&] { SavedSizings::remove(m_store, "later"); });
    EXPECT_EQ(unknown.first, SavedSizingError::Kind::UnknownName);
    EXPECT_NE(unknown.second.find("'now'"), std::string::npos) << unknown.second; // lists the saved
    SavedSizings::remove(m_store, "now");
    EXPECT_TRUE(SavedSizings::list(m_store).empty());
}

TEST_F(SavedSizingsTest, ADamagedFileIsNamedAndNeverOverwritten)
{
    const std::string file = SavedSizings::pathFor(m_store);
    EXPECT_EQ(file, m_store + ".sizings.json");
    const QByteArray damaged = "{\"format\": \"plimsoll-saved-sizings\", \"version\": 1, \"sizings\": [";
    writeRaw(damaged);
    const auto [kind, message] = thrown([&] { SavedSizings::list(m_store); });
    EXPECT_EQ(kind, SavedSizingError::Kind::Unreadable);
    EXPECT_NE(message.find(file), std::string::npos) << message;
    EXPECT_EQ(thrown([&] { SavedSizings::save(m_store, named("now", 600e3), false); }).first,
              SavedSizingError::Kind::Unreadable);
    EXPECT_EQ(thrown([&] { SavedSizings::remove(m_store, "now"); }).first, SavedSizingError::Kind::Unreadable);
    EXPECT_EQ(readRaw(), damaged);

    writeRaw("{\"format\": \"plimsoll-saved-sizings\", \"version\": 2, \"sizings\": []}");
    const auto newer = thrown([&] { SavedSizings::list(m_store); }).second;
    EXPECT_NE(newer.find("newer"), std::string::npos) << newer;
    EXPECT_NE(newer.find(file), std::string::npos) << newer;
}

// A sizing saved before the consume side existed has none of its fields: it loads with the
// defaults (no consumer groups), and is written back with them.
TEST_F(SavedSizingsTest, ASizingSavedBeforeTheConsumeSideLoadsWithItsDefaults)
{
    SavedSizings::save(m_store, everyFieldSet(), false);
    auto doc = nlohmann::json::parse(readRaw().toStdString());
    auto &inputs = doc["sizings"][0]["inputs"];
    for (const char *field : {"consumer_groups", "consume_rate_records_per_s", "consume_from", "tiered_reads",
                              "consume_margin", "fetch_p99_budget_s"})
        ASSERT_EQ(inputs.erase(field), 1u) << field;
    writeRaw(QByteArray::fromStdString(doc.dump(2)));

    const auto back = SavedSizings::find(m_store, "1.2M next year, Flex");
    ASSERT_TRUE(back);
    const SizingInputs defaults;
    EXPECT_EQ(back->inputs.consumerGroups, 0);
    EXPECT_EQ(back->inputs.consumeRate, defaults.consumeRate);
    EXPECT_EQ(back->inputs.consumeFrom, ConsumeFrom::Tail);
    EXPECT_FALSE(back->inputs.tieredReads);
    EXPECT_EQ(back->inputs.consumeMargin, defaults.consumeMargin);
    EXPECT_EQ(back->inputs.fetchP99Budget, defaults.fetchP99Budget);
    EXPECT_EQ(back->inputs.replication, 3); // the rest as saved
    SavedSizings::save(m_store, *back, true);
    EXPECT_TRUE(readRaw().contains("\"consumer_groups\": 0")) << readRaw().toStdString();
}

TEST_F(SavedSizingsTest, ValuesOutsideTheirDomainsAreRefusedWhenReadBack)
{
    SavedSizings::save(m_store, everyFieldSet(), false);
    const QByteArray good = readRaw();
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
        writeRaw(edited);
        const auto [kind, message] = thrown([&] { SavedSizings::list(m_store); });
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
    SavedSizings::save(path, named("600k now", 600e3), false);
    SavedSizings::save(path, named("1.2M next year", 1.2e6), false);

    std::vector<std::pair<std::string, SizingResult>> sized;
    for (const std::string name : {"600k now", "1.2M next year"})
        sized.emplace_back(name, sizeSaved(store, *SavedSizings::find(path, name)));
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
    ok.lines.push_back({"brokers", "Korvet brokers", 3, "3", "", {}});
    ok.brokerChoice.taken = "cpu";
    SizingResult failed;
    failed.error = "no ramp with shard and broker CPU in the store";
    const SizingComparison c = compareSizings({{"a", ok}, {"b", failed}});
    EXPECT_EQ(c.row("brokers")->values, (std::vector<std::string>{"3", "—"}));
    EXPECT_EQ(c.row("broker_model")->values, (std::vector<std::string>{"cpu", "—"}));
    ASSERT_TRUE(c.row("error"));
    EXPECT_EQ(c.row("error")->values[1], failed.error);
}

// A team store keeps no saved sizings or contract choices yet: nothing is written to a path
// made from its URI, and saving says where they are kept instead.
TEST(TeamStoreSidecars, SavedSizingsAndContractChoicesAreRefusedNotWrittenBesideAUri)
{
    const std::string uri = "postgresql://plimsoll@127.0.0.1:5432/plimsoll";
    EXPECT_TRUE(SavedSizings::list(uri).empty());
    SavedSizing s;
    s.name = "next-year";
    s.inputs.rate = 600000;
    try {
        SavedSizings::save(uri, s, false);
        ADD_FAILURE() << "saved beside a URI";
    } catch (const SavedSizingError &e) {
        EXPECT_NE(std::string(e.what()).find("a team store keeps no saved sizings yet"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(ContractPolicies::load(uri).policies().empty());
    ContractPolicies p;
    p.set("pipeline/produce/", {"tuning.window"});
    EXPECT_FALSE(p.save(uri));
    EXPECT_NE(ContractPolicies::cannotSaveReason(uri).find("a team store keeps no contract choices yet"),
              std::string::npos);
    EXPECT_EQ(ContractPolicies::settingsPathFor(uri), "");
    EXPECT_EQ(ContractPolicies::cannotSaveReason("/tmp/s.db"), "cannot write /tmp/s.db.contracts.ini");
}
