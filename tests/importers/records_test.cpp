#include "model/core/records.h"

#include <gtest/gtest.h>

#include <regex>

using namespace plimsoll;

TEST(NormalizeTimestamp, UtcWithoutFractionStaysAsWritten)
{
    EXPECT_EQ(normalizeTimestamp("2026-03-30T17:30:00Z"), "2026-03-30T17:30:00Z");
}

TEST(NormalizeTimestamp, OffsetsAreConvertedToUtc)
{
    EXPECT_EQ(normalizeTimestamp("2026-03-30T19:30:00+02:00"), "2026-03-30T17:30:00Z");
    EXPECT_EQ(normalizeTimestamp("2026-03-30T23:30:00-0100"), "2026-03-31T00:30:00Z");
    EXPECT_EQ(normalizeTimestamp("2026-01-01T00:30:00+05"), "2025-12-31T19:30:00Z");
}

TEST(NormalizeTimestamp, MillisecondsOnlyWhenNonZero)
{
    EXPECT_EQ(normalizeTimestamp("2026-03-30T17:30:00.250Z"), "2026-03-30T17:30:00.250Z");
    EXPECT_EQ(normalizeTimestamp("2026-03-30T17:30:00.000Z"), "2026-03-30T17:30:00Z");
    EXPECT_EQ(normalizeTimestamp("2026-03-30T17:30:00.5Z"), "2026-03-30T17:30:00.500Z");
    // Finer fractions are truncated to the millisecond, never rounded into the next second.
    EXPECT_EQ(normalizeTimestamp("2026-03-30T17:30:59.999999Z"), "2026-03-30T17:30:59.999Z");
}

TEST(NormalizeTimestamp, TimeWithoutZoneIsReadAsUtc)
{
    EXPECT_EQ(normalizeTimestamp("2026-03-30T17:30:00"), "2026-03-30T17:30:00Z");
    EXPECT_EQ(normalizeTimestamp("2026-03-30 17:30"), "2026-03-30T17:30:00Z");
}

TEST(NormalizeTimestamp, RefusesWhatIsNotADateTime)
{
    for (const char *bad :
         {"", "yesterday", "2026-03-30", "30/03/2026 17:30", "2026-02-30T00:00:00Z",
          "2026-03-30T25:00:00Z", "2026-03-30T17:30:00+25:00", "2026-03-30T17:30:00Z trailing",
          "1711819800"})
        EXPECT_FALSE(normalizeTimestamp(bad).has_value()) << bad;
}

TEST(NowTimestamp, IsNormalizedUtc)
{
    const std::string now = nowTimestamp();
    EXPECT_TRUE(std::regex_match(now, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z)")))
        << now;
    EXPECT_EQ(normalizeTimestamp(now), now);
}

TEST(Topology, FactorsByCatalogName)
{
    Topology t;
    EXPECT_TRUE(t.setFactor("record_size_bytes", 1024));
    EXPECT_TRUE(t.setFactor("shards", 16));
    EXPECT_FALSE(t.setFactor("nodes", 3));
    EXPECT_EQ(t.recordSizeBytes, 1024);
    EXPECT_EQ(t.factor("shards"), 16);
    EXPECT_EQ(t.factor("brokers"), std::nullopt);
    EXPECT_EQ(t.factor("compression"), std::nullopt);
}

TEST(Topology, JsonRoundTripUsesSchemaKeys)
{
    Topology t;
    t.brokers = 3;
    t.partitions = 64;
    t.recordSizeBytes = 1024;
    t.batchBytes = 16384;
    t.compression = "lz4";
    t.acks = "all";
    t.inferred = {"partitions"};
    const nlohmann::json j = t.toJson();
    EXPECT_EQ(j, nlohmann::json::parse(R"({"brokers":3,"partitions":64,"record_size_bytes":1024,
        "batch_bytes":16384,"compression":"lz4","acks":"all","inferred":["partitions"]})"));
    EXPECT_EQ(Topology::fromJson(j), t);
    EXPECT_EQ(Topology().toJson(), nlohmann::json::object());
}

TEST(Topology, FromJsonNamesTheOffendingKey)
{
    auto messageFor = [](const char *text) -> std::string {
        try {
            Topology::fromJson(nlohmann::json::parse(text));
        } catch (const std::invalid_argument &e) {
            return e.what();
        }
        return "accepted";
    };
    EXPECT_NE(messageFor(R"({"nodes": 3})").find("'nodes'"), std::string::npos);
    EXPECT_NE(messageFor(R"({"brokers": 2.5})").find("'brokers'"), std::string::npos);
    EXPECT_NE(messageFor(R"({"shards": -1})").find("'shards'"), std::string::npos);
    EXPECT_NE(messageFor(R"({"partitions": "64"})").find("'partitions'"), std::string::npos);
    EXPECT_NE(messageFor(R"({"acks": 1})").find("'acks'"), std::string::npos);
    EXPECT_EQ(messageFor(R"({"brokers": 2.0})"), "accepted");
}

TEST(ScenarioRecord, MetricByName)
{
    ScenarioRecord s;
    s.metrics = {{"records_per_s", 400}, {"latency_avg_s", 0.25}};
    EXPECT_EQ(s.metric("latency_avg_s"), 0.25);
    EXPECT_EQ(s.metric("latency_p99_s"), std::nullopt);
}
