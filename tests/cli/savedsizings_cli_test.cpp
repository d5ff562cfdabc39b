// End to end: `plimsoll size --save`, `plimsoll sizings`, `sizings compare` and `sizings remove`
// on the real executable over the bundled sample runs — what is saved sizes again to what
// `size` printed, names are not taken twice, unknown names are named with the saved ones.
#include "model/store/store.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace {

struct Result
{
    int exitCode = -1;
    std::string out;
    std::string err;
    nlohmann::json json() const { return nlohmann::json::parse(out); }
};

class SavedSizingsCli : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        const Result r = plimsoll({"samples", "install"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    Result plimsoll(QStringList args)
    {
        args.prepend(store());
        args.prepend("--db");
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(e);
        p.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(p.waitForFinished(60000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
    }
    QString store() const { return m_dir.filePath("store.db"); }
    QTemporaryDir m_dir;
};

const nlohmann::json &rowOf(const nlohmann::json &comparison, const std::string &key)
{
    for (const auto &row : comparison["rows"])
        if (row["key"] == key)
            return row;
    static const nlohmann::json none;
    ADD_FAILURE() << "no row " << key << " in " << comparison.dump();
    return none;
}

} // namespace

TEST_F(SavedSizingsCli, SaveListCompareRemove)
{
    const Result now = plimsoll({"size", "--rate", "600k", "--save", "600k now", "--json"});
    ASSERT_EQ(now.exitCode, 0) << now.err;
    EXPECT_EQ(now.json()["saved"]["name"], "600k now");
    EXPECT_EQ(now.json()["saved"]["store"], store().toStdString());
    EXPECT_FALSE(QFile::exists(store() + ".sizings.json")) << "kept in the store, not beside it";
    const Result later = plimsoll({"size", "--rate", "1.2M", "--broker-model", "rule", "--headroom", "20%",
                                   "--samples", "include", "--save", "1.2M next year"});
    ASSERT_EQ(later.exitCode, 0) << later.err;
    EXPECT_NE(later.out.find("Saved as '1.2M next year'"), std::string::npos) << later.out;

    const Result list = plimsoll({"sizings"});
    ASSERT_EQ(list.exitCode, 0) << list.err;
    EXPECT_NE(list.out.find("600k now"), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("1.2M records/s"), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("sample runs included"), std::string::npos) << list.out;

    // Each column is what `size` gives for the same inputs.
    const auto direct = plimsoll({"size", "--rate", "1.2M", "--broker-model", "rule", "--headroom", "20%",
                                  "--samples", "include", "--json"})
                            .json();
    const Result compare = plimsoll({"sizings", "compare", "600k now", "1.2M next year", "--json"});
    ASSERT_EQ(compare.exitCode, 0) << compare.err;
    const auto c = compare.json();
    EXPECT_EQ(c["names"], (nlohmann::json{"600k now", "1.2M next year"}));
    const auto &brokers = rowOf(c, "brokers")["values"];
    EXPECT_EQ(brokers[0], std::to_string(now.json()["brokers"].get<int>()));
    EXPECT_EQ(brokers[1], std::to_string(direct["brokers"].get<int>()));
    EXPECT_NE(brokers[0], brokers[1]);
    EXPECT_EQ(rowOf(c, "broker_model")["values"][1], "rule");
    EXPECT_EQ(c["sizings"][1]["shards"], direct["shards"]);
    EXPECT_EQ(c["sizings"][1]["partitions"], direct["partitions"]);
    EXPECT_EQ(c["sizings"][1]["memory_total_bytes"], direct["memory_total_bytes"]);

    const Result table = plimsoll({"sizings", "compare", "600k now", "1.2M next year"});
    ASSERT_EQ(table.exitCode, 0) << table.err;
    const std::string header = table.out.substr(0, table.out.find('\n'));
    EXPECT_NE(header.find("600k now"), std::string::npos) << table.out;
    EXPECT_NE(header.find("1.2M next year"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("Korvet brokers"), std::string::npos) << table.out;

    const Result removed = plimsoll({"sizings", "remove", "600k now"});
    ASSERT_EQ(removed.exitCode, 0) << removed.err;
    const auto left = plimsoll({"sizings", "--json"}).json();
    ASSERT_EQ(left["sizings"].size(), 1u);
    EXPECT_EQ(left["sizings"][0]["name"], "1.2M next year");
}

TEST_F(SavedSizingsCli, ANameIsTakenOnceUnlessReplaced)
{
    ASSERT_EQ(plimsoll({"size", "--rate", "600k", "--save", "plan"}).exitCode, 0);
    const Result again = plimsoll({"size", "--rate", "700k", "--save", "plan"});
    EXPECT_EQ(again.exitCode, 2);
    EXPECT_NE(again.err.find("'plan'"), std::string::npos) << again.err;
    EXPECT_NE(again.err.find("--replace"), std::string::npos) << again.err;
    EXPECT_TRUE(again.out.empty()) << again.out; // refused before sizing, nothing half done
    EXPECT_EQ(plimsoll({"sizings", "--json"}).json()["sizings"][0]["rate"], 600000.0);

    ASSERT_EQ(plimsoll({"size", "--rate", "700k", "--save", "plan", "--replace"}).exitCode, 0);
    EXPECT_EQ(plimsoll({"sizings", "--json"}).json()["sizings"][0]["rate"], 700000.0);

    const Result orphan = plimsoll({"size", "--rate", "700k", "--replace"});
    EXPECT_EQ(orphan.exitCode, 2);
    EXPECT_NE(orphan.err.find("--save"), std::string::npos) << orphan.err;
    // A sizing that fails is not saved.
    const Result failed = plimsoll({"size", "--rate", "600k", "--run", "no-such-run", "--save", "broken"});
    EXPECT_NE(failed.exitCode, 0);
    EXPECT_EQ(plimsoll({"sizings", "--json"}).json()["sizings"].size(), 1u);
}

TEST_F(SavedSizingsCli, UnknownNamesAreNamedWithTheSavedOnes)
{
    ASSERT_EQ(plimsoll({"size", "--rate", "600k", "--save", "now"}).exitCode, 0);
    const Result compare = plimsoll({"sizings", "compare", "now", "later"});
    EXPECT_EQ(compare.exitCode, 2);
    EXPECT_NE(compare.err.find("'later'"), std::string::npos) << compare.err;
    EXPECT_NE(compare.err.find("saved: 'now'"), std::string::npos) << compare.err;
    const Result one = plimsoll({"sizings", "compare", "now"});
    EXPECT_EQ(one.exitCode, 2);
    EXPECT_NE(one.err.find("two or more"), std::string::npos) << one.err;
    const Result remove = plimsoll({"sizings", "remove", "later"});
    EXPECT_EQ(remove.exitCode, 2);
    EXPECT_NE(remove.err.find("'later'"), std::string::npos) << remove.err;
    EXPECT_NE(remove.err.find("'now'"), std::string::npos) << remove.err;
}

TEST_F(SavedSizingsCli, ADamagedSizingIsNamedAndCanBeRemoved)
{
    ASSERT_EQ(plimsoll({"size", "--rate", "600k", "--save", "later"}).exitCode, 0);
    plimsoll::Store(store().toStdString()).putSharedSetting(plimsoll::kSavedSizingKind, "now", "{ not json", true);
    const Result list = plimsoll({"sizings"});
    EXPECT_EQ(list.exitCode, 1);
    EXPECT_NE(list.err.find(store().toStdString() + ": sizing 'now'"), std::string::npos) << list.err;
    EXPECT_NE(list.err.find("`plimsoll sizings remove now` forgets it"), std::string::npos) << list.err;
    const Result save = plimsoll({"size", "--rate", "700k", "--save", "now"});
    EXPECT_EQ(save.exitCode, 1) << "not saved over a sizing it cannot read";
    EXPECT_EQ(plimsoll::Store(store().toStdString()).sharedSetting(plimsoll::kSavedSizingKind, "now"),
              std::optional<std::string>("{ not json"));
    const Result remove = plimsoll({"sizings", "remove", "now"});
    EXPECT_EQ(remove.exitCode, 0) << remove.err;
    const Result after = plimsoll({"sizings", "--json"});
    ASSERT_EQ(after.exitCode, 0) << after.err;
    ASSERT_EQ(after.json()["sizings"].size(), 1u);
    EXPECT_EQ(after.json()["sizings"][0]["name"], "later");
}
