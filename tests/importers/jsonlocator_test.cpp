#include "importers/importer.h"
#include "importers/jsonlocator.h"

#include <gtest/gtest.h>

using namespace plimsoll;

namespace {
const std::string kText = "{\n"
                          "  \"a\": 1,\n"
                          "  \"list\": [\n"
                          "    {\"x\": \"s\\\"q\"},\n"
                          "    {\"y/z\": [true, null]}\n"
                          "  ],\n"
                          "  \"esc\\u00e9\": {}\n"
                          "}\n";
}

TEST(JsonLocator, FindsValueLines)
{
    const JsonLocator loc(kText);
    EXPECT_EQ(loc.locate("").line, 1);
    EXPECT_EQ(loc.locate("/a").line, 2);
    EXPECT_EQ(loc.locate("/a").column, 8);
    EXPECT_EQ(loc.locate("/list").line, 3);
    EXPECT_EQ(loc.locate("/list/0/x").line, 4);
    EXPECT_EQ(loc.locate("/list/1").line, 5);
    EXPECT_EQ(loc.locate(JsonLocator::pointer({"list", "1", "y/z", "1"})).line, 5);
    EXPECT_EQ(loc.locate(JsonLocator::pointer({"esc\xc3\xa9"})).line, 7);
    EXPECT_EQ(kText.substr(size_t(loc.locate("/a").offset), 1), "1");
}

TEST(JsonLocator, MissingFieldFallsBackToItsParent)
{
    const JsonLocator loc(kText);
    EXPECT_FALSE(loc.contains("/list/0/missing"));
    EXPECT_EQ(loc.locate("/list/0/missing").line, 4);
    EXPECT_EQ(loc.locate("/nothing").line, 1);
}

TEST(JsonLocator, FragmentPositionsAreFileRelative)
{
    const std::string line = R"({"metrics": {"records_per_s": "fast"}})";
    const JsonLocator loc(line, 7, 1000);
    const JsonPosition p = loc.locate("/metrics/records_per_s");
    EXPECT_EQ(p.line, 7);
    EXPECT_EQ(p.column, 31);
    EXPECT_EQ(p.offset, 1030);
}

TEST(JsonLocator, FieldNameDropsPointerSyntax)
{
    EXPECT_EQ(JsonLocator::fieldName("/scenarios/0/avgLatencyMs"), "scenarios/0/avgLatencyMs");
    EXPECT_EQ(JsonLocator::fieldName(JsonLocator::pointer({"a/b", "c~d"})), "a/b/c~d");
}

TEST(JsonLocator, ParseErrorOffsetBecomesALine)
{
    const std::string text = "{\n  \"a\": 1,\n  \"b\": tru\n}\n";
    try {
        const auto parsed = nlohmann::json::parse(text);
        FAIL() << "parsed " << parsed.dump();
    } catch (const nlohmann::json::parse_error &e) {
        EXPECT_EQ(JsonLocator(text).positionOf(int64_t(e.byte) - 1).line, 3);
        EXPECT_EQ(jsonParseErrorDetail(e).find("[json.exception"), std::string::npos);
    }
}

TEST(JsonLocator, SurvivesBrokenText)
{
    for (const char *text :
         {"{\"a\": [1, 2", "[:]", "{\"a\" }", "{\"a\": \"unterminated", "[,]", "{"}) {
        const JsonLocator loc(text);
        EXPECT_EQ(loc.locate("/a/0").line, 1) << text;
    }
}

TEST(ImportError, DescribeOmitsMissingParts)
{
    EXPECT_EQ((ImportError{"is not an ISO-8601 time", 12, 340, "timestamp"}.describe("runs.json")),
              "runs.json: line 12: field 'timestamp': is not an ISO-8601 time");
    EXPECT_EQ((ImportError{"is not valid JSON", 0, 77, {}}.describe("runs.json")),
              "runs.json: byte 77: is not valid JSON");
    EXPECT_EQ((ImportError{"cannot open it", 0, -1, {}}.describe("")), "cannot open it");
}
