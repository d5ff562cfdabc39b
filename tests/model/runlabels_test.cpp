// A run's name and tags in the store, on both backends: a store of schema 12 takes them after its
// migration; they are found by the Library's search and its Name order, read back by every read of
// runs, and a write of them is seen by the window's probe of the store (changeToken).
#include "model/store/runlabels.h"
#include "model/store/store.h"
#include "storetestsupport.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::storetest;

namespace {

class RunLabelsStore : public StoreTest
{
};

std::vector<std::string> keysOf(const std::vector<RunSummary> &runs)
{
    std::vector<std::string> keys;
    for (const RunSummary &r : runs)
        keys.push_back(r.runKey);
    return keys;
}

} // namespace

TEST_P(RunLabelsStore, AVersionTwelveStoreTakesNamesAndTagsAfterItsMigration)
{
    test::writeStoreAtVersion(
        location, GetParam(), 12,
        "INSERT INTO sources (id, uri, format, sha256, importer, importer_version, imported_at) "
        "VALUES (1,'/results/redis/clients_50.csv','redis-benchmark','x','i','1','2026-01-01T00:00:00Z');"
        "INSERT INTO runs (id, source_id, run_key, timestamp, tool, scenario_count) VALUES "
        "(1,1,'redis-benchmark:aa','2026-01-01T00:00:00Z','redis-benchmark',0),"
        "(2,1,'redis-benchmark:bb','2026-01-02T00:00:00Z','redis-benchmark',0);");
    Store store(path());
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
    ASSERT_TRUE(store.run("redis-benchmark:aa"));
    EXPECT_EQ(store.run("redis-benchmark:aa")->summary.name, "");

    const std::string before = store.changeToken();
    RunLabelRequest request;
    request.run = "redis-benchmark:bb";
    request.name = "Fifty Clients";
    request.addTags = {"sweep", "c50", "sweep"};
    const RunLabelOutcome outcome = applyRunLabels(store, request);
    EXPECT_EQ(outcome.run.name, "Fifty Clients");
    EXPECT_EQ(outcome.run.tags, (std::vector<std::string>{"c50", "sweep"}));
    EXPECT_EQ(outcome.notes, std::vector<std::string>{"'sweep' was already one of its tags"});
    EXPECT_NE(store.changeToken(), before) << "a window's probe must see a rename";

    // Read back by every read of runs.
    const auto detail = store.run("redis-benchmark:bb");
    ASSERT_TRUE(detail);
    EXPECT_EQ(detail->record.name, "Fifty Clients");
    EXPECT_EQ(detail->record.tags, (std::vector<std::string>{"c50", "sweep"}));
    std::vector<RunRecord> all;
    store.forEachRun({}, [&](int64_t, RunRecord &&r) { all.push_back(std::move(r)); });
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[1].name, "Fifty Clients");
    EXPECT_EQ(all[1].tags, detail->record.tags);
    EXPECT_EQ(findRun(store, "fifty CLIENTS").runKey, "redis-benchmark:bb");

    // Search: by name, tag and the source's file name and folder, in any case.
    for (const char *text : {"fifty", "C50", "clients_50", "/RESULTS/redis"}) {
        RunFilter filter;
        filter.textContains = text;
        EXPECT_EQ(keysOf(store.runs(filter)).size(), std::string(text) == "fifty" || std::string(text) == "C50" ? 1u : 2u)
            << text;
    }
    // The Library's Name order, a page at a time: unnamed runs first (ascending), then by name.
    RunPage page;
    page.order = RunPage::Order::Name;
    page.limit = 1;
    const auto first = store.runs({}, page);
    ASSERT_EQ(keysOf(first), std::vector<std::string>{"redis-benchmark:aa"});
    page.after = first.front();
    EXPECT_EQ(keysOf(store.runs({}, page)), std::vector<std::string>{"redis-benchmark:bb"});

    // A name one run has addresses it; once two runs have it, neither, and both are listed.
    request = {};
    request.run = "redis-benchmark:aa";
    request.name = "fifty clients";
    applyRunLabels(store, request);
    try {
        findRun(store, "Fifty Clients");
        FAIL() << "an ambiguous name addressed a run";
    } catch (const RunAddressError &e) {
        EXPECT_EQ(e.candidates().size(), 2u);
        EXPECT_NE(std::string(e.what()).find("2 runs are named 'Fifty Clients'"), std::string::npos) << e.what();
    }
}

TEST_P(RunLabelsStore, ARefusedLabelWritesNothing)
{
    Store store(path());
    store.importSource(makeSource("/r.jsonl", "sha-r"), {makeRun("r1", "2026-01-01T00:00:00Z", 1000)});
    const std::string before = store.changeToken();
    const auto refused = [&](RunLabelRequest request, const std::string &says) {
        request.run = "r1";
        try {
            applyRunLabels(store, request);
            ADD_FAILURE() << "accepted; expected: " << says;
        } catch (const RunLabelError &e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    };
    RunLabelRequest name;
    name.name = std::string("nul\0inside", 10);
    refused(name, "name holds the control character U+0000 at character 4");
    RunLabelRequest tags;
    for (int i = 0; i < 33; ++i)
        tags.addTags.push_back("t" + std::to_string(i));
    refused(tags, "a run has at most 32 tags (this one would have 33)");
    RunLabelRequest nothing;
    refused(nothing, "nothing to change");
    EXPECT_EQ(store.changeToken(), before);
    EXPECT_EQ(store.run("r1")->summary.name, "");
    EXPECT_TRUE(store.run("r1")->summary.tags.empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, RunLabelsStore,
                         ::testing::Values(test::StoreBackend::SQLite, test::StoreBackend::PostgreSQL),
                         test::backendName);
